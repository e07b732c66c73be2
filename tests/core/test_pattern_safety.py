"""Any pattern is safe in the core: capturing groups mean whole matches, runaway ones are stopped.

Patterns reach the core from users (the Train page's custom regex, an imported bundle or
tokenizer file), so every path that splits text is checked: encode, split, trace, train and the
bundle import.
"""

import time

import pytest
import regex
import tiktoken

import tokenizer as tk
from tests.core.texts import corpus_texts
from tokenizer import formats, hf
from tokenizer.frozen_regex import MAX_NESTING
from tokenizer.splitter import MATCH_TIMEOUT_S, SPLIT_S_PER_CHAR, RegexSplit, splitter
from tokenizer.vocab import SearchError, Vocabulary, build_vocabulary, find_regex

VERDICT = corpus_texts()["the-verdict.txt"]

# The same split with and without capturing groups (a named one, and one holding another).
GROUPED = r"""('s|'t|'re)| ?(\p{L})+| ?(?P<digits>\p{N}+)| ?(([^\s\p{L}\p{N}]))+|\s+(?!\S)|\s+"""
PLAIN = r"""(?:'s|'t|'re)| ?(?:\p{L})+| ?(?:\p{N}+)| ?(?:(?:[^\s\p{L}\p{N}]))+|\s+(?!\S)|\s+"""

# Backtracking runaways: exponential in the number of letters before the "!". (The other
# example, ``(a+)+$``, is one the `regex` module defuses by itself.)
RUNAWAYS = [r"(?:a|aa)+$|\s+", r"(a|a)+$|\s+|."]
RUNAWAY_TEXT = "a" * 40 + "!"
# Each runaway costs about a second: the inner loop tries one, the slow run both.
EACH_RUNAWAY = [RUNAWAYS[0], pytest.param(RUNAWAYS[1], marks=pytest.mark.slow)]


def gpt2_with(pattern: str) -> tk.Encoding:
    gpt2 = tk.get_encoding("gpt2")
    return tk.Encoding(
        "custom",
        pat_str=pattern,
        mergeable_ranks=gpt2._mergeable_ranks,
        special_tokens=gpt2._special_tokens,
    )


# ---- capturing groups ----------------------------------------------------------------------


def test_a_chunk_is_the_whole_match_as_in_tiktoken() -> None:
    text = VERDICT[:3000] + " it's 2024, naïve café!!"
    ours = gpt2_with(GROUPED)
    theirs = tiktoken.Encoding(
        "custom",
        pat_str=GROUPED,
        mergeable_ranks=ours._mergeable_ranks,
        special_tokens=ours._special_tokens,
    )
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)
    assert ours.encode_ordinary(text) == gpt2_with(PLAIN).encode_ordinary(text)
    assert "".join(ours.split(text)) == text
    assert ours.split(text) == regex.findall(PLAIN, text)
    traced = [i for chunk in ours.trace(text) for i in chunk.ids]
    assert traced == ours.encode_ordinary(text)


def test_training_with_groups_learns_from_whole_matches() -> None:
    """It used to keep only the group: single letters, so no pair to merge at all."""
    grouped = tk.train(VERDICT, 300, pattern=GROUPED)
    assert grouped.merges == tk.train(VERDICT, 300, pattern=PLAIN).merges
    assert len(grouped.merges) == 300 - 257


def test_an_imported_bundle_with_groups_encodes() -> None:
    trained = tk.train(VERDICT, 300, pattern=GROUPED)
    loaded = formats.load_bundle(formats.dump_bundle(trained))
    assert loaded.pattern == GROUPED
    assert loaded.encode_ordinary(VERDICT[:2000]) == trained.encode_ordinary(VERDICT[:2000])


# ---- runaway patterns ----------------------------------------------------------------------


@pytest.mark.parametrize("pattern", EACH_RUNAWAY)
def test_training_with_a_runaway_pattern_stops_within_two_seconds(pattern: str) -> None:
    start = time.perf_counter()
    with pytest.raises(tk.PatternTimeoutError, match="backtracks catastrophically"):
        tk.train(RUNAWAY_TEXT + " " + VERDICT[:5000], 300, pattern=pattern)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("pattern", EACH_RUNAWAY)
def test_encoding_with_a_runaway_pattern_stops_within_two_seconds(pattern: str) -> None:
    enc = gpt2_with(pattern)  # constructing it is fine: the text makes it run away
    assert enc.decode(enc.encode_ordinary("aa")) == "aa"  # short runs are harmless
    start = time.perf_counter()
    with pytest.raises(tk.PatternTimeoutError):
        enc.encode_ordinary(VERDICT[:300] + RUNAWAY_TEXT)
    assert time.perf_counter() - start < 2.0


