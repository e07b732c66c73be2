"""Decode mode: read a list of token ids as people paste them.

People paste ids from wherever they found them: ``1, 2, 3``, ``1 2 3``, a JSON list, one per
line. `parse_ids` accepts all of those and reports exactly which pieces were not ids, so the page
can name them instead of failing.
"""

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tokenizer import Encoding

_SEPARATORS = re.compile(r"[\s,;\[\]]+")
# ASCII digits (\d would read "٣" as 3), at most 19: beyond any vocabulary, and Python refuses
# to read an int of over 4,300 digits (a traceback once).
_INTEGER = re.compile(r"[+-]?[0-9]{1,19}")


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
        except (ValueError, RecursionError):  # not JSON, or nested past Python's stack
            items = None  # fall back to reading it as a plain list
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
    """The ids that name no token of `enc` (out of range, or one of o200k_base's unused ids),
    each once, in the order they were typed: the message then reads along with the input."""
    return list(dict.fromkeys(i for i in ids if not enc.is_valid_id(i)))


def id_ranges(ids: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted ids as runs of consecutive ids: ``[1, 2, 3, 7]`` -> ``[(1, 3), (7, 7)]``."""
    runs: list[tuple[int, int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return runs


def _runs_text(runs: Sequence[tuple[int, int]]) -> str:
    """``[(1, 3), (7, 7)]`` -> ``"1–3 and 7"``."""
    words = [f"{a:,}" if a == b else f"{a:,}–{b:,}" for a, b in runs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def valid_ids_sentence(name: str, n_vocab: int, unused: Sequence[int], most: int = 6) -> str:
    """What the ids of an encoding are, exactly, for the decode error (`name` as it is shown).

    >>> valid_ids_sentence("gpt2", 50257, [])
    'gpt2 has the ids 0 to 50,256.'
    >>> valid_ids_sentence("o200k_base", 200019, [199998, 199999])
    'o200k_base has the ids 0 to 200,018, except 199,998–199,999 (unused).'
    """
    sentence = f"{name} has the ids 0 to {n_vocab - 1:,}"
    if not unused:
        return sentence + "."
    runs = id_ranges(unused)
    shown = _runs_text(runs[:most])
    more = len(runs) - most
    if more > 0:
        shown += f" and {more:,} more runs ({len(unused):,} ids in all)"
    return f"{sentence}, except {shown} (unused)."
