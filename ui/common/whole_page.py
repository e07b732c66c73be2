"""Whether the page on screen is whole: its last full run drew all of it.

A live box may rerun only its fragment (ui/common/live_text.py), which redraws the fragment and
keeps the rest of the page as the last full run left it. A box typed or pasted into during a
page's first run (a cold server, a busy one) sends its text at once, which stops that run where
it was: a fragment run then left the page without everything the stopped run had not drawn yet,
the history script among it (Back went through the typing a few letters at a time). A box asks
`is_whole` first, and reruns the whole page when it is not.
"""

from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

_WHOLE = "common.page_whole"  # session state: the last full run ended, having drawn everything


@contextmanager
def drawing() -> Iterator[None]:
    """Around a full run: the page is whole once the block ends, and not while it runs (a run
    stopped for another leaves the block by an exception, and the flag down)."""
    st.session_state[_WHOLE] = False
    yield
    st.session_state[_WHOLE] = True


def is_whole() -> bool:
    """Whether the last full run drew the whole page (callbacks ask before the next run)."""
    return bool(st.session_state.get(_WHOLE, False))
