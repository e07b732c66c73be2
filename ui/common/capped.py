"""Streamlit's own text boxes with a length limit that keep the start of a paste past it.

Given `max_chars`, Streamlit's box refuses an edit that would pass the limit: a paste of
1,000,001 characters into Train's corpus box left the box as it was, and nothing said why.
These boxes take any length; their callback keeps the first `limit` characters and says so,
naming the limit, as the live text box does (`ui.common.live_text`).
"""

from collections.abc import Callable

import streamlit as st


def capped(key: str, limit: int, then: Callable[[], None] | None = None) -> Callable[[], None]:
    """An `on_change` callback for the box keyed `key`: cut its text to `limit` characters,
    with a toast if it was longer, then run `then` (the box's own callback) on what is kept."""

    def cut() -> None:
        text = st.session_state.get(key)
        if isinstance(text, str) and len(text) > limit:
            st.session_state[key] = text[:limit]
            st.toast(
                f"This box holds at most {limit:,} characters: the first {limit:,} of the "
                f"{len(text):,} given are kept.",
                icon=":material/content_cut:",
            )
        if then is not None:
            then()

    return cut
