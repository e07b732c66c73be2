"""Decode mode: read a list of token ids as people paste them, and rebuild what they encode.

People paste ids from wherever they found them: ``1, 2, 3``, ``1 2 3``, a JSON list, one per
line. `parse_ids` accepts all of those and reports exactly which pieces were not ids, so the page
can name them instead of failing.
"""

import json
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from tokenizer import Encoding, Tokenized

_SEPARATORS = re.compile(r"[\s,;\[\]]+")
_INTEGER = re.compile(r"[+-]?\d+")


@dataclass(frozen=True)
class ParsedIds:
    """The integers found in the input, in order, and the pieces that were not integers."""

    ids: tuple[int, ...]
    malformed: tuple[str, ...]


def parse_ids(raw: str) -> ParsedIds:
    """Read ids separated by spaces, commas, semicolons or newlines, or written as a JSON list.

    >>> parse_ids("[31373, 995]")
    ParsedIds(ids=(31373, 995), malformed=())
    >>> parse_ids("15339 x 1917 2.5")
    ParsedIds(ids=(15339, 1917), malformed=('x', '2.5'))
    """
    stripped = raw.strip()
    if stripped.startswith("["):
        try:
            items = json.loads(stripped)
        except ValueError:
            items = None  # not valid JSON: fall back to reading it as a plain list
        if isinstance(items, list):
            ids = tuple(v for v in items if _is_int(v))
            malformed = tuple(json.dumps(v) for v in items if not _is_int(v))
            return ParsedIds(ids, malformed)
    pieces = [p for p in _SEPARATORS.split(stripped) if p]
    ids = tuple(int(p) for p in pieces if _INTEGER.fullmatch(p))
    malformed = tuple(p for p in pieces if not _INTEGER.fullmatch(p))
    return ParsedIds(ids, malformed)


def _is_int(value: object) -> bool:
    """JSON integers only: ``true`` is an int to Python but not an id to anyone."""
    return isinstance(value, int) and not isinstance(value, bool)


def unknown_ids(enc: Encoding, ids: Sequence[int]) -> list[int]:
    """The ids that name no token of `enc` (out of range, or one of o200k_base's unused ids)."""
    return sorted({i for i in ids if not enc.is_valid_id(i)})


def tokenized_from_ids(enc: Encoding, ids: Sequence[int]) -> Tokenized:
    """The `Tokenized` view of ids that are all valid, as if their text had been encoded.

    Ids need not decode to valid UTF-8 (half an emoji is a fine thing to paste). Decoding with
    ``surrogateescape`` turns each undecodable byte into exactly one character, so every
    character's byte length is known; those characters are then shown as U+FFFD.
    """
    pieces = tuple(enc.token_bytes(i) for i in ids)
    raw = b"".join(pieces).decode("utf-8", "surrogateescape")
    char_ends = []  # byte offset where each character ends
    end = 0
    for char in raw:
        end += 1 if "\udc80" <= char <= "\udcff" else len(char.encode("utf-8"))
        char_ends.append(end)
    text = re.sub("[\udc80-\udcff]", "\ufffd", raw)
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
