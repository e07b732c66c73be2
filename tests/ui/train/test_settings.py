"""Checks on what the user asks the trainer for: patterns, special tokens, names."""

import pytest
import regex

import tokenizer as tk
from tests.ui.payloads import drawn
from tokenizer.splitter import splitter
from ui.common.registry import check_name, unique_name
from ui.train.corpora import Corpus
from ui.train.settings import (
    CUSTOM,
    NO_SPLIT,
    PATTERN_CHOICES,
    PREVIEW_TEXT,
    SHOWN_CODES,
    check_pattern,
    check_specials,
    default_name,
    pattern_source,
    settings_for,
    trial_split,
)


def test_every_bundled_pattern_is_offered_by_its_models_name() -> None:
    offered = [name for name in PATTERN_CHOICES if name in tk.PATTERNS]
    assert {tk.PATTERNS[name] for name in offered} == set(tk.PATTERNS.values())
    assert len(offered) == len(set(tk.PATTERNS.values()))  # each pattern once
    assert [PATTERN_CHOICES[n] for n in offered][:3] == [
        "GPT-2",
        "GPT-4 (cl100k_base)",
        "GPT-4o (o200k_base)",
    ]
    assert {NO_SPLIT, CUSTOM} <= set(PATTERN_CHOICES)


def test_patterns_resolve_to_their_regex_so_equal_trainings_share_a_key() -> None:
    assert pattern_source("gpt2", "") == tk.PATTERNS["gpt2"]
    assert pattern_source(NO_SPLIT, "") is None
    assert pattern_source(CUSTOM, r"\w+") == r"\w+"
    picked = settings_for(1000, "gpt2", "", ["<|endoftext|>"])
    typed = settings_for(1000, CUSTOM, tk.PATTERNS["gpt2"], ["<|endoftext|>"])
    assert picked == typed and picked.merges_wanted == 743


def test_a_good_custom_pattern_previews_its_chunks() -> None:
    check = check_pattern(r" ?\p{L}+| ?\p{N}+|\s+|.")
    assert check.error is None and check.dropped == ""
    assert "".join(check.chunks) == PREVIEW_TEXT
    assert " world" in check.chunks


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("", "Type a regular expression"),
        ("(", "does not compile"),
        ("[a-", "does not compile"),
        (r"(\w+)", "non-capturing groups"),
        ("x{99999999}", "come to 99,999,999 copies; at most 10,000"),  # checked as it is typed
        ("(?:" * 3_000 + "a" + ")" * 3_000, "nested more than 50 deep"),  # once a traceback
        ("(?V1)" + "[" * 300 + "a", "does not compile"),
    ],
)
def test_bad_custom_patterns_say_why(source: str, message: str) -> None:
    assert message in drawn(check_pattern(source).error or "")


def test_the_preview_splits_with_the_classes_training_uses() -> None:
    """U+0C5C is a letter only after Unicode 16.0; training's frozen classes say it is not, so
    the preview must not show it inside a word that training would cut around it."""
    text = "a\u0c5cb"
    assert check_pattern(r"\p{L}+", text).chunks == tuple(splitter(r"\p{L}+")(text))
    assert check_pattern(r"\p{L}+", text).chunks == ("a", "b")


def test_syntax_training_refuses_is_refused_in_the_preview() -> None:
    assert "VERSION1" in check_pattern(r"(?V1)[\w--\d]+").error
    with pytest.raises(tk.PatternError, match="VERSION1"):
        tk.train("abc abc", 257, pattern=r"(?V1)[\w--\d]+")


def test_a_pattern_that_skips_text_counts_what_it_drops() -> None:
    check = check_pattern(r"\p{L}+")
    assert check.error is None
    assert len(check.dropped) == len(PREVIEW_TEXT) - sum(map(len, check.chunks)) > 0
    assert set(check.dropped) == {c for c in PREVIEW_TEXT if not regex.match(r"\p{L}", c)}


def test_a_pattern_ending_with_a_dot_drops_only_the_newline() -> None:
    """``.`` takes no newline: the warning must name it, not tell the user to add ``|.``."""
    assert check_pattern(r" ?\p{L}+|\p{N}+|.").dropped == "\n"


def test_the_trial_split_accepts_an_ordinary_pattern() -> None:
    assert trial_split(tk.PATTERNS["gpt2"], Corpus.of("c", "C", "", "hello " * 1000)) is None


@pytest.mark.parametrize(
    ("specials", "ok"),
    [
        ([], True),
        (["<|endoftext|>", "<|fim|>"], True),
        (["  "], False),
        (["x" * 65], False),
        (["\u200b"], False),  # zero-width space: an empty chip in the picker
        (["<|endoftext|>", "\u200d\ufe0f \t"], False),
        (["\x00"], False),
        (["<\u200b>"], True),  # something to see
        (["\U0001f44b\u200d"], True),
    ],
)
def test_special_token_checks(specials: list[str], ok: bool) -> None:
    assert (check_specials(specials) is None) is ok


def test_an_invisible_special_token_is_named_by_its_code_points() -> None:
    message = check_specials(["<|endoftext|>", "\u200b" * (SHOWN_CODES + 1)])
    assert message is not None
    assert "needs at least one visible character" in message
    assert f"`{' '.join(['U+200B'] * SHOWN_CODES)} …`" in message


def test_too_many_special_tokens() -> None:
    assert "At most" in check_specials([f"<|{n}|>" for n in range(17)])


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("python-code-16k", True),
        ("my vocab 1.0", True),
        ("ünï_cödé", True),
        ("", False),
        ("  ", False),
        ("x" * 41, False),
        ("<script>", False),
        ("a/b", False),
        ("gpt2", False),
    ],
)
def test_name_checks(name: str, ok: bool) -> None:
    assert (check_name(name, tk.list_encodings()) is None) is ok


def test_unique_and_default_names() -> None:
    assert unique_name("a", []) == "a"
    assert unique_name("a", ["a", "a-2"]) == "a-3"
    assert default_name("samples", 4096) == "samples-4k"
    assert default_name("samples", 300) == "samples-300"


@pytest.mark.parametrize("source", [r"\h|.", r"\N|.", r"[[:alpha:]]|.", r"\<|."])
def test_what_tiktokens_engine_reads_otherwise_is_refused_before_training(source: str) -> None:
    """The preview passed these, the Train button stayed on, and training then failed (QA
    round 15): they are refused here with training's own reason."""
    with pytest.raises(tk.PatternError) as refused:
        tk.train("abc abc", 257, pattern=source)
    error = check_pattern(source).error
    assert error is not None and str(refused.value) in drawn(error)  # quoted as typed
