"""Stage 1 of the Merges page: the text box, and the regex chunks as chips to pick from.

Presenting, both shrink to one line each: a one-line box beside the title (the live box is six
lines tall), and the chips without their explanations, scrolling sideways when they are many.
"""

from typing import Literal

import streamlit as st

from tokenizer import Encoding
from ui.common.capped import capped
from ui.common.copy_button import link_leaves_out
from ui.common.examples import for_encoding
from ui.common.limits import MAX_CHIPS
from ui.common.live_text import examples_menu, live_textarea, set_live_text
from ui.common.sidebar import current_encoding
from ui.common.state import publish_text
from ui.merges.model import Walkthrough
from ui.merges.state import CHUNK, EXAMPLE, EXAMPLE_TEXTS, LINE, MAX_CHARS, TEXT
from ui.merges.view import alternatives_html, chip_label, told_apart


def _load_example(name: str) -> None:
    """Examples menu callback: put the example in the box (with the encoding's own specials)."""
    set_live_text(TEXT.key, for_encoding(EXAMPLE_TEXTS[name], current_encoding())[:MAX_CHARS])


def examples() -> None:
    """The "Load an example…" menu."""
    examples_menu(EXAMPLE, EXAMPLE_TEXTS, _load_example)


def _apply_line() -> None:
    """The one-line box was committed (Enter, Ctrl+Enter, Esc or a click away): its text, already
    cut at the page's limit by `capped` (the box takes any paste: a ``maxlength`` would refuse a
    long one whole, without a word), becomes the page's text."""
    set_live_text(TEXT.key, st.session_state[LINE])


def text_box(*, presenting: bool = False) -> str:
    """The text box (pre-filled from ``?text=``): the live one, or presenting a one-line one.

    The one-line box is a text area (a text may hold line breaks) at its smallest height; it
    applies its text when it loses focus (Esc, ui/merges/keys.py) or on Ctrl+Enter.
    """
    if TEXT.key not in st.session_state:
        set_live_text(TEXT.key, TEXT.seed())
    if presenting:
        if st.session_state.get(LINE) != st.session_state[TEXT.key]:  # an example, a link
            st.session_state[LINE] = st.session_state[TEXT.key]
        st.text_area(
            "Text", st.session_state[LINE], key=LINE, height=68,
            on_change=capped(LINE, MAX_CHARS, then=_apply_line),
            label_visibility="collapsed", placeholder="Type a text…",
            help="Esc or Ctrl+Enter applies it; then the arrow keys step again.",
        )  # fmt: skip
        typed = st.session_state[TEXT.key]
    else:
        examples()
        typed = live_textarea(TEXT.key, label="Text", rows=2, max_chars=MAX_CHARS)
    if len(typed) >= MAX_CHARS:  # at the cap, cut or not (the box may have cut it): say why
        st.info(f"The Merges page traces at most {MAX_CHARS:,} characters: a longer text is cut.")
    text = typed[:MAX_CHARS]
    if not publish_text(TEXT, text):
        link_leaves_out("text")
    return text


def chunk_picker(walk: Walkthrough, enc: Encoding, *, presenting: bool = False) -> None:
    """The chunks as chips (click one to follow its merges) and the pattern's alternatives."""
    if not presenting:
        st.header("1 · Pre-tokenization: the pattern cuts the text into chunks", anchor=False)
        st.caption(
            "The pattern is a list of alternatives separated by `|`. At each position the regex "
            "engine tries them left to right and keeps the first that matches: that match is a "
            "chunk. Merges never cross a chunk's edge. Click a chunk to follow its merges."
        )
    shown = list(range(min(len(walk.chunks), MAX_CHIPS)))
    if st.session_state[CHUNK.key] not in shown:
        shown.append(st.session_state[CHUNK.key])  # a link may select a chunk past the chips

    def chip(index: int) -> str:
        chunk = walk.chunks[index]
        kind = "other" if chunk.alternative is None else walk.alternatives[chunk.alternative].kind
        return chip_label(chunk.text, kind)

    label = dict(zip(shown, told_apart([chip(i) for i in shown]), strict=True)).__getitem__

    height: Literal["content"] | int = 220 if len(shown) > 60 and not presenting else "content"
    with st.container(height=height, border=False, key="merges_chips"):
        st.pills("Chunks", shown, default=st.session_state[CHUNK.key], format_func=label,
                 key=CHUNK.key, required=True, label_visibility="collapsed",
                 persist_state="session")  # fmt: skip
    if presenting:
        return
    if len(walk.chunks) > MAX_CHIPS:
        st.caption(f"The first {MAX_CHIPS:,} of {len(walk.chunks):,} chunks are shown as chips.")
    with st.expander(f"The pattern of {enc.name}, alternative by alternative"):
        st.html(alternatives_html(walk))
