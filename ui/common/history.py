"""Typing is one entry in the browser's history, not one per pause.

Every change of the link is an entry in the browser's history (`state.follow_history` makes Back
and Forward show them), and a live text box changes the link on every pause in typing. The
script-only component ui/components/history.js, on every page, makes the typing of one text one
entry: its first link is a new entry, the links that follow while the user goes on typing
replace it. One Back goes to the view before the typing. A player's timer (Merges, the Train
replay) changes the step the same way, with nobody acting: a play is one entry too, and Back
goes to where it started, not through every step played. It also makes a page switch one entry
(Streamlit makes it two: the bare address, then the new page's link).
"""

import streamlit as st

from ui.common import state
from ui.components import component

_history = component("history")

PLAYED = ("step",)
"""Link values a player's timer changes, one entry per play as typing is one per text."""


def typing_replaces_entries() -> None:
    """Put the script on the page (in the sidebar, which it leaves as it was)."""
    with st.sidebar:
        _history(key="common.history", data={"typed": state.typed_urls(), "played": list(PLAYED)})
