"""Put the keyboard's focus on an element after a run that redrew the one that had it.

A page that draws a control anew drops the focus to the page's body, and the next Tab starts
again from the top. The script-only component ui/components/focus.js, drawn for one run,
focuses the element a CSS selector names.
"""

import streamlit as st

from ui.components import component

_focus = component("focus")


def focus_once(selector: str, *, key: str) -> None:
    """Focus the element `selector` names, drawn this run or within the next second (right
    after the user's own press). The script is drawn in the sidebar, where it takes no room
    from the page.
    """
    with st.sidebar:
        _focus(key=key, data={"selector": selector})
