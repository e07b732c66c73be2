"""The derived-views cache: a pattern too slow for a text is learned once, not on every rerun."""

import traceback

import pytest

import tokenizer as tk
from ui.common import cache


def test_a_too_slow_pattern_is_found_out_once_and_raised_each_time() -> None:
    calls: list[None] = []

    def compute() -> str:
        calls.append(None)
        raise tk.PatternTimeoutError("the pattern 'x' took more than 0.8 s")

    key = ("test too slow", object())  # a key no other test uses
    depths = []
    for _ in range(3):
        with pytest.raises(tk.PatternTimeoutError, match=r"took more than 0\.8 s") as caught:
            cache.derived(key, compute, len)
        depths.append(len(traceback.extract_tb(caught.value.__traceback__)))
    assert len(calls) == 1
    assert depths[1] == depths[2]  # raised afresh, not with every earlier traceback on it


def test_other_errors_are_not_held() -> None:
    calls: list[None] = []

    def compute() -> str:
        calls.append(None)
        raise ValueError("not a pattern's doing")

    key = ("test other error", object())
    for _ in range(2):
        with pytest.raises(ValueError, match="not a pattern"):
            cache.derived(key, compute, len)
    assert len(calls) == 2
