"""A vocabulary whose pattern is too slow on the text: every page says so, none shows a traceback.

Imported and trained vocabularies bring their own pattern; `(?:a|aa)+$` is fine on most text
but backtracks for a second on forty letters and a "!". The core stops it with
`PatternTimeoutError`; the pages must turn that into a message and keep what was typed.
"""

import pytest
from streamlit.testing.v1 import AppTest

import tokenizer as tk
from tests.app.helpers import APP, rerun
from ui.common.registry import TRAINED_KEY

PATTERN = r"(?:a|aa)+$| ?\w+|\s+|."
SLOW_TEXT = "a" * 40 + "!"
NAME = "slow"


@pytest.fixture(scope="module")
def slow() -> tk.Encoding:
    enc = tk.train("a b ab ba " * 20, 260, pattern=PATTERN)
    assert enc.training.n_merges > 0  # so the Train page replays it
    with pytest.raises(tk.PatternTimeoutError):
        enc.encode(SLOW_TEXT)  # the premise: this text is too slow for it
    return enc


def opened(page: str, slow: tk.Encoding, **query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if page != "playground":
        at.switch_page(f"pages/{page}.py")
    at.session_state[TRAINED_KEY] = {NAME: slow}
    for key, value in query.items():
        at.query_params[key] = value
    return rerun(at)  # no exception: asserted there


def too_slow(at: AppTest) -> list[str]:
    return [e.value for e in at.error if "too slow on this text" in e.value]


@pytest.mark.parametrize("page", ["playground", "merges"])
def test_the_page_says_the_pattern_is_too_slow(slow: tk.Encoding, page: str) -> None:
    at = opened(page, slow, enc=NAME, text=SLOW_TEXT)
    (message,) = too_slow(at)
    assert "backtracks" in message and "possessive" in message
    assert at.query_params["text"] == SLOW_TEXT  # what was typed is kept


def test_the_playground_recovers_on_other_text(slow: tk.Encoding) -> None:
    at = opened("playground", slow, enc=NAME, text=SLOW_TEXT)
    assert too_slow(at)
    at.session_state["playground.text"] = "ab ba"
    rerun(at)
    assert not too_slow(at)


def test_compare_leaves_out_a_vocabulary_it_was_not_asked_to_show(slow: tk.Encoding) -> None:
    at = opened("compare", slow, encs="gpt2,cl100k_base", text=SLOW_TEXT)
    assert not too_slow(at)
    assert any(f"Left out: `{NAME}`" in c.value for c in at.caption)
    (table,) = at.dataframe  # the tab's only table
    names = set(table.value.iloc[:, 0])
    assert NAME not in names and {"gpt2", "cl100k_base"} <= names


def test_compare_shows_the_other_columns_beside_a_slow_one(slow: tk.Encoding) -> None:
    at = opened("compare", slow, encs=f"gpt2,{NAME}", text=SLOW_TEXT)
    (message,) = too_slow(at)
    assert "backtracks" in message
    assert [m.value for m in at.metric if m.label == "Tokens"] == [
        f"{len(tk.get_encoding('gpt2').encode(SLOW_TEXT)):,}"
    ]


def test_the_training_replay_says_so_for_its_sample(slow: tk.Encoding) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("pages/train.py")
    at.session_state[TRAINED_KEY] = {NAME: slow}
    at.session_state["train.sample"] = SLOW_TEXT
    at.query_params["show"] = NAME
    rerun(at)
    (message,) = too_slow(at)
    assert NAME in message
    assert at.text_area(key="train.sample").value == SLOW_TEXT
