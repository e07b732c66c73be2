"""Tabs chosen with the keyboard keep the focus, on every page.

Tabs that rerun the page when one opens are drawn again, and the focus that an arrow key had
moved to the new tab fell to the page's body: the next arrow did nothing. The script-only
component ui/components/tab_focus.js puts it back on the open tab.
"""

import streamlit as st

from ui.components import component

_tab_focus = component("tab_focus")


def keep_tab_focus() -> None:
    """Put the script on the page (in the sidebar, which it leaves as it was)."""
    with st.sidebar:
        _tab_focus(key="common.tab_focus", data={})
