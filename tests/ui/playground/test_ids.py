"""Decode mode: reading pasted ids and rebuilding their tokens."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from ui.common.tokens import special_texts_in, tokenized_from_ids
from ui.playground.ids import (
    ParsedIds,
    id_ranges,
    parse_ids,
    unknown_ids,
    valid_ids_sentence,
)


@pytest.mark.parametrize(
    "raw",
    [
        "31373 995",
        "31373, 995",
        "31373,995",
        "[31373, 995]",
        "31373\n995\n",
        " [31373 995 ",
        "31373;995",
    ],
)
def test_accepts_the_usual_ways_of_writing_ids(raw: str) -> None:
    assert parse_ids(raw) == ParsedIds((31373, 995), ())


def test_names_what_is_not_an_id() -> None:
    assert parse_ids("1 two 3.5 0x10 4") == ParsedIds((1, 4), ("two", "3.5", "0x10"))
    assert parse_ids('[1, "2", null, true, [3]]') == ParsedIds((1,), ('"2"', "null", "true", "[3]"))


def test_empty_input_is_no_ids() -> None:
    assert parse_ids("  \n ") == ParsedIds((), ())


def test_unknown_ids_are_out_of_range_or_unused() -> None:
    gpt2 = tk.get_encoding("gpt2")
    typed = [0, 10**12, 50256, 50257, -1, 10**12, 50257]
    assert unknown_ids(gpt2, typed) == [10**12, 50257, -1]  # each once, in the order typed


@given(st.text(max_size=40))
def test_ids_rebuild_exactly_what_encoding_produced(text: str) -> None:
    enc = tk.get_encoding("gpt2")
    tok = enc.tokenize(text)
    assert tokenized_from_ids(enc, tok.ids) == tok


# ---- decoding what is not UTF-8: as tiktoken's decode(errors="replace") -----------------------


@pytest.mark.parametrize(
    "ids",
    [
        [64, 41840, 65],  # "a", the first 3 bytes of 👋, "b": one U+FFFD, not three
        [41840, 41840],  # two cut-off sequences in a row: two U+FFFD
        [233, 233, 233],  # three lone continuation bytes: three U+FFFD
        [31373, 41840],  # cut off at the very end
        [64, 41840, 233, 65],  # the whole emoji after all: no U+FFFD
    ],
)
def test_undecodable_bytes_read_as_tiktoken_decodes_them(ids: list[int]) -> None:
    enc = tk.get_encoding("gpt2")
    tok = tokenized_from_ids(enc, ids)
    assert tok.text == enc.decode_bytes(ids).decode("utf-8", errors="replace")
    # Every token still points at the characters its bytes fall in.
    for (first, last), piece in zip(tok.char_spans, tok.pieces, strict=True):
        assert 0 <= first < last <= len(tok.text) and piece


def test_a_cut_sequence_shared_by_two_tokens_is_one_character_of_both() -> None:
    enc = tk.get_encoding("gpt2")
    tok = tokenized_from_ids(enc, [64, 8582, 239, 65])  # "a", F0 9F, 91 (no 4th byte), "b"
    assert [enc.token_bytes(i) for i in tok.ids[1:3]] == [b"\xf0\x9f", b"\x91"]
    assert tok.text == "a\ufffdb"
    assert tok.char_spans == ((0, 1), (1, 2), (1, 2), (2, 3))


@given(st.lists(st.integers(0, 50_256), max_size=12))
def test_any_ids_decode_as_bytes_decode_replace_does(ids: list[int]) -> None:
    enc = tk.get_encoding("gpt2")
    tok = tokenized_from_ids(enc, ids)
    assert tok.text == enc.decode_bytes(ids).decode("utf-8", errors="replace")
    assert len(tok.char_spans) == len(ids)
    assert all(0 <= a < b <= len(tok.text) for a, b in tok.char_spans)


# ---- what the decode error says about an encoding's ids -----------------------------------------


def test_the_valid_ids_are_stated_exactly_for_every_encoding() -> None:
    assert valid_ids_sentence("gpt2", 50257, []) == "gpt2 has the ids 0 to 50,256."
    o200k = tk.get_encoding("o200k_base")
    unused = [i for i in range(o200k.n_vocab) if not o200k.is_valid_id(i)]
    assert valid_ids_sentence("o200k_base", o200k.n_vocab, unused) == (
        "o200k_base has the ids 0 to 200,018, except 199,998 and 200,000–200,017 (unused)."
    )
    cl100k = tk.get_encoding("cl100k_base")
    unused = [i for i in range(cl100k.n_vocab) if not cl100k.is_valid_id(i)]
    assert valid_ids_sentence("cl100k_base", cl100k.n_vocab, unused) == (
        "cl100k_base has the ids 0 to 100,276, except 100,256 and 100,261–100,275 (unused)."
    )


def test_many_unused_ids_are_summarised_as_runs() -> None:
    sentence = valid_ids_sentence("mine", 100, [3, 5, 6, 7, 10, 20, 30, 40, 50, 60])
    assert sentence == (
        "mine has the ids 0 to 99, except 3, 5–7, 10, 20, 30 and 40 and 2 more runs "
        "(10 ids in all) (unused)."
    )
    assert id_ranges([7, 1, 2, 3]) == [(1, 3), (7, 7)]


# ---- special-token text typed as ordinary text --------------------------------------------------


def test_special_texts_are_found_in_order_of_appearance() -> None:
    cl100k = tk.get_encoding("cl100k_base")
    text = "a <|fim_middle|> b <|endoftext|> c <|endoftext|>"
    assert special_texts_in(text, cl100k.special_tokens) == ["<|fim_middle|>", "<|endoftext|>"]
    assert special_texts_in("plain text < | >", cl100k.special_tokens) == []


def test_only_ascii_digits_are_ids() -> None:
    assert parse_ids("3 \u0663 \u00b2") == ParsedIds(ids=(3,), malformed=("\u0663", "\u00b2"))


def test_a_number_too_long_for_any_vocabulary_is_not_an_id() -> None:
    """Python refuses to read an int of over 4,300 digits: the page showed its traceback."""
    huge = "9" * 5_000
    assert parse_ids(f"1 {huge}") == ParsedIds((1,), (huge,))
    assert parse_ids(f"[1, {huge}]") == ParsedIds((1,), (huge,))


def test_brackets_nested_past_pythons_stack_are_no_ids() -> None:
    """json.loads raises RecursionError, not ValueError, there: the page showed its traceback."""
    assert parse_ids("[" * 5_000 + "7") == ParsedIds((7,), ())
