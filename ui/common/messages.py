"""Messages that quote what the user typed, safely, in Streamlit's Markdown; and counts in words.

`st.error` and friends render Markdown, so a pasted ``**x**`` or ``[a](javascript:…)`` would be
formatted. Quoting it as inline code shows it literally, whatever it contains.
"""

import re
from collections.abc import Sequence

from ui.common.glyphs import CONTROL_PICTURES

_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")  # the ASCII punctuation marks (`literal`)

SELECT_A_ROW = (
    "Select a row to see how its token was built (from the keyboard: click a cell or tab into "
    "the table, go to a row with the arrow keys, then Shift+Space)."
)
"""Under a table of tokens (Vocabulary, Train). Streamlit's table selects a row from the keyboard
only with Shift+Space, which nothing on the page said: a keyboard user found no way in."""


def inline_code(text: str, max_chars: int = 24) -> str:
    """`text` as a Markdown code span that shows it verbatim (shortened past `max_chars`), its
    control characters as their pictures (`CONTROL_PICTURES`).

    The fence is one backtick longer than the longest run inside, as CommonMark requires:

    >>> inline_code("a`b")
    '`` a`b ``'
    """
    if len(text) > max_chars:
        text = text[: max_chars - 1] + "…"
    text = text.replace("\n", " ").translate(CONTROL_PICTURES)
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}" if longest else f"{fence}{text}{fence}"


def literal(text: str) -> str:
    """`text` for Markdown that shows it as written, when it is prose that quotes what the
    user typed (an error that names their regex): every ASCII punctuation mark, which Markdown
    and Streamlit's directives may read as markup, escaped with a backslash.

    >>> print(literal("**x** _y_ [a](b)"))
    \\*\\*x\\*\\* \\_y\\_ \\[a\\]\\(b\\)
    """
    return _PUNCTUATION.sub(r"\\\g<0>", text)


def counted(n: int, noun: str) -> str:
    """`n` and `noun`, plural unless `n` is 1.

    >>> counted(1, "merge"), counted(12345, "special token")
    ('1 merge', '12,345 special tokens')
    """
    return f"{n:,} {noun}{'s' if n != 1 else ''}"


def download_label(n: int, noun: str = "token") -> str:
    """The label of a button that downloads a whole list as CSV, not only the page shown.

    >>> download_label(1), download_label(2365), download_label(0)
    ('Download the 1 token as CSV', 'Download all 2,365 tokens as CSV', 'No tokens to download')
    """
    if n == 0:  # the button is disabled: "Download all 0 tokens" offered nothing
        return f"No {noun}s to download"
    return f"Download the 1 {noun} as CSV" if n == 1 else f"Download all {counted(n, noun)} as CSV"


def not_in_link(what: str) -> str:
    """The caption under a value too long for a link (`ui.common.state.fits_in_link`)."""
    return f"This {what} is too long for a link, so a link or a reload leaves it out."


def quote_some(items: Sequence[object], limit: int = 8) -> str:
    """The first `limit` items quoted, and how many more there are.

    >>> quote_some([1, 2, 3], limit=2)
    '`1`, `2` and 1 more'
    """
    shown = ", ".join(inline_code(str(item)) for item in items[:limit])
    rest = len(items) - limit
    return f"{shown} and {rest:,} more" if rest > 0 else shown


def listed(words: Sequence[str]) -> str:
    """Words as a sentence lists them.

    >>> listed(["a"]), listed(["a", "b"]), listed(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
