"""Quoting user input inside Markdown messages."""

from ui.common.messages import inline_code, quote_some


def test_code_span_fence_outgrows_backticks_inside() -> None:
    assert inline_code("plain") == "`plain`"
    assert inline_code("a``b") == "``` a``b ```"


def test_long_items_are_shortened_and_newlines_flattened() -> None:
    assert inline_code("x" * 50, max_chars=10) == "`" + "x" * 9 + "…`"
    assert "\n" not in inline_code("a\nb")


def test_a_code_span_shows_control_characters_as_their_pictures() -> None:
    """A link's ``id=%1B`` was quoted with a raw escape code: nothing on a Mac, a box here."""
    assert inline_code("id=\x1b\r\x85\n") == "`id=␛␍U+0085 `"


def test_quote_some_counts_the_rest() -> None:
    assert quote_some(list(range(10)), limit=3) == "`0`, `1`, `2` and 7 more"
