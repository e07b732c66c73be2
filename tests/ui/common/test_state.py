"""`Param.seed` hands back a value Streamlit dropped with its widget; `reset` starts over."""

import sys

import pytest
from streamlit.testing.v1 import AppTest


@pytest.fixture(autouse=True)
def _keep_main_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """AppTest leaves its script, a temporary file deleted afterwards, as ``__main__``; a later
    test that starts a "spawn" process (the trainer's) would have the child run that file."""
    monkeypatch.setitem(sys.modules, "__main__", sys.modules["__main__"])


def _app() -> None:
    """One toggle bound to a `Param`, drawn only while ``shown`` (a page left for another)."""
    import streamlit as st

    from ui.common import state

    flag = state.flag("test.flag", "flag")
    if st.session_state.get("reset"):
        st.session_state["reset"] = False
        flag.reset()
    if st.session_state.get("shown", True):
        flag.seed()
        st.toggle("Flag", key=flag.key)
        flag.publish()


def _hide_and_show(at: AppTest) -> AppTest:
    at.session_state["shown"] = False
    at.run()
    assert "test.flag" not in at.session_state  # Streamlit dropped it with its widget
    at.query_params.clear()  # as on another page, whose link has other parameters
    at.session_state["shown"] = True
    return at.run()


def test_a_value_dropped_with_its_widget_comes_back() -> None:
    at = AppTest.from_function(_app).run()
    at.toggle(key="test.flag").set_value(True).run()
    assert _hide_and_show(at).toggle(key="test.flag").value is True
    assert at.query_params["flag"] == "1"


def test_a_link_given_meanwhile_wins_over_the_kept_value() -> None:
    at = AppTest.from_function(_app).run()
    at.toggle(key="test.flag").set_value(True).run()
    at.session_state["shown"] = False
    at.run()
    at.query_params["flag"] = "0"  # a link to the page with the flag off
    at.session_state["shown"] = True
    assert at.run().toggle(key="test.flag").value is False


def test_reset_gives_the_default_again() -> None:
    at = AppTest.from_function(_app).run()
    at.toggle(key="test.flag").set_value(True).run()
    at.session_state["reset"] = True
    at.run()
    assert not at.exception
    assert at.toggle(key="test.flag").value is False
    assert "flag" not in at.query_params
