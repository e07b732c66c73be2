"""A run stopped part-way for another leaves the page not whole; a run that ends makes it whole
(`whole_page`: a live box's fragment rerun waits for a whole page)."""

import sys

import pytest
from streamlit.testing.v1 import AppTest


@pytest.fixture(autouse=True)
def _keep_main_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """AppTest leaves its script as ``__main__`` (tests/ui/common/test_state.py says why)."""
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])


def _app() -> None:
    """Notes what each run's callbacks would hear, then draws; stops part-way when asked, as a
    send during the run stops it (Streamlit raises the same exception for both)."""
    import streamlit as st

    from ui.common import whole_page

    st.session_state.setdefault("heard", []).append(whole_page.is_whole())
    with whole_page.drawing():
        st.write("the page")
        if st.session_state.pop("stop_part_way", False):
            st.rerun()
        st.write("the rest of it")


def test_the_first_run_hears_nothing_drawn_and_later_runs_a_whole_page() -> None:
    at = AppTest.from_function(_app).run().run()
    assert at.session_state["heard"] == [False, True]


def test_a_run_stopped_part_way_leaves_the_page_not_whole() -> None:
    at = AppTest.from_function(_app).run()
    at.session_state["stop_part_way"] = True
    at.run()  # stops at st.rerun, and the run it asks for draws all
    assert at.session_state["heard"] == [False, True, False]
    assert at.run().session_state["heard"][-1] is True
