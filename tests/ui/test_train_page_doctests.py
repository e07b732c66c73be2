"""The worked examples in the Train page's modules' docstrings are true."""

import doctest
import importlib

import pytest

MODULES = [
    "ui.corpora",
    "ui.train_settings",
    "ui.train_vocab",
    "ui.train_replay",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed
