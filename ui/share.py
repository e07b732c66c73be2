"""Keeping the address bar equal to the page's state, so every view is a shareable link.

A widget's state is seeded from its URL parameter the first time a session sees it, and the URL
is rewritten after every run. (Streamlit's own ``bind="query-params"`` writes a widget's
*displayed label* into the URL, e.g. ``enc=cl100k_base · GPT-4…``; we want ``enc=cl100k_base``.)
Values equal to their default are left out, so a fresh link stays short.
"""

from collections.abc import Sequence

import streamlit as st

from ui.limits import MAX_URL_TEXT_CHARS

_TRUE, _FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no")


def _publish(param: str, wanted: str | None) -> None:
    """Set ``?param=wanted``, or remove it for None; untouched if already so (no URL churn)."""
    if st.query_params.get(param) == wanted:
        return
    if wanted is None:
        del st.query_params[param]
    else:
        st.query_params[param] = wanted


def seed_choice(key: str, choices: Sequence[str], default: str) -> None:
    """Before drawing the widget `key`: take its value from ``?key=`` if valid, else `default`."""
    if key not in st.session_state:
        asked = st.query_params.get(key)
        st.session_state[key] = asked if asked in choices else default


def seed_flag(key: str, default: bool = False) -> None:
    """Before drawing the toggle `key`: take ``?key=1`` / ``?key=0`` if present."""
    if key not in st.session_state:
        asked = (st.query_params.get(key) or "").lower()
        st.session_state[key] = True if asked in _TRUE else False if asked in _FALSE else default


def publish(key: str, default: str | bool) -> None:
    """After drawing the widget `key`: write its value to the URL (flags as 1/0)."""
    value = st.session_state.get(key, default)
    if isinstance(value, bool):
        _publish(key, None if value == default else str(int(value)))
    else:
        _publish(key, None if value == default else str(value))


def forget(param: str) -> None:
    """Remove ``?param=`` (a setting the current view does not use)."""
    _publish(param, None)


def initial_text(param: str, default: str) -> str:
    """The text a link asks for (``?text=…``), else `default`."""
    return st.query_params.get(param, default)[:MAX_URL_TEXT_CHARS]


def publish_text(param: str, text: str, *, default: str) -> bool:
    """Put `text` in the URL as ``?param=``; return False when it is too long for a link."""
    fits = len(text) <= MAX_URL_TEXT_CHARS
    _publish(param, text if fits and text != default else None)
    return fits
