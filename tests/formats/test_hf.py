"""Hugging Face files in and out, with Hugging Face `tokenizers` as the oracle.

Imported files: every text must get Hugging Face's ids from ``enc.encode(text,
allowed_special="all")``. Exported files: `tokenizers.Tokenizer.from_str` must load them and give
our ids.
"""

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

import tokenizer as tk
from tests.core.texts import corpus_texts, stdlib_code
from tests.formats.hf_oracle import (
    KINDS,
    LLAMA3,
    TEST_TEXT,
    TRAIN_TEXT,
    edited,
    hf_ids,
    hf_json,
    hf_trained,
    known_texts,
)
from tests.train.corpora import script_text
from tokenizer import hf
from tokenizer.encoding import Encoding
from tokenizer.formats import FormatError

TAYLOR = corpus_texts()["taylorswift.txt"]


@cache
def imported(kind: str) -> Encoding:
    return tk.load_files({"tokenizer.json": hf_json(kind)}, name=kind)


def ours(enc: Encoding, text: str) -> list[int]:
    return enc.encode(text, allowed_special="all")


# ---- files trained by Hugging Face load with its ids --------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_tokenizer_json_gives_hugging_faces_ids(kind: str) -> None:
    enc, tok = imported(kind), hf_trained(kind)
    for text in (TEST_TEXT, TRAIN_TEXT[:20_000], script_text("cjk", words=500)):
        assert ours(enc, text) == hf_ids(tok, text)
    assert enc.special_tokens == {"<|endoftext|>": 0, "<pad>": 1}
    assert enc.decode(hf_ids(tok, TEST_TEXT)) == tok.decode(
        hf_ids(tok, TEST_TEXT), skip_special_tokens=False
    )


def test_what_each_file_becomes() -> None:
    assert imported("bytelevel").pattern == tk.PATTERNS["gpt2"]
    assert imported("bytelevel").normalizer is None
    assert imported("prefix").normalizer == tk.Normalizer(prefix_space=True)
    assert imported("llama3_nfc").normalizer == tk.Normalizer(nfc=True)
    assert imported("llama3_nfc").pattern == tk.PATTERNS["llama3"] == LLAMA3  # a bundled one
    assert imported("o200k").pattern == tk.PATTERNS["o200k_base"]


@given(kind=st.sampled_from(KINDS), text=known_texts)
def test_generated_text_gets_hugging_faces_ids(kind: str, text: str) -> None:
    assert ours(imported(kind), text) == hf_ids(hf_trained(kind), text)


@pytest.mark.parametrize("kind", ["bytelevel", "llama3_nfc"])
def test_vocab_json_and_merges_txt_give_hugging_faces_ids(kind: str, tmp_path: Path) -> None:
    """The pair holds no pattern: GPT-2's by default, or the one given, and no special tokens."""
    vocab, merges = hf_trained(kind).model.save(str(tmp_path))
    oracle = Tokenizer(models.BPE.from_file(vocab, merges))
    if kind == "bytelevel":
        oracle.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        enc = tk.load(tmp_path)
    else:
        oracle.pre_tokenizer = pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex(LLAMA3), behavior="isolated"),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
        enc = tk.load(Path(merges), pattern=LLAMA3)  # its partner is found beside it
    assert enc.special_tokens == {}
    assert not enc.is_valid_id(0)  # "<|endoftext|>": HF never produces it from text
    for text in (TEST_TEXT, script_text("cjk", words=300)):
        assert ours(enc, text) == hf_ids(oracle, text)


@pytest.mark.parametrize("ignore_merges", [False, True])
def test_a_token_no_merge_builds(ignore_merges: bool) -> None:
    """Whole only with ignore_merges (Llama 3 sets it); otherwise Hugging Face never uses it."""

    def add_token(document: dict[str, Any]) -> None:
        model = document["model"]
        model["vocab"]["Ġxyzzy"] = len(model["vocab"])
        model["ignore_merges"] = ignore_merges

    data = edited("bytelevel", add_token)
    enc, oracle = tk.load_files({"t.json": data}), Tokenizer.from_str(data.decode())
    text = " xyzzy xyzzyx plugh xyzzy"
    assert ours(enc, text) == hf_ids(oracle, text)
    assert (len(hf_ids(oracle, " xyzzy")) == 1) == ignore_merges


# ---- our files load in Hugging Face with our ids ------------------------------------------------


