"""Hostile inputs: each must come out as literal text, in unit tests and in the browser."""

import re

from ui.common.glyphs import is_invisible

XSS_PAYLOADS: tuple[str, ...] = (
    "<script>window.__pwned = 1</script>",
    '<img src=x onerror="window.__pwned = 1">',
    "<svg onload=window.__pwned=1>",
    '<a href="javascript:window.__pwned=1">click</a>',
    "<style>body { background: rgb(255, 0, 0) !important; }</style>",
    '<iframe src="https://example.com"></iframe>',
    '<form action="/steal"><input name="q"></form>',
    "</span></div></div><b>unbalanced",
    '" onmouseover="window.__pwned = 1" x="',
    "' onfocus='window.__pwned = 1' autofocus='",
    "</script><script>window.__pwned = 1</script>",
    "<!-- never closed",
    "&lt;already escaped&gt; &amp; &#60;",
    "\u202eevil override\u202c",
)

# Every hostile payload in one text: one page load checks them all (each line stays literal).
XSS_TEXT = "\n".join(XSS_PAYLOADS)


def as_drawn(text: str) -> str:
    """`text` as the token view draws it with glyphs off: literally, but for characters that
    draw nothing (the bidi override above), which show their code point."""
    return "".join(f"U+{ord(c):04X}" if is_invisible(c) else c for c in text)


def drawn(markdown: str) -> str:
    """What Markdown draws of a message whose quoted parts are escaped (`messages.literal`):
    each backslash before a punctuation mark dropped."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


# Odd but legal input: each must give a message or a result, never a traceback or a lost text.
ODD_TEXTS: dict[str, str] = {
    "empty": "",
    "only whitespace": " \t\n\r\n ",
    "lone surrogates": "a\ud800b\udfffc\udc80",
    "NUL and C0/C1 controls": "x\x00y" + "".join(map(chr, range(1, 32))) + "\x7f\x85\x9f",
    "line and paragraph separators": "a\u2028b\u2029c\u200b\ufeff",
    "combining pile-up": "Z" + "\u0336\u0335\u0334" * 200,
    "special-token text": "<|endoftext|><|fim_prefix|><|im_start|>",
    "markdown and LaTeX": "**b** _i_ `c` [a](javascript:x) $x$ :red[r] :material/home:",
}
