"""The merges page's HTML: a chunk's merge table, the whole text at one step, chunk chip labels.

Pure functions from the walkthrough data (ui/merges_model.py) to strings; the page hands them to
`st.html` or to widgets. Every piece of user text is escaped on its way in: bytes go through
`visible_html`, `html.escape` or hex, and chip labels (Markdown) through `markdown_literal`.
"""

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape, unescape
from itertools import cycle
from pathlib import Path
from typing import Literal

import regex

from tokenizer import Encoding, MergeStep, bytes_to_symbols
from ui.common import presentation
from ui.common.glyphs import NAMED, visible_html
from ui.common.limits import MAX_ROW_PIECES, MAX_TABLE_ROWS
from ui.common.messages import counted
from ui.common.token_text import hex_bytes, plain
from ui.common.token_view import ViewOptions, render_tokens
from ui.common.tokens import tokenized_from_ids
from ui.merges.model import Chunk, Kind, Walkthrough

PieceStyle = Literal["text", "symbols", "hex"]

_CSS = (Path(__file__).with_name("view.css")).read_text(encoding="utf-8")

# What each kind of pattern alternative is for, in the words of a first lesson.
KIND_LABELS: dict[Kind, str] = {
    "letters": "letters",
    "digits": "digits",
    "contraction": "contraction",
    "punctuation": "punctuation",
    "whitespace": "whitespace",
    "other": "other",
}
KIND_HELP: dict[Kind, str] = {
    "letters": "a word, usually with the one space before it",
    "digits": "a number, or a group of its digits",
    "contraction": "the end of an English contraction, such as 's or 'll",
    "punctuation": "punctuation and symbols, usually with the one space before them",
    "whitespace": "spaces and line breaks; the last space before a word goes with the word",
    "other": "anything else the pattern allows",
}
# Material icons for the chips: a chip shows its kind without relying on colour alone.
KIND_ICONS: dict[Kind, str] = {
    "letters": ":material/abc:",
    "digits": ":material/123:",
    "contraction": ":material/format_quote:",
    "punctuation": ":material/asterisk:",
    "whitespace": ":material/space_bar:",
    "other": ":material/question_mark:",
}
CHIP_CHARS = 24  # longer chunks are shortened on their chip (the table shows them whole)
_GRAPHEMES = regex.compile(r"\X")

_MARKDOWN_SPECIAL = frozenset(string.punctuation)
_TAG = re.compile("<[^>]*>")
# Where a pattern's alternative may wrap: before a class or a group, after a `|`; never between
# an atom and its quantifier (it wrapped ` ?[^\s\p{L}\p{N}]` before its `+`), nor in an escape.
_PATTERN_BREAKS = re.compile(r"(?<=.)(?<!\\)(?=[\[(])|(?<=\|)")


def markdown_literal(text: str) -> str:
    """`text` as Streamlit Markdown that shows exactly these characters, whitespace as glyphs.

    The glyphs are the token view's (`visible_html`), read back as plain text: its output
    escapes every ``<`` of the text, so the only tags in it are its own spans. A character it
    draws by name in a box (ESC, U+200B) becomes inline code, which a label can show. Then every
    other ASCII punctuation character is backslash-escaped, which is valid CommonMark and also
    stops Streamlit's own directives (``:red[…]``, ``:material/…:``, ``$…$``).

    >>> markdown_literal(" **hi**:\\n"), markdown_literal("a\\x1b")
    ('·\\\\*\\\\*hi\\\\*\\\\*\\\\:↵', 'a`ESC`')
    """
    parts = NAMED.split(visible_html(text, show_whitespace=True, line_breaks=False, alone=True))
    return "".join(
        f"`{part}`" if named else _escaped(unescape(_TAG.sub("", part)))
        for named, part in zip(cycle((False, True)), parts, strict=False)
    )


def _escaped(plain: str) -> str:
    return "".join("\\" + char if char in _MARKDOWN_SPECIAL else char for char in plain)


def chip_label(chunk: str, kind: Kind) -> str:
    """A chunk's chip: the icon of its kind and its text, shortened past `CHIP_CHARS`."""
    shown = chunk if len(chunk) <= CHIP_CHARS else chunk[: _cut(chunk, CHIP_CHARS - 1)] + "…"
    return f"{KIND_ICONS[kind]} {markdown_literal(shown)}"


