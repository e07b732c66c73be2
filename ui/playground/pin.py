"""The pinned token's panel: what a click on a token tells about it.

Its id, its bytes, where it is in the text, and the merge that made it — the merge's rank and
the two tokens it joined — and, beside the tokens' name, a link to the token on the Vocabulary
page and a button to let go. Pure: the parents
come from `ui.common.tokens.merge_parents`, given by the caller.
"""

from html import escape

from tokenizer import Encoding, Tokenized
from ui.common.links import vocab_url
from ui.common.token_pane import PinPanel
from ui.common.token_text import hex_bytes, token_html
from ui.common.token_view import BYTE_ORIGIN, SPECIAL_ORIGIN, char_span


def _token(enc: Encoding, token_id: int) -> str:
    """A token as a small chip with its id: ``[·wor] #476``."""
    return f'<code class="bpl-chip">{token_html(enc.token_bytes(token_id))}</code> #{token_id}'


def origin_html(enc: Encoding, token_id: int, parents: tuple[int, int] | None) -> str:
    """How the token came to be: a special token, a single byte, or the merge of rank r, in the
    words of its facts line (`ui.common.token_view.tooltip`), which the panel replaces.

    >>> import tokenizer as tk
    >>> origin_html(tk.get_encoding("gpt2"), 32, None)
    'single byte, no merge'
    """
    if enc.is_special(token_id):
        return SPECIAL_ORIGIN
    rank = enc.merge_rank(token_id)
    if rank is None:
        return BYTE_ORIGIN
    if parents is None:
        return f"merge rank {rank:,} (its two parts are not known)"
    left, right = parents
    return f"merge rank {rank:,}: {_token(enc, left)} + {_token(enc, right)}"


def pin_html(
    enc: Encoding, tok: Tokenized, i: int, parents: tuple[int, int] | None, *, link: bool = True
) -> PinPanel:
    """The panel of token `i` of `tok` (escaped HTML; `parents` from `merge_parents`).

    Without `link` it has no "Open in Vocabulary": the Chat view's encoding with a template's
    special tokens added (``cl100k_base+chatml``) is not one the Vocabulary page can open.
    """
    token_id = tok.ids[i]
    chars = char_span(*tok.char_spans[i])
    piece = tok.pieces[i]
    noun = "byte" if len(piece) == 1 else "bytes"
    opener = (
        f'<a href="{escape(vocab_url(enc.name, token_id))}" data-vocab="{token_id}" '
        f'aria-label="Open #{token_id} in Vocabulary">Open in Vocabulary →</a>'
        if link
        else ""
    )
    return PinPanel(
        facts=(
            f"Pinned {_token(enc, token_id)} · {origin_html(enc, token_id, parents)} · "
            f"{noun} {escape(hex_bytes(piece))} · token {i + 1:,}, {chars}"
        ),
        actions=f'{opener}<button class="bpl-unpin" type="button">Unpin (Esc)</button>',
    )
