"""The merges page's data: which pattern alternative cut each chunk, and one timeline of merges.

`trace()` replays each chunk on its own. The page also replays the *whole text*: every chunk
waits for its next merge, and at each global step the lowest waiting rank is applied in every
chunk that waits for it ("apply the rules in order"). Each chunk still merges exactly as its own
trace says, so the last global step gives `encode`'s ids. For "GPT2 was created by OpenAI":

    step 0  single bytes: 26 tokens
    step 1  rank 4   r + e -> re    in " created"
    step 2  rank 9   a + t -> at    in " created"
    step 3  rank 10  Ġ + w -> Ġw    in " was"
    ...

One step counter for the whole page (and the app): **step k = k merges applied**, step 0 being
single bytes; a merge's **rank** is its 0-based place in the merge list. A chunk's table has a
row for each global step that merged in it, numbered by that global step.

Pure: no Streamlit. The page caches `build_walkthrough` per encoding and text.
"""

import heapq
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from tokenizer import ChunkTrace, Encoding, PatternError, compile_pattern

Kind = Literal["contraction", "letters", "digits", "punctuation", "whitespace", "other"]

# Strings that show what an alternative of a pre-tokenizer pattern is for. An alternative gets
# the first kind, in this order, one of whose probes it matches whole: GPT-4o's word alternative
# also takes "'s" but is about letters, so letters are tried before contractions.
_PROBES: dict[Kind, tuple[str, ...]] = {
    "letters": ("word", " word", "Word", "naïve", "日本語"),
    "digits": ("7", "2024", " 42"),
    "contraction": ("'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'LL"),
    "punctuation": ("!", " ?!", "{}", "..."),
    "whitespace": (" ", "   ", "\n", " \n\n", "\t"),
}


@dataclass(frozen=True)
class Alternative:
    """One top-level alternative of a pre-tokenizer pattern (``a|b|c`` has three)."""

    index: int
    source: str
    kind: Kind


@dataclass(frozen=True)
class Chunk:
    """One pre-tokenizer chunk and where its merges fall on the whole-text timeline."""

    text: str
    alternative: int | None  # index of the pattern alternative that matched it
    trace: ChunkTrace
    advances: tuple[int, ...]  # the global steps (from 1) at which this chunk merges

    @property
    def merges(self) -> int:
        return len(self.trace.steps) - 1

    def local_step(self, global_step: int) -> int:
        """How many of this chunk's merges are done after `global_step` global steps."""
        return bisect_right(self.advances, global_step)

    def global_step(self, local: int) -> int:
        """The global step after which this chunk has had `local` merges (0 for none)."""
        return 0 if local == 0 else self.advances[local - 1]


@dataclass(frozen=True)
class GlobalStep:
    """One step of the whole text: the rank applied and the chunks it merged in."""

    rank: int
    merged: int  # the id the rule makes (the trace's `MergeStep.merged`)
    chunks: tuple[int, ...]
    tokens: int  # token count of the whole text after this step


@dataclass(frozen=True)
class Walkthrough:
    """Everything the merges page shows about one text, for one encoding."""

    text: str
    alternatives: tuple[Alternative, ...]
    chunks: tuple[Chunk, ...]
    steps: tuple[GlobalStep, ...]  # global step g (from 1) is steps[g - 1]

    @property
    def last(self) -> int:
        """The final global step: every merge of every chunk done."""
        return len(self.steps)

    @property
    def token_counts(self) -> tuple[int, ...]:
        """Tokens of the whole text after 0, 1, ... `last` global steps (the chart's line)."""
        first = sum(len(c.trace.steps[0].parts) for c in self.chunks)
        return (first, *(s.tokens for s in self.steps))

    def ids_at(self, global_step: int) -> list[int]:
        """The whole text's token ids after `global_step` global steps."""
        return [i for c in self.chunks for i in c.trace.steps[c.local_step(global_step)].ids]

    def stops(self, chunk: int | None) -> tuple[int, ...]:
        """The global steps the player stops at: all of them, or where `chunk` merges.

        Following a chunk, the stops are the start, each of its merges, and the end of the text.
        """
        if chunk is None:
            return tuple(range(self.last + 1))
        return tuple(sorted({0, *self.chunks[chunk].advances, self.last}))

    def default_chunk(self) -> int | None:
        """The chunk to open on: the most merges, among chunks that end as several tokens.

        Such a chunk shows both halves of the lesson, pairs merging and merging *stopping*
        (its last row has no pair with a rank), as the GPT-2 walkthrough's " OpenAI" does; a
        chunk that ends as one token shows only the first. With no such chunk, the most merges.
        The first of equals wins.

        >>> import tokenizer as tk
        >>> walk = build_walkthrough(tk.get_encoding("gpt2"), "GPT2 was created by OpenAI")
        >>> [(c.text, c.merges, len(c.trace.ids)) for c in walk.chunks][3:]
        [(' created', 7, 1), (' by', 2, 1), (' OpenAI', 5, 2)]
        >>> walk.chunks[walk.default_chunk()].text
        ' OpenAI'
        """
        if not self.chunks:
            return None
        return max(
            range(len(self.chunks)),
            key=lambda i: (len(self.chunks[i].trace.ids) > 1, self.chunks[i].merges, -i),
        )

    def made_positions(self, global_step: int) -> list[int]:
        """Where, in the whole text's tokens after `global_step`, are the tokens that step made.

        From the trace's positions: the j-th merged occurrence (0-based) of a step that merged
        at position p of a chunk's pieces is its piece p - j afterwards (each earlier merge
        took one piece away).

        >>> import tokenizer as tk
        >>> walk = build_walkthrough(tk.get_encoding("gpt2"), "aaaa aaaa")
        >>> walk.ids_at(2), walk.made_positions(2)  # rank 6996, a + a -> aa, in both chunks
        ([7252, 7252, 257, 7252, 64], [0, 1, 3])
        """
        if global_step == 0:
            return []
        done = set(self.steps[global_step - 1].chunks)
        found: list[int] = []
        offset = 0
        for index, chunk in enumerate(self.chunks):
            local = chunk.local_step(global_step)
            if index in done:
                merged_at = chunk.trace.steps[local - 1].positions
                found += [offset + p - j for j, p in enumerate(merged_at)]
            offset += len(chunk.trace.steps[local].ids)
        return found


