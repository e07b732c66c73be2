"""Tokens to one escaped HTML block: coloured spans, an ids pane, honest bytes, regex chunks.

The block is self-contained (its CSS and a small hover script travel with it) and is built as one
string, because one `st.html` call is fast where thousands of elements are not. Every piece of
user text passes through `visible_html` or `html.escape` on its way in.

Layout, for "hi 👋" in GPT-2, where the emoji is cut across two tokens:

    [hi][ 👋            ]     <- characters of the cut, shown once above...
        [20 F0 9F 91][8B]     <- ...the real bytes of each token that shares them
"""

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Literal, Protocol

import regex

from tokenizer import Tokenized
from tokenizer.vocab import is_utf8
from ui.common import palette
from ui.common.glyphs import is_invisible, visible_html
from ui.common.limits import RENDER_LIMIT
from ui.common.token_text import hex_bytes, plain

_CSS = Path(__file__).with_suffix(".css").read_text(encoding="utf-8") + palette.css_rules(".bpl ")
_JS = Path(__file__).with_suffix(".js").read_text(encoding="utf-8")

HINT = (
    "Hover a token or id, or Tab in and use the arrows: its id, merge rank, characters and"
    " bytes show here."
)
TOKENS_HINT = HINT.replace("a token or id", "a token")  # a view without its ids pane
# The tokens pane's name for readers, after whose tokens they are.
_KEYS = ": the arrow keys, Home and End walk them"
TOOLTIP_TEXT_CHARS = 40  # of a token's text in its facts line; a longer one ends with "…"
# How a token that no merge made came to be, in its facts line and its pinned panel alike.
SPECIAL_ORIGIN = "special token"
BYTE_ORIGIN = "single byte, no merge"
# A newline with glyphs off: a faint ↵ drawn by CSS (token_view.css, `.nl::before`), so a token
# that is only line breaks still shows, while the token's text stays exactly its text.
_NEWLINE_MARK = '<span class="nl"></span>\n'

# Characters that can reorder the text around them: right-to-left letters and numbers, and the
# explicit embeddings, overrides and isolates. A token holding one is drawn as a bidi isolate
# (class "bidi"), so it never moves its neighbours out of their order. The other tokens need
# no isolate; isolating every one cost the browser about a third of a 5,000-token layout.
_REORDERING = regex.compile(
    r"[\p{Bidi_Class=R}\p{Bidi_Class=AL}\p{Bidi_Class=AN}\p{Bidi_Class=LRE}\p{Bidi_Class=RLE}"
    r"\p{Bidi_Class=LRO}\p{Bidi_Class=RLO}\p{Bidi_Class=PDF}\p{Bidi_Class=LRI}"
    r"\p{Bidi_Class=RLI}\p{Bidi_Class=FSI}\p{Bidi_Class=PDI}]"
)


ColorBy = Literal["position", "id"]


class TokenFacts(Protocol):
    """What the view asks of an encoding about one id (`tokenizer.Encoding` provides both)."""

    def merge_rank(self, token_id: int) -> int | None: ...

    def is_special(self, token_id: int) -> bool: ...


@dataclass(frozen=True)
class ViewOptions:
    """The playground's display toggles."""

    color_by: ColorBy = "position"
    show_whitespace: bool = False
    limit: int = RENDER_LIMIT
    # Pointing at tokens, by mouse or keys (the facts line, the tab stop, the script): off where
    # the host patches the view's nodes itself and runs no script (the Merges page).
    pointing: bool = True
    # Whose tokens these are, in the tokens pane's name for screen readers, where several views
    # sit side by side (Compare's columns all read "Tokens" alike).
    owner: str = ""
    # The ids pane beside the tokens: off in a column too narrow for both (Compare's).
    ids: bool = True


DEFAULT_VIEW = ViewOptions()


def clusters(tok: Tokenized, stop: int) -> list[range]:
    """Group the first `stop` tokens so that no character is cut between two groups.

    Most groups hold one token. Tokens that share a character (their character spans overlap)
    form one group, which the view draws as the characters above each token's bytes.

    >>> import tokenizer as tk
    >>> clusters(tk.get_encoding("gpt2").tokenize("hi 👋"), 3)
    [range(0, 1), range(1, 3)]
    """
    groups: list[range] = []
    start = 0
    for i in range(1, stop + 1):
        if i == stop or tok.char_spans[i - 1][1] <= tok.char_spans[i][0]:
            groups.append(range(start, i))
            start = i
    return groups


