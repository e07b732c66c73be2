"""Long chunks use a heap over a linked list; it must give the same ids as the simple loops."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokenizer as tk
from tests.oracles import oracle_ids
from tokenizer import bpe


def _simple(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    """The quadratic loop with the long-chunk switch turned off."""
    saved, bpe.LONG_CHUNK = bpe.LONG_CHUNK, 10**9
    try:
        return bpe.merge_bytes(piece, ranks)
    finally:
        bpe.LONG_CHUNK = saved


@pytest.mark.parametrize("name", tk.list_encodings())
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), alphabet=st.sampled_from(["ab", "a", " ", "xyz=+/", "é👋 "]))
def test_heap_equals_simple_loop(name: str, seed: int, alphabet: str) -> None:
    enc = tk.get_encoding(name)
    rng = random.Random(seed)
    piece = "".join(rng.choice(alphabet) for _ in range(rng.randint(300, 900))).encode()
    byte_ids = [enc._byte_ids[b] for b in piece]
    heap = bpe.merge_long(byte_ids, enc._merged_id)
    assert heap == _simple(piece, enc._ranks)


@pytest.mark.parametrize("name", tk.list_encodings())
@pytest.mark.parametrize(
    "text",
    [
        "a" * 20_000,
        " " * 20_000,
        "👋" * 3_000,
        "".join(random.Random(7).choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
                for _ in range(20_000)),
    ],
    ids=["letters", "spaces", "emoji", "base64"],
)
def test_long_inputs_match_oracle(name: str, text: str) -> None:
    assert tk.get_encoding(name).encode_ordinary(text) == oracle_ids(name, text)


def test_one_megabyte_of_one_letter_round_trips() -> None:
    enc = tk.get_encoding("cl100k_base")
    text = "a" * 1_000_000
    ids = enc.encode_ordinary(text)
    assert enc.decode(ids) == text
    assert len(ids) < len(text) // 4
