"""Lone surrogates in Streamlit's own text boxes, repaired in the browser before they are sent.

A pasted lone surrogate cannot reach the server through a Streamlit widget: its message fails to
decode there and the connection drops, so the text is lost without a word. The script-only
component ui/components/well_formed.js replaces each with U+FFFD as it is typed, on every page.
"""

import streamlit as st

from ui.components import component

_well_formed = component("well_formed")


def repair_typed_text() -> None:
    """Put the repairing script on the page (in the sidebar, which it leaves as it was)."""
    with st.sidebar:
        _well_formed(key="common.well_formed", data={})
