"""Decoding, raw token bytes and character offsets."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from tests.core.texts import texts

NAMES = tk.list_encodings()


@pytest.mark.parametrize("name", NAMES)
@given(text=texts)
def test_round_trip_and_offsets(name: str, text: str) -> None:
    enc = tk.get_encoding(name)
    result = enc.tokenize(text, allowed_special="all")
    assert enc.decode(list(result.ids)) == result.text
    assert enc.decode_bytes(list(result.ids)) == result.text.encode("utf-8")
    assert list(result.ids) == enc.encode(text, allowed_special="all")
    assert b"".join(result.pieces) == result.text.encode("utf-8")
    # Byte spans tile the bytes; character spans are in order and cover the text.
    assert [end for _, end in result.byte_spans][-1:] == (
        [len(result.text.encode())] if text else []
    )
    for (start, end), piece, (c0, c1) in zip(
        result.byte_spans, result.pieces, result.char_spans, strict=True
    ):
        assert end - start == len(piece)
        assert 0 <= c0 < c1 <= len(result.text)
        chars = result.text[c0:c1].encode("utf-8")
        assert piece in chars  # the token's bytes lie inside the characters it touches
    starts = [c0 for c0, _ in result.char_spans]
    assert starts == sorted(starts)


def touched_characters(text: str, start: int, end: int) -> tuple[int, int]:
    """The characters whose bytes meet bytes [start, end) of `text`, by walking every one."""
    touched, offset = [], 0
    for index, char in enumerate(text):
        width = len(char.encode("utf-8"))
        if offset < end and start < offset + width:
            touched.append(index)
        offset += width
    return touched[0], touched[-1] + 1


@pytest.mark.parametrize("name", NAMES)
@given(text=texts)
def test_character_spans_are_the_characters_each_token_touches(name: str, text: str) -> None:
    result = tk.get_encoding(name).tokenize(text, allowed_special="all")
    expected = [touched_characters(result.text, *span) for span in result.byte_spans]
    assert list(result.char_spans) == expected


def test_split_emoji_is_shown_honestly() -> None:
    enc = tk.get_encoding("gpt2")
    result = enc.tokenize("👋")
    assert b"".join(result.pieces) == "👋".encode()
    assert len(result.ids) >= 2
    assert all(span == (0, 1) for span in result.char_spans)


def test_invalid_utf8_decodes_to_replacement() -> None:
    enc = tk.get_encoding("gpt2")
    first = enc.encode("👋")[0]
    assert enc.token_bytes(first) == b"\xf0\x9f\x91"
    assert enc.decode([first]) == "\ufffd"
    assert enc.decode_bytes([first]) == b"\xf0\x9f\x91"


def test_lone_surrogate_is_repaired() -> None:
    enc = tk.get_encoding("cl100k_base")
    assert enc.decode(enc.encode("a\ud800b")) == "a\ufffdb"
    assert enc.tokenize("a\udfffb").text == "a\ufffdb"


def test_unknown_id_is_named() -> None:
    enc = tk.get_encoding("o200k_base")
    with pytest.raises(KeyError, match="199998"):
        enc.decode([199998])
    with pytest.raises(KeyError, match="-1"):
        enc.token_bytes(-1)
    assert not enc.is_valid_id(10**9)


def test_merge_rank_and_specials() -> None:
    enc = tk.get_encoding("gpt2")
    assert enc.merge_rank(enc.encode(" the")[0]) == enc.encode(" the")[0] - 256
    assert enc.merge_rank(enc.encode("!")[0]) is None
    assert enc.merge_rank(50256) is None
    assert enc.is_special(50256)
    assert enc.decode([50256]) == "<|endoftext|>"


@pytest.mark.parametrize("name", NAMES)
@given(parts=st.lists(st.tuples(texts, st.booleans()), max_size=5))
def test_pieces_are_encoded_one_by_one(name: str, parts: list[tuple[str, bool]]) -> None:
    """`tokenize_pieces`: each ordinary piece is `encode_ordinary` of it alone, each special piece
    its token, and the result is located like `tokenize`'s (a chat read piece by piece)."""
    enc = tk.get_encoding(name)
    eot = next(iter(enc.special_tokens))
    pieces = [(eot, True) if special else (text, False) for text, special in parts]
    result = enc.tokenize_pieces(pieces)
    expected = [
        i
        for text, special in pieces
        for i in ([enc.special_tokens[text]] if special else enc.encode_ordinary(text))
    ]
    assert list(result.ids) == expected
    assert b"".join(result.pieces) == result.text.encode("utf-8")
    assert enc.decode(list(result.ids)) == result.text
    if len(pieces) == 1 and not pieces[0][1]:
        assert result == enc.tokenize(pieces[0][0])


@pytest.mark.parametrize("name", NAMES)
@given(parts=st.lists(texts, max_size=4))
def test_texts_tokenized_one_by_one_join_as_if_located_together(
    name: str, parts: list[str]
) -> None:
    """`Tokenized.joined` shifts each part's spans past the parts before it: the same result as
    `tokenize_pieces`, which locates the pieces' ids in the joined text in one go."""
    enc = tk.get_encoding(name)
    joined = tk.Tokenized.joined([enc.tokenize_pieces([(part, False)]) for part in parts])
    assert joined == enc.tokenize_pieces([(part, False) for part in parts])


def test_a_piece_marked_special_must_be_a_special_token() -> None:
    enc = tk.get_encoding("gpt2")
    refused = re.escape("'<|im_start|>' is not a special token of gpt2")
    with pytest.raises(ValueError, match=refused):
        enc.tokenize_pieces([("<|im_start|>", True)])
    assert enc.tokenize_pieces([("<|im_start|>", False)]).ids == tuple(enc.encode("<|im_start|>"))
