"""Compare (url "/compare"): tokenizers side by side on one text, and across languages and code.

Two tabs, each only computed when open: "Side by side" (ui/compare/side.py) and "Languages & code"
(ui/compare/languages/tab.py). The open tab is in the link (``?tab=languages``).
"""

import streamlit as st

from ui.common.copy_button import copy_link_button
from ui.common.heading import page_head
from ui.common.navigation import require_frame
from ui.compare.languages.tab import languages_tab
from ui.compare.side import side_by_side
from ui.compare.state import TAB, TABS

require_frame()

with page_head(
    "Compare",
    "The same text through several tokenizers, and what the same content costs across languages "
    "and code.",
):
    copy_link_button("compare.copy_link")  # the text, the tokenizers, the tab and the view
tabs = st.tabs(list(TABS.values()), default=TAB.seed(), key=TAB.key, on_change="rerun")
TAB.publish()
with tabs[0]:
    if tabs[0].open:
        side_by_side()
with tabs[1]:
    if tabs[1].open:
        languages_tab()
