"""The worked examples in the Compare page's modules' docstrings are true."""

import doctest
import importlib

import pytest

MODULES = ["ui.compare_view", "ui.languages_data"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed
