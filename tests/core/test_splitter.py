"""The fast split (`re` with spelled-out classes) gives exactly the `regex` split's chunks.

The reference is `RegexSplit`: the encoding's own pattern on the `regex` module with the frozen
Unicode classes (tests/core/test_unicode_tables.py and test_code_points.py hold both to
tiktoken). The translation must agree with it on every character of every plane, in every
context the patterns care about.
"""

import pytest
import regex
from hypothesis import given

from tests.cases import slow_if
from tests.core.texts import corpus_texts, stdlib_code, texts
from tokenizer.patterns import PATTERNS
from tokenizer.splitter import FastSplit, RegexSplit, UntranslatableError, splitter

BUNDLED = sorted(PATTERNS)
# What may follow a character and change how it is split: nothing, a space, a letter of either
# case, a digit, an apostrophe (contractions), a newline, a slash (o200k's punctuation runs).
NEIGHBOURS = ["", " ", "a", "A", "1", "'", "\n", "/", "  "]


def all_chars(start: int, end: int) -> list[str]:
    """Every character from `start` to `end`, lone surrogates left out (they are repaired first)."""
    return [chr(c) for c in range(start, end) if not 0xD800 <= c < 0xE000]


def assert_same_split(pattern: str, text: str) -> None:
    """Compare whole chunk lists, but report the first difference, not a 60,000-item diff."""
    ours, reference = splitter(pattern)(text), RegexSplit(pattern, timeout=None)(text)
    if ours != reference:
        pairs = enumerate(zip(ours, reference, strict=False))
        at = next(i for i, (mine, theirs) in pairs if mine != theirs)
        pytest.fail(f"chunk {at}: {ours[at - 1 : at + 2]!r} != {reference[at - 1 : at + 2]!r}")
    assert len(ours) == len(reference)


@pytest.mark.parametrize("name", BUNDLED)
@pytest.mark.parametrize(
    "neighbour",  # three contexts in the inner loop, all nine in the slow run
    [n if n in ("", "a", "'") else pytest.param(n, marks=pytest.mark.slow) for n in NEIGHBOURS],
)
def test_every_bmp_character_splits_alike(name: str, neighbour: str) -> None:
    text = neighbour.join(all_chars(0, 0x10000))
    assert_same_split(PATTERNS[name], text)


@pytest.mark.slow
@pytest.mark.parametrize("name", BUNDLED)
def test_every_astral_character_splits_alike_through_its_stand_in(name: str) -> None:
    """Blocks of distinct astral characters, each followed by one of the neighbours in turn."""
    split = FastSplit(PATTERNS[name])
    for start in range(0x10000, 0x110000, 4096):
        block = all_chars(start, start + 4096)
        # Every astral character has a BMP stand-in: none of them falls back to `regex`.
        assert split._stand_ins_for(set(block)) is not None
        text = "".join(c + NEIGHBOURS[i % len(NEIGHBOURS)] for i, c in enumerate(block))
        assert split.findall(text) == split.reference(text), hex(start)


@pytest.mark.parametrize("name", BUNDLED)
@given(text=texts)
def test_generated_text_splits_alike(name: str, text: str) -> None:
    assert_same_split(PATTERNS[name], text)


# o200k_harmony's pattern is o200k_base's: CI runs it again, the inner loop does not.
@pytest.mark.parametrize("name", [slow_if(name == "o200k_harmony", name) for name in BUNDLED])
def test_real_text_splits_alike(name: str) -> None:
    for text in [*corpus_texts().values(), stdlib_code()]:
        assert_same_split(PATTERNS[name], text)


@pytest.mark.parametrize("name", BUNDLED)
def test_texts_with_thousands_of_distinct_astral_characters_split_alike(name: str) -> None:
    """Stand-ins are looked up per stretch of code points, so many distinct ones cost little."""
    text = " ".join(all_chars(0x20000, 0x20000 + 10_000)) + " emoji 🙂 too"
    assert_same_split(PATTERNS[name], text)


def test_an_astral_character_without_a_bmp_twin_goes_to_regex() -> None:
    """No BMP character is in the Emoticons block, so its emoji have no stand-in."""
    pattern = r"\p{InEmoticons}+|\s+|."
    text = "hi 😀😁 x🙂"
    assert FastSplit(pattern)._stand_ins_for({"😀"}) is None
    assert FastSplit(pattern).findall(text) == regex.findall(pattern, text)
    assert FastSplit(pattern).findall(text) == ["h", "i", " ", "😀😁", " ", "x", "🙂"]


def test_other_patterns_run_on_regex_unchanged() -> None:
    """A custom training pattern may use any `regex` syntax: it is not translated."""
    split = splitter(r"\p{Han}+|\X")
    assert split("漢字e\u0301") == ["漢字", "e\u0301"]


@pytest.mark.parametrize(
    "pattern",
    [r"\w+", r"\d", "é+", r"(?i:a(?i:b))", r"[\S]"],
    ids=["word class", "digit class", "non-ASCII literal", "nested fold", "negated in a class"],
)
def test_syntax_the_translation_does_not_know_is_refused(pattern: str) -> None:
    with pytest.raises(UntranslatableError):
        FastSplit(pattern)


def test_case_insensitive_letters_keep_their_unicode_twins() -> None:
    """`regex` matches the long s and the Kelvin sign in ``(?i:'s)`` and ``(?i:'k)``: so do we."""
    split = FastSplit(r"(?i:'s|'k)|.")
    text = "'\u017f'\u212a's"  # long s, Kelvin sign
    assert split.findall(text) == regex.findall(r"(?i:'s|'k)|.", text) == ["'ſ", "'\u212a", "'s"]