def split_alternatives(pattern: str) -> list[str]:
    """Cut a regex at its top-level ``|``: not inside groups, character classes or escapes.

    >>> split_alternatives(r"'s|[a|b]+|(x|y)|\\||z")
    ["'s", '[a|b]+', '(x|y)', '\\\\|', 'z']
    """
    parts: list[str] = []
    depth = 0
    in_class = False
    start = i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2  # the escaped character is never syntax
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            # subtle: a "]" first in a class (after an optional "^") is a literal, not its end
            i += 1 if pattern.startswith("^", i + 1) else 0
            i += 1 if pattern.startswith("]", i + 1) else 0
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


def classify(source: str) -> Kind:
    """What an alternative matches, found by trying it on example strings.

    >>> classify(r" ?\\p{N}+"), classify(r"\\s+(?!\\S)"), classify(r"'(?i:[sdmt]|ll|ve|re)")
    ('digits', 'whitespace', 'contraction')
    """
    compiled = compile_pattern(source)
    for kind, probes in _PROBES.items():
        if any(compiled.fullmatch(probe) for probe in probes):
            return kind
    return "other"


@lru_cache(maxsize=64)  # bounded: trained vocabularies bring patterns of their own
def pattern_alternatives(pattern: str) -> tuple[Alternative, ...]:
    """The pattern's alternatives, each with its kind (derived, never listed per encoding)."""
    sources = split_alternatives(pattern)
    try:
        kinds = [classify(source) for source in sources]
    except PatternError:  # a pattern this splitter misreads: show it as one alternative
        sources, kinds = [pattern], ["other"]
    return tuple(Alternative(i, s, k) for i, (s, k) in enumerate(zip(sources, kinds, strict=True)))


def matched_alternatives(
    text: str, chunks: Sequence[str], alternatives: Sequence[Alternative]
) -> list[int | None]:
    """For each chunk, the index of the alternative that produced it.

    At a position the regex engine tries the alternatives left to right and keeps the first that
    matches, so trying them one by one *at the chunk's place in the text* (lookaheads such as
    ``\\s+(?!\\S)`` see the real next character) finds the one that did.
    """
    compiled = [compile_pattern(a.source) for a in alternatives]
    found: list[int | None] = []
    start = 0
    for chunk in chunks:
        end = start + len(chunk)
        hit = None
        for index, alternative in enumerate(compiled):
            match = alternative.match(text, start)
            if match:
                hit = index if match.end() == end else None
                break
        found.append(hit)
        start = end
    return found


def timeline(traces: Sequence[ChunkTrace]) -> tuple[list[list[int]], list[GlobalStep]]:
    """Interleave the chunks' merges into global steps, lowest waiting rank first.

    Returns each chunk's advances (the global steps at which it merges) and the global steps.
    A chunk whose next rank is lower than one already applied (possible when a merge builds a
    token the merge list made earlier from other parts) simply goes next: no chunk ever merges
    out of its own order.
    """
    advances: list[list[int]] = [[] for _ in traces]
    tokens = sum(len(t.steps[0].parts) for t in traces)
    waiting = [(t.steps[0].best, c) for c, t in enumerate(traces) if t.steps[0].best is not None]
    heapq.heapify(waiting)
    steps: list[GlobalStep] = []
    while waiting:
        rank = waiting[0][0]
        merged = []
        while waiting and waiting[0][0] == rank:
            merged.append(heapq.heappop(waiting)[1])
        made = -1
        for c in merged:
            local = len(advances[c])
            advances[c].append(len(steps) + 1)
            before, after = traces[c].steps[local], traces[c].steps[local + 1]
            tokens -= len(before.parts) - len(after.parts)
            made = before.merged if before.merged is not None else made
            if after.best is not None:
                # pushed after the pops, so a chunk never merges twice in one global step
                heapq.heappush(waiting, (after.best, c))
        steps.append(GlobalStep(rank, made, tuple(merged), tokens))
    return advances, steps


def build_walkthrough(enc: Encoding, text: str) -> Walkthrough:
    """Trace `text` (special tokens read as plain text) and lay its merges on one timeline."""
    traces = enc.trace(text)
    text = "".join(t.text for t in traces)  # the text actually traced (surrogates repaired)
    alternatives = pattern_alternatives(enc.pattern)
    matched = matched_alternatives(text, [t.text for t in traces], alternatives)
    advances, steps = timeline(traces)
    chunks = [
        Chunk(trace.text, alternative, trace, tuple(chunk_advances))
        for trace, alternative, chunk_advances in zip(traces, matched, advances, strict=True)
    ]
    return Walkthrough(text, alternatives, tuple(chunks), tuple(steps))
