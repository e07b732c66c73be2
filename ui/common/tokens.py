"""A text's tokens as every page shows them, computed once per content for all sessions.

`tokenize` and `split` are the two views the pages draw from (coloured tokens, regex chunks);
both go through `ui.common.cache.derived`, keyed by the vocabulary's content key and the text, so a
class pasting the same example tokenizes it once. `tokenized_from_ids` builds the same view from
ids a user pasted, for decode mode and for the merges page's intermediate steps.
"""

import codecs
import sys
import threading
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import Literal

from tokenizer import Encoding, Tokenized
from ui.common import cache
from ui.common.messages import inline_code, listed
from ui.common.registry import vocab_key

# Bytes a `Tokenized` holds per token, roughly: an id, a bytes piece, two span tuples.
_BYTES_PER_TOKEN = 300


def _allowed(special: bool) -> Literal["all"] | tuple[()]:
    return "all" if special else ()


def tokenize(enc: Encoding, text: str, *, special: bool) -> Tokenized:
    """Tokenize with special tokens recognised (`special`) or read as plain text."""
    return cache.derived(
        ("tokens", vocab_key(enc), text, special),
        lambda: enc.tokenize(text, _allowed(special)),
        lambda tok: len(tok.ids) * _BYTES_PER_TOKEN,
    )


def split(enc: Encoding, text: str, *, special: bool) -> tuple[str, ...]:
    """The pre-tokenizer's chunks, cached like `tokenize`."""
    return cache.derived(
        ("chunks", vocab_key(enc), text, special),
        lambda: tuple(enc.split(text, _allowed(special))),
        lambda chunks: sum(map(sys.getsizeof, chunks)) + 8 * len(chunks),
    )


def normalised_note(enc: Encoding, raw: str, shown: str) -> str | None:
    """What `enc`'s normaliser did to `raw` before splitting it, when it changed anything.

    Qwen composes text to NFC: ``e`` + a combining accent is one ``é`` to it. Every view of its
    tokens (counts, character positions, chunks, the whole text) is of that text, `shown`, not of
    the text typed; this sentence says so, so a count one lower than typed is not a surprise.

    >>> import tokenizer as tk
    >>> qwen = tk.get_encoding("qwen3")
    >>> normalised_note(qwen, "cafe\u0301", "caf\u00e9").split(": ")[0]
    '`qwen3` normalises text (NFC) before splitting it, as its model reads it'
    >>> normalised_note(qwen, "caf\u00e9", "caf\u00e9") is None
    True
    """
    if not _normalises(enc, raw, shown):
        return None
    return (
        f"{_who_normalises(enc)} before splitting it, as its model reads it: the tokens, counts "
        f"and character positions here are of that text ({len(raw):,} characters became "
        f"{len(shown):,})."
    )


def normalised_brief(enc: Encoding, raw: str, shown: str) -> str | None:
    """`normalised_note` in one short line, for a page that keeps its height for the tokens.

    >>> import tokenizer as tk
    >>> normalised_brief(tk.get_encoding("qwen3"), "café", "café")
    '`qwen3` normalises text (NFC) first: 5 characters became 4.'
    """
    if not _normalises(enc, raw, shown):
        return None
    return f"{_who_normalises(enc)} first: {len(raw):,} characters became {len(shown):,}."


def _normalises(enc: Encoding, raw: str, shown: str) -> bool:
    """Whether `enc`'s normaliser changed `raw` into `shown`, the text it tokenized.

    Read from the two texts, not by normalising `raw` again: on a long text that would be one
    more pass over it per note, on every rerun.
    """
    return enc.normalizer is not None and shown != raw


def _who_normalises(enc: Encoding) -> str:
    """The start of both sentences above: "`qwen3` normalises text (NFC)"."""
    what = enc.normalizer.describe() if enc.normalizer is not None else ""
    return f"{inline_code(enc.name, 40)} normalises text{f' ({what})' if what else ''}"


# Where `bytes.decode(errors="replace")` put each U+FFFD: the (start, end) byte span of every
# invalid sequence, recorded by an error handler that replaces exactly as "replace" does.
_REPLACED = threading.local()


def _record_replacement(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)
    _REPLACED.spans.append((error.start, error.end))
    return "\ufffd", error.end


codecs.register_error("bpe_lens.replace_and_record", _record_replacement)


def decode_with_widths(data: bytes) -> tuple[str, list[int]]:
    """`data` decoded as ``data.decode("utf-8", errors="replace")`` does (tiktoken's lossy
    `decode`: one U+FFFD per invalid sequence, not per byte), and each character's byte width.

    >>> decode_with_widths(b"a\\xf0\\x9f\\x91b")  # the first 3 bytes of an emoji, then "b"
    ('a�b', [1, 3, 1])
    """
    _REPLACED.spans = []
    text = data.decode("utf-8", "bpe_lens.replace_and_record")
    replaced = iter(_REPLACED.spans)
    pending = next(replaced, None)
    widths = []
    at = 0
    for char in text:
        if pending is not None and pending[0] == at:  # a U+FFFD standing for bad bytes
            width = pending[1] - pending[0]
            pending = next(replaced, None)
        else:  # a real character, possibly a real U+FFFD (EF BF BD)
            width = len(char.encode("utf-8"))
        widths.append(width)
        at += width
    return text, widths


