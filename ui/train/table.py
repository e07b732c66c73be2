"""A trained vocabulary as a table (one row per id) and any token's merge tree down to bytes.

Pure: pandas and HTML strings, no Streamlit. Token text is shown *readably* (whitespace and
control characters as glyphs, bytes that are not UTF-8 as ``\\xNN``) next to its exact hex bytes,
because a table cell cannot show a leading space or half an emoji honestly on its own.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import pandas as pd

from tokenizer import Encoding
from tokenizer.train_record import TrainingRecord
from ui.common.limits import MAX_TREE_NODES
from ui.common.messages import counted
from ui.common.spreadsheet import csv_bytes
from ui.common.token_text import plain, write_glyphs

COLUMNS = ("id", "token", "bytes", "length", "kind", "left", "right", "parents", "count")
HEADERS = {
    "id": "Id", "token": "Token", "bytes": "Bytes (hex)", "length": "Bytes", "kind": "Kind",
    "left": "Left id", "right": "Right id", "parents": "Parents", "count": "Count when merged",
}  # fmt: skip
"""Each column's header in the page's table, and in its CSV."""


def describe(enc: Encoding) -> str:
    """One line on what a vocabulary holds.

    >>> import tokenizer as tk
    >>> describe(tk.train("aaab aaab", 260))
    '260 ids: 256 bytes, 3 merges, 1 special token.'
    >>> describe(tk.train("ab ab", 258))
    '258 ids: 256 bytes, 1 merge, 1 special token.'
    """
    n = len(enc.special_tokens)
    specials = counted(n, "special token")
    if enc.merges is None:
        return f"{enc.n_vocab:,} ids with {specials}; imported without a merge list."
    return f"{enc.n_vocab:,} ids: 256 bytes, {counted(len(enc.merges), 'merge')}, {specials}."


def parents(enc: Encoding, token_id: int) -> tuple[int, int] | None:
    """The two tokens merged to make `token_id`, or None for a byte, a special or no merge list.

    Merge i made id 256 + i in every vocabulary with a merge list (trained ones and GPT-2).
    """
    merges = enc.merges
    if merges is None or not 256 <= token_id < 256 + len(merges):
        return None
    return merges[token_id - 256]


def _merge_counts(enc: Encoding) -> Sequence[int] | None:
    """How often each pair occurred when it was merged (vocabularies trained here only)."""
    record = enc.training
    return record.counts if isinstance(record, TrainingRecord) else None


def vocab_frame(enc: Encoding) -> pd.DataFrame:
    """Every token id with its text, bytes, kind, parents and merge count (nullable columns).

    >>> import tokenizer as tk
    >>> frame = vocab_frame(tk.train("aaab aaab", 259, special_tokens=()))
    >>> frame.iloc[256:][["token", "parents", "count"]].values.tolist()
    [['aa', 'a + a', 4], ['ab', 'a + b', 2], ['aaab', 'aa + ab', 2]]
    """
    counts = _merge_counts(enc)
    rows = []
    for token_id in range(enc.n_vocab):
        if not enc.is_valid_id(token_id):
            continue
        piece = enc.token_bytes(token_id)
        pair = parents(enc, token_id)
        if enc.is_special(token_id):
            kind = "special"
        elif pair is None and len(piece) == 1:
            kind = "byte"
        else:
            kind = "merge"
        count = None
        if pair is not None and counts is not None and token_id - 256 < len(counts):
            count = counts[token_id - 256]
        rows.append(
            (
                token_id,
                piece.decode("utf-8", "replace") if kind == "special" else plain(piece),
                piece.hex(" ").upper(),
                len(piece),
                kind,
                None if pair is None else pair[0],
                None if pair is None else pair[1],
                ""
                if pair is None
                else f"{plain(enc.token_bytes(pair[0]))} + {plain(enc.token_bytes(pair[1]))}",
                count,
            )
        )
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    for column in ("left", "right", "count"):
        frame[column] = frame[column].astype("Int64")
    return frame


def search(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """Rows whose token contains `query` (case-insensitive), or whose id or hex bytes equal it.

    A space in the query matches a space in the token (shown as ``·``), a query of spaces too:
    only an empty one lists every row.

    >>> f = pd.DataFrame({"id": [1, 2], "token": ["·the", "x"], "bytes": ["20 74 68 65", "78"]})
    >>> search(f, " th")["id"].tolist(), search(f, "2")["id"].tolist()
    ([1], [2])
    """
    query = query.strip("\n")
    if not query:
        return frame
    needle = write_glyphs(query).casefold()
    hits = frame["token"].str.casefold().str.contains(needle, regex=False)
    bare = query.strip()
    # ASCII ("²".isdigit() too, which int() refuses) and short: int() refuses 4,301 digits.
    if bare.isascii() and bare.isdigit() and len(bare) <= 19:
        hits |= frame["id"] == int(bare)
    hits |= frame["bytes"] == bare.upper()
    return frame[hits]


def vocab_csv(frame: pd.DataFrame) -> bytes:
    """The rows of the table as CSV for spreadsheets (`ui.common.spreadsheet`), under the
    table's headers."""
    return csv_bytes(frame.rename(columns=HEADERS))


