"""Searching a vocabulary by text, regex, id and bytes; curiosities; text of partial tokens."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from tokenizer.vocab import (
    SearchError,
    SearchResult,
    Vocabulary,
    build_vocabulary,
    find_bytes,
    find_ids,
    find_regex,
    find_text,
    parse_hex,
    search,
    utf8_runs,
)


@pytest.fixture(scope="module")
def gpt2() -> Vocabulary:
    return build_vocabulary(tk.get_encoding("gpt2"))


def ids_of(vocab: Vocabulary, test) -> set[int]:
    """Brute force: every token id whose bytes pass `test`."""
    return {i for i, piece in zip(vocab.ids, vocab.pieces, strict=True) if test(piece)}


# ---- text ---------------------------------------------------------------------------------------


def test_text_search_finds_every_magikarp(gpt2: Vocabulary) -> None:
    assert find_text(gpt2, "Magikarp").ids == (41538, 42202, 43453)  # exact one first
    assert gpt2.enc.token_bytes(43453) == b" SolidGoldMagikarp"


def test_a_leading_space_counts(gpt2: Vocabulary) -> None:
    spaced, bare = find_text(gpt2, " the").ids, find_text(gpt2, "the").ids
    assert gpt2.enc.token_bytes(spaced[0]) == b" the"
    assert gpt2.enc.token_bytes(bare[0]) == b"the"
    assert set(spaced) < set(bare)
    assert set(spaced) == ids_of(gpt2, lambda p: b" the" in p)


def test_text_search_puts_exact_then_prefix_then_the_rest(gpt2: Vocabulary) -> None:
    found = [gpt2.enc.token_bytes(i) for i in find_text(gpt2, "ing").ids]
    assert found[0] == b"ing"
    starts = [p.startswith(b"ing") for p in found[1:]]
    assert starts == sorted(starts, reverse=True)  # all prefixes come before the others
    assert len(found) == len(ids_of(gpt2, lambda p: b"ing" in p))


def test_ignore_case(gpt2: Vocabulary) -> None:
    ids = find_text(gpt2, "MAGIKARP", ignore_case=True).ids
    assert ids == (41538, 42202, 43453)
    assert find_text(gpt2, "MAGIKARP").ids == ()


def test_an_empty_query_finds_nothing(gpt2: Vocabulary) -> None:
    assert find_text(gpt2, "").ids == find_regex(gpt2, "").ids == ()


# ---- regex --------------------------------------------------------------------------------------


def test_regex_search_matches_anywhere_in_id_order(gpt2: Vocabulary) -> None:
    ids = find_regex(gpt2, r"^ Solid\w+$").ids
    assert 43453 in ids
    assert list(ids) == sorted(ids)
    assert all(gpt2.texts[i].startswith(" Solid") for i in ids)


def test_a_bad_regex_is_a_clear_error(gpt2: Vocabulary) -> None:
    with pytest.raises(SearchError, match="not a valid regular expression"):
        find_regex(gpt2, "(unclosed")


def test_a_regex_over_its_time_budget_is_a_clear_error(gpt2: Vocabulary) -> None:
    with pytest.raises(SearchError, match="takes longer than"):
        find_regex(gpt2, "e", budget_s=0)


@pytest.fixture(scope="module")
def line_ends() -> Vocabulary:
    """The 256 bytes ("\\n" is 10, "$" 36, "a" 97) and "a\\n", "a$", "a\\n\\n" (256-258)."""
    ranks = {bytes([b]): b for b in range(256)} | {b"a\n": 256, b"a$": 257, b"a\n\n": 258}
    enc = tk.Encoding.from_ranks(name="t", pattern=r"\w+|\s+|.", ranks=ranks, special_tokens={})
    return build_vocabulary(enc)


def test_caret_dollar_finds_no_token(gpt2: Vocabulary, line_ends: Vocabulary) -> None:
    """Python's ``$`` also matches before a newline that ends the text: ``^$`` found "\\n"."""
    assert find_regex(line_ends, "^$").ids == ()
    assert 198 not in find_regex(gpt2, "^$").ids  # GPT-2's "\\n"


def test_dollar_is_the_tokens_end_not_before_a_final_newline(line_ends: Vocabulary) -> None:
    assert find_regex(line_ends, "a$").ids == (97,)  # not "a\\n"
    assert find_regex(line_ends, r"a\n$").ids == (256,)  # not "a\\n\\n"


def test_an_escaped_or_class_dollar_is_a_dollar(line_ends: Vocabulary) -> None:
    assert find_regex(line_ends, r"a\$").ids == find_regex(line_ends, "a[$]").ids == (257,)
    assert find_regex(line_ends, r"[$]$").ids == (36, 257)


def test_in_multiline_mode_dollar_is_any_lines_end(line_ends: Vocabulary) -> None:
    assert find_regex(line_ends, "(?m)a$").ids == (97, 256, 258)
    assert find_regex(line_ends, "(?m:^$)").ids == (10, 256, 258)