@cache
def trained_here() -> dict[str, Encoding]:
    return {
        "gpt2-pattern": tk.train(TAYLOR[:20_000], 800),
        "o200k-pattern": tk.train(script_text("cjk") + TAYLOR[:10_000], 900, pattern="o200k_base"),
        "cl100k-pattern": tk.train(stdlib_code()[:30_000], 900, pattern="cl100k_base"),
        "custom": tk.train(stdlib_code()[:20_000], 700, pattern=r"\w+|[^\w\s]+"),  # drops spaces
        "unsplit": tk.train(TAYLOR[:5_000], 400, pattern=None, special_tokens=("<a>", "<b>")),
    }


@cache
def exported(enc: Encoding) -> Tokenizer:
    """Our tokenizer.json of `enc`, loaded by Hugging Face."""
    return Tokenizer.from_str(hf.dump_tokenizer_json(enc).decode())


def assert_hugging_face_agrees(enc: Encoding, texts: list[str]) -> None:
    loaded = exported(enc)
    for text in texts:
        assert hf_ids(loaded, text) == ours(enc, text)


@pytest.mark.parametrize("shape", ["gpt2-pattern", "o200k-pattern", "cl100k-pattern", "custom"])
def test_trained_vocabularies_load_in_hugging_face(shape: str) -> None:
    enc = trained_here()[shape]
    special = "".join(enc.special_tokens)
    assert_hugging_face_agrees(enc, [TEST_TEXT + special, stdlib_code()[:20_000]])


def test_unsplit_vocabulary_loads_in_hugging_face() -> None:
    enc = trained_here()["unsplit"]
    assert_hugging_face_agrees(enc, [TAYLOR[:3_000] + "<a>x<b>", "short one"])


@pytest.mark.slow  # GPT-2's 50,000 tokens through json and Hugging Face: about 2 s
def test_gpt2_loads_in_hugging_face_with_its_own_merges() -> None:
    enc = tk.get_encoding("gpt2")
    data = hf.dump_tokenizer_json(enc)
    merges = json.loads(data)["model"]["merges"]
    vocab_bpe = tk.dump(enc, "gpt2")["vocab.bpe"].decode().split("\n")[1:-1]
    assert merges == vocab_bpe
    assert_hugging_face_agrees(enc, [TEST_TEXT, stdlib_code()[:10_000]])


@pytest.mark.parametrize("kind", KINDS)
def test_imported_files_written_back_agree(kind: str) -> None:
    assert_hugging_face_agrees(imported(kind), [TEST_TEXT])


@given(text=known_texts)
def test_generated_text_after_export(text: str) -> None:
    for enc in (trained_here()["cl100k-pattern"], imported("prefix")):
        assert_hugging_face_agrees(enc, [text])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_ranks_vocabularies_load_in_hugging_face_and_back(name: str) -> None:
    """Merges derived from ranks; reading our own file back proves the rank rule on every token."""
    enc = tk.get_encoding(name)
    data = hf.dump_tokenizer_json(enc)
    document = json.loads(data)
    assert len(document["model"]["merges"]) == len(hf.ordinary_ids(enc)) - 256
    loaded = Tokenizer.from_str(data.decode())
    back = hf.load_tokenizer_json(data)
    for text in (TEST_TEXT, TAYLOR, stdlib_code()[:100_000], script_text("cjk")):
        expected = ours(enc, text)
        assert hf_ids(loaded, text) == expected
        assert ours(back, text) == expected


# ---- refusals -----------------------------------------------------------------------------------


def other_model(model: models.Model) -> bytes:
    tok = Tokenizer(model)
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = {
        "WordPiece": trainers.WordPieceTrainer,
        "Unigram": trainers.UnigramTrainer,
        "WordLevel": trainers.WordLevelTrainer,
    }[type(model).__name__](show_progress=False)
    tok.train_from_iterator([TRAIN_TEXT[:5_000]], trainer)
    return tok.to_str().encode()


def with_(**changes: Any) -> Callable[[dict[str, Any]], None]:
    """An edit that sets top-level or "model." keys."""

    def edit(document: dict[str, Any]) -> None:
        for key, value in changes.items():
            where, _, name = key.rpartition("__")
            (document[where] if where else document)[name] = value

    return edit


def split_with(pattern: str, behavior: str = "Isolated", **level: Any) -> dict[str, Any]:
    return {
        "type": "Sequence",
        "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": behavior, "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "use_regex": False, **level},
        ],
    }