def told_apart(labels: list[str]) -> list[str]:
    """The labels, each repeat of one made different with invisible word joiners (U+2060).

    Streamlit's pills read the chosen option back by its label: of two chips reading " le"
    (a text has its words more than once), the first step after a click chose the last one,
    and the table jumped to another chunk with the step unchanged (QA round 15).

    >>> [len(label) for label in told_apart(["a", "b", "a", "a"])]
    [1, 1, 2, 3]
    """
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, -1) + 1
        out.append(label + "\u2060" * seen[label])
    return out


def _cut(text: str, most: int) -> int:
    """Where to cut `text` to keep at most `most` characters: after the last whole character as
    a reader sees one (a cut inside 👋🏽 showed a plain 👋); inside the first one if it is longer.

    >>> _cut("ab👋🏽", 3), _cut("ab👋🏽", 4)
    (2, 4)
    """
    ends = [m.end() for m in _GRAPHEMES.finditer(text, endpos=most + 1)]
    whole = [end for end in ends if end <= most]
    return whole[-1] if whole else most


def piece_html(piece: bytes, style: PieceStyle) -> str:
    """One piece, as text with visible whitespace, as GPT-2's byte symbols, or as hex bytes.

    As text, a piece that is only part of a character (half an emoji) cannot be shown as one:
    its bytes are shown in hex instead.
    """
    if style == "symbols":
        return escape(bytes_to_symbols(piece))
    if style == "text":
        try:
            return visible_html(
                piece.decode("utf-8"), show_whitespace=True, line_breaks=False, alone=True
            )
        except UnicodeDecodeError:
            pass
    return f'<span class="mg-hex">{hex_bytes(piece)}</span>'


def _chip(piece: bytes, style: PieceStyle, extra: str = "") -> str:
    return f'<span class="mg-p{extra}">{piece_html(piece, style)}</span>'


def _rank(rank: int | None, best: bool) -> str:
    if rank is None:
        return '<span class="mg-r mg-no" title="no merge has this pair">—</span>'
    return f'<span class="mg-r{" mg-best" if best else ""}">{rank}</span>'


def made_places(merged_at: Sequence[int]) -> list[int]:
    """Where the pieces a step made are in the pieces after it, from where it merged.

    The j-th occurrence (0-based) merged at piece p is piece p - j afterwards: each merge
    before it took one piece away.

    >>> made_places([0, 2, 5])
    [0, 1, 3]
    """
    return [p - j for j, p in enumerate(merged_at)]


def _pieces_cell(step: MergeStep, made: Sequence[int], style: PieceStyle) -> str:
    """The pieces with each adjacent pair's rank between them.

    The lowest rank, and the pair it joins, are lit: the next merge takes them (every place
    they occur). Pieces the merge of this row just made (`made`) are marked as new.
    """
    picked = set(step.positions)
    lit = {j for i in picked for j in (i, i + 1)}
    new = set(made)
    shown = min(len(step.parts), MAX_ROW_PIECES)
    cells = []
    for i in range(shown):
        extra = (" mg-pick" if i in lit else "") + (" mg-new" if i in new else "")
        cells.append(_chip(step.parts[i], style, extra))
        if i < len(step.ranks) and i + 1 < shown:
            cells.append(_rank(step.ranks[i], i in picked))
    if shown < len(step.parts):
        cells.append(f'<span class="mg-more">… {len(step.parts) - shown:,} more</span>')
    if step.best is None:
        cells.append('<span class="mg-done">no pair left to merge</span>')
    return "".join(cells)


def _merge_cell(before: MergeStep | None, style: PieceStyle) -> str:
    """The merge that led to a row, from the step before it: ``rank 12: e + n → en``."""
    if before is None or before.best is None:
        return '<span class="mg-none">single bytes</span>'
    i = before.positions[0]
    left, right = before.parts[i], before.parts[i + 1]
    count = len(before.positions)
    times = f' <span class="mg-times">× {count}</span>' if count > 1 else ""
    return (
        f'rank <b class="mg-rank">{before.best}</b>: {_chip(left, style)} + {_chip(right, style)}'
        f" → {_chip(left + right, style, ' mg-new')}{times}"
    )


