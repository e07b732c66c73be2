"""Long chunks: rounds of `str.replace` and a heap over a linked list, exact and not quadratic.

A long chunk of few distinct bytes (1 MB of one letter) is merged a rank at a time in C
(`bpe.merge_rounds`), any other long chunk by the heap (`bpe.merge_long`); both must give the
ids of the simple pair-by-pair loop, and their time must grow with the chunk's length, not its
square.
"""

import random
import time
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from tests.cases import TIKTOKENS, slow_if
from tests.oracles import oracle_ids
from tokenizer import bpe


def _quadratic(parts: list, ranks: dict, fuse: object) -> list:
    """The short loop with the long-chunk switch turned off."""
    saved, bpe.LONG_CHUNK = bpe.LONG_CHUNK, 10**9
    try:
        return bpe.merge(parts, ranks, fuse)
    finally:
        bpe.LONG_CHUNK = saved


# The merge loops do not depend on the vocabulary: the open models run them in CI only.
TIKTOKEN_FIRST = [slow_if(name not in TIKTOKENS, name) for name in tk.list_encodings()]


@pytest.mark.parametrize("name", TIKTOKEN_FIRST)
@given(seed=st.integers(0, 10**6), alphabet=st.sampled_from(["ab", "a", " ", "xyz=+/", "é👋 "]))
def test_heap_equals_simple_loop(name: str, seed: int, alphabet: str) -> None:
    enc = tk.get_encoding(name)
    rng = random.Random(seed)
    piece = "".join(rng.choice(alphabet) for _ in range(rng.randint(300, 900))).encode()
    parts = [piece[i : i + 1] for i in range(len(piece))]
    assert bpe.merge_long(list(parts), enc._ranks, None) == _quadratic(parts, enc._ranks, None)


@given(ids=st.lists(st.integers(97, 99), min_size=2, max_size=600))
def test_heap_equals_simple_loop_for_merge_lists(ids: list[int]) -> None:
    """Merge-list vocabularies (trained ones) take the same two paths."""
    pairs = {(97, 97): 256, (98, 97): 257, (256, 256): 258, (99, 256): 259, (257, 97): 260}
    parts = [(i,) for i in ids]
    fuse = bpe._as_part
    assert bpe.merge_long(list(parts), pairs, fuse) == _quadratic(parts, pairs, fuse)


@pytest.mark.parametrize("name", tk.list_encodings())
@pytest.mark.parametrize(
    "text",
    [
        "a" * 20_000,
        " " * 20_000,
        "👋" * 3_000,
        "".join(
            random.Random(7).choice(
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
            )
            for _ in range(20_000)
        ),
    ],
    ids=["letters", "spaces", "emoji", "base64"],
)
def test_long_inputs_match_oracle(name: str, text: str) -> None:
    assert tk.get_encoding(name).encode_ordinary(text) == oracle_ids(name, text)


@pytest.mark.parametrize("name", TIKTOKEN_FIRST)
@given(
    seed=st.integers(0, 10**6),
    alphabet=st.sampled_from(["a", "ab", "aab", " ", " \n", "0", "01", "xyzw", "é", "👋"]),
    period=st.integers(1, 7),
)
def test_rounds_equal_the_simple_loop(name: str, seed: int, alphabet: str, period: int) -> None:
    """Repetitive chunks (what rounds serve), random or periodic, of two to five kinds of byte."""
    enc = tk.get_encoding(name)
    rng = random.Random(seed)
    unit = "".join(rng.choice(alphabet) for _ in range(period))
    text = unit * rng.randint(300 // period, 800 // period) + "".join(
        rng.choice(alphabet) for _ in range(rng.randint(0, 200))
    )
    piece = text.encode()
    expected = [enc._ranks[p] for p in _quadratic([bytes([b]) for b in piece], enc._ranks, None)]
    assert bpe.merge_bytes(piece, enc._ranks) == expected


@given(ids=st.lists(st.sampled_from([97, 98, 99]), min_size=257, max_size=600))
def test_rounds_equal_the_simple_loop_for_merge_lists(ids: list[int]) -> None:
    pairs = {(97, 97): 256, (98, 97): 257, (256, 256): 258, (99, 256): 259, (257, 97): 260}
    pairs[(97, 260)] = 261  # made from a token the round before it may have made
    expected = [p[0] for p in _quadratic([(i,) for i in ids], pairs, bpe._as_part)]
    assert bpe.merge_ids(list(ids), pairs) == expected


def seconds(work: Callable[[], object]) -> float:
    """The least CPU time of three runs: other processes on the machine hardly count."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return max(best, 1e-4)


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda n: "a" * n, id="one letter"),
        pytest.param(lambda n: "ab" * (n // 2), id="two letters", marks=pytest.mark.slow),
        pytest.param(
            lambda n: "a b " * (n // 4) + "a" * (n // 2), id="mixed", marks=pytest.mark.slow
        ),
    ],
)
def test_long_single_chunk_is_not_quadratic(make: Callable[[int], str]) -> None:
    """Eight times the text must take about eight times as long, far from a quadratic 64."""
    enc = tk.get_encoding("cl100k_base")
    short, long = make(25_000), make(200_000)

    def encode(text: str) -> Callable[[], object]:
        def run() -> object:
            enc.chunk_cache.clear()
            return enc.encode_ordinary(text)

        return run

    assert seconds(encode(long)) / seconds(encode(short)) < 20


def test_one_megabyte_of_one_letter_round_trips() -> None:
    enc = tk.get_encoding("cl100k_base")
    text = "a" * 1_000_000
    ids = enc.encode_ordinary(text)
    assert enc.decode(ids) == text
    assert len(ids) < len(text) // 4