def test_a_bad_regex_with_a_dollar_is_reported_as_typed(gpt2: Vocabulary) -> None:
    """The error's position is in the pattern typed, not in the one searched with."""
    with pytest.raises(SearchError, match="missing \\) at position 5"):
        find_regex(gpt2, "a$$(b")


# ---- ids ----------------------------------------------------------------------------------------


def test_ids_come_back_in_the_order_asked_once_each(gpt2: Vocabulary) -> None:
    assert find_ids(gpt2, "995, 31373 995").ids == (995, 31373)
    assert find_ids(gpt2, "[31373, 995]").ids == (31373, 995)
    assert find_ids(gpt2, "\u0663 \u00b2").not_ids == ("\u0663", "\u00b2")  # not ASCII digits
    huge = "9" * 5_000  # int() refuses over 4,300 digits: a traceback on the page once
    assert find_ids(gpt2, f"5 {huge}") == SearchResult((5,), (huge,))  # a number, no token's
    assert find_ids(gpt2, f"50255-{huge}").ids == (50255, 50256)


def test_id_ranges_and_unknown_ids(gpt2: Vocabulary) -> None:
    result = find_ids(gpt2, "50250 - 50256, 50257, x, 7..5, -1")
    assert result.ids == (*range(50250, 50257), 5, 6, 7)
    assert result.unknown == ("50257",)
    assert result.not_ids == ("x", "-1")


@pytest.mark.slow  # builds the o200k_base explorer index (about 3 s)
def test_unused_o200k_ids_are_unknown() -> None:
    vocab = build_vocabulary(tk.get_encoding("o200k_base"))
    result = find_ids(vocab, "199998 199999")
    assert result.ids == (199999,)  # <|endoftext|>; 199998 is one of o200k's unused ids
    assert result.unknown == ("199998",)


# ---- bytes --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query", ["20 74 68 65", "20746865", "0x20 0x74 0x68 0x65", r"\x20\x74\x68\x65"]
)
def test_bytes_in_any_common_hex_spelling(gpt2: Vocabulary, query: str) -> None:
    found = find_bytes(gpt2, query).ids
    assert found[0] == 262  # " the" itself first
    assert set(found) == ids_of(gpt2, lambda p: b" the" in p)


def test_bytes_find_pieces_of_characters(gpt2: Vocabulary) -> None:
    found = find_bytes(gpt2, "F0 9F").ids
    assert found
    assert set(found) == ids_of(gpt2, lambda p: b"\xf0\x9f" in p)


@pytest.mark.parametrize("query", ["2", "20 7", "zz", "2g"])
def test_malformed_hex_is_a_clear_error(gpt2: Vocabulary, query: str) -> None:
    with pytest.raises(SearchError, match="hex"):
        find_bytes(gpt2, query)


def test_parse_hex() -> None:
    assert parse_hex("F0 9f, 0x98:80") == b"\xf0\x9f\x98\x80"


def test_search_dispatches_on_the_mode(gpt2: Vocabulary) -> None:
    assert search(gpt2, "text", "Magikarp") == find_text(gpt2, "Magikarp")
    assert search(gpt2, "regex", "karp$", ignore_case=True) == find_regex(
        gpt2, "KARP$", ignore_case=True
    )
    assert search(gpt2, "id", "995") == find_ids(gpt2, "995")
    assert search(gpt2, "bytes", "20") == find_bytes(gpt2, "20")


# ---- curiosities and text -----------------------------------------------------------------------


def test_curiosities_are_computed_from_the_vocabulary(gpt2: Vocabulary) -> None:
    enc = gpt2.enc
    found = gpt2.curiosities
    lengths = [len(enc.token_bytes(i)) for i in found.longest]
    assert lengths == sorted(lengths, reverse=True)
    assert len(found.longest) == 50_256  # every ordinary token; <|endoftext|> is special
    assert set(found.not_utf8) == ids_of(gpt2, lambda p: not _decodes(p)) - {enc.eot_token}
    assert found.last_learned[:2] == (50255, 50254)
    assert len(found.last_learned) == 50_000
    spaced = ids_of(gpt2, lambda p: p.startswith(b" "))
    assert set(found.leading_space) == spaced
    assert len(found.leading_space) + len(found.no_leading_space) == 50_256


def _decodes(piece: bytes) -> bool:
    try:
        piece.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@given(st.binary(max_size=12))
def test_utf8_runs_cover_the_bytes_and_split_only_at_bad_bytes(piece: bytes) -> None:
    runs = utf8_runs(piece)
    assert b"".join(r.encode("utf-8") if isinstance(r, str) else r for r in runs) == piece
    for left, right in pairwise(runs):
        assert type(left) is not type(right)  # runs alternate: text, bad bytes, text...
    for run in runs:
        if isinstance(run, bytes):
            assert not _decodes(run[:1])
