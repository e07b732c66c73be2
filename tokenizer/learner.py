"""The BPE training loop: learn merges from counted chunks, touching only what each merge changes.

Recounting every pair of the corpus per merge is what makes textbook trainers slow (minutes for a
few thousand merges). Here the work per merge is proportional to the chunks that hold the merged
pair:

- ``counts``: pair -> occurrences in the corpus (adjacent positions, overlaps such as the two in
  "aaa" included), each distinct chunk weighted by how often it occurs; 0 for a pair gone;
- ``where``: pair -> the chunks that hold it, so a merge visits only those (an entry can be stale:
  the chunk may have lost the pair since, and is then skipped after one scan). They are lists,
  not sets, as lists are cheaper to make and to grow. A chunk is listed once per occurrence it
  gained (and visited once), so a pair's count is the sum of its list's weights when it appears;
- ``heap``: a lazy max-heap of (count, pair), one entry per pair. A pair's count only falls once
  the pair exists (a merge creates pairs only with its new token), so a pair is pushed when it
  appears and falls are not pushed: an entry's count is an upper bound, corrected when the
  entry comes up (`_best`), and dropped then if its pair is gone.

Pairs are packed into one int, ``left << ID_BITS | right``, and heap entries into one int,
``pair - (count << PAIR_BITS)`` (`tokenizer.train_record`'s packing: the record keeps each step's
runners-up as such entries), so dict keys hash and heap entries compare as plain ints. The
smallest entry is then the highest count, ties to the smallest ``(left, right)``: the Training tie
rule.
"""

import bisect
import heapq
from collections import defaultdict
from collections.abc import Callable
from itertools import pairwise
from operator import mul

from tokenizer.train_record import (
    ID_BITS,
    ID_MASK,
    PAIR_BITS,
    PAIR_MASK,
    RIVALS,
    TrainingRecord,
    TrainStep,
)

MAX_ID = ID_MASK  # the largest id a pair key holds

OnStep = Callable[[TrainStep], object]


def learn_merges(
    words: list[list[int]], freqs: list[int], n_merges: int, on_step: OnStep | None = None
) -> TrainingRecord:
    """Learn up to `n_merges` merges from distinct chunks (`words`, as byte ids) and their counts.

    `words` is rewritten in place as merges apply. Training stops early when the best pair occurs
    less than twice, or when `on_step` returns False.

    >>> learn_merges([[97, 97, 97, 98]], [2], 2).merges  # then (256, 97) and (97, 98) tie at 2
    [(97, 97), (97, 98)]
    """
    if 256 + n_merges - 1 > MAX_ID:
        raise ValueError(f"at most {MAX_ID - 255:,} merges fit in a pair key")
    counts, where = _count_pairs(words, freqs)
    heap = [pair - (count << PAIR_BITS) for pair, count in counts.items()]
    heapq.heapify(heap)
    tokens = sum(map(mul, map(len, words), freqs))
    record = TrainingRecord(tokens_before=tokens, requested=n_merges)
    rivals: list[int] = []  # the last step's runners-up: off the heap, still in the race

    for index in range(n_merges):
        ranked = _best(heap, rivals, counts, RIVALS + 1)
        if not ranked or _count(ranked[0]) < 2:
            record.stop = "exhausted"
            break
        best, rivals = ranked[0], ranked[1:]
        pair = best & PAIR_MASK
        new_id = 256 + index
        tokens -= _apply_merge(pair, new_id, words, freqs, counts, where, heap)
        record.add(_unpack(pair), _count(best), tokens, rivals)
        if on_step is not None and on_step(record.step(index)) is False:
            record.stop = "cancelled"
            break
    record.settle()
    return record


def _count_pairs(
    words: list[list[int]], freqs: list[int]
) -> tuple[dict[int, int], defaultdict[int, list[int]]]:
    """Which words hold each adjacent pair, once per occurrence, and the pairs' weighted counts.

    A count is the sum of its word list's frequencies, summed in C once the lists are made.
    """
    where: defaultdict[int, list[int]] = defaultdict(list)
    for index, word in enumerate(words):
        for left, right in pairwise(word):
            where[left << ID_BITS | right].append(index)  # twice if held twice: visited once
    freq = freqs.__getitem__
    return {pair: sum(map(freq, holders)) for pair, holders in where.items()}, where


