"""Text to escaped HTML, with invisible characters made visible.

Everything that reaches the page as token text goes through `visible_html`, which escapes HTML
first and only then adds our own markup, so no input can open a tag. Control characters always
get their Unicode "control picture" (a NUL or an escape code would otherwise vanish or confuse
the browser); whitespace and invisible format characters get glyphs when the toggle is on.
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


def _glyph(symbol: str) -> str:
    return f'<span class="ws">{symbol}</span>'


def _build_table(*, show_whitespace: bool, line_breaks: bool) -> dict[int, str]:
    """A `str.translate` table: one pass over the text does escaping and glyphs together."""
    table = {ord(c): escape(c) for c in "&<>\"'"}
    # C0 controls and DEL -> control pictures (U+2400 + code, U+2421 for DEL); tab, newline and
    # carriage return are whitespace and handled below.
    for code in [*range(0x20), 0x7F]:
        if chr(code) not in "\t\n\r":
            table[code] = _glyph("\u2421" if code == 0x7F else chr(0x2400 + code))
    if show_whitespace:
        for char, symbol in WHITESPACE_GLYPHS.items():
            table[ord(char)] = _glyph(symbol)
        for char in INVISIBLE_CHARS:
            table[ord(char)] = _glyph(code_point(char))
    else:
        # The HTML parser turns a lone CR into a line break; show what it is instead.
        table[ord("\r")] = _glyph(WHITESPACE_GLYPHS["\r"])
    if line_breaks:
        if show_whitespace:
            table[ord("\n")] = _glyph(WHITESPACE_GLYPHS["\n"]) + "\n"
    else:
        table[ord("\n")] = _glyph(WHITESPACE_GLYPHS["\n"])
    return table


_TABLES = {
    (ws, br): _build_table(show_whitespace=ws, line_breaks=br)
    for ws in (False, True)
    for br in (False, True)
}


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
