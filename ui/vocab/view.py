"""The vocabulary explorer's views: table rows, a token's card and its merge tree as one HTML block.

Pure (no Streamlit), so tests read the HTML directly. Token text reaches HTML only through
`ui.common.token_text` (escaped, whitespace and control characters as glyphs, bytes that are not
UTF-8 on their own as hex, never hidden behind a U+FFFD).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

import pandas as pd

from tokenizer.vocab import MergeNode, Vocabulary, is_utf8, merge_tree
from ui.common import palette
from ui.common.limits import MAX_TREE_COLUMNS, MAX_TREE_DEPTH
from ui.common.spreadsheet import csv_bytes
from ui.common.token_text import hex_bytes, label, plain, token_html

_CSS = (Path(__file__).with_name("view.css")).read_text(encoding="utf-8")
_CSS += palette.css_rules(".vocab ")


@dataclass(frozen=True)
class TokenRow:
    """One row of the results table (column names are the field names)."""

    id: int
    token: str
    bytes: str
    length: int
    rank: int | None
    left: str | None
    right: str | None
    used_in: int


def rows(vocab: Vocabulary, ids: Sequence[int]) -> list[TokenRow]:
    """The table rows of `ids`, in that order."""
    enc = vocab.enc
    out = []
    for token_id in ids:
        piece = enc.token_bytes(token_id)
        pair = vocab.parents[token_id]
        out.append(
            TokenRow(
                id=token_id,
                token=plain(piece),
                bytes=hex_bytes(piece),
                length=len(piece),
                rank=enc.merge_rank(token_id),
                left=label(enc, pair[0]) if pair else None,
                right=label(enc, pair[1]) if pair else None,
                used_in=len(vocab.used_in(token_id)),
            )
        )
    return out


def listing_csv(vocab: Vocabulary, ids: Sequence[int], labels: Mapping[str, str]) -> bytes:
    """A whole list of tokens as CSV, with the table's columns under the table's headers
    (`labels`, in order). The grid's own download held one page of 100, under field names."""
    frame = pd.DataFrame(rows(vocab, ids)).astype({"rank": "Int64"})
    return csv_bytes(frame[list(labels)].rename(columns=dict(labels)))


def origin(vocab: Vocabulary, token_id: int) -> str:
    """How the token came to be, in words."""
    enc = vocab.enc
    if enc.is_special(token_id):
        return "special token: added by hand, never made or split by merges"
    pair = vocab.parents[token_id]
    if pair is not None:
        return f"made by merge rank {enc.merge_rank(token_id):,}"
    if len(enc.token_bytes(token_id)) == 1:
        return "a single byte: where every token starts"
    return "BPE never builds this token from two smaller ones"


def token_card_html(vocab: Vocabulary, token_id: int) -> str:
    """One block for the selected token: its text, facts, the merge that made it, its tree."""
    enc = vocab.enc
    piece = enc.token_bytes(token_id)
    facts = [
        f"id <b>{token_id}</b>",
        escape(origin(vocab, token_id)),
        f"<b>{len(piece)}</b> byte{'' if len(piece) == 1 else 's'}: "
        f"<code>{hex_bytes(piece)}</code>",
        "valid UTF-8" if is_utf8(piece) else "<b>not</b> valid UTF-8 on its own",
    ]
    pair = vocab.parents[token_id]
    equation = ""
    if pair is not None:
        left, right = (_chip(vocab, part) for part in pair)
        equation = (
            f'<div class="vc-eq">{left}<span class="op">+</span>{right}'
            f'<span class="op">→</span>{_chip(vocab, token_id)}</div>'
        )
    tree = _tree_html(merge_tree(vocab, token_id)) if pair is not None else ""
    return (
        f'<div class="vocab"><style>{_CSS}</style>'
        f'<div class="vc-token">{token_html(piece)}</div>'
        f'<div class="vc-facts">{"".join(f"<span>{fact}</span>" for fact in facts)}</div>'
        f"{equation}{tree}</div>"
    )


def _chip(vocab: Vocabulary, token_id: int) -> str:
    """A token in a coloured box with its id, as in the tree."""
    piece = vocab.enc.token_bytes(token_id)
    colour = palette.by_id(token_id)
    return f'<span class="chip c{colour}">{token_html(piece)}<small>#{token_id}</small></span>'


def _tree_html(root: MergeNode) -> str:
    """The merge tree as an icicle: each token above its two parents, widths in bytes."""
    total = len(root.piece)
    unit = -(-total // MAX_TREE_COLUMNS)  # smallest piece still drawn with its parents
    columns = -(-total // unit)
    return (
        '<div class="vt-label">Merge tree: each token above the two it was merged from, '
        "down to single bytes (#id, r merge rank)</div>"
        f'<div class="vt-scroll"><div class="vt" style="min-width:{columns * 2.4:.1f}em">'
        f"{_node_html(root, 0, unit)}</div></div>"
    )


def _node_html(node: MergeNode, depth: int, unit: int) -> str:
    """One node and, if it is big enough and not too deep, its parents under it."""
    # Two short lines fit a one-byte column: the id, then the merge rank (a byte: its hex).
    second = hex_bytes(node.piece) if node.rank is None else f"r{node.rank}"
    rank = "none (a single byte)" if node.rank is None else f"{node.rank:,}"
    title = f"id {node.token_id} · merge rank {rank} · bytes {hex_bytes(node.piece)}"
    expand = node.parts and depth < MAX_TREE_DEPTH and len(node.piece) >= 2 * unit
    kids = ""
    if expand:
        kids = "".join(_node_html(part, depth + 1, unit) for part in node.parts)
        kids = f'<div class="vt-kids">{kids}</div>'
    cut = " cut" if node.parts and not expand else ""
    return (
        f'<div class="vt-node" style="flex:{len(node.piece)} 1 0">'
        f'<div class="vt-box c{palette.by_id(node.token_id)}{cut}" title="{escape(title)}"'
        f' data-token-id="{node.token_id}">'
        f'<span class="vt-text">{token_html(node.piece)}</span>'
        f'<span class="vt-meta">#{node.token_id}</span><span class="vt-meta">{second}</span>'
        f"</div>{kids}</div>"
    )
