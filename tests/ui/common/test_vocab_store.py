"""The server's store of vocabularies users made: one id per vocabulary, bounded, with notes."""

from pathlib import Path

import pytest

import tokenizer as tk
from tokenizer.normalize import Normalizer
from ui.common.vocab_store import (
    Stored,
    VocabStore,
    content_id,
    estimate_bytes,
    looks_like_id,
)

TEXT = Path(__file__).read_text(encoding="utf-8")  # enough pairs for 600 ids


@pytest.fixture(scope="module")
def enc() -> tk.Encoding:
    return tk.train(TEXT, 300, name="cats")


def test_the_id_is_the_content_and_the_name(enc: tk.Encoding) -> None:
    again = tk.train(TEXT, 300, name="cats")
    assert content_id(again) == content_id(enc)  # equal vocabularies, one id
    assert looks_like_id(content_id(enc)) and not looks_like_id("cats")
    others = [
        tk.train(TEXT, 300, name="dogs"),  # another name
        tk.train(TEXT, 301, name="cats"),  # another merge
        tk.train(TEXT, 300, name="cats", pattern="cl100k_base"),  # another pattern
        tk.train(TEXT, 300, name="cats", special_tokens=("<|y|>",)),  # other specials
    ]
    assert len({content_id(o) for o in others} | {content_id(enc)}) == 5
    normalised = tk.Encoding.from_merges(
        name="cats",
        pattern=enc.pattern,
        merges=enc.merges,
        special_tokens=enc.special_tokens,
        normalizer=Normalizer(nfc=True),
    )
    plain = tk.Encoding.from_merges(
        name="cats", pattern=enc.pattern, merges=enc.merges, special_tokens=enc.special_tokens
    )
    assert content_id(normalised) != content_id(plain)  # NFC encodes differently


def test_the_store_is_bounded_by_bytes_and_remembers_what_it_dropped() -> None:
    vocabularies = [tk.train(TEXT, 300, name=f"v{n}") for n in range(4)]
    each = estimate_bytes(vocabularies[0])
    store = VocabStore(max_bytes=int(each * 2.5), max_gone=1)
    ids = [store.put(Stored(v, about=f"trained #{n}")) for n, v in enumerate(vocabularies)]
    assert store.ids() == ids[-2:]  # the least recently used went first
    assert store.get(ids[0]) is None and store.gone(ids[0]) is None  # only 1 note kept
    note = store.gone(ids[1])
    assert note is not None and (note.name, note.about) == ("v1", "trained #1")
    assert store.gone("v1") == note  # by name too
    assert store.gone(ids[1].upper()) == note  # by an id in another case
    assert store.total_bytes <= store._held.max_bytes


def test_a_use_counts_and_a_name_finds_the_latest() -> None:
    a, b, c = (tk.train(TEXT, 300, name=n) for n in "abc")
    store = VocabStore(max_bytes=int(estimate_bytes(a) * 2.5), max_gone=10)
    first = store.put(Stored(a))
    store.put(Stored(b))
    assert store.get(first) is not None  # a is now the most recently used...
    store.put(Stored(c))
    assert store.get(first) is not None and store.find("b") is None  # ...so b went
    assert store.find("a").enc is a and store.find(first).enc is a
    assert store.find(first.upper()).enc is a  # an id upper-cased on its way is still an id
    newer = tk.train(TEXT, 290, name="a")
    store.put(Stored(newer))
    assert store.find("a").enc is newer  # a name means the one stored last under it


def test_putting_an_equal_vocabulary_keeps_the_first(enc: tk.Encoding) -> None:
    store = VocabStore(max_bytes=10 * estimate_bytes(enc), max_gone=10)
    vocab_id = store.put(Stored(enc, sample="the cat"))
    assert store.put(Stored(tk.train(TEXT, 300, name="cats"))) == vocab_id
    assert store.get(vocab_id).enc is enc and store.get(vocab_id).sample == "the cat"


def test_the_estimate_grows_with_the_vocabulary() -> None:
    small, big = tk.train(TEXT, 270), tk.train(TEXT * 5, 600)
    assert 1024 * 1024 < estimate_bytes(small) < estimate_bytes(big)
