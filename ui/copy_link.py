"""A "Copy link" button: copies the address bar, which pages keep equal to their state."""

from pathlib import Path

import streamlit as st

_ASSETS = Path(__file__).parent / "components"

_button = st.components.v2.component(
    "bpe_lens.copy_link",
    html=(_ASSETS / "copy_link.html").read_text(encoding="utf-8"),
    css=(_ASSETS / "copy_link.css").read_text(encoding="utf-8"),
    js=(_ASSETS / "copy_link.js").read_text(encoding="utf-8"),
)


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
