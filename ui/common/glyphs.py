"""Text to escaped HTML, with invisible characters made visible.

Everything that reaches the page as token text goes through `visible_html`, which escapes HTML
first and only then adds our own markup, so no input can open a tag. Control characters are
always drawn by name (a NUL or an escape code would otherwise vanish or confuse the browser);
whitespace and invisible format characters get glyphs when the toggle is on. Plain text (a table
cell, a button's label) cannot hold a box, so `visible_text` gives the same marks as characters.
"""

import re
from html import escape

import regex

# Shown in place of whitespace when the toggle is on.
WHITESPACE_GLYPHS = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍", "\u00a0": "⍽"}

# Characters that draw nothing on their own, yet can be tokens of their own.
INVISIBLE_CHARS = frozenset(
    [
        "\u00ad",  # soft hyphen
        "\u034f",  # combining grapheme joiner
        *(chr(c) for c in range(0x200B, 0x2010)),  # zero-width space, ZWNJ, ZWJ, LRM, RLM
        *(chr(c) for c in range(0x202A, 0x202F)),  # bidi embeddings and overrides
        *(chr(c) for c in range(0x2060, 0x2065)),  # word joiner and invisible operators
        *(chr(c) for c in range(0x2066, 0x206A)),  # bidi isolates
        *(chr(c) for c in range(0xFE00, 0xFE10)),  # variation selectors (the emoji one: FE0F)
        "\ufeff",  # byte order mark / zero-width no-break space
        *(chr(c) for c in range(0xE0020, 0xE0080)),  # tag characters (subdivision flags)
    ]
)


# What a combining mark drawn on its own sits on, as in Unicode's own charts.
DOTTED_CIRCLE = "\u25cc"
_MARK = regex.compile(r"\p{M}")


def code_point(char: str) -> str:
    """A character's code point as people write it: how to name one that draws nothing.

    >>> code_point("\u200b"), code_point("😀")
    ('U+200B', 'U+1F600')
    """
    return f"U+{ord(char):04X}"


# ASCII's names of the C0 control characters, by code; tab, newline and carriage return are
# whitespace, with glyphs of their own.
# fmt: off
_C0_NAMES = [
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR",
    "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC",
    "FS", "GS", "RS", "US",
]
# fmt: on


def control_name(char: str) -> str:
    """How a control character is drawn on a page: its ASCII name, or its code point for the C1
    controls (U+0080 to U+009F, which have no short names in common use).

    >>> control_name("\\x1b"), control_name("\\x7f"), control_name("\\x85")
    ('ESC', 'DEL', 'U+0085')
    """
    code = ord(char)
    if code < 0x20:
        return _C0_NAMES[code]
    return "DEL" if code == 0x7F else code_point(char)


def control_picture(char: str) -> str:
    """A control character as one character of plain text: its Unicode control picture (U+2400
    and up, U+2421 for DEL), or its code point for the C1 controls, which have none."""
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    return "\u2421" if code == 0x7F else code_point(char)


_CONTROLS = [chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if chr(c) not in "\t\n"]
CONTROL_PICTURES = str.maketrans({char: control_picture(char) for char in _CONTROLS})
"""A `str.translate` table for quoting a value as given (a link's): its control characters
made visible, nothing else changed. Raw, an escape code drew nothing on a Mac, and could end
a line of Markdown (a carriage return)."""


def _glyph(symbol: str) -> str:
    return f'<span class="ws">{symbol}</span>'


_NAMED_OPEN = '<span class="ws ctl">'
NAMED = re.compile(f"{_NAMED_OPEN}([^<]*)</span>")
"""A name `visible_html` drew in a box, as its one group: for reading its output back."""


def _named(name: str) -> str:
    """A character drawn by its name in a small box (frame.css): no font is needed for it, and it
    reads as one character, not as letters of the text. Control pictures were the first try,
    but none of Debian's standard fonts has them, and each drew as an empty box."""
    return f"{_NAMED_OPEN}{name}</span>"


