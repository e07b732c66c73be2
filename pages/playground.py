"""Playground (url "/"): type text or paste ids, see every token live; or write a chat and see
the tokens its model reads (the Chat view).

The input (mode, box, settings) is drawn by the page; the counts and tokens are one fragment
that a keystroke reruns alone (the box asks for it), so typing never redraws the whole app.
The Chat view edits with ordinary widgets, so it draws its editor and result in the page's run.
State and drawing live in ui/playground/; the tokens come from the core through
ui/common/tokens (cached by content).
"""

import streamlit as st

from ui.common import slow_pattern, state, tokens
from ui.common.live_text import keep_pace
from ui.common.navigation import require_frame
from ui.common.sidebar import current_encoding
from ui.playground import chat, panels
from ui.playground.state import IDS, TEXT

require_frame()


@st.fragment(key=panels.TOKENS_FRAGMENT)
@state.one_history_entry()  # a keystroke's run: one entry in the browser's history
def tokens_pane() -> None:
    """Counts and tokens of the box's text, read from the session (see ui/playground/panels)."""
    enc = current_encoding()
    chosen = panels.current_settings()
    raw = panels.current_input(chosen.mode)
    with slow_pattern.reported(enc.name):  # an imported pattern may be too slow on this text
        if chosen.mode == "decode":
            tok, chunks = panels.decode_ids(enc, raw), None
        else:
            tok = tokens.tokenize(enc, raw, special=chosen.special)
            chunks = tokens.split(enc, raw, special=chosen.special) if chosen.show_chunks else None
        panels.counts(enc, tok)
        if chosen.mode == "encode":
            panels.normalised_hint(enc, raw, tok)
            panels.special_hint(enc, raw, chosen)
        panels.token_pane(enc, tok, chunks, chosen)
    keep_pace(TEXT.key, IDS.key)


enc = current_encoding()
panels.header(enc)
source, result = panels.workspace()
with source:
    mode = panels.input_row()
if mode == "chat":
    talk = chat.conversation(enc)
    view = chat.rendered(enc, talk)
    with source:
        chat.editor(talk, view)
        panels.draw_settings(mode, enc)
    with result:
        chat.result(enc, talk, view, panels.current_settings())
else:
    with source:
        if mode == "decode":
            panels.ids_box(enc)
        else:
            panels.text_box()
        panels.draw_settings(mode, enc)
    with result:
        tokens_pane()
