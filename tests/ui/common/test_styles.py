"""Every style sheet survives `st.html`, whose sanitizer drops an element whose text holds a "<"
before a letter or a slash: a style with ``"<length>"`` in it was lost whole, and the Compare
and Train token views drew as plain text."""

import importlib
import re
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parents[3] / "ui"
DROPPED = re.compile(r"<[/\w]")
# The modules that keep a style sheet (or a piece of one) in a constant named *CSS.
MODULES = [
    "ui.common.token_view",
    "ui.common.navigation",
    "ui.compare.view",
    "ui.merges.view",
    "ui.playground.panels",
    "ui.train.table",
    "ui.vocab.view",
]


@pytest.mark.parametrize("path", sorted(UI.rglob("*.css")), ids=lambda p: str(p.relative_to(UI)))
def test_no_style_sheet_holds_what_the_sanitizer_drops(path: Path) -> None:
    found = DROPPED.search(path.read_text(encoding="utf-8"))
    assert found is None, f"{path.name}: {found and found.group()!r}"


@pytest.mark.parametrize("name", MODULES)
def test_no_style_built_in_python_holds_it_either(name: str) -> None:
    module = importlib.import_module(name)
    sheets = {key: value for key, value in vars(module).items() if key.endswith("CSS")}
    assert sheets, f"{name} keeps no *CSS constant"
    for key, sheet in sheets.items():
        if isinstance(sheet, str):
            assert DROPPED.search(sheet) is None, f"{name}.{key}"
