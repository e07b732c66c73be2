"""A vocabulary whose pattern is too slow on the text at hand: said on the page, no traceback.

A bundled pattern never is. An imported or trained one may backtrack on some texts, and the core
stops it within a second or two with `tokenizer.PatternTimeoutError`, naming the pattern, where
it was and what to change. Pages show that where the tokens would be; what the user typed stays
in its box.
"""

from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from tokenizer import PatternTimeoutError
from ui.common.messages import inline_code


def too_slow(error: PatternTimeoutError, name: str | None = None) -> str:
    """The sentence for `error`, naming the vocabulary when the caller knows it."""
    whose = f"The pattern of {inline_code(name, 40)}" if name else "This vocabulary's pattern"
    return (
        f"{whose} is too slow on this text, so its tokens cannot be shown: "
        f"{inline_code(str(error), 600)}"
    )


@contextmanager
def reported(name: str | None = None) -> Iterator[None]:
    """Run a page (or a part of one) that tokenizes; a pattern that is too slow ends it with
    `too_slow` instead of a traceback."""
    try:
        yield
    except PatternTimeoutError as error:
        st.error(too_slow(error, name), icon=":material/timer_off:")