def tooltip(tok: Tokenized, i: int, facts: TokenFacts) -> str:
    """Plain-text facts about token `i` (escaped later, as an attribute)."""
    token_id = tok.ids[i]
    rank = facts.merge_rank(token_id)
    if facts.is_special(token_id):
        origin = SPECIAL_ORIGIN
    elif rank is None:
        origin = BYTE_ORIGIN
    else:
        origin = f"merge rank {rank:,}"  # as the pinned panel writes it
    chars = char_span(*tok.char_spans[i])
    shown = plain(tok.pieces[i])
    if len(shown) > TOOLTIP_TEXT_CHARS:
        shown = shown[: TOOLTIP_TEXT_CHARS - 1] + "…"
    # The token itself first: a screen reader walking the tokens hears this line, not the chips.
    return f"“{shown}” · id {token_id} · {origin} · {chars} · bytes {hex_bytes(tok.pieces[i])}"


def char_span(first: int, last: int) -> str:
    """The characters ``text[first:last]`` as a reader counts them, from 1 like the tokens
    ("token 11, chars 14–15"; it said "chars 13–14", counted from 0).

    >>> char_span(0, 1), char_span(4, 10)
    ('char 1', 'chars 5–10')
    """
    return f"char {first + 1:,}" if last - first == 1 else f"chars {first + 1:,}–{last:,}"


def _colour(tok: Tokenized, i: int, color_by: ColorBy) -> int:
    return palette.by_id(tok.ids[i]) if color_by == "id" else palette.by_position(i)


def _token_span(
    tok: Tokenized, i: int, facts: TokenFacts, opts: ViewOptions, body: str, kind: str = ""
) -> str:
    """One token: `kind` is "bytes" when its body is hex rather than text, "bidi" when its text
    can reorder what is around it."""
    colour = _colour(tok, i, opts.color_by)
    classes = f"tok{' ' + kind if kind else ''} c{colour}"
    if i and _colour(tok, i - 1, opts.color_by) == colour:
        # By id, neighbours share a tint now and then (24 tints for 100,000 ids): " by" and
        # " Open" read as one token. A rule between them keeps them two.
        classes += " again"
    if facts.is_special(tok.ids[i]):
        classes += " special"
    return (
        f'<span class="{classes}" data-i="{i}" data-token-id="{tok.ids[i]}" '
        f'title="{escape(tooltip(tok, i, facts))}">{body}</span>'
    )


def _group_html(tok: Tokenized, group: range, facts: TokenFacts, opts: ViewOptions) -> str:
    """Characters shared by several tokens, once, above each token's real bytes."""
    first, last = tok.char_spans[group[0]][0], tok.char_spans[group[-1]][1]
    chars = tok.text[first:last]
    byte_spans = "".join(
        _token_span(tok, i, facts, opts, hex_bytes(tok.pieces[i]), "bytes") for i in group
    )
    # Characters that would draw nothing (a ZWJ cut in two) show their code points, as in
    # `_single_html`.
    glyphs = opts.show_whitespace or is_invisible(chars)
    shown = visible_html(chars, show_whitespace=glyphs, line_breaks=False, alone=True)
    # The group is a box, so a line break inside it would be lost: add it after the box.
    after = "\n" * chars.count("\n")
    return (
        f'<span class="grp"><span class="grp-chars">{shown}</span>'
        f'<span class="grp-toks">{byte_spans}</span></span>{after}'
    )


def _single_html(tok: Tokenized, i: int, facts: TokenFacts, opts: ViewOptions) -> str:
    """One token that holds whole characters: its text, made visible where it would not be."""
    first, last = tok.char_spans[i]
    text = tok.text[first:last]
    # A token that would draw nothing is shown by its code points, glyphs on or off.
    shown = opts.show_whitespace or is_invisible(text)
    body = visible_html(text, show_whitespace=shown, alone=True)
    if not shown and "\n" in text:
        body = body.replace("\n", _NEWLINE_MARK)
    return _token_span(tok, i, facts, opts, body, "bidi" if _REORDERING.search(text) else "")


def _chunk_starts(chunks: Sequence[str]) -> list[int]:
    """Character offset where each chunk starts (chunks cover the text, in order)."""
    starts, offset = [], 0
    for chunk in chunks:
        starts.append(offset)
        offset += len(chunk)
    return starts


def _chunk_open(chunks: Sequence[str], j: int) -> str:
    size = f"{len(chunks[j])} char" + ("" if len(chunks[j]) == 1 else "s")
    return f'<span class="chunk k{j % 2}" title="chunk {j} · {size}">'