def tokenized_from_ids(enc: Encoding, ids: Sequence[int]) -> Tokenized:
    """The `Tokenized` view of ids that are all valid, as if their text had been encoded.

    Ids need not decode to valid UTF-8 (half an emoji is a fine thing to paste): the text is
    what tiktoken's ``decode`` gives, one U+FFFD per invalid sequence, and a token's characters
    are those its bytes fall in (a U+FFFD of several bytes may be shared by several tokens).
    """
    pieces = tuple(enc.token_bytes(i) for i in ids)
    text, widths = decode_with_widths(b"".join(pieces))
    char_ends = []  # byte offset where each character ends
    end = 0
    for width in widths:
        end += width
        char_ends.append(end)
    byte_spans = []
    char_spans = []
    start = 0
    for piece in pieces:
        stop = start + len(piece)
        # First character holding byte `start`, through the character holding byte `stop - 1`.
        char_spans.append((bisect_right(char_ends, start), bisect_right(char_ends, stop - 1) + 1))
        byte_spans.append((start, stop))
        start = stop
    return Tokenized(text, tuple(ids), pieces, tuple(byte_spans), tuple(char_spans))


# ---- the merge that made a token ----------------------------------------------------------------


def merge_parents(enc: Encoding, token_id: int) -> tuple[int, int] | None:
    """The two tokens whose merge made `token_id`; None for single bytes and special tokens.

    A vocabulary with a merge list (GPT-2's, a trained one) says it outright. One given as ranks
    alone (cl100k_base, o200k_base) is asked the way the Vocabulary page recovers parents: BPE
    over the token's own bytes with only the merges of lower rank, which stops at two pieces.

    >>> import tokenizer as tk
    >>> gpt2 = tk.get_encoding("gpt2")
    >>> merge_parents(gpt2, 995), merge_parents(gpt2, 32)  # " world" = " wor" + "ld"; " " a byte
    ((476, 335), None)
    """
    rank = enc.merge_rank(token_id)
    if rank is None:
        return None
    piece = enc.token_bytes(token_id)
    if enc.merges is not None and rank < len(enc.merges):
        left, right = enc.merges[rank]
        if enc.token_bytes(left) + enc.token_bytes(right) == piece:
            return left, right
    return _parents_by_bpe(enc, piece, rank)


def _parents_by_bpe(enc: Encoding, piece: bytes, rank: int) -> tuple[int, int] | None:
    """BPE over `piece` with the merges ranked below `rank`, lowest rank first, leftmost on
    ties (tiktoken's rule), until two pieces are left; None if BPE never gets there."""
    ids = _ids_by_bytes(enc)
    parts = [piece[k : k + 1] for k in range(len(piece))]
    while len(parts) > 2:
        best: tuple[int, int] | None = None  # (rank, position) of the pair to merge
        for k in range(len(parts) - 1):
            made = ids.get(parts[k] + parts[k + 1])
            pair_rank = None if made is None else enc.merge_rank(made)
            if pair_rank is not None and pair_rank < rank and (best is None or pair_rank < best[0]):
                best = (pair_rank, k)
        if best is None:
            return None
        k = best[1]
        parts[k : k + 2] = [parts[k] + parts[k + 1]]
    if len(parts) != 2 or parts[0] not in ids or parts[1] not in ids:
        return None
    return ids[parts[0]], ids[parts[1]]


def _ids_by_bytes(enc: Encoding) -> dict[bytes, int]:
    """Each ordinary token's bytes -> its id (the lowest, should two share bytes), built once per
    vocabulary and shared; the byte strings themselves are the vocabulary's own."""

    def build() -> dict[bytes, int]:
        found: dict[bytes, int] = {}
        for token_id in range(enc.n_vocab - 1, -1, -1):  # downwards: the lowest id wins
            if enc.is_valid_id(token_id) and not enc.is_special(token_id):
                found[enc.token_bytes(token_id)] = token_id
        return found

    # A dict's table costs about 100 bytes an entry beyond the shared keys.
    return cache.derived(("ids by bytes", vocab_key(enc)), build, lambda ids: 100 * len(ids))


def special_texts_in(text: str, specials: Iterable[str]) -> list[str]:
    """The special tokens whose text appears in `text`, in the order they first appear.

    >>> special_texts_in("a<|endoftext|>b<|fim_prefix|>", ["<|fim_prefix|>", "<|endoftext|>"])
    ['<|endoftext|>', '<|fim_prefix|>']
    """
    # Only specials whose first character occurs at all are looked for: Llama 3 has 256 of them,
    # all starting with "<", and a megabyte without one is then a single scan.
    candidates = [s for s in specials if s]
    present = {c for c in {s[0] for s in candidates} if c in text}
    found = [(text.find(s), s) for s in candidates if s[0] in present and s in text]
    return [s for _, s in sorted(found)]


def specials_as_text(encs: Sequence[Encoding], text: str, then: str) -> str | None:
    """A caption for special-token text in `text` that `encs` read as ordinary text, or None.

    `then` follows the sentence's colon, and says what the page does about it; ``{it}`` there
    becomes "it" or "each", as the tokens found are one or more.
    """
    found: dict[str, None] = {}
    owners = []
    for enc in encs:
        if mine := special_texts_in(text, enc.special_tokens):
            found |= dict.fromkeys(mine)
            owners.append(inline_code(enc.name, 40))
    if not found:
        return None
    names = listed([inline_code(s, 40) for s in list(found)[:3]])
    more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
    verb, it = ("is a special token", "it") if len(found) == 1 else ("are special tokens", "each")
    return (
        f":material/info: {names}{more} {verb} of {listed(owners)}, read here as ordinary "
        f"text: {then.format(it=it)}"
    )
