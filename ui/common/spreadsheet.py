"""CSV downloads that spreadsheet programs read right and open safely.

Excel and LibreOffice run a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula
(``=HYPERLINK(…)`` is a live link), and a sample's title or a trained token is the user's text.
Such a text cell, or column name, gets a leading apostrophe, which spreadsheets show as text
and hide; numbers stay numbers. The token tables keep each token's exact bytes in hex too.
"""

import pandas as pd

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_bytes(frame: pd.DataFrame, float_format: str | None = None) -> bytes:
    """`frame` as UTF-8 CSV with a BOM (so spreadsheets read every script right), defused."""
    safe = frame.copy()
    for column in safe.select_dtypes(include=["object", "string"]).columns:
        safe[column] = safe[column].map(defused)
    safe.columns = [defused(name) for name in safe.columns]
    return safe.to_csv(index=False, float_format=float_format).encode("utf-8-sig")


def defused(cell: object) -> object:
    """A text a spreadsheet would run as a formula, with an apostrophe first; anything else.

    >>> defused("=1+1"), defused("-"), defused("a=b"), defused(-3)
    ("'=1+1", "'-", 'a=b', -3)
    """
    return f"'{cell}" if isinstance(cell, str) and cell.startswith(_FORMULA_STARTS) else cell
