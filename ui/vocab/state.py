"""The Vocabulary page's state: in the session under ``vocab.*``, and in the link.

``?find=regex&q=…&ic=1&list=longest&page=3&id=…`` restores a view; the selected token is kept with
its encoding and bytes (`SELECTED`), so switching encodings follows the same bytes. A list opens on
the page that holds the selected token, so `page` is in the link only when another one is shown.
"""

from ui.common import state

FIND_MODES = {
    "text": "Text",
    "regex": "Regex",
    "id": "Id",
    "bytes": "Bytes",
    "curious": "Curiosities",
}
LISTS = {
    "longest": "Longest",
    "not_utf8": "Not UTF-8 alone",
    "last_learned": "Last learned",
    "leading_space": "Leading space",
    "no_leading_space": "No leading space",
}

FIND = state.choice("vocab.find", "find", list(FIND_MODES), "text")
QUERY = state.text("vocab.q", "q")
IGNORE_CASE = state.flag("vocab.ic", "ic")
LIST = state.choice("vocab.list", "list", list(LISTS), "longest")
TOKEN = state.number("vocab.id", "id", -1)  # the link's half of `SELECTED`
PAGE = state.number("vocab.page", "page", 1, lowest=1)  # of the table (its default: see above)

# Not in links.
SELECTED = "vocab.selected"  # a `Selected` (encoding name, id, bytes), or absent
GLYPHS = "vocab.glyphs"  # the search box reads · → ↵ as whitespace
LISTING = "vocab.listing"
TABLE_TOKEN = "vocab.table_token"  # the token shown when the table was last drawn
