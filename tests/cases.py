"""Parametrized cases that CI runs but the inner loop (``pytest -m "not e2e and not slow"``,
which must stay under 90 s) leaves out: one helper, so every such choice reads the same.

The cases left out are repeats of a check the inner loop already makes for another encoding,
where the open models' oracles or indexes cost seconds each.
"""

import pytest
from _pytest.mark import ParameterSet

TIKTOKENS = frozenset({"gpt2", "cl100k_base", "o200k_base"})
"""Encodings whose oracle is tiktoken itself: quick to load and to run."""


def slow_if(slow: bool, *values: object) -> ParameterSet:
    """`values` as one case of a parametrized test, marked slow when `slow`."""
    return pytest.param(*values, marks=[pytest.mark.slow] if slow else [])
