"""Whitespace glyphs and escaping of token text."""

import unicodedata

import pytest

from ui.common.glyphs import is_invisible, visible_html, visible_text


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
def test_control_characters_are_always_drawn_by_name_in_a_box(show_whitespace: bool) -> None:
    """By name, not by control picture: no standard Debian font has those (each was a box)."""
    html = visible_html("\x00a\x1b\x7f\r\x85", show_whitespace=show_whitespace)
    assert html == (
        '<span class="ws ctl">NUL</span>a<span class="ws ctl">ESC</span>'
        '<span class="ws ctl">DEL</span><span class="ws ctl">CR</span>'
        '<span class="ws ctl">U+0085</span>'
    )


def test_every_control_character_is_named_and_no_other_character_is() -> None:
    controls = [chr(c) for c in range(0x100) if unicodedata.category(chr(c)) == "Cc"]
    for char in controls:
        html = visible_html(char, show_whitespace=False)
        assert (html.startswith('<span class="ws ctl">') and char not in html) == (
            char not in "\t\n"
        ), repr(char)
    others = "".join(chr(c) for c in range(0x20, 0x3000) if chr(c) not in controls)
    assert "ctl" not in visible_html(
        others.replace("<", "").replace(">", ""), show_whitespace=False
    )


def test_plain_text_gives_control_pictures_and_code_points_without_markup() -> None:
    assert visible_text("\x00 \x1b\x7f\r\x85\u200b\n") == "␀·␛␡␍U+0085U+200B↵"
    assert visible_text("<&>") == "<&>"  # plain text: nothing to escape
    assert visible_text("\u0301x", alone=True) == "\u25cc\u0301x"


def test_invisible_format_characters_show_their_code_point_with_glyphs_on() -> None:
    assert '<span class="ws ctl">U+200D</span>' in visible_html("a\u200db", show_whitespace=True)
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
