"""A page's head: its title, a line on what it shows, and "Copy link", on one short row.

Streamlit's title alone is about 90 px tall and its caption a row of its own: at 1280x720 that
left the Compare page no room for a single token on its first screen. The row's style is in
frame.css (``.st-key-page-head``), drawn on every page.
"""

import streamlit as st

from ui.common.copy_button import copy_link_button


def page_head(title: str, caption: str, copy_key: str) -> None:
    """Draw the row; `caption` is Markdown (quote user input in it: `messages.inline_code`)."""
    row = st.container(horizontal=True, vertical_alignment="center", key="page-head")
    row.title(title, anchor=False)
    row.caption(caption)
    with row:
        copy_link_button(copy_key)
