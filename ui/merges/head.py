"""The top of the Merges page: its title, the presentation-mode toggle, and the text box.

Presenting, they share one row (the title, the encoding, a one-line box and the toggle), so the
player below gets the rest of the window; otherwise the title, a sentence and the live box.
"""

import streamlit as st

from tokenizer import Encoding
from ui.common.heading import page_head
from ui.common.messages import inline_code
from ui.common.presentation import TOGGLE_HELP
from ui.common.registry import encoding_label
from ui.merges import chunks
from ui.merges.state import PRESENT
from ui.merges.view import presentation_css


def head(enc: Encoding) -> tuple[str, bool]:
    """Draw the top of the page; return the text and whether the page is presenting."""
    presenting = PRESENT.seed()
    if presenting:
        st.html(presentation_css(dark=st.context.theme.type == "dark"))
        row = st.container(horizontal=True, vertical_alignment="center", key="merges_head")
        # The page's h1 still, at the size of the row's text (presentation.css).
        row.title(f"Merges · {inline_code(enc.name, 40)}", anchor=False, width="content")
        with row.container(width="stretch"):
            text = chunks.text_box(presenting=True)
        row.toggle("Presentation mode", True, key=PRESENT.key, help=TOGGLE_HELP, width="content")
        PRESENT.publish()
        return text, True
    top = page_head(
        "Merges", f"How {inline_code(encoding_label(enc.name), 80)} merges bytes into tokens."
    )
    top.toggle("Presentation mode", False, key=PRESENT.key, help=TOGGLE_HELP, width="content")
    PRESENT.publish()
    st.caption(
        "The pattern cuts the text into chunks, then each chunk merges its lowest-ranked pair, "
        "again and again. **Step k** means k merges applied (step 0: single bytes); a merge's "
        "**rank** is its place in the merge list, from 0."
    )
    return chunks.text_box(), False