def drop_merge_part(document: dict[str, Any]) -> None:
    n, left = next((n, m[0]) for n, m in enumerate(document["model"]["merges"]) if len(m[0]) > 1)
    document["model"]["merges"] = document["model"]["merges"][: n + 1]
    del document["model"]["vocab"][left]


def duplicate_id(document: dict[str, Any]) -> None:
    document["model"]["vocab"]["Ġzzzz"] = 7


def drop_byte(document: dict[str, Any]) -> None:
    del document["model"]["vocab"]["Ċ"]


def repeat_merge(document: dict[str, Any]) -> None:
    merges = document["model"]["merges"]
    merges.append(merges[3])


def lstrip(document: dict[str, Any]) -> None:
    document["added_tokens"][0]["lstrip"] = True


def not_symbols(document: dict[str, Any]) -> None:
    document["model"]["vocab"]["▁the"] = len(document["model"]["vocab"])


REFUSALS: list[tuple[Callable[[], bytes], str]] = [
    (lambda: other_model(models.WordPiece(unk_token="[UNK]")), "a WordPiece model; .*BPE only"),
    (lambda: other_model(models.Unigram()), "a Unigram model"),
    (lambda: other_model(models.WordLevel(unk_token="[UNK]")), "a WordLevel model"),
    (lambda: edited("bytelevel", with_(normalizer={"type": "Lowercase"})), "Lowercase normalizer"),
    (lambda: edited("bytelevel", with_(normalizer={"type": "NFKC"})), "NFKC normalizer"),
    (
        lambda: edited("bytelevel", with_(pre_tokenizer={"type": "Whitespace"})),
        "pre-tokenizer Whitespace cannot be reproduced",
    ),
    (
        lambda: edited(
            "bytelevel",
            with_(
                pre_tokenizer={"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always"}
            ),
        ),
        "pre-tokenizer Metaspace",
    ),
    (lambda: edited("bytelevel", with_(pre_tokenizer=None)), "no pre-tokenizer"),
    (
        lambda: edited("bytelevel", with_(pre_tokenizer=split_with(r"\w+", add_prefix_space=True))),
        "adds a space to every chunk",
    ),
    (
        lambda: edited("bytelevel", with_(pre_tokenizer=split_with(tk.PATTERNS["cl100k_base"]))),
        r"\{1,3\}\+ repeats what comes before it in Oniguruma",
    ),
    (
        lambda: edited("bytelevel", with_(pre_tokenizer=split_with(r"\w+", "MergedWithNext"))),
        "behavior 'MergedWithNext'",
    ),
    (lambda: edited("bytelevel", with_(pre_tokenizer=split_with(r"(\w+)"))), "capturing group"),
    (lambda: edited("bytelevel", with_(pre_tokenizer=split_with(r"\w*"))), "match empty text"),
    (lambda: edited("bytelevel", with_(decoder={"type": "WordPiece"})), "decoder WordPiece"),
    (lambda: edited("bytelevel", with_(model__dropout=0.1)), "dropout"),
    (lambda: edited("bytelevel", with_(model__continuing_subword_prefix="##")), "subword_prefix"),
    (lambda: edited("bytelevel", drop_merge_part), r"merges\[\d+\] names .* not in the vocabulary"),
    (lambda: edited("bytelevel", duplicate_id), "id 7 is given to both"),
    (lambda: edited("bytelevel", drop_byte), r"lacks 1 single-byte tokens \(0x0a"),
    (
        lambda: edited("bytelevel", repeat_merge),
        r"merges\[\d+\] repeats the merge .* of merges\[3\]",
    ),
    (lambda: edited("bytelevel", lstrip), "sets lstrip"),
    (lambda: edited("bytelevel", not_symbols), "'▁the' .* not written in GPT-2's byte symbols"),
    (lambda: hf_json("bytelevel").replace(b'"<pad>":1', b'"<pad>":1,"<pad>":2'), "twice"),
    (lambda: b'{"model": 3}', "expected a JSON object with a 'model'"),
]


@pytest.mark.parametrize(("make", "message"), REFUSALS)
def test_refusals_name_the_reason(make: Callable[[], bytes], message: str) -> None:
    with pytest.raises(FormatError, match=message):
        hf.load_tokenizer_json(make())


