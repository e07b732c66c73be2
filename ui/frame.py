"""Every page opens inside app.py's frame, even as the first request of a fresh server.

Streamlit still has its older multipage mode: while no script has called `st.navigation` yet, a
server whose main script sits next to a `pages/` folder runs a requested page (``/vocab?id=…``)
on its own, without app.py (no sidebar, no page config). Our pages call `ensure_app_frame`
first: in that situation it switches the server to app.py's navigation and reruns, which
lands on the same page, now inside the frame, with the query parameters kept.
"""

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def ensure_app_frame() -> None:
    """Rerun through app.py if this page was started without it (see the module docstring)."""
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
