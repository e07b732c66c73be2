"""The merges page's data: pattern alternatives, the whole-text timeline, ids at every step."""

from itertools import pairwise

import pytest
from hypothesis import given

import tokenizer as tk
from tests.core.texts import corpus_texts, texts
from tokenizer import Encoding
from ui.merges.model import (
    build_walkthrough,
    classify,
    pattern_alternatives,
    split_alternatives,
)

NAMES = tk.list_encodings()
TEXT = "GPT2 was created by OpenAI"


@pytest.mark.parametrize("name", NAMES)
def test_alternatives_put_back_together_are_the_pattern(name: str) -> None:
    pattern = tk.PATTERNS[name]
    assert "|".join(split_alternatives(pattern)) == pattern


def test_split_ignores_bars_in_groups_classes_and_escapes() -> None:
    assert split_alternatives(r"a|[|]|[]|]|(b|c)|\||[^]|]d") == [
        "a",
        "[|]",
        "[]|]",
        "(b|c)",
        r"\|",
        "[^]|]d",
    ]


def test_kinds_are_derived_from_each_pattern() -> None:
    def kinds(name: str) -> list[str]:
        return [a.kind for a in pattern_alternatives(tk.PATTERNS[name])]

    assert kinds("gpt2") == ["contraction"] * 7 + [
        "letters",
        "digits",
        "punctuation",
        "whitespace",
        "whitespace",
    ]
    assert (
        kinds("cl100k_base")
        == ["contraction", "letters", "digits", "punctuation"] + ["whitespace"] * 4
    )
    assert (
        kinds("o200k_base") == ["letters", "letters", "digits", "punctuation"] + ["whitespace"] * 3
    )


def test_an_alternative_matching_nothing_known_is_other() -> None:
    assert classify("xyz") == "other"


def test_an_unreadable_pattern_is_one_alternative() -> None:
    (only,) = pattern_alternatives("a(b|c")
    assert (only.source, only.kind) == ("a(b|c", "other")


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("gpt2", "GPT2 was", ["letters", "digits", "letters"]),
        ("gpt2", "don't  stop", ["letters", "contraction", "whitespace", "letters"]),
        ("cl100k_base", "x!\n\n", ["letters", "punctuation"]),
        ("cl100k_base", "12345 ok ", ["digits", "digits", "letters", "whitespace"]),
        ("o200k_base", "CamelCase don't", ["letters", "letters", "letters"]),
    ],
)
def test_each_chunk_knows_the_alternative_that_cut_it(
    name: str, text: str, expected: list[str]
) -> None:
    walk = build_walkthrough(tk.get_encoding(name), text)
    assert [walk.alternatives[c.alternative].kind for c in walk.chunks] == expected


def test_the_lookahead_sees_the_real_next_character() -> None:
    """In "a  b" the first space is `\\s+(?!\\S)` (a space follows); " b" is a word."""
    walk = build_walkthrough(tk.get_encoding("gpt2"), "a  b")
    assert [(c.text, c.alternative) for c in walk.chunks] == [("a", 7), (" ", 10), (" b", 7)]


def test_the_walkthrough_example() -> None:
    walk = build_walkthrough(tk.get_encoding("gpt2"), TEXT)
    assert [c.text for c in walk.chunks] == ["GPT", "2", " was", " created", " by", " OpenAI"]
    openai = walk.chunks[-1]
    assert [s.best for s in openai.trace.steps] == [12, 184, 3361, 4690, 19929, None]
    assert [r.rank for r in walk.steps] == sorted(r.rank for r in walk.steps)
    assert [r.rank for r in walk.steps][:4] == [4, 9, 10, 12]
    assert walk.ids_at(walk.last) == [38, 11571, 17, 373, 2727, 416, 4946, 20185]
    assert walk.ids_at(0) == [tk.get_encoding("gpt2").encode(c)[0] for c in TEXT]
    assert walk.token_counts[0] == len(TEXT.encode()) and walk.token_counts[-1] == 8
    # " OpenAI": the most merges among chunks that end as several tokens (" created", 7 merges,
    # ends as one token and would show merging, but never merging stop)
    assert walk.default_chunk() == 5
    assert openai.advances == (4, 11, 15, 16, 18)
    assert walk.stops(5) == (0, 4, 11, 15, 16, 18)
    assert walk.stops(1) == (0, 18)  # "2" never merges: start and end only
    assert walk.stops(None) == tuple(range(19))
    assert [openai.local_step(g) for g in (0, 3, 4, 17, 18)] == [0, 0, 1, 4, 5]


def check_walkthrough(enc: Encoding, text: str) -> None:
    """Every step's ids spell its pieces; the last step is `encode`; counts only fall."""
    walk = build_walkthrough(enc, text)
    assert walk.ids_at(walk.last) == enc.encode_ordinary(text)
    assert "".join(c.text for c in walk.chunks) == walk.text
    for chunk in walk.chunks:
        assert len(chunk.trace.steps) == chunk.merges + 1
        for step in chunk.trace.steps:
            assert tuple(enc.token_bytes(i) for i in step.ids) == step.parts
        assert list(chunk.advances) == sorted(set(chunk.advances))
    counts = walk.token_counts
    assert all(a > b for a, b in pairwise(counts))
    assert counts[-1] == len(walk.ids_at(walk.last))
    assert all(len(walk.ids_at(g)) == counts[g] for g in range(0, walk.last + 1, 7))


@pytest.mark.parametrize("name", NAMES)
def test_a_page_of_real_text(name: str) -> None:
    text = corpus_texts()["the-verdict.txt"][:2000] + " 👋🏽 日本語 don't 12345\n\n"
    check_walkthrough(tk.get_encoding(name), text)


@pytest.mark.parametrize("name", NAMES)
@given(text=texts)
def test_generated_text(name: str, text: str) -> None:
    check_walkthrough(tk.get_encoding(name), text)


def test_a_trained_vocabulary_replays_by_merge_ids() -> None:
    """Two merges that make the same bytes stay two ids, as training made them."""
    enc = Encoding.from_merges(
        name="tiny",
        pattern=tk.PATTERNS["gpt2"],
        merges=[(97, 97), (256, 97), (97, 256)],  # "aa", then "aaa" twice
        special_tokens={"<|endoftext|>": 259},
    )
    walk = build_walkthrough(enc, "aaaa aaab")
    assert walk.ids_at(walk.last) == enc.encode_ordinary("aaaa aaab") == [256, 256, 32, 257, 98]
    check_walkthrough(enc, "aaaaaaa aa a")


def test_special_token_text_is_ordinary_text_here() -> None:
    walk = build_walkthrough(tk.get_encoding("cl100k_base"), "<|endoftext|>")
    assert walk.ids_at(walk.last) == tk.get_encoding("cl100k_base").encode_ordinary("<|endoftext|>")


def test_empty_text_has_no_chunks() -> None:
    walk = build_walkthrough(tk.get_encoding("gpt2"), "")
    assert (walk.chunks, walk.last, walk.token_counts, walk.default_chunk()) == ((), 0, (0,), None)
