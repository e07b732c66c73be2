"""The sidebar's description of the chosen encoding."""

import re

import pytest

import tokenizer as tk
from ui.common.context_windows import windows_of
from ui.common.sidebar import describe


@pytest.mark.parametrize("name", tk.list_encodings())
def test_each_models_window_stays_on_one_line(name: str) -> None:
    """A model and its window hold no space or hyphen a line may break at ("GPT-" ended one
    line and "4.1 1,047,576" began the next); only the " · " between models breaks."""
    windows = windows_of(name)
    lines = describe(tk.get_encoding(name))
    found = [line for line in lines if line.startswith("context window: ")]
    assert len(found) == (1 if windows else 0)
    if windows:
        pairs = found[0].removeprefix("context window: ").split(" · ")
        assert len(pairs) == len(windows)
        for pair, window in zip(pairs, windows, strict=True):
            assert not re.search(r"[ \-]", pair), pair
            assert pair.replace("\u00a0", " ").replace("\u2011", "-") == (
                f"{window.model} {window.tokens:,}"
            )