# ---- merge trees -----------------------------------------------------------------------------

"""A 128-byte token has 255 nodes; longer ones (runs of spaces, minified code) are cut there."""


@dataclass(frozen=True)
class TreeNode:
    """A token and the two tokens it was merged from (none for a byte or a special token)."""

    token_id: int
    piece: bytes
    children: tuple["TreeNode", ...] = ()
    cut: bool = False  # children left out to keep the tree small


def merge_tree(enc: Encoding, token_id: int, limit: int = MAX_TREE_NODES) -> TreeNode:
    """The tree of merges that built `token_id`, as many whole levels as fit in `limit` nodes.

    >>> import tokenizer as tk
    >>> tree = merge_tree(tk.train("aaab aaab", 259, special_tokens=()), 258)
    >>> [(c.token_id, c.piece) for c in tree.children]
    [(256, b'aa'), (257, b'ab')]
    """
    # Whole levels, top down: a cut tree still shows how the token was built at the top.
    depth, level, total = 0, [token_id], 1
    while True:
        below = [child for node in level if (pair := parents(enc, node)) for child in pair]
        if not below or total + len(below) > limit:
            break
        depth, level, total = depth + 1, below, total + len(below)
    return _subtree(enc, token_id, depth)


def _subtree(enc: Encoding, token_id: int, depth: int) -> TreeNode:
    pair = parents(enc, token_id)
    piece = enc.token_bytes(token_id)
    if pair is None:
        return TreeNode(token_id, piece)
    if depth == 0:
        return TreeNode(token_id, piece, cut=True)
    return TreeNode(token_id, piece, tuple(_subtree(enc, child, depth - 1) for child in pair))


def _leaf_kind(enc: Encoding, node: TreeNode) -> str:
    """What a token without parents is: a byte, a special token, or a merge we cannot see."""
    if enc.is_special(node.token_id):
        return "special token"
    if len(node.piece) == 1:
        return f"byte {node.piece.hex().upper()}"
    return "this vocabulary has no merge list to show its parents"


_TREE_CSS = """
.mtree{font-family:"Source Code Pro",ui-monospace,monospace;font-size:.85rem;line-height:1.5}
.mtree ul{list-style:none;margin:0;padding-left:1.4rem;border-left:1px dashed rgba(128,128,128,.5)}
.mtree>ul{border-left:none;padding-left:0}
.mtree li{margin:.15rem 0}
.mtree .node{display:inline-block;padding:0 .35rem;border-radius:3px;white-space:pre;
  background:rgba(66,133,244,.22)}
.mtree .byte{background:rgba(128,128,128,.18)}
.mtree .meta{opacity:.7;margin-left:.5rem;font-size:.75rem}
"""


def merge_tree_html(enc: Encoding, token_id: int, limit: int = MAX_TREE_NODES) -> str:
    """The merge tree as one escaped HTML block: each token, its id and merge, then its parents."""
    counts = _merge_counts(enc)

    def item(node: TreeNode) -> str:
        rank = node.token_id - 256
        if node.children or node.cut:
            meta = f"id {node.token_id} · rank {rank:,}"
            if counts is not None and 0 <= rank < len(counts):
                meta += f" · seen {counts[rank]:,}×"
            css = "node"
        else:
            meta = f"id {node.token_id} · {_leaf_kind(enc, node)}"
            css = "node byte"
        body = (
            f'<span class="{css}">{escape(plain(node.piece))}</span>'
            f'<span class="meta">{escape(meta)}</span>'
        )
        if node.children:
            body += "<ul>" + "".join(item(child) for child in node.children) + "</ul>"
        elif node.cut:
            body += '<ul><li><span class="meta">… (tree cut to keep it small)</span></li></ul>'
        return f"<li>{body}</li>"

    tree = merge_tree(enc, token_id, limit)
    return f'<div class="mtree"><style>{_TREE_CSS}</style><ul>{item(tree)}</ul></div>'