def _build_table(*, show_whitespace: bool, line_breaks: bool, html: bool) -> dict[int, str]:
    """A `str.translate` table: one pass over the text does escaping and glyphs together.

    Without `html` it is plain text's: the same marks as characters, nothing escaped.
    """
    glyph = _glyph if html else str
    table = {ord(c): escape(c) for c in "&<>\"'"} if html else {}
    for char in _CONTROLS:  # a carriage return too: the HTML parser made a lone one a line break
        table[ord(char)] = _named(control_name(char)) if html else control_picture(char)
    if show_whitespace:
        for char, symbol in WHITESPACE_GLYPHS.items():
            if char != "\r":
                table[ord(char)] = glyph(symbol)
        for char in INVISIBLE_CHARS:
            table[ord(char)] = _named(code_point(char)) if html else code_point(char)
    if line_breaks:
        if show_whitespace:
            table[ord("\n")] = glyph(WHITESPACE_GLYPHS["\n"]) + "\n"
    else:
        table[ord("\n")] = glyph(WHITESPACE_GLYPHS["\n"])
    return table


_TABLES = {
    (ws, br): _build_table(show_whitespace=ws, line_breaks=br, html=True)
    for ws in (False, True)
    for br in (False, True)
}
_TEXT_TABLE = _build_table(show_whitespace=True, line_breaks=False, html=False)


def is_invisible(text: str) -> bool:
    """Whether `text` would draw nothing but blank space: a lone ZWJ or variation selector, or
    a space with a ZWNJ after it (which looked like a plain space).

    >>> [is_invisible(text) for text in ["\\u200c", " \\u200c", " ", "a\\u200c"]]
    [True, True, False, False]
    """
    seen = False
    for char in text:
        if char in INVISIBLE_CHARS:
            seen = True
        elif not char.isspace():
            return False
    return seen


def visible_html(
    text: str, *, show_whitespace: bool, line_breaks: bool = True, alone: bool = False
) -> str:
    """Escape `text` for an HTML text node whose CSS keeps white space (``pre-wrap``).

    >>> visible_html("a <b>\\tc\\n", show_whitespace=True)
    'a<span class="ws">·</span>&lt;b&gt;<span class="ws">→</span>c<span class="ws">↵</span>\\n'

    With `line_breaks` off, a newline is only its glyph (for one-line places such as the chunks
    band); otherwise it stays a real line break, after its glyph when glyphs are on.

    `alone` is for text drawn as a piece of its own (a token): a combining mark at its start
    sits on a dotted circle. Otherwise the browser put it on the last letter drawn before it,
    the previous token's, and the token itself showed nothing (cl100k_base's U+0301 in "café").
    """
    shown = text.translate(_TABLES[show_whitespace, line_breaks])
    if alone and _MARK.match(text):
        return _glyph(DOTTED_CIRCLE) + shown
    return shown


def visible_text(text: str, *, alone: bool = False) -> str:
    """`visible_html`'s marks as plain text, every glyph on and on one line: a token in a table
    or on a button, where no markup is drawn. Control characters are their control pictures.

    >>> visible_text(" a\\tb\\n\\x1b\\u200b")
    '·a→b↵␛U+200B'
    """
    shown = text.translate(_TEXT_TABLE)
    return DOTTED_CIRCLE + shown if alone and _MARK.match(text) else shown


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def without_lone_surrogates(text: str) -> tuple[str, int]:
    """`text` with each lone surrogate as U+FFFD, and how many there were.

    A browser can send half of a UTF-16 pair (JSON allows it), but UTF-8 cannot hold one, so it
    would fail every cache key, URL and message that encodes the text. The tokenizer reads it as
    U+FFFD anyway; the box shows that too, and says so.

    >>> without_lone_surrogates("a\\ud800b")
    ('a�b', 1)
    """
    return _LONE_SURROGATE.subn("\ufffd", text)


def not_utf8_sequences(data: bytes) -> int:
    """How many byte sequences of `data` are not UTF-8: each decodes to one U+FFFD (as Python
    and tiktoken's ``decode`` replace them), told apart from a real U+FFFD (EF BF BD).

    >>> not_utf8_sequences(b"a\\xf0\\x9f\\x91b"), not_utf8_sequences("\ufffd".encode())
    (1, 0)
    """
    return data.decode("utf-8", "replace").count("\ufffd") - data.count("\ufffd".encode())