@pytest.mark.slow
@pytest.mark.parametrize("method", ["encode", "split", "trace", "tokenize", "encode_with_unstable"])
def test_every_path_that_splits_is_guarded(method: str) -> None:
    enc = gpt2_with(RUNAWAYS[1])
    with pytest.raises(tk.PatternTimeoutError):
        getattr(enc, method)(VERDICT[:300] + RUNAWAY_TEXT)


@pytest.mark.slow
def test_a_runaway_bundle_is_stopped_when_it_encodes() -> None:
    trained = tk.train("a b " * 100, 260, pattern=RUNAWAYS[0])
    loaded = formats.load_bundle(formats.dump_bundle(trained))
    with pytest.raises(tk.PatternTimeoutError):
        loaded.encode_ordinary(RUNAWAY_TEXT)


@pytest.mark.slow
def test_the_error_says_where_and_what_to_do() -> None:
    with pytest.raises(tk.PatternTimeoutError) as caught:
        RegexSplit(RUNAWAYS[0])("x y " + RUNAWAY_TEXT)
    message = str(caught.value)
    assert "at character 4 of a text of 45" in message
    assert f"more than {MATCH_TIMEOUT_S:g} s" in message
    assert "possessive" in message
    assert isinstance(caught.value, ValueError)  # callers that catch ValueError catch it too


def test_a_pattern_that_backtracks_at_every_chunk_is_stopped_too() -> None:
    """Each chunk here is found within the one-chunk limit (29 letters, not 40), but every one
    costs a fraction of a second: the text as a whole is held to its own limit."""
    slow = RegexSplit(r"(?:a|aa)+$|\s+|.")
    with pytest.raises(tk.PatternTimeoutError) as caught:
        slow(("a" * 29 + "!") * 30)
    message = str(caught.value)
    assert "to split a text of 900 characters" in message
    assert f"{SPLIT_S_PER_CHAR * 1e6:g} µs per character" in message
    assert "backtracks at every chunk" in message


def test_a_long_text_is_not_a_runaway() -> None:
    """The limit is per chunk: a search that takes long because the text is long goes on."""
    pattern = r" ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
    text = VERDICT * 4
    rounds = RegexSplit(pattern, timeout=0.01)  # far less than the whole search takes
    assert rounds(text) == regex.findall(pattern, text)


@pytest.mark.parametrize(
    ("pattern", "text"),
    [(r"a*", "baaacaa"), (r"a??", "aab"), (r"\b|x+", "ab xx c"), (r"(?=a)|a", "aaa")],
)
def test_empty_matches_are_found_as_findall_does(pattern: str, text: str) -> None:
    """Resuming after a timeout must not repeat or lose an empty match."""
    expected = [m[0] for m in regex.finditer(pattern, text)]
    assert RegexSplit(pattern)(text) == expected
    assert splitter(pattern)(text) == expected


def test_patterns_that_do_not_compile_are_refused_everywhere() -> None:
    for bad in ["(?P<", "[a-", "(?V1)[[a]--[b]]"]:
        with pytest.raises(tk.PatternError):
            splitter(bad)
        with pytest.raises(ValueError, match="pattern"):
            tk.train("abc", 300, pattern=bad)
        with pytest.raises(ValueError, match="pattern"):
            gpt2_with(bad)


# Counted repeats the regex engine builds out in memory when it compiles: x{99999999} filled
# 22 GB and the kernel killed the server (QA round 8). Refused before compiling, on every path.
HUGE_REPEATS = [r"x{99999999}", r"(?:x{1000}){1000}", r"\s+|a{5000}b{5000}"]


