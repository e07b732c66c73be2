"""Copy buttons: "Copy link" copies the address bar, which pages keep equal to their state;
`copy_text_button` copies a text the page gives it (the Chat view's rendered conversation).

A value too long for a link is left out of it, and the page says so under it
(`link_leaves_out`). "Copy link" says so too, from that caption, before and after a click: a
bare "Link copied" let people share a link that opened on the default text.
"""

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
    """Say under a value ("text") that links leave it out, and mark the caption for the page's
    "Copy link" button, which reads it in the browser: in a fragment that alone reruns as the
    user types (the Playground's), this is redrawn where the button is not."""
    with st.container(key=f"{LEFT_OUT}{what}"):
        st.caption(not_in_link(what))


LEFT_OUT = "link-leaves-out-"
"""The start of the caption's key; Streamlit gives its container the class ``st-key-<key>``."""
