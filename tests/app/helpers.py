"""Driving app.py headless with Streamlit's AppTest, and reading what the playground shows."""

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


def open_app(**query: str) -> AppTest:
    """A fresh session of the app, opened with `query` as its URL parameters."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def token_view(at: AppTest) -> str:
    """The HTML of the token view (the one `st.html` block on the playground)."""
    (block,) = [h.value for h in at.html if 'class="bpl' in h.value]
    return block


def shown_ids(at: AppTest) -> list[int]:
    return [int(i) for i in re.findall(r'data-token-id="(\d+)"', token_view(at))]


def metric(at: AppTest, label: str) -> str:
    (value,) = [m.value for m in at.metric if m.label == label]
    return value
