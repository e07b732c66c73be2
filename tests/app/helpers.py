"""Driving app.py headless with Streamlit's AppTest, and reading what the playground shows."""

import json
import re
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Dataframe

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


def live_view(at: AppTest) -> dict[str, Any]:
    """The data the playground's live token view was given (ui/common/token_pane.py)."""
    (view,) = [
        json.loads(e.proto.json)
        for e in at.get("bidi_component")
        if e.proto.component_name == "bpe_lens.token_pane"
    ]
    return view  # type: ignore[no-any-return]


def token_view(at: AppTest) -> str:
    """The HTML of the playground's token view: its classes, tokens and ids as drawn."""
    view = live_view(at)
    return (
        f'<div class="bpl {view["classes"]}"><div class="bpl-text">{"".join(view["token_units"])}'
        f'</div><div class="bpl-ids">{"".join(view["id_units"])}</div></div>'
    )


def shown_ids(at: AppTest) -> list[int]:
    return [int(i) for i in re.findall(r'data-token-id="(\d+)"', token_view(at))]


def metric(at: AppTest, label: str) -> str:
    (value,) = [m.value for m in at.metric if m.label == label]
    return value


def columns_reading_none(table: Dataframe) -> list[str]:
    """The columns of a grid in which the browser writes "None": the text itself, or a missing
    value (None, NaN, pd.NA) in a grid without a `placeholder`, which Streamlit draws as "None"."""
    frame = table.value
    shown = table.proto.placeholder if table.proto.HasField("placeholder") else "None"
    reads_none = frame.map(lambda cell: isinstance(cell, str) and cell == "None")
    if shown == "None":
        reads_none |= frame.isna()
    return [str(column) for column in frame.columns if reads_none[column].any()]
