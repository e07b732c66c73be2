"""A page's head: its title and a line on what it shows on one short row, with the page's own
controls at its end ("Copy link", the presentation toggle).

Streamlit's title alone is about 90 px tall and its caption a row of its own: at 1280x720 that
left the Compare page no room for a single token on its first screen. Every page's head is this
row, so switching pages never moves or resizes the title. Its style is in frame.css
(``.st-key-page-head``), drawn on every page.
"""

import streamlit as st
from streamlit.delta_generator import DeltaGenerator


def page_head(title: str, caption: str) -> DeltaGenerator:
    """Draw the row and return it, for the controls that end it; `caption` is Markdown (quote
    user input in it: `messages.inline_code`)."""
    row = st.container(horizontal=True, vertical_alignment="center", key="page-head")
    row.title(title, anchor=False)
    row.caption(caption)
    return row
