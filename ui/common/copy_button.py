"""Copy buttons: "Copy link" copies the address bar, which pages keep equal to their state;
`copy_text_button` copies a text the page gives it (the Chat view's rendered conversation).

A value too long for a link is left out of it, and the page says so under it
(`link_leaves_out`). "Copy link" says so too, from that caption, before and after a click: a
bare "Link copied" let people share a link that opened on the default text.
"""

from html import escape

import streamlit as st

from ui.common.messages import not_in_link
from ui.components import component, script

_button = component("copy_link", js=script("clipboard") + script("copy_link"))


def copy_link_button(key: str, label: str = "Copy link") -> None:
    """Draw the button; clicking copies the page's current URL to the clipboard."""
    _button(
        key=key,
        data={
            "label": label,
            "done_label": "Link copied ✓",
            "failed_label": "Copy failed: use the address bar",
        },
        width="content",
    )


def copy_text_button(key: str, text: str, label: str = "Copy text") -> None:
    """Draw the button; clicking copies `text` (nothing goes back to the server)."""
    _button(
        key=key,
        data={
            "label": label,
            "done_label": "Copied ✓",
            "failed_label": "Copy failed: select the text instead",
            "text": text,
        },
        width="content",
    )


def link_leaves_out(what: str) -> None:
    """Say under a value ("text") that links leave it out, marked for the page's "Copy link"
    button, which reads the mark in the browser: in a fragment that alone reruns as the user
    types (the Playground's), this is redrawn where the button is not.

    The mark is an attribute inside the caption, not a container around it: a container put
    where an element was made Streamlit show the old metrics beside the new for a moment.
    """
    st.caption(
        f'<span {MARK}="{escape(what)}">{escape(not_in_link(what))}</span>', unsafe_allow_html=True
    )


MARK = "data-link-leaves-out"
"""The attribute that names what the link leaves out (read by ui/components/copy_link.js)."""