@pytest.mark.parametrize("pattern", HUGE_REPEATS)
def test_huge_counted_repeats_are_refused_before_compiling(pattern: str) -> None:
    with pytest.raises(tk.PatternError, match=r"counted repeats .* copies; at most 10,000"):
        gpt2_with(pattern)
    with pytest.raises(tk.PatternError, match="counted repeats"):
        tk.train(VERDICT[:2_000], 300, pattern=pattern)
    split = {"pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}
    with pytest.raises(formats.FormatError, match="counted repeats"):
        hf._read_split(split)  # an imported tokenizer.json's Split


# Groups in groups: `regex` parses them by recursion, and its RecursionError went past every
# `except regex.error` (QA round 11: a deep link's pattern gave the page a traceback).
DEEP = {"groups": "(?:" * 3_000 + "a" + ")" * 3_000, "V1 sets": "(?V1)" + "[" * 300 + "a"}


@pytest.mark.parametrize("pattern", DEEP.values(), ids=list(DEEP))
def test_patterns_nested_past_the_parsers_stack_are_refused(pattern: str) -> None:
    with pytest.raises(tk.PatternError, match=r"nested|recursion"):
        gpt2_with(pattern)
    with pytest.raises(tk.PatternError):
        tk.train(VERDICT[:2_000], 300, pattern=pattern)
    split = {"pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}
    with pytest.raises(formats.FormatError, match="the Split regex"):
        hf._read_split(split)


# Group calls: `regex` recurses, and (?R) ran out of memory on the first search, a MemoryError
# that went past every caller (QA round 13: a Vocabulary link gave the page a traceback).
GROUP_CALLS = [
    "(?R)",
    "(?0)",
    "(?:(?R)|a)",
    r"\s+|a(?1)?(b)",
    "(?+1)(a)",
    "(?P<x>a)(?P>x)",
    "(?&x)",
]


@pytest.fixture(scope="module")
def gpt2_vocabulary() -> Vocabulary:
    return build_vocabulary(tk.get_encoding("gpt2"))


@pytest.mark.parametrize("pattern", GROUP_CALLS)
def test_patterns_that_call_a_group_are_refused_everywhere(
    pattern: str, gpt2_vocabulary: Vocabulary
) -> None:
    with pytest.raises(tk.PatternError, match=r"calls a group \(recursion\)"):
        gpt2_with(pattern)
    with pytest.raises(tk.PatternError, match="calls a group"):
        tk.train(VERDICT[:2_000], 300, pattern=pattern)
    with pytest.raises(SearchError, match="calls a group"):
        find_regex(gpt2_vocabulary, pattern)  # the Vocabulary page's search
    split = {"pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}
    with pytest.raises(formats.FormatError, match="calls a group"):
        hf._read_split(split)


def test_literal_parentheses_and_question_marks_are_no_group_calls() -> None:
    gpt2_with(r"\(\?R\)|[(?1)]+|\s+(?!\S)|(?:R)|\w+")


def test_groups_nested_as_deep_as_allowed_compile() -> None:
    gpt2_with("(?:" * MAX_NESTING + "a" + ")" * MAX_NESTING + r"|\(+|[(]|.")


def test_the_bundled_patterns_and_literal_braces_are_not_repeats() -> None:
    for name in tk.list_encodings():
        gpt2_with(tk.get_encoding(name)._pat_str)
    gpt2_with(r"[{}]{2}|\{99999999\}|\p{L}+|.")  # a class's braces, escaped ones: literal


# Syntax that tiktoken's regex engine (fancy-regex) reads otherwise than `regex`: a hex digit, word
# boundaries, any character but a newline, set operations, ASCII POSIX classes, nested classes.
# Each split differently from tiktoken, silently (QA round 14: `\N+|\n` kept only the newline).
OTHER_SYNTAX = [
    r"\N+|\n",
    r"\h+|\S+|\s",
    r"\<\w+|.|\n",
    r"[\w--\d]+|.|\n",
    r"[\w&&\d]+|.|\n",
    r"[\w~~\d]+|.|\n",
    r"[[:alpha:]]+|.|\n",
    r"[[a]b]+|.|\n",
    r"[\h]+|.|\n",
]


@pytest.mark.parametrize("pattern", OTHER_SYNTAX)
def test_syntax_that_tiktokens_engine_reads_otherwise_is_refused(pattern: str) -> None:
    text = "hello 12 ab<c> naïve \xa0x\n"
    gpt2 = tk.get_encoding("gpt2")
    theirs = tiktoken.Encoding(
        "t", pat_str=pattern, mergeable_ranks=gpt2._mergeable_ranks, special_tokens={}
    )
    as_regex_reads_it = [
        token
        for chunk in regex.findall(pattern, text)
        for token in gpt2._encode_bytes(chunk.encode())
    ]
    assert theirs.encode(text) != as_regex_reads_it  # why it is refused
    with pytest.raises(tk.PatternError, match="tiktoken's regex engine"):
        gpt2_with(pattern)
    with pytest.raises(tk.PatternError, match="tiktoken's regex engine"):
        tk.train(VERDICT[:2_000], 300, pattern=pattern)


def test_the_same_characters_written_plainly_are_taken() -> None:
    for pattern in [r"[\[\]-]+|\N{BULLET}|[]a]|[a-]|[\<\>]|\w+|.|\n", r"[^\s\p{L}\p{N}]+|\s+"]:
        gpt2_with(pattern)
