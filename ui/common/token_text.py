"""A token's bytes as text a person can read: visible whitespace, and hex for what is not UTF-8.

One rule for every page, so a token looks the same in the playground, a merge table, a training
replay and the vocabulary explorer: whitespace and control characters as the glyphs of
`ui.common.glyphs.visible_html`, bytes that are not UTF-8 on their own (half an emoji) as hex,
never hidden behind a U+FFFD.
"""

from tokenizer import Encoding
from tokenizer.vocab import utf8_runs
from ui.common.glyphs import WHITESPACE_GLYPHS, visible_html, visible_text

# The search box reads the glyphs it shows: "·the" means " the" (a space is invisible in a box).
_READ_GLYPHS = str.maketrans({glyph: char for char, glyph in WHITESPACE_GLYPHS.items()})
_WRITE_GLYPHS = str.maketrans(WHITESPACE_GLYPHS)


def hex_bytes(piece: bytes) -> str:
    """``b" \\xf0"`` -> ``"20 F0"``."""
    return piece.hex(" ").upper()


def token_html(piece: bytes) -> str:
    """A token as escaped HTML: visible whitespace glyphs, and hex for bytes that are not UTF-8.

    >>> token_html(b" a\\xf0\\x9f")
    '<span class="ws">·</span>a<span class="hex" title="not UTF-8 on its own">F0 9F</span>'
    """
    return "".join(
        visible_html(run, show_whitespace=True, line_breaks=False, alone=True)
        if isinstance(run, str)
        else f'<span class="hex" title="not UTF-8 on its own">{hex_bytes(run)}</span>'
        for run in utf8_runs(piece)
    )


def plain(piece: bytes) -> str:
    """A token as plain text for tables and buttons: the same marks, hex in ⟨ ⟩.

    >>> plain(b" a\\n\\xf0\\x9f")
    '·a↵⟨F0 9F⟩'
    """
    return "".join(
        visible_text(run, alone=True) if isinstance(run, str) else f"⟨{hex_bytes(run)}⟩"
        for run in utf8_runs(piece)
    )


def read_glyphs(text: str) -> str:
    """Whitespace glyphs typed in a search box back to whitespace: ``"·the↵" -> " the\\n"``."""
    return text.translate(_READ_GLYPHS)


def write_glyphs(text: str) -> str:
    """Whitespace to the glyphs the search box reads: ``" the" -> "·the"``."""
    return text.translate(_WRITE_GLYPHS)


def label(enc: Encoding, token_id: int) -> str:
    """``"·the (#262)"``: how a token is named in the table and on buttons."""
    return f"{plain(enc.token_bytes(token_id))} (#{token_id})"
