"""Every data grid of the app says what an empty cell shows (`ui.common.grid.EMPTY_CELL`).

The pages' own tests show a grid of each kind with empty cells blank; this one holds the grids
added later to the rule, which Streamlit breaks silently (it writes "None" in them).
"""

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[3] / "ui"


def grids_without_placeholder() -> list[str]:
    """Where a ``….dataframe(…)`` call in ui/ passes no ``placeholder=EMPTY_CELL``."""
    missing = []
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "dataframe"
            ):
                continue
            given = {k.arg: k.value for k in node.keywords}
            placeholder = given.get("placeholder")
            if not (isinstance(placeholder, ast.Name) and placeholder.id == "EMPTY_CELL"):
                missing.append(f"{path.relative_to(UI.parent)}:{node.lineno}")
    return missing


def test_every_grid_shows_an_empty_cell_as_empty_cell() -> None:
    assert grids_without_placeholder() == []
