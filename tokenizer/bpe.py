"""The byte-pair merge loops: how one pre-tokenized chunk becomes token ids.

All loops follow one rule, tiktoken's: repeatedly merge the adjacent pair whose merged token has the
lowest rank, the leftmost one on ties, until no adjacent pair forms a token. Ranks are token ids, so
"lowest rank" means "learned earliest". Three implementations share that rule:

- `merge_bytes`: the fast loop for vocabularies given as ``bytes -> rank`` (GPT-2, cl100k, o200k).
- `merge_ids`: the same loop for vocabularies given as a merge list ``(left, right) -> new id``
  (trained ones, where two merges may even produce the same bytes).
- `merge_long`: a heap over a linked list, O(n log n), for chunks so long that the O(n^2) loops
  above would stall (1 MB of one letter is a single chunk).

`trace_steps` replays a chunk the way GPT-2's `encoder.py` does, one merge *rule* per step (every
occurrence of the best pair at once), which is what the teaching tables show.
"""

import heapq
from collections.abc import Callable
from dataclasses import dataclass

# Above this many bytes a chunk goes to the heap loop: below it the quadratic loops are faster.
LONG_CHUNK = 256

_NO_RANK = 1 << 62  # larger than any rank; `min()` over ranks then needs no None checks

PairLookup = Callable[[int, int], "int | None"]


@dataclass(frozen=True)
class MergeStep:
    """One row of a merge table: the pieces before the step and the rank of each adjacent pair."""

    parts: tuple[bytes, ...]
    ranks: tuple[int | None, ...]
    best: int | None


@dataclass(frozen=True)
class ChunkTrace:
    """Every merge step of one chunk, from single bytes to the final tokens."""

    text: str
    steps: tuple[MergeStep, ...]
    ids: tuple[int, ...]


def merge_bytes(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    """BPE-encode one chunk with a ``bytes -> rank`` vocabulary.

    >>> merge_bytes(b"aab", {b"a": 0, b"b": 1, b"aa": 2, b"ab": 3, b"aab": 4})
    [4]
    """
    whole = ranks.get(piece)
    if whole is not None:  # the common case: the chunk is a token (tiktoken takes it too)
        return [whole]
    if len(piece) > LONG_CHUNK:
        return merge_long([ranks[piece[i : i + 1]] for i in range(len(piece))], _bytes_lookup(ranks))
    get = ranks.get
    parts = [piece[i : i + 1] for i in range(len(piece))]
    # pair_ranks[i] is the rank of parts[i] + parts[i + 1]; only the neighbours of a merge change.
    pair_ranks = [get(parts[i] + parts[i + 1], _NO_RANK) for i in range(len(parts) - 1)]
    while pair_ranks:
        best = min(pair_ranks)
        if best == _NO_RANK:
            break
        i = pair_ranks.index(best)  # index() finds the leftmost: tiktoken's tie rule
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
        del pair_ranks[i]
        if i:
            pair_ranks[i - 1] = get(parts[i - 1] + parts[i], _NO_RANK)
        if i < len(pair_ranks):
            pair_ranks[i] = get(parts[i] + parts[i + 1], _NO_RANK)
    return [ranks[p] for p in parts]


def merge_ids(ids: list[int], pairs: dict[tuple[int, int], int]) -> list[int]:
    """BPE-encode a chunk, given as byte ids, with a merge list ``(left, right) -> new id``.

    New ids grow with merge order, so the lowest new id is the earliest merge.

    >>> merge_ids([97, 97, 97], {(97, 97): 256})
    [256, 97]
    """
    if len(ids) > LONG_CHUNK:
        return merge_long(ids, lambda a, b: pairs.get((a, b)))
    parts = list(ids)
    get = pairs.get
    pair_ids = [get((parts[i], parts[i + 1]), _NO_RANK) for i in range(len(parts) - 1)]
    while pair_ids:
        best = min(pair_ids)
        if best == _NO_RANK:
            break
        i = pair_ids.index(best)
        parts[i : i + 2] = [best]
        del pair_ids[i]
        if i:
            pair_ids[i - 1] = get((parts[i - 1], parts[i]), _NO_RANK)
        if i < len(pair_ids):
            pair_ids[i] = get((parts[i], parts[i + 1]), _NO_RANK)
    return parts


def merge_long(ids: list[int], merged: PairLookup) -> list[int]:
    """The same merges as the loops above, in O(n log n) for very long chunks.

    The parts form a doubly linked list over their start positions; a heap holds every adjacent
    pair that forms a token, keyed by (merged id, position) so the pops follow the lowest-rank,
    leftmost-first rule exactly. Entries made stale by an earlier merge are skipped when popped.

    >>> merge_long([97] * 5, lambda a, b: {(97, 97): 256, (256, 256): 257}.get((a, b)))
    [257, 97]
    """
    n = len(ids)
    value = list(ids)
    nxt = list(range(1, n + 1))  # n marks the end
    prv = list(range(-1, n - 1))
    version = [0] * n  # bumped whenever a node changes, to recognise stale heap entries
    heap: list[tuple[int, int, int, int, int]] = []

    def push(i: int) -> None:
        j = nxt[i]
        if j < n:
            new = merged(value[i], value[j])
            if new is not None:
                heapq.heappush(heap, (new, i, version[i], j, version[j]))

    for i in range(n - 1):
        push(i)
    while heap:
        new, i, vi, j, vj = heapq.heappop(heap)
        if version[i] != vi or version[j] != vj or nxt[i] != j:
            continue
        value[i] = new
        version[i] += 1
        version[j] += 1
        nxt[i] = nxt[j]
        if nxt[j] < n:
            prv[nxt[j]] = i
        if prv[i] >= 0:
            push(prv[i])
        push(i)
    out = []
    i = 0
    while i < n:
        out.append(value[i])
        i = nxt[i]
    return out


def _bytes_lookup(ranks: dict[bytes, int]) -> PairLookup:
    """Adapt a ``bytes -> rank`` vocabulary to the id-pair lookup of `merge_long`."""
    decoder = {rank: token for token, rank in ranks.items()}
    return lambda a, b: ranks.get(decoder[a] + decoder[b])


def trace_steps(
    ids: list[int], merged: PairLookup, token_bytes: Callable[[int], bytes]
) -> tuple[tuple[MergeStep, ...], tuple[int, ...]]:
    """Replay a chunk one merge rule at a time, recording every step for the merge tables.

    Each step ranks every adjacent pair, then merges *all* non-overlapping occurrences of the best
    pair, left to right, as GPT-2's `encoder.py` does. Ranks are shown 0-based (`new id - 256`).
    """
    parts = list(ids)
    steps = []
    while True:
        news = [merged(a, b) for a, b in zip(parts, parts[1:])]
        found = [x for x in news if x is not None]
        best_new = min(found) if found else None
        pieces = tuple(token_bytes(p) for p in parts)
        ranks = tuple(None if x is None else x - 256 for x in news)
        steps.append(MergeStep(pieces, ranks, None if best_new is None else best_new - 256))
        if best_new is None:
            return tuple(steps), tuple(parts)
        out = []
        i = 0
        while i < len(parts):
            if i + 1 < len(parts) and news[i] == best_new:
                out.append(best_new)
                i += 2
            else:
                out.append(parts[i])
                i += 1
        parts = out
