"""Whitespace glyphs and escaping of token text."""

import pytest

from ui.common.glyphs import is_invisible, visible_html


def test_plain_mode_escapes_and_keeps_whitespace() -> None:
    assert visible_html('a <b> & "c"\t\n', show_whitespace=False) == (
        "a &lt;b&gt; &amp; &quot;c&quot;\t\n"
    )


def test_glyph_mode_marks_space_tab_newline_and_keeps_the_line_break() -> None:
    html = visible_html(" \t\n", show_whitespace=True)
    assert html == ('<span class="ws">·</span><span class="ws">→</span><span class="ws">↵</span>\n')


def test_one_line_mode_has_no_real_line_break() -> None:
    assert "\n" not in visible_html("a\nb", show_whitespace=False, line_breaks=False)
    assert "↵" in visible_html("a\nb", show_whitespace=False, line_breaks=False)


@pytest.mark.parametrize("show_whitespace", [False, True])
def test_control_characters_always_get_control_pictures(show_whitespace: bool) -> None:
    html = visible_html("\x00\x1b\x7f\r", show_whitespace=show_whitespace)
    assert [c for c in html if c in "␀␛␡␍"] == list("␀␛␡␍")
    assert not any(c in html for c in "\x00\x1b\x7f\r")


def test_invisible_format_characters_show_their_code_point_with_glyphs_on() -> None:
    assert "U+200D" in visible_html("a\u200db", show_whitespace=True)
    assert "U+202E" in visible_html("\u202e", show_whitespace=True)
    assert visible_html("a\u200db", show_whitespace=False) == "a\u200db"


def test_a_text_of_only_invisible_characters_is_invisible() -> None:
    assert is_invisible("\ufe0f\u200d")
    assert not is_invisible("")
    assert not is_invisible("a\u200d")


def test_a_space_before_an_invisible_character_is_as_good_as_invisible() -> None:
    """A space and a ZWNJ (one o200k_base token) looked like a plain space."""
    assert is_invisible(" \u200c")
    assert not is_invisible(" ")


def test_a_piece_drawn_alone_sets_a_leading_mark_on_a_dotted_circle() -> None:
    alone = visible_html("\u0301x", show_whitespace=False, alone=True)
    assert alone == '<span class="ws">\u25cc</span>\u0301x'
    assert visible_html("e\u0301", show_whitespace=False, alone=True) == "e\u0301"
    assert visible_html("\u0301", show_whitespace=False) == "\u0301"  # a text, not a piece
