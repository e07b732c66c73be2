"""The Training tie rule written as plainly as possible, as the reference `tk.train` must equal.

Every step recounts every pair of every chunk occurrence (no deduplication, no index, no heap),
exactly as the rule reads, and the benchmark times this same function as the "naive" trainer.
"""

import heapq
from dataclasses import dataclass
from itertools import pairwise

import regex


@dataclass(frozen=True)
class NaiveStep:
    """What the reference knows about one merge; `tk.train`'s record must hold the same."""

    pair: tuple[int, int]
    count: int
    rivals: tuple[tuple[tuple[int, int], int], ...]  # the next 10 pairs, best first
    tokens_after: int


def naive_chunks(
    text: str, pattern: str | None, special_tokens: tuple[str, ...]
) -> list[list[int]]:
    """Every chunk occurrence of `text` as byte values, cut at special tokens (longest first).

    Specials are split off one after another with `str.split`, so tests must not use special
    tokens that overlap each other in the text.
    """
    pieces = [text]
    for special in sorted(special_tokens, key=len, reverse=True):
        pieces = [part for piece in pieces for part in piece.split(special)]
    chunks = []
    for piece in pieces:
        found = [piece] if pattern is None else regex.findall(pattern, piece)
        chunks += [list(chunk.encode("utf-8")) for chunk in found if chunk]
    return chunks


def naive_train(
    text: str, n_merges: int, *, pattern: str | None, special_tokens: tuple[str, ...] = ()
) -> list[NaiveStep]:
    """Merge the most frequent pair (ties: smallest pair) `n_merges` times, recounting each step."""
    chunks = naive_chunks(text, pattern, special_tokens)
    steps = []
    for index in range(n_merges):
        counts: dict[tuple[int, int], int] = {}
        for ids in chunks:
            for pair in pairwise(ids):
                counts[pair] = counts.get(pair, 0) + 1
        # The 11 best, best first: highest count, then smallest (left, right).
        ranked = heapq.nsmallest(11, counts.items(), key=lambda item: (-item[1], item[0]))
        if not ranked or ranked[0][1] < 2:
            break
        pair, count = ranked[0]
        chunks = [merge_pair(ids, pair, 256 + index) for ids in chunks]
        tokens_after = sum(len(ids) for ids in chunks)
        steps.append(NaiveStep(pair, count, tuple(ranked[1:]), tokens_after))
    return steps


def merge_pair(ids: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """Replace each occurrence of `pair`, left to right without overlap: aaa -> [new, a]."""
    out = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
