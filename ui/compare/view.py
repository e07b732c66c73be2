"""Side-by-side comparison of tokenizers on one text: figures, a verdict, and a boundary diff.

Pure (no Streamlit). The boundary diff answers "where exactly do these tokenizers cut the text
differently?", for any number of them: text they all cut alike is written once, and each stretch
they cut differently becomes a block with one aligned row per tokenizer, its own cuts marked
(`diff_html`). Stretches between boundaries all share are identical tokens in all, so only the
blocks need reading, and dense text still wraps (a long block continues in the next).
"""

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from itertools import accumulate, pairwise

import pandas as pd

from tokenizer import Tokenized
from ui.common.glyphs import visible_html
from ui.common.limits import MAX_DIFF_CHARS
from ui.common.messages import counted
from ui.common.palette import HUES, css_colour
from ui.common.stats import TextStats, format_ratio
from ui.compare.colours import slots


def column_html(token_view_html: str) -> str:
    """Wrap one `ui.common.token_view.render_tokens` block (its tokens only: `ViewOptions.ids`
    is off) for a narrow column; `side.css` caps its height."""
    return f'<div class="cmp-col">{token_view_html}</div>'


# ---- figures and verdict ---------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One encoding's figures for the text."""

    name: str
    stats: TextStats


def figures_frame(rows: Sequence[Row]) -> pd.DataFrame:
    """A table of every encoding: tokens, ratios, and how it compares with the cheapest.

    >>> from ui.common.stats import text_stats
    >>> f = figures_frame([Row("a", text_stats("hello", 2)), Row("b", text_stats("hello", 1))])
    >>> f[["Encoding", "Tokens", "vs cheapest"]].values.tolist()
    [['a', 2, '+100%'], ['b', 1, 'cheapest']]
    """
    fewest = min((row.stats.tokens for row in rows), default=0)
    records = []
    for row in rows:
        s = row.stats
        records.append(
            {
                "Encoding": row.name,
                "Tokens": s.tokens,
                "Chars / token": s.chars_per_token,
                "Bytes / token": s.bytes_per_token,
                "vs cheapest": _versus(s.tokens, fewest),
            }
        )
    return pd.DataFrame(records)


def _versus(tokens: int, fewest: int) -> str:
    """The "vs cheapest" cell: "cheapest", or how many more tokens than the cheapest; a dash for
    an empty text, where every encoding's 0 tokens make none of them cheapest."""
    if fewest == 0:
        return "–"
    if tokens == fewest:
        return "cheapest"
    return f"+{(tokens - fewest) / fewest:.0%}"


def cheapest_sentence(rows: Sequence[Row]) -> str:
    """Which encoding is cheapest for this text, in plain words.

    >>> from ui.common.stats import text_stats
    >>> cheapest_sentence([Row("gpt2", text_stats("x" * 20, 13)),
    ...                    Row("o200k_base", text_stats("x" * 20, 10))])
    'o200k_base is the cheapest for this text: 10 tokens. gpt2 needs 13 (30% more).'
    """
    if not rows or all(row.stats.tokens == 0 for row in rows):
        return "Type some text to compare."
    ranked = sorted(rows, key=lambda row: row.stats.tokens)
    fewest = ranked[0].stats.tokens
    best = [row.name for row in ranked if row.stats.tokens == fewest]
    noun = counted(fewest, "token")
    if len(best) == len(rows):
        return f"All of them need the same number of tokens for this text: {noun}."
    if len(best) > 1:
        head = f"{_join(best)} tie as the cheapest for this text: {noun} each."
    else:
        head = f"{best[0]} is the cheapest for this text: {noun}."
    others = [
        f"{row.name} needs {row.stats.tokens:,} ({(row.stats.tokens - fewest) / fewest:.0%} more)"
        for row in ranked
        if row.stats.tokens != fewest
    ]
    return f"{head} {_join(others)}."