def merge_table_html(chunk: Chunk, upto: int, style: PieceStyle) -> str:
    """The walkthrough table of one chunk, with a row for each of its first `upto` merges.

    Row k is the chunk *after* its k-th merge (row 0: its bytes), numbered by the global step
    that made it, so a row's step is the slider's step: k merges applied to the whole text.
    Each row says which merge led to it (``rank 12: e + n → en``) and shows the pieces then,
    with the rank of every adjacent pair (— when the pair is no merge); the lowest rank, which
    the next row merges, is lit. The last row drawn is the current one. Once no pair is left,
    the vocabulary lookup gives the ids.
    """
    steps = chunk.trace.steps
    first = max(0, upto + 1 - MAX_TABLE_ROWS)
    rows = []
    if first:
        rows.append(f'<tr><td colspan="3" class="mg-more">{first:,} earlier steps…</td></tr>')
    for local in range(first, upto + 1):
        step = steps[local]
        before = steps[local - 1] if local else None
        made = made_places(before.positions) if before else []
        classes = "mg-row" + (" mg-now" if local == upto else "")
        data = f'data-step="{chunk.global_step(local)}" data-merges="{local}"'
        if before is not None:
            data += f' data-rank="{before.best}"'
        if step.best is not None:
            data += f' data-best="{step.best}"'
        rows.append(
            f'<tr class="{classes}" {data}>'
            f'<td class="mg-n">{chunk.global_step(local)}</td>'
            f'<td class="mg-merge">{_merge_cell(before, style)}</td>'
            f'<td class="mg-pieces">{_pieces_cell(step, made, style)}</td></tr>'
        )
    return (
        '<table class="mg-table"><thead><tr>'
        '<th title="Step k: k merges applied to the whole text">Step</th>'
        "<th>Merge that led here</th>"
        "<th>Pieces, with the rank of each adjacent pair "
        '<span class="mg-key"><span class="mg-r mg-best">lowest</span> merges next</span>'
        "</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>{_lookup_html(chunk, upto, style)}"
    )


def _lookup_html(chunk: Chunk, upto: int, style: PieceStyle) -> str:
    """The final pieces looked up in the vocabulary: piece → id (shown once merging is over)."""
    if upto < chunk.merges:
        return (
            '<div class="mg-lookup mg-pending">Token ids: once no pair is left to merge, '
            "each final piece is looked up in the vocabulary.</div>"
        )
    pieces = chunk.trace.steps[-1].parts
    pairs = "".join(
        f'<span class="mg-pair">{_chip(piece, style)} → '
        f'<span class="mg-id" data-token-id="{token_id}">{token_id}</span></span>'
        for piece, token_id in zip(pieces, chunk.trace.ids, strict=True)
    )
    return f'<div class="mg-lookup"><span class="mg-label">Vocabulary lookup</span>{pairs}</div>'


@dataclass(frozen=True)
class StepSummary:
    """What global step `step` applied: the rule's rank and id, its pair, and where."""

    step: int
    rank: int
    merged: int
    left: bytes
    right: bytes
    places: int  # occurrences merged, over all chunks
    chunks: int
    tokens: int


def step_summary(walk: Walkthrough, global_step: int) -> StepSummary | None:
    """The merge applied at `global_step` (None at step 0, before any merge)."""
    if global_step == 0:
        return None
    done = walk.steps[global_step - 1]
    places = 0
    left = right = b""
    for c in done.chunks:
        chunk = walk.chunks[c]
        step = chunk.trace.steps[chunk.local_step(global_step) - 1]
        places += len(step.positions)
        left, right = step.parts[step.positions[0]], step.parts[step.positions[0] + 1]
    return StepSummary(
        global_step, done.rank, done.merged, left, right, places, len(done.chunks), done.tokens
    )


