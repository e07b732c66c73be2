"""The app's pages, and the frame (page config, sidebar, notices) every page is drawn inside.

`app.py` draws the frame around the page the URL names. Streamlit also has an older multipage
mode that a `pages/` folder next to the main script switches on until the process's first
`st.navigation` call: a fresh server whose first request is a deep link (``/vocab?id=…``) runs
that page file alone, outside app.py (AppTest, too, re-guesses the mode on every run). So every
page starts with `require_frame`: app.py marks each run it frames, and a page that finds no mark
draws the frame itself, running itself inside it, and stops the unframed run. Its
`st.navigation` call ends the old mode for the whole server. Only public Streamlit API is used.
"""

from functools import cache
from pathlib import Path

import streamlit as st
from PIL import Image, ImageDraw
from streamlit.navigation.page import StreamlitPage

from ui.common import history, registry, sidebar, slow_pattern, state, whole_page
from ui.common.focus import keep_tab_focus
from ui.common.palette import HUES
from ui.common.well_formed import repair_typed_text

_FRAMED = "common.framed"  # session state: set by the frame for the page it runs next

_FRAME_CSS = Path(__file__).with_name("frame.css").read_text(encoding="utf-8")


def pages() -> list[StreamlitPage]:
    """The app's pages, made during the run: an `st.Page` made outside a script run (when a
    doctest run imports this module) is left half-built, and would break every later run."""
    return [
        st.Page(
            "pages/playground.py", title="Playground", icon=":material/keyboard:", default=True
        ),
        st.Page("pages/merges.py", title="Merges", url_path="merges", icon=":material/merge:"),
        st.Page(
            "pages/train.py", title="Train", url_path="train", icon=":material/model_training:"
        ),
        st.Page("pages/compare.py", title="Compare", url_path="compare", icon=":material/compare:"),
        st.Page(
            "pages/vocab.py", title="Vocabulary", url_path="vocab", icon=":material/menu_book:"
        ),
    ]


@cache
def favicon() -> Image.Image:
    """Three coloured tokens, drawn here: an emoji or Material icon would be fetched from a CDN,
    and the app must work offline."""
    image = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for index, (left, right) in enumerate(((2, 22), (24, 44), (46, 62))):
        draw.rounded_rectangle((left, 14, right, 50), radius=5, fill=(*HUES[index], 255))
    return image


def frame() -> None:
    """Page config, navigation, the sidebar, then the page the URL names, with notices on top."""
    st.set_page_config(
        page_title="BPE Lens",
        page_icon=favicon(),
        layout="wide",
        initial_sidebar_state="auto",  # collapsed on a phone, where it covered the page
    )
    page: StreamlitPage = st.navigation(pages())
    st.html(f"<style>{_FRAME_CSS}</style>")  # style only: Streamlit gives it no room on the page
    state.follow_history(page.url_path or "playground")  # the state's keys start with this
    with whole_page.drawing(), state.one_history_entry():
        registry.collect_awaited()  # a training that finished while its user was elsewhere
        sidebar.encoding_picker()
        repair_typed_text()
        keep_tab_focus()
        notices = st.container()  # above the page, filled after it: its state reads the link
        st.session_state[_FRAMED] = True
        try:
            with slow_pattern.reported():
                page.run()
        finally:  # also when the page stops early (st.stop)
            with notices:
                state.show_notices()
                registry.show_lost()
            history.typing_replaces_entries()  # after the page: its texts are declared now


def require_frame() -> None:
    """First line of every page: if this run did not come through the frame, go through it now."""
    if st.session_state.pop(_FRAMED, False):
        return
    frame()  # runs this very page again, framed
    st.stop()  # and ends the unframed run