def _join(items: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def ratio_caption(stats: TextStats) -> str:
    """``"4.20 chars / token · 4.35 bytes / token"``, each figure with its unit unbroken: in a
    narrow column the line wraps between the two, never inside one ("2.84 / bytes / token")."""
    figures = (
        f"{format_ratio(stats.chars_per_token)} chars / token",
        f"{format_ratio(stats.bytes_per_token)} bytes / token",
    )
    return " · ".join(figure.replace(" ", "\N{NO-BREAK SPACE}") for figure in figures)


# ---- boundary diff ---------------------------------------------------------------------------


def boundaries(tok: Tokenized) -> frozenset[int]:
    """Byte offsets where a token ends inside the text (the text's own end left out).

    >>> import tokenizer as tk
    >>> sorted(boundaries(tk.get_encoding("gpt2").tokenize("hello world")))
    [5]
    """
    ends = {end for _, end in tok.byte_spans}
    ends.discard(len(tok.text.encode("utf-8")))
    return frozenset(ends)


@dataclass(frozen=True)
class BoundaryDiff:
    """Where several tokenizations of one text end their tokens (byte offsets), one set each."""

    cuts: tuple[frozenset[int], ...]

    @property
    def shared(self) -> frozenset[int]:
        """Boundaries every tokenizer has: the text between two of them is cut alike."""
        return frozenset.intersection(*self.cuts) if self.cuts else frozenset()

    @property
    def differing(self) -> frozenset[int]:
        """Boundaries some tokenizers have and others do not."""
        return frozenset().union(*self.cuts) - self.shared

    def unique(self, i: int) -> frozenset[int]:
        """Boundaries only tokenizer `i` has."""
        others = frozenset().union(*(c for j, c in enumerate(self.cuts) if j != i))
        return self.cuts[i] - others


def boundary_diff(toks: Sequence[Tokenized]) -> BoundaryDiff:
    """Compare the token boundaries of tokenizations of the same text."""
    if len({tok.text for tok in toks}) > 1:
        raise ValueError("a boundary diff needs tokenizations of the same text")
    return BoundaryDiff(tuple(boundaries(tok) for tok in toks))


@dataclass(frozen=True)
class Stretch:
    """Characters ``[start, end)`` between two shared boundaries; `differs` if cut differently."""

    start: int
    end: int
    differs: bool


def stretches(text: str, diff: BoundaryDiff) -> list[Stretch]:
    """Cut `text` at the boundaries all share; a stretch differs if any tokenizer cuts inside it.

    Characters stay whole: a boundary inside a character (a split emoji) belongs to the stretch
    holding that character.

    >>> d = BoundaryDiff((frozenset({2, 4}), frozenset({4})))
    >>> stretches("abcdef", d)
    [Stretch(start=0, end=4, differs=True), Stretch(start=4, end=6, differs=False)]
    """
    offsets = char_offsets(text)
    char_of = {offset: i for i, offset in enumerate(offsets)}  # character starts only
    cuts = sorted({0, offsets[-1], *(p for p in diff.shared if p in char_of)})
    odd = sorted(diff.differing)
    out = []
    k = 0
    for start, end in pairwise(cuts):
        k = bisect_right(odd, start, lo=k)
        differs = k < len(odd) and odd[k] < end
        out.append(Stretch(char_of[start], char_of[end], differs))
    return out


def char_offsets(text: str) -> list[int]:
    """The UTF-8 byte offset where each character starts, then the text's length in bytes.

    >>> char_offsets("aé👋")
    [0, 1, 3, 7]
    """
    if text.isascii():  # one byte per character (most pastes)
        return list(range(len(text) + 1))
    widths = (
        1 if c < "\x80" else 2 if c < "\u0800" else 3 if c < "\U00010000" else 4 for c in text
    )  # UTF-8's lengths; a lone surrogate counts 3, as "surrogatepass" writes it
    return [0, *accumulate(widths)]


LANE_COLOURS = [css_colour(rgb) for rgb in HUES]
BLOCK_CHARS = 40
"""Longest piece of a differing stretch drawn as one block of lanes; longer ones continue in the
next block, so dense text (a paragraph no two tokenizers cut alike) still wraps."""


def _lane_css(names: Sequence[str]) -> str:
    """Each lane's colours: its tokenizer's own hue (ui/compare/colours.py), as in the charts."""
    rules = []
    for i, slot in enumerate(slots(names)):
        colour = LANE_COLOURS[slot]
        r, g, b = HUES[slot]
        rules.append(
            f".bdiff .l{i}{{border-left:3px solid {colour}}}"
            f".bdiff .l{i} .t0{{background:rgba({r},{g},{b},.16)}}"
            f".bdiff .l{i} .t1{{background:rgba({r},{g},{b},.34)}}"
            f".bdiff .l{i} .u{{box-shadow:inset 3px 0 0 {colour}}}"
            f".bdiff .l{i} .mid{{text-decoration-color:{colour}}}"
            f".bdiff-key .l{i}{{background:{colour}}}"
        )
    return "".join(rules)


_DIFF_CSS = """
.bdiff{font-family:"Source Code Pro",ui-monospace,monospace;font-size:.9rem;line-height:1.5;
  white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid rgba(128,128,128,.45);
  border-radius:.5rem;padding:.5rem .6rem;max-height:28rem;overflow:auto;unicode-bidi:isolate}
.bdiff .same{opacity:.8}
.bdiff .cut{display:inline-block;width:1px;height:1.1em;vertical-align:-.15em;margin:0 2px;
  background:rgba(128,128,128,.6)}
.bdiff .blk{display:inline-flex;flex-direction:column;vertical-align:top;margin:1px 0;
  white-space:pre;border-radius:3px;background:rgba(128,128,128,.07)}
.bdiff .lane{padding-left:1px;line-height:1.3}
/* Tokens left to right in every lane, as in the panes: right-to-left ones reversed them. */
.bdiff .lane>span{unicode-bidi:isolate}
.bdiff .p{box-shadow:inset 1px 0 0 rgba(128,128,128,.9)}
.bdiff .mid{text-decoration:underline wavy;text-decoration-thickness:2px}
.bdiff .ws{opacity:.55}
.bdiff-key{display:flex;flex-wrap:wrap;gap:.3rem 1.1rem;font-size:.85rem;margin:.1rem 0 .45rem}
.bdiff-key .sw{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;
  vertical-align:-.1rem}
.bdiff-help{font-size:.78rem;opacity:.8;margin:0 0 .45rem}
"""


@dataclass(frozen=True)
class LaneCount:
    """One tokenizer's figures above the diff."""

    name: str
    tokens: int
    cuts: int  # boundaries inside the text
    unique: int  # of them, boundaries no other tokenizer has


def lane_counts(
    toks: Sequence[Tokenized], names: Sequence[str], diff: BoundaryDiff | None = None
) -> list[LaneCount]:
    """Tokens, boundaries and unique boundaries per tokenizer.

    >>> import tokenizer as tk
    >>> t = [tk.get_encoding(n).tokenize(" 1234567") for n in ("gpt2", "cl100k_base")]
    >>> [(c.name, c.tokens, c.unique) for c in lane_counts(t, ["gpt2", "cl100k_base"])]
    [('gpt2', 3, 1), ('cl100k_base', 4, 2)]
    """
    diff = boundary_diff(toks) if diff is None else diff
    return [
        LaneCount(name, len(tok.ids), len(diff.cuts[i]), len(diff.unique(i)))
        for i, (tok, name) in enumerate(zip(toks, names, strict=True))
    ]


def compare_boundaries(
    toks: Sequence[Tokenized], names: Sequence[str], *, show_whitespace: bool
) -> tuple[str, str]:
    """The sentence over all of them and the diff's HTML, from one pass over the text.

    A megabyte of text has hundreds of thousands of boundaries per tokenizer: the diff, its
    stretches and each tokenizer's unique cuts are worked out once here, for both.
    """
    diff = boundary_diff(toks)
    parts = stretches(toks[0].text if toks else "", diff)
    return _summary(diff, parts, len(toks)), _html(toks, names, diff, parts, show_whitespace)


def diff_html(toks: Sequence[Tokenized], names: Sequence[str], *, show_whitespace: bool) -> str:
    """The boundary diff of any number of tokenizations as one escaped HTML block.

    Text that every tokenizer cuts alike is written once (thin grey bars: boundaries they all
    share). Where they differ, the stretch is a block with one row per tokenizer, aligned
    character by character: its tokens in alternating tints of its colour, a bar of its colour
    where only it ends a token, a thin grey bar where some others do too, a wavy underline
    where a token ends inside a character. The first `MAX_DIFF_CHARS` characters are drawn.
    """
    return compare_boundaries(toks, names, show_whitespace=show_whitespace)[1]


def _html(
    toks: Sequence[Tokenized],
    names: Sequence[str],
    diff: BoundaryDiff,
    stretched: list[Stretch],
    show_whitespace: bool,
) -> str:
    text = toks[0].text if toks else ""
    starts = char_offsets(text)
    firsts = [[start for start, _ in tok.byte_spans] for tok in toks]
    uniques = [diff.unique(i) for i in range(len(toks))]  # once: each is a union of the others
    parts = []
    for stretch in stretched:
        if stretch.start >= MAX_DIFF_CHARS:
            break
        end = min(stretch.end, MAX_DIFF_CHARS)
        if stretch.start:
            parts.append('<span class="cut"></span>')
        if not stretch.differs:
            chunk = visible_html(
                text[stretch.start : end], show_whitespace=show_whitespace, alone=True
            )
            parts.append(f'<span class="same">{chunk}</span>')
            continue
        for lo in range(stretch.start, end, BLOCK_CHARS):
            hi = min(lo + BLOCK_CHARS, end)
            lanes = "".join(
                _lane_html(
                    text,
                    (lo, hi, lo > stretch.start),
                    starts,
                    (diff.cuts[i], uniques[i]),
                    i,
                    firsts[i],
                    show_whitespace,
                )
                for i in range(len(toks))
            )
            parts.append(f'<span class="blk">{lanes}</span>')
    key = "".join(
        f'<span><span class="sw l{i}"></span><b>{escape(c.name)}</b> '
        f"{counted(c.tokens, 'token')} · {counted(c.unique, 'cut')} only it makes</span>"
        for i, c in enumerate(lane_counts(toks, names, diff))
    )
    help_text = (
        "Text they all cut alike is written once (grey bars: boundaries all share). Where they "
        "differ, each tokenizer gets a row, aligned: its tokens in alternating tints of its "
        "colour, a bar of its colour where only it ends a token, a thin grey bar where some "
        "others do too, a wavy underline where a token ends inside a character."
    )
    css = _DIFF_CSS + _lane_css(names)
    return (
        f'<div class="bdw"><style>{css}</style><div class="bdiff-key">{key}</div>'
        f'<div class="bdiff-help">{help_text}</div><div class="bdiff">{"".join(parts)}</div></div>'
    )


def _lane_html(
    text: str,
    span: tuple[int, int, bool],
    starts: list[int],
    marks: tuple[frozenset[int], frozenset[int]],
    lane: int,
    firsts: list[int],
    show_whitespace: bool,
) -> str:
    """Characters ``[lo, hi)`` as tokenizer `lane` cuts them: one tinted span per token piece.

    `span` is (lo, hi, continued): a block that continues a stretch marks a cut at its start.
    `marks` are the lane's cuts and those only it makes; `firsts` the byte offsets where its
    tokens start, in order.
    """
    lo, hi, continued = span
    cuts, unique = marks
    runs: list[str] = []
    current: list[str] = []
    classes = ""
    token = bisect_right(firsts, starts[lo]) - 1  # the token holding the block's first byte
    for i in range(lo, hi):
        at, after = starts[i], starts[i + 1]
        marked = (i > lo or continued) and at in cuts
        if i > lo and at in cuts:  # a token of this lane starts here
            runs.append(f'<span class="{classes}">{"".join(current)}</span>')
            current, token = [], token + 1
        if not current:
            edge = (" u" if at in unique else " p") if marked else ""
            classes = f"t{token % 2}{edge}"
        # A mark that starts the block sits on a dotted circle in every lane, so they align.
        char = visible_html(text[i], show_whitespace=True, line_breaks=False, alone=i == lo)
        if not show_whitespace and text[i] == " ":
            char = " "
        inside = [p for p in range(at + 1, after) if p in cuts]
        if inside:  # a token ends inside this character: the next one starts in it too
            char = f'<span class="mid" title="a token ends inside this character">{char}</span>'
            token += len(inside)
        current.append(char)
    if current:
        runs.append(f'<span class="{classes}">{"".join(current)}</span>')
    return f'<span class="lane l{lane}">{"".join(runs)}</span>'


def diff_summary(toks: Sequence[Tokenized]) -> str:
    """One sentence over all of them.

    ``"All 3 share 40 token boundaries; 5 stretches of text are cut differently."``
    """
    diff = boundary_diff(toks)
    return _summary(diff, stretches(toks[0].text, diff), len(toks))


def _summary(diff: BoundaryDiff, parts: list[Stretch], n: int) -> str:
    differing = sum(s.differs for s in parts)
    everyone = "Both" if n == 2 else f"All {n}"
    if not differing:
        return f"{everyone} cut this text into exactly the same pieces."
    shared = len(diff.shared)
    return (
        f"{everyone} share {shared:,} token {'boundary' if shared == 1 else 'boundaries'}; "
        f"{differing:,} stretch{'es' if differing != 1 else ''} of text "
        f"{'are' if differing != 1 else 'is'} cut differently."
    )