def summary_html(summary: StepSummary | None, walk: Walkthrough, style: PieceStyle) -> str:
    """One line above the whole text: the step, and the merge that led to it."""
    if summary is None:
        return (
            f'<div class="mg-summary"><b>Step 0</b> of {walk.last:,} · single bytes, before any '
            f"merge: every byte is its own token · {counted(walk.token_counts[0], 'token')}</div>"
        )
    places = counted(summary.places, "place")
    chunks = counted(summary.chunks, "chunk")
    tokens = counted(summary.tokens, "token")
    return (
        f'<div class="mg-summary"><b>Step {summary.step:,}</b> of {walk.last:,} · merge of rank '
        f'<b class="mg-rank">{summary.rank}</b>: {_chip(summary.left, style)} + '
        f"{_chip(summary.right, style)} → {_chip(summary.left + summary.right, style, ' mg-new')}"
        # "(id" and the id stay on one line: presenting, the headline broke between them.
        f" (id&nbsp;{summary.merged}) in {places} ({chunks}) · {tokens}</div>"
    )


def step_words(walk: Walkthrough, global_step: int) -> str:
    """The step's headline as one plain sentence, for a screen reader to say (`step_keys`)."""
    summary = step_summary(walk, global_step)
    if summary is None:
        return f"Step 0 of {walk.last:,}: single bytes, {counted(walk.token_counts[0], 'token')}."
    pair = f"{plain(summary.left)} + {plain(summary.right)}"
    tokens = counted(summary.tokens, "token")
    return (
        f"Step {summary.step:,} of {walk.last:,}: merge of rank {summary.rank}, {pair} → "
        f"{plain(summary.left + summary.right)} (id {summary.merged}), {tokens}."
    )


def whole_text_html(walk: Walkthrough, global_step: int, enc: Encoding, style: PieceStyle) -> str:
    """The whole text after `global_step` steps, coloured by token id, under the step's summary.

    The tokens this step made are outlined by the block that draws it
    (`Walkthrough.made_positions`).
    """
    tok = tokenized_from_ids(enc, walk.ids_at(global_step))
    summary = summary_html(step_summary(walk, global_step), walk, style)
    view = ViewOptions(color_by="id", show_whitespace=True, pointing=False)
    return (
        f'<div class="mg mg-text"><style>{_CSS}</style>{summary}{render_tokens(tok, enc, view)}'
        "</div>"
    )


def chunk_html(chunk: Chunk, upto: int, style: PieceStyle) -> str:
    """Stage 2's block: the chunk's table in its own escaped, styled container."""
    table = merge_table_html(chunk, upto, style)
    return f'<div class="mg mg-chunk"><style>{_CSS}</style>{table}</div>'


def pattern_html(source: str) -> str:
    r"""A pattern, escaped, that wraps only between its parts.

    >>> pattern_html(r" ?[^\s\p{L}]+[\r\n/]*|\(a")
    ' ?<wbr>[^\\s\\p{L}]+<wbr>[\\r\\n/]*|<wbr>\\(a'
    """
    return "<wbr>".join(escape(part) for part in _PATTERN_BREAKS.split(source))


def alternatives_html(walk: Walkthrough, max_examples: int = 4) -> str:
    """Stage 1's legend: each alternative of the pattern, what it is for, and its chunks here."""
    found: dict[int, list[str]] = {}
    for chunk in walk.chunks:
        if chunk.alternative is not None:
            found.setdefault(chunk.alternative, []).append(chunk.text)
    rows = []
    for alt in walk.alternatives:
        texts = found.get(alt.index, [])
        examples = "".join(
            _chip(text.encode("utf-8"), "text")
            for text in list(dict.fromkeys(texts))[:max_examples]
        )
        rows.append(
            f'<tr class="{"" if texts else "mg-unused"}" data-alternative="{alt.index + 1}">'
            f"<td>{alt.index + 1}</td><td><code>{pattern_html(alt.source)}</code></td>"
            f"<td><b>{KIND_LABELS[alt.kind]}</b>: {escape(KIND_HELP[alt.kind])}</td>"
            f"<td>{len(texts):,}</td><td>{examples}</td></tr>"
        )
    return (
        f'<div class="mg mg-pattern"><style>{_CSS}</style><table class="mg-alts"><thead><tr>'
        "<th>#</th><th>Alternative</th><th>Matches</th><th>Chunks</th><th>Examples here</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


_PRESENTATION_CSS = (Path(__file__).with_name("presentation.css")).read_text(encoding="utf-8")


def presentation_css(*, dark: bool) -> str:
    """A page-wide ``<style>`` for presentation mode, in the contrast of the current theme."""
    return presentation.style(_PRESENTATION_CSS, dark=dark)