def _best(heap: list[int], staged: list[int], counts: dict[int, int], limit: int) -> list[int]:
    """The `limit` best heap entries, best first, from `staged` entries and the heap.

    The runners-up of one step are mostly the runners-up of the next, so they are kept off the
    heap (`staged`) rather than pushed back and popped again: only entries that beat them come
    off the heap. An entry's count is an upper bound (see the module's docstring), so one found
    too high goes back with its pair's count now, and one whose pair is gone (0) is dropped.
    """
    actual = counts.get
    found: list[int] = []
    for entry in staged:  # in order
        count = actual(entry & PAIR_MASK)
        if count == -(entry >> PAIR_BITS):
            found.append(entry)
        elif count:
            heapq.heappush(heap, (entry & PAIR_MASK) - (count << PAIR_BITS))
    while heap and (len(found) < limit or heap[0] < found[limit - 1]):
        entry = heapq.heappop(heap)
        count = actual(entry & PAIR_MASK)
        if count == -(entry >> PAIR_BITS):
            bisect.insort(found, entry)
        elif count:
            heapq.heappush(heap, (entry & PAIR_MASK) - (count << PAIR_BITS))
    for entry in found[limit:]:  # beaten: back in the race
        heapq.heappush(heap, entry)
    return found[:limit]


def _count(entry: int) -> int:
    """The count of a heap entry."""
    return -(entry >> PAIR_BITS)


def _apply_merge(
    pair: int,
    new_id: int,
    words: list[list[int]],
    freqs: list[int],
    counts: dict[int, int],
    where: defaultdict[int, list[int]],
    heap: list[int],
) -> int:
    """Merge `pair` into `new_id` in every word holding it; return how many tokens that removed.

    Occurrences are replaced left to right without overlap ("aaa" -> [new, "a"]). Each one changes
    only the pairs at its edges: (before, left) and (right, after) lose it, (before, new) and
    (new, after) gain it. Losses are taken from `counts` at once. Gains, all pairs with the new
    token and so all new, are listed first (their `where` lists, one entry per occurrence), then
    counted from those lists in C and pushed on the heap once each. Words are rewritten in place
    in one pass, so a long one costs no more than its length.
    """
    left, right = pair >> ID_BITS, pair & ID_MASK
    right_high, new_high, new_only = right << ID_BITS, new_id << ID_BITS, (new_id,)
    fresh: defaultdict[int, list[int]] = defaultdict(list)  # `where` of the new pairs
    undone = 0  # weight of (new, left) gained and lost again in one word ("abab")
    removed = 0
    for index in dict.fromkeys(where.pop(pair)):  # "aaaa" lists its word once per new (X, X)
        word = words[index]
        hits = word.count(left)  # occurrences of `left`: each is looked at once, no scan fails
        if not hits:
            continue  # a stale `where` entry
        freq = freqs[index]
        if hits == 1:
            # Most visits: `left` once, so at most one occurrence and no gap to close. The loop
            # below does the same for any number of occurrences, at twice the cost.
            at = word.index(left)
            end = len(word) - 2
            if at > end or word[at + 1] != right:
                continue
            if at:
                before = word[at - 1] << ID_BITS
                counts[before | left] -= freq
                fresh[before | new_id].append(index)
            if at < end:
                after = word[at + 2]
                counts[right_high | after] -= freq
                fresh[new_high | after].append(index)
            word[at : at + 2] = new_only
            removed += freq
            continue
        last = len(word) - 1
        kept = 0  # word[:kept] is rewritten, new tokens included
        copied = start = 0  # word[copied:] is not rewritten yet; no occurrence before `start`
        while hits:
            at = word.index(left, start)
            hits -= 1
            start = at + 1
            if at == last or word[start] != right:
                continue
            if left == right:
                hits -= 1  # word[at + 1] is consumed by this occurrence
            if at > copied and kept < copied:  # move the tokens between occurrences down
                word[kept : kept + at - copied] = word[copied:at]
            kept += at - copied
            if kept:
                # Subtle: `before` may be the new token of the previous occurrence ("abab").
                before = word[kept - 1]
                if before == new_id:  # that (new, left) was only just gained
                    undone += freq
                else:
                    counts[before << ID_BITS | left] -= freq
                fresh[before << ID_BITS | new_id].append(index)
            if at < last - 1:
                after = word[at + 2]
                counts[right_high | after] -= freq  # `pair` itself in "aaa": deleted below
                fresh[new_high | after].append(index)
            word[kept] = new_id
            kept += 1
            copied = start = at + 2
            removed += freq
        if copied:  # the word held the pair, not just `left`: close the gap before the rest
            del word[kept:copied]
    del counts[pair]
    weight = freqs.__getitem__
    lost_again = new_high | left
    for key, holders in fresh.items():
        count = sum(map(weight, holders))
        if key == lost_again:
            count -= undone
        if count:
            counts[key] = count
            heapq.heappush(heap, key - (count << PAIR_BITS))
        where[key] = holders
    return removed


def _unpack(pair: int) -> tuple[int, int]:
    """``(left, right)`` of a packed pair."""
    return pair >> ID_BITS, pair & ID_MASK
