"""The keyboard's focus, kept where the user was when a run draws the page anew.

A rerun can redraw the element that had the focus, which then fell to the page's body, and
the next key did nothing, or the next Tab started again from the top. Two script-only
components put it back:

- ui/components/tab_focus.js, on every page: a tab chosen with an arrow key keeps the focus
  when its tabs rerun the page (Compare's, Train's).
- ui/components/focus.js, drawn for one run: the element a CSS selector names takes the focus
  (a chat message just moved or added).

Both are drawn in the sidebar, where they take no room from the page.
"""

import streamlit as st

from ui.components import component

_tab_focus = component("tab_focus")
_focus = component("focus")


def keep_tab_focus() -> None:
    """Put the tabs' script on the page."""
    with st.sidebar:
        _tab_focus(key="common.tab_focus", data={})


def focus_once(selector: str, *, key: str) -> None:
    """Focus the element `selector` names, drawn this run or within the next second (right
    after the user's own press)."""
    with st.sidebar:
        _focus(key=key, data={"selector": selector})