def _token_units(
    tok: Tokenized,
    stop: int,
    facts: TokenFacts,
    opts: ViewOptions,
    chunks: Sequence[str] | None = None,
) -> list[str]:
    """The first `stop` tokens as HTML units, each whole on its own: a token, a group of tokens
    that share characters, or with `chunks` a chunk's span holding its tokens.

    Tokens never cross a chunk (BPE runs inside each chunk), so chunk spans nest around whole
    tokens, and the band under them wraps with the tokens' own lines.
    """
    units: list[str] = []
    starts = _chunk_starts(chunks) if chunks is not None else []
    j = -1  # the chunk open now
    for group in clusters(tok, stop):
        i = group[0]
        if len(group) == 1 and is_utf8(tok.pieces[i]):
            html = _single_html(tok, i, facts, opts)
        else:
            html = _group_html(tok, group, facts, opts)
        if chunks is not None:
            begin = tok.char_spans[i][0]
            if j + 1 < len(starts) and begin >= starts[j + 1]:
                if j >= 0:
                    units[-1] += "</span>"
                j = bisect_right(starts, begin) - 1
                html = _chunk_open(chunks, j) + html
            else:
                units[-1] += html
                continue
        units.append(html)
    if j >= 0:
        units[-1] += "</span>"
    return units


def _id_units(tok: Tokenized, stop: int, opts: ViewOptions) -> list[str]:
    """The ids, comma-separated so a copy of this pane pastes straight into decode mode."""
    return [
        f'<span class="tid c{_colour(tok, i, opts.color_by)}" data-i="{i}">{tok.ids[i]}</span>'
        + (", " if i + 1 < stop else "")
        for i in range(stop)
    ]


@dataclass(frozen=True)
class ViewParts:
    """The token view in pieces, so a live view can replace what changed and keep the rest.

    The panes come as units of HTML, each complete on its own (a token, a group, a chunk; an
    id): after a keystroke at the end of a text only the last few differ, and the live view
    replaces only those, so the browser lays out and paints a few spans, not the whole pane.
    """

    classes: str  # of the outer ``.bpl`` element
    tokens_label: str  # plain text
    token_units: tuple[str, ...]  # HTML inside ``.bpl-text``, in order
    id_units: tuple[str, ...]  # HTML inside ``.bpl-ids``, in order

    @property
    def tokens(self) -> str:
        return "".join(self.token_units)

    @property
    def ids(self) -> str:
        return "".join(self.id_units)


def view_parts(
    tok: Tokenized,
    facts: TokenFacts,
    opts: ViewOptions = DEFAULT_VIEW,
    chunks: Sequence[str] | None = None,
) -> ViewParts:
    """The view of `tok`'s first `opts.limit` tokens; `chunks` (the pre-tokenizer's chunks of
    ``tok.text``), when given, underline the tokens chunk by chunk."""
    stop = min(len(tok.ids), opts.limit)
    classes = f"bpl-by-{opts.color_by}" + (" bpl-chunked" if chunks is not None else "")
    if not opts.ids:
        classes += " bpl-alone"
    label = "Tokens, underlined by regex chunk" if chunks is not None else "Tokens"
    return ViewParts(
        classes,
        label,
        tuple(_token_units(tok, stop, facts, opts, chunks)),
        tuple(_id_units(tok, stop, opts)) if opts.ids else (),
    )


def view_css() -> str:
    """The view's stylesheet (its layout, and one rule per colour class)."""
    return _CSS


def view_js() -> str:
    """The view's script: defines ``bplWire(root, hooks)``, which wires hovering (and, with
    hooks, pinning) for the ``.bpl`` element `root`."""
    return _JS


def render_tokens(
    tok: Tokenized,
    facts: TokenFacts,
    opts: ViewOptions = DEFAULT_VIEW,
    chunks: Sequence[str] | None = None,
) -> str:
    """The whole token view of `tok` as one HTML string (at most `opts.limit` tokens drawn),
    with its style and hover script, for `st.html`.

    `chunks`, when given, are the pre-tokenizer's chunks of ``tok.text``, drawn as a band under
    each chunk's tokens.
    """
    parts = view_parts(tok, facts, opts, chunks)
    inspect, keys, script, ids = "", "", "", ""
    if opts.pointing:
        hint = HINT if opts.ids else TOKENS_HINT
        inspect = f'<div class="bpl-inspect" aria-live="polite">{escape(hint)}</div>'
        named = f"{opts.owner} tokens" if opts.owner else "Tokens"
        keys = f' tabindex="0" data-own-arrows aria-label="{escape(named)}{_KEYS}"'
        script = f'<script>{_JS}bplWire(document.currentScript.closest(".bpl"));</script>'
    if opts.ids:
        ids = (
            '<div class="bpl-col"><div class="bpl-label">Token ids</div>'
            f'<div class="bpl-pane bpl-ids">{parts.ids}</div></div>'
        )
    return (
        f'<div class="bpl {parts.classes}"><style>{_CSS}</style>{inspect}'
        '<div class="bpl-panes">'
        f'<div class="bpl-col"><div class="bpl-label">{escape(parts.tokens_label)}</div>'
        f'<div class="bpl-pane bpl-text"{keys}>{parts.tokens}</div></div>'
        f"{ids}</div>{script}</div>"
    )