def hand_made(vocab_extra: dict[str, int], merges: list[str]) -> bytes:
    """A tiny file: a special first (so not our trainer's layout), the bytes, then `vocab_extra`."""
    symbols = tk.gpt2_byte_symbols()
    vocab = {"<s>": 0, **{symbols[b]: 1 + b for b in range(256)}, **vocab_extra}
    tok = Tokenizer(models.BPE(vocab, [tuple(m.split(" ")) for m in merges]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(["<s>"])
    return tok.to_str().encode()


def test_merge_lists_ranks_cannot_reproduce_are_refused() -> None:
    # "the": the list builds th first, so t + he never applies; by rank, th + e would make it.
    data = hand_made({"th": 257, "he": 258, "the": 259}, ["t h", "h e", "t he"])
    with pytest.raises(FormatError, match=r"b'the' \(id 259\): the merge list never builds it"):
        hf.load_tokenizer_json(data)
    assert hf_ids(Tokenizer.from_str(data.decode()), "the") == [257, 1 + ord("e")]
    # Built in the order th, he, but he has the lower id: ranks would merge he first.
    data = hand_made({"he": 257, "th": 258}, ["t h", "h e"])
    with pytest.raises(FormatError, match=r"builds id 258 .* before id 257"):
        hf.load_tokenizer_json(data)
    # The same merges with ids in list order load, and agree with Hugging Face.
    data = hand_made({"th": 257, "he": 258}, ["t h", "h e"])
    enc = hf.load_tokenizer_json(data)
    assert ours(enc, "the hethe") == hf_ids(Tokenizer.from_str(data.decode()), "the hethe")


def test_exports_that_cannot_be_exact_are_refused() -> None:
    clash = tk.train("abcabc abd " * 3, 300, special_tokens=("c",))
    with pytest.raises(FormatError, match="special token 'c' reads like an ordinary token"):
        hf.dump_tokenizer_json(clash)
    prefixed = Encoding.from_merges(
        name="p",
        pattern=tk.PATTERNS["cl100k_base"],
        merges=[(97, 98)],
        special_tokens={},
        normalizer=tk.Normalizer(prefix_space=True),
    )
    with pytest.raises(FormatError, match="prefix space only with GPT-2's split"):
        hf.dump_tokenizer_json(prefixed)


def test_malformed_vocab_merges_pairs_name_the_line(tmp_path: Path) -> None:
    vocab, merges = hf_trained("bytelevel").model.save(str(tmp_path))
    lines = Path(merges).read_text().split("\n")
    cases = {
        r"merges\.txt line 3: expected two tokens": [*lines[:2], "a b c", *lines[3:]],
        r"merges\.txt line 4 names 'zz'": [*lines[:3], "zz q", *lines[4:]],
    }
    for message, edited_lines in cases.items():
        with pytest.raises(FormatError, match=message):
            hf.load_vocab_merges(Path(vocab).read_bytes(), "\n".join(edited_lines).encode())


def converter_style(enc: Encoding) -> bytes:
    """tokenizer.json as converters from tiktoken ranks write it (Llama 3's and Qwen's files).

    Every split of a token into two lower-ranked tokens is a merge (so most tokens have several),
    ordered by the merged token's rank, then by the parts' ranks; ``ignore_merges`` is set.
    """
    document = json.loads(hf.dump_tokenizer_json(enc))
    ranks = {enc.token_bytes(i): i for i in hf.ordinary_ids(enc)}
    merges = []
    for piece, rank in ranks.items():
        for cut in range(1, len(piece)):
            left, right = ranks.get(piece[:cut]), ranks.get(piece[cut:])
            if left is not None and right is not None and max(left, right) < rank:
                merges.append((rank, left, right))
    merges.sort()
    symbols = {i: tk.bytes_to_symbols(enc.token_bytes(i)) for i in ranks.values()}
    document["model"]["merges"] = [[symbols[a], symbols[b]] for _, a, b in merges]
    document["model"]["ignore_merges"] = True
    return json.dumps(document).encode()


@pytest.mark.slow  # GPT-2's 50,000 tokens replayed through 86,119 merges: about 2 s
def test_converter_style_files_with_several_merges_per_token() -> None:
    enc = tk.get_encoding("gpt2")
    data = converter_style(enc)
    assert len(json.loads(data)["model"]["merges"]) > 60_000
    loaded = hf.load_tokenizer_json(data)
    oracle = Tokenizer.from_str(data.decode())
    for text in (TEST_TEXT, TAYLOR[:50_000], stdlib_code()[:50_000]):
        assert ours(loaded, text) == hf_ids(oracle, text) == ours(enc, text)
