"""The step record of a training run: what each merge was and what it beat, for replay.

A teacher replays training one merge at a time, so every step keeps the chosen pair, its count, the
pairs that came next (the "race" it won) and the corpus size in tokens after it (the compression
curve). Thousands of steps must stay cheap to hold and to cache, so the record is a handful of flat
`array`s, one slot per step (``RIVALS`` slots for the runners-up), and `step(i)` builds the readable
`TrainStep` view on demand. A token's bytes are not stored: they follow from the merged pairs.
"""

import threading
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

RIVALS = 10
"""How many runner-up pairs each step keeps, best first."""

ID_BITS = 20
"""A pair of ids packed in one int: ``left << ID_BITS | right``."""
PAIR_BITS = 2 * ID_BITS
"""A pair and its count packed in one int, an *entry* of the race: ``pair - (count << PAIR_BITS)``.

The training loop keeps its heap of pairs as entries (the smallest is the best), and hands each
step's runners-up over as entries too; 0 is an empty slot."""
ID_MASK = (1 << ID_BITS) - 1
PAIR_MASK = (1 << PAIR_BITS) - 1

StopReason = Literal["complete", "exhausted", "cancelled"]


@dataclass(frozen=True)
class TrainStep:
    """One merge of a training run, as `on_step` and replays see it."""

    index: int  # 0-based merge number: this merge made token id 256 + index
    pair: tuple[int, int]
    count: int  # how often the pair occurred in the corpus just before this merge
    new_id: int
    piece: bytes  # the new token's bytes
    rivals: tuple[tuple[tuple[int, int], int], ...]  # the next best (pair, count), best first
    tokens_after: int  # corpus size in tokens once this merge is applied everywhere


@dataclass(eq=False)
class TrainingRecord:
    """Every merge of one training run, stored flat (about 184 bytes per step).

    >>> record = TrainingRecord(tokens_before=5, requested=1)
    >>> record.append((97, 97), 2, [((97, 98), 1)], 3)
    >>> record.step(0).piece, record.step(0).tokens_after
    (b'aa', 3)
    """

    tokens_before: int  # corpus size in tokens before any merge (its length in bytes)
    requested: int  # merges asked for: vocab_size - 256 - number of special tokens
    stop: StopReason = "complete"
    lefts: "array[int]" = field(default_factory=lambda: array("i"))
    rights: "array[int]" = field(default_factory=lambda: array("i"))
    counts: "array[int]" = field(default_factory=lambda: array("q"))
    tokens_after: "array[int]" = field(default_factory=lambda: array("q"))
    # Runner-up i of step s sits at index s * RIVALS + i; a count of 0 marks an empty slot.
    rival_lefts: "array[int]" = field(default_factory=lambda: array("i"))
    rival_rights: "array[int]" = field(default_factory=lambda: array("i"))
    rival_counts: "array[int]" = field(default_factory=lambda: array("q"))
    _pieces: list[bytes] = field(
        init=False, repr=False, default_factory=lambda: [bytes([b]) for b in range(256)]
    )
    _pieces_lock: threading.Lock = field(init=False, repr=False, default_factory=threading.Lock)
    # Runners-up still packed as entries (`add`), unpacked into the arrays above by `settle`.
    _race: list[int] = field(init=False, repr=False, default_factory=list)

    def __repr__(self) -> str:
        return f"<TrainingRecord {self.message}>"

    def __getstate__(self) -> dict[str, object]:
        """Pickle the arrays; the derived pieces and the lock are made again when unpickled."""
        self.settle()
        state = dict(self.__dict__)
        del state["_pieces"], state["_pieces_lock"], state["_race"]
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._pieces = [bytes([b]) for b in range(256)]
        self._pieces_lock = threading.Lock()
        self._race = []

    def append(
        self,
        pair: tuple[int, int],
        count: int,
        rivals: list[tuple[tuple[int, int], int]],
        tokens_after: int,
    ) -> None:
        """Record the next merge; `rivals` holds at most `RIVALS` (pair, count), best first."""
        race = [((left << ID_BITS | right) - (n << PAIR_BITS)) for (left, right), n in rivals]
        self.add(pair, count, tokens_after, race)
        self.settle()

    def add(self, pair: tuple[int, int], count: int, tokens_after: int, race: list[int]) -> None:
        """`append` with the runners-up as race entries, as the training loop has them at hand.

        They stay packed until `settle`: unpacking them is a third of the record's cost per step.
        """
        self.lefts.append(pair[0])
        self.rights.append(pair[1])
        self.counts.append(count)
        self.tokens_after.append(tokens_after)
        self._race += race
        if len(race) < RIVALS:
            self._race += [0] * (RIVALS - len(race))

    def settle(self) -> None:
        """Unpack the runners-up `add` kept as entries into the rival arrays.

        `step` and pickling do it first; whoever calls `add` calls it before handing the record on.
        """
        race = self._race
        if race:
            self.rival_lefts.extend([entry >> ID_BITS & ID_MASK for entry in race])
            self.rival_rights.extend([entry & ID_MASK for entry in race])
            self.rival_counts.extend([-(entry >> PAIR_BITS) for entry in race])
            race.clear()

    @property
    def n_merges(self) -> int:
        """How many merges were made (fewer than `requested` when training stopped early)."""
        return len(self.lefts)

    @property
    def merges(self) -> list[tuple[int, int]]:
        """The merged pairs in order: merge i made id 256 + i."""
        return list(zip(self.lefts, self.rights, strict=True))

    @property
    def message(self) -> str:
        """One sentence on how training ended, for the app and for logs."""
        made = f"{self.n_merges:,} merge{'s' if self.n_merges != 1 else ''}"
        if self.stop == "exhausted" and not self.n_merges:  # no pair ever did: no "any more"
            return (
                f"Stopped before the first merge (of {self.requested:,}): no pair of bytes "
                "occurs twice within the corpus's chunks."
            )
        if self.stop == "exhausted":
            return (
                f"Stopped early after {made} of {self.requested:,}: "
                "no pair of tokens occurs at least twice in the corpus any more."
            )
        if self.stop == "cancelled":
            return f"Cancelled after {made} of {self.requested:,}."
        return f"Made all {made}."

    def piece(self, token_id: int) -> bytes:
        """The bytes of an ordinary token id of this run (a byte or a merge result)."""
        pieces = self._pieces
        if token_id >= len(pieces):
            # Derive the pieces from the pairs on first use; merge i only needs earlier ids.
            # subtle: one record is replayed by many sessions at once, hence the lock.
            with self._pieces_lock:
                for i in range(len(pieces) - 256, min(token_id - 255, self.n_merges)):
                    pieces.append(pieces[self.lefts[i]] + pieces[self.rights[i]])
        return pieces[token_id]

    def step(self, index: int) -> TrainStep:
        """The readable view of merge `index` (negative indexes count from the end)."""
        self.settle()
        index = range(self.n_merges)[index]
        base = index * RIVALS
        rivals = tuple(
            ((self.rival_lefts[i], self.rival_rights[i]), self.rival_counts[i])
            for i in range(base, base + RIVALS)
            if self.rival_counts[i]
        )
        return TrainStep(
            index=index,
            pair=(self.lefts[index], self.rights[index]),
            count=self.counts[index],
            new_id=256 + index,
            piece=self.piece(256 + index),
            rivals=rivals,
            tokens_after=self.tokens_after[index],
        )

    def __len__(self) -> int:
        return self.n_merges

    def __iter__(self) -> Iterator[TrainStep]:
        return (self.step(i) for i in range(self.n_merges))
