"""Replaying a training: what each step merged, what it beat, and what a text looked like then.

Steps and ranks mean the same on every page: a merge's **rank** is its 0-based position in the
merge list (the merge of rank r made id 256 + r), and the replay's **step k** is "k merges
applied", step 0 being single bytes. So step k shows the merge of rank k - 1.

Everything comes from the trainer's `TrainingRecord` (a flat array per field) and is cheap per
step: a summary reads one slot of it, the race and the curve marker are a few rows, and a sample's
tokens at every step come from one trace of it (`SampleSteps`), so moving through 143 steps costs
about what the core needs to train them.
"""

from bisect import bisect_left
from dataclasses import dataclass

import pandas as pd

from tokenizer import Encoding
from tokenizer.train_record import RIVALS, TrainingRecord
from ui.common.limits import MAX_CURVE_POINTS
from ui.common.messages import counted, inline_code
from ui.common.step_curve import sampled_steps
from ui.common.token_text import plain

MAX_LABEL_CHARS = 28
"""Longest pair label on a chart axis; longer tokens are cut with "…" (the tooltip has them)."""

TIE_RULE = "equal counts: the pair with the smallest (left id, right id) wins"


def short(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    """`text`, cut to `limit` characters with an ellipsis: ``short("abcdef", 4) == "abc…"``."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pair_text(record: TrainingRecord, pair: tuple[int, int]) -> str:
    """``"·t + he"``: a pair's two tokens, readably."""
    return f"{plain(record.piece(pair[0]))} + {plain(record.piece(pair[1]))}"


@dataclass(frozen=True)
class StepSummary:
    """Step `step` (1 to `total`) in words: the merge of rank ``step - 1`` and what it did."""

    step: int
    total: int
    pair: tuple[int, int]
    pair_text: str
    new_id: int
    new_text: str
    count: int
    runner_up: int | None  # the best rival's count (None when no rival was left)
    tied: tuple[tuple[int, int], ...]  # rivals with the winner's count: the tie rule chose
    tokens_before: int  # corpus tokens before this merge
    tokens_after: int

    @property
    def rank(self) -> int:
        """The merge's rank: its 0-based place in the merge list."""
        return self.step - 1

    @property
    def saved(self) -> int:
        """Tokens this merge removed from the corpus (the count, less any overlaps as in "aaa")."""
        return self.tokens_before - self.tokens_after


def ending(enc: Encoding) -> str:
    """How `enc`'s training ended, in one sentence: its record's, except for a size that left
    no room for a merge, where the record's "Made all 0 merges." reads as if some were wanted.

    >>> import tokenizer as tk
    >>> ending(tk.train("abab", 258))
    'Made all 1 merge.'
    >>> ending(tk.train("abab", 257))  # doctest: +NORMALIZE_WHITESPACE
    'No merge to make: a size of 257 holds only the 256 bytes and 1 special token. A larger
    size leaves room for merges.'
    """
    record = enc.training
    if not isinstance(record, TrainingRecord):
        return ""
    if record.requested:
        return record.message
    specials = len(enc.special_tokens)
    also = f" and {counted(specials, 'special token')}" if specials else ""
    return (
        f"No merge to make: a size of {enc.n_vocab:,} holds only the 256 bytes{also}. "
        "A larger size leaves room for merges."
    )


def step_summary(record: TrainingRecord, step: int) -> StepSummary:
    """The summary of step `step` (1 to ``record.n_merges``): the merge of rank ``step - 1``."""
    merge = record.step(step - 1)
    before = record.tokens_after[step - 2] if step > 1 else record.tokens_before
    return StepSummary(
        step=step,
        total=record.n_merges,
        pair=merge.pair,
        pair_text=pair_text(record, merge.pair),
        new_id=merge.new_id,
        new_text=plain(merge.piece),
        count=merge.count,
        runner_up=merge.rivals[0][1] if merge.rivals else None,
        tied=tuple(pair for pair, count in merge.rivals if count == merge.count),
        tokens_before=before,
        tokens_after=merge.tokens_after,
    )


def headline(summary: StepSummary) -> str:
    """``"Step 3 of 143 — merge of rank 2 made id 258: `a` + `b` → `ab`"`` (Markdown)."""
    return (
        f"**Step {summary.step:,} of {summary.total:,}** — merge of rank {summary.rank:,} made "
        f"id {summary.new_id:,}: {inline_code(summary.pair_text, 60)} → "
        f"{inline_code(summary.new_text, 40)}, the most frequent adjacent pair in the corpus "
        f"at that point ({summary.count:,} times)."
    )


def step_words(record: TrainingRecord, step: int) -> str:
    """Step `step` (0 to ``record.n_merges``) as one plain sentence, for a screen reader to say
    (`step_keys`)."""
    if step == 0:
        return f"Step 0 of {record.n_merges:,}: single bytes, before any merge."
    summary = step_summary(record, step)
    return (
        f"Step {step:,} of {summary.total:,}: merge of rank {summary.rank:,}, "
        f"{summary.pair_text} → {summary.new_text} (id {summary.new_id:,}), "
        f"{summary.count:,} times."
    )


def tie_sentence(record: TrainingRecord, summary: StepSummary) -> str | None:
    """How the tie rule chose, when rivals had the winner's count (Markdown), else None.

    >>> r = TrainingRecord(tokens_before=6, requested=1)
    >>> r.append((97, 98), 2, [((98, 99), 2)], 4)
    >>> print(tie_sentence(r, step_summary(r, 1)))  # doctest: +NORMALIZE_WHITESPACE
    Tie: 2 pairs occurred 2 times. Equal counts: the pair with the smallest (left id, right id)
    wins, so `a + b` (97, 98) beat `b + c` (98, 99).
    """
    if not summary.tied:
        return None
    n = len(summary.tied) + 1
    # Every recorded runner-up tied: more pairs may have, beyond the ones a step keeps.
    least = "at least " if len(summary.tied) >= RIVALS else ""
    beaten = ", ".join(
        f"{inline_code(pair_text(record, pair), 40)} {pair}" for pair in summary.tied[:3]
    )
    more = f" and {least}{n - 4:,} more" if n > 4 else ""
    kept = f" (a step keeps its {RIVALS} best runners-up)" if least else ""
    return (
        f"Tie: {least}{n} pairs occurred {summary.count:,} times{kept}. "
        f"{TIE_RULE.capitalize()}, so "
        f"{inline_code(summary.pair_text, 40)} {summary.pair} beat {beaten}{more}."
    )


def race_rows(record: TrainingRecord, step: int) -> list[dict[str, object]]:
    """The winning pair of step `step` and its recorded rivals, best first, one row each.

    Labels are numbered ("1. t + h") so two pairs that read alike still get their own bar.
    """
    merge = record.step(step - 1)
    rows: list[dict[str, object]] = []
    for place, (pair, count) in enumerate(((merge.pair, merge.count), *merge.rivals), start=1):
        text = pair_text(record, pair)
        rows.append(
            {
                "label": f"{place}. {short(text)}",
                "pair": text,
                "ids": f"{pair[0]} + {pair[1]}",
                "count": count,
                "result": "merged" if place == 1 else "runner-up",
                "place": place,
            }
        )
    return rows


def race_frame(record: TrainingRecord, step: int) -> pd.DataFrame:
    """`race_rows` as a frame (for tests and tables)."""
    return pd.DataFrame(race_rows(record, step))


def curve_frame(
    record: TrainingRecord, step: int | None = None, max_points: int = MAX_CURVE_POINTS
) -> pd.DataFrame:
    """Corpus size after each step (tokens, and UTF-8 bytes per token), sampled evenly.

    Row 0 is step 0, the corpus before any merge (one token per byte); the last step and `step`
    (a replay's current step) are always rows, so the chart marks exact values.

    >>> r = TrainingRecord(tokens_before=10, requested=2)
    >>> r.append((97, 97), 4, [], 6); r.append((256, 98), 2, [], 4)
    >>> curve_frame(r).values.tolist()
    [[0.0, 10.0, 1.0], [1.0, 6.0, 1.6666666666666667], [2.0, 4.0, 2.5]]
    """
    steps = sorted({*sampled_steps(record.n_merges, max_points), *([] if step is None else [step])})
    tokens = [tokens_at(record, k) for k in steps]
    return pd.DataFrame(
        {
            "merges": steps,
            "tokens": tokens,
            "bytes_per_token": [record.tokens_before / t if t else 0.0 for t in tokens],
        }
    ).astype(float)


def tokens_at(record: TrainingRecord, step: int) -> int:
    """Corpus tokens after `step` merges (step 0: its bytes)."""
    return record.tokens_before if step == 0 else record.tokens_after[step - 1]


@dataclass(frozen=True)
class SampleSteps:
    """A text's tokens after every step of a training, from one trace of it.

    BPE applies a chunk's merges lowest rank first, and a merge made by an earlier rank can only
    enable later ones, so the ranks a chunk merges by only grow: after k merges, the chunk is
    exactly its trace's state before the first merge of rank k or more.
    """

    text: str
    ranks: tuple[tuple[int, ...], ...]  # per chunk: the rank merged at each step, in order
    states: tuple[tuple[tuple[int, ...], ...], ...]  # per chunk: its ids before each step, then

    @classmethod
    def of(cls, enc: Encoding, text: str) -> "SampleSteps":
        """Trace `text` (as ordinary text) through `enc`'s merges once.

        The core's trace gives, for each step of each chunk, the rank it merges by and the ids
        before it (the last step's ids are the chunk's final ones): no merge is redone here.
        """
        ranks, states = [], []
        for chunk in enc.trace(text):
            ranks.append(tuple(s.best for s in chunk.steps if s.best is not None))
            states.append(tuple(s.ids for s in chunk.steps))
        return cls(text, tuple(ranks), tuple(states))

    def ids_at(self, step: int) -> list[int]:
        """The text's ids with the first `step` merges.

        >>> import tokenizer as tk
        >>> enc = tk.train("aaabdaaabac", 259, special_tokens=())
        >>> [SampleSteps.of(enc, "aaabdaaabac").ids_at(k) for k in (0, 1, 3)][1:]
        [[256, 97, 98, 100, 256, 97, 98, 97, 99], [258, 100, 258, 97, 99]]
        """
        out: list[int] = []
        for ranks, states in zip(self.ranks, self.states, strict=True):
            out += states[bisect_left(ranks, step)]
        return out


def default_sample(text: str, limit: int = 400) -> str:
    """The start of a corpus as a replay sample: at most `limit` characters, cut at whitespace.

    >>> default_sample("one two three", 9)
    'one two'
    """
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = max(head.rfind(" "), head.rfind("\n"))
    return head[:cut] if cut > limit // 2 else head
