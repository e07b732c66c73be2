"""CSV downloads: a text a spreadsheet would run as a formula arrives as text; data intact."""

import io

import pandas as pd

from ui.common.spreadsheet import csv_bytes
from ui.compare.languages.data import table_csv
from ui.train.table import vocab_csv


def test_formula_like_text_gets_an_apostrophe_and_everything_else_is_kept() -> None:
    frame = pd.DataFrame(
        {
            "title": ["=1+1", "@SUM(A1)", "+cmd", "-", "\tx", "a=b", 'naïve, "quoted"'],
            "tokens": [-1, 2, 3, 4, 5, 6, 7],
            "ratio": [0.5] * 7,
        }
    )
    frame["=mine tokens"] = 1  # a trained vocabulary's name becomes a column's
    data = csv_bytes(frame, float_format="%.4f")
    assert data.startswith(b"\xef\xbb\xbf")
    back = pd.read_csv(io.StringIO(data.decode("utf-8-sig")), keep_default_na=False)
    assert back["title"].tolist() == [
        "'=1+1", "'@SUM(A1)", "'+cmd", "'-", "'\tx", "a=b", "naïve, \"quoted\""
    ]  # fmt: skip
    assert back["tokens"].tolist() == [-1, 2, 3, 4, 5, 6, 7]  # numbers stay numbers
    assert list(back.columns) == ["title", "tokens", "ratio", "'=mine tokens"]
    assert "0.5000" in data.decode("utf-8-sig")
    assert frame["title"][0] == "=1+1"  # the page's own table is untouched


def test_both_downloads_go_through_it() -> None:
    frame = pd.DataFrame({"Sample": ["=1+1"], "token": ["@x"], "tokens": [3]})
    for data in (table_csv(frame), vocab_csv(frame)):
        assert data.decode("utf-8-sig").splitlines()[1] == "'=1+1,'@x,3"
