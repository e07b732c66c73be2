"""`Param.seed` hands back a value Streamlit dropped with its widget; `reset` starts over; on
Back and Forward the link of the history entry wins (`follow_history`)."""

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
    with state.one_history_entry():  # as the frame runs every page
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


def _history_app() -> None:
    """A page ``test`` with a flag and a text in the link, framed as the app frames pages."""
    import streamlit as st

    from ui.common import state

    flag, note = state.flag("test.flag", "flag"), state.text("test.note", "note")
    state.follow_history("test")
    with state.one_history_entry():
        st.toggle("Flag", flag.seed(), key=flag.key)
        flag.publish()
        st.text_input("Note", note.seed(), key=note.key)
        state.publish_text(note, st.session_state[note.key])


def _back_to(at: AppTest, link: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """Run `at` as the browser's Back to an entry whose link is `link`."""
    from ui.common import state

    at.query_params.clear()
    at.query_params.update(link)
    with monkeypatch.context() as patched:
        patched.setattr(state, "history_navigation", lambda: True)
        return at.run()


def test_back_shows_the_entrys_values_and_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    at = AppTest.from_function(_history_app).run()
    at.toggle(key="test.flag").set_value(True).run()
    at.text_input(key="test.note").input("short").run()
    assert dict(at.query_params) == {"flag": "1", "note": "short"}

    _back_to(at, {"flag": "1"}, monkeypatch)
    assert at.toggle(key="test.flag").value is True
    assert at.text_input(key="test.note").value == ""  # it fitted: the entry had none
    _back_to(at, {"note": "earlier"}, monkeypatch)
    assert at.toggle(key="test.flag").value is False
    assert at.text_input(key="test.note").value == "earlier"
    assert dict(at.query_params) == {"note": "earlier"}


def test_back_keeps_a_text_too_long_for_any_link(monkeypatch: pytest.MonkeyPatch) -> None:
    at = AppTest.from_function(_history_app).run()
    long_note = "word " * 1_000
    at.text_input(key="test.note").input(long_note).run()
    at.toggle(key="test.flag").set_value(True).run()
    assert dict(at.query_params) == {"flag": "1"}  # the note is too long for the link

    _back_to(at, {}, monkeypatch)
    assert at.toggle(key="test.flag").value is False
    assert at.text_input(key="test.note").value == long_note


def test_an_ordinary_run_keeps_the_session_over_the_link() -> None:
    """Only Back and Forward hand the page to the link: a link edited by the page's own run
    (or by hand, without reloading) does not undo what the user did."""
    at = AppTest.from_function(_history_app).run()
    at.toggle(key="test.flag").set_value(True).run()
    at.query_params.clear()
    assert at.run().toggle(key="test.flag").value is True
    assert dict(at.query_params) == {"flag": "1"}


def test_typed_values_are_the_texts() -> None:
    """The browser replaces its current entry when only one of these changes (history.js)."""
    from ui.common import state
    from ui.train.state import SELECTED

    state.text("test.typed", "typed_here")
    state.flag("test.switched", "switched_here")
    state.picked("test.picked", "picked_here")
    assert "typed_here" in state.typed_urls()
    assert "switched_here" not in state.typed_urls()
    assert "picked_here" not in state.typed_urls()
    assert SELECTED.url not in state.typed_urls()  # the Train page's vocabulary: picked
