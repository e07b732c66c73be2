"""The pre-tokenizer split, fast: the bundled patterns run by the standard library's `re`.

The `regex` module defines every split here: its pattern syntax and its Unicode tables. Its engine,
though, is the slowest part of encoding: 2-2.5x slower than `re` on the same text once ``\\p{L}``
classes are spelled out as code-point ranges. So each bundled pattern is translated into an `re`
pattern whose classes are read from `regex` itself:

- ``\\p{..}``, ``\\s`` and each letter of a case-insensitive group (``(?i:'s)`` also matches the
  long s, ``ſ``) become explicit ranges of the Basic Multilingual Plane, taken from the chars that
  `regex` matches, so both engines agree on every BMP character.
- Characters beyond the BMP (emoji, rare CJK) would make `re` walk hundreds of ranges for every
  character it tests, so none appear in the ranges. Instead, each one is replaced before the split
  by a BMP *stand-in* that belongs to exactly the same classes, and the chunks are cut from the
  original text at the same offsets (a stand-in is one character, like what it replaces).

That holds because the patterns look at a character only through those classes and a few ASCII
literals (which no stand-in is), and use nothing else: no look-behind, no back-references. Only
the patterns in `PATTERNS` are translated; the tests compare both engines on every BMP character,
on every astral character, and on generated and real text. Any other pattern (a custom one
for training) runs on `regex` unchanged.
"""

import re
from collections.abc import Callable
from functools import lru_cache
from itertools import accumulate

import regex

from tokenizer.patterns import PATTERNS

Split = Callable[[str], list[str]]

_BMP = "".join(map(chr, range(0x10000)))
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_SYNTAX = re.compile(r"\\p\{\w+\}|\\[sS]|\\.|\(\?i:|\[\^?|.", re.DOTALL)
_WHITESPACE = r"\s"
_PLAIN_ESCAPES = frozenset([r"\r", r"\n", r"\t"])
_MAX_DISTINCT_ASTRAL = 4096  # more distinct astral characters in one text: `regex` is quicker
_MAX_REMEMBERED = 100_000  # astral characters whose stand-ins are remembered


class UntranslatableError(ValueError):
    """The pattern uses syntax the translation does not cover: split it with `regex` instead."""


@lru_cache(maxsize=64)  # bounded: custom training patterns come from users
def splitter(pattern: str) -> Split:
    """A ``findall`` for `pattern`: the fast translation for the bundled patterns, else `regex`.

    >>> splitter(PATTERNS["gpt2"])("Hello world's 2024 🙂!")
    ['Hello', ' world', "'s", ' 2024', ' 🙂!']
    """
    if pattern in PATTERNS.values():
        return FastSplit(pattern).findall
    return regex.compile(pattern).findall


class FastSplit:
    """One bundled pattern translated for `re`, with stand-ins for characters beyond the BMP."""

    def __init__(self, pattern: str) -> None:
        self._reference = regex.compile(pattern)
        self._atoms: list[str] = []  # the `regex` classes the translation spelled out, in order
        self._runs: dict[str, list[tuple[int, int]]] = {}
        self._findall = re.compile(self._translate(pattern)).findall
        self._tests = [regex.compile(atom).fullmatch for atom in self._atoms]
        self._stand_in_for_key: dict[int, str] | None = None  # built on the first astral char
        self._stand_ins: dict[str, str | None] = {}  # astral char -> stand-in

    def findall(self, text: str) -> list[str]:
        """The chunks of `text`, exactly as ``regex.findall(pattern, text)`` gives them."""
        if text.isascii():
            return self._findall(text)
        astral = set(_ASTRAL.findall(text))
        if not astral:
            return self._findall(text)
        stand_ins = self._stand_ins_for(astral)
        if stand_ins is None:
            return self._reference.findall(text)
        found = self._findall(_ASTRAL.sub(lambda match: stand_ins[match.group()], text))
        bounds = list(accumulate(map(len, found), initial=0))
        return list(map(text.__getitem__, map(slice, bounds, bounds[1:])))

    # ---- translation ------------------------------------------------------------------------

    def _translate(self, pattern: str) -> str:
        """The `re` source for `pattern`, every class spelled out as BMP ranges."""
        out: list[str] = []
        in_class = False
        folding = 0  # depth of parentheses inside a ``(?i:`` group; 0 outside one
        for token in _SYNTAX.findall(pattern):
            if token.startswith(r"\p") or token == _WHITESPACE:
                ranges = self._ranges(token)
                out.append(ranges if in_class else f"[{ranges}]")
            elif token == r"\S" and not in_class:
                out.append(f"[^{self._ranges(_WHITESPACE)}]")
            elif token.startswith("\\"):
                if token[1].isalnum() and token not in _PLAIN_ESCAPES:
                    raise UntranslatableError(f"escape {token} in {pattern!r}")
                out.append(token)
            elif token == "(?i:":
                if folding:
                    raise UntranslatableError(f"nested case-insensitive groups in {pattern!r}")
                folding = 1
                out.append("(?:")
            elif not token.isascii():
                raise UntranslatableError(f"non-ASCII literal {token!r} in {pattern!r}")
            elif folding and token.isalpha():
                ranges = self._ranges(f"(?i:{token})")
                out.append(ranges if in_class else f"[{ranges}]")
            else:
                in_class = token.startswith("[") or (in_class and token != "]")
                if folding and not in_class:
                    folding += {"(": 1, ")": -1}.get(token, 0)
                out.append(token)
        return "".join(out)

    def _ranges(self, atom: str) -> str:
        """The BMP characters `regex` matches with the one-character `atom`, as `re` ranges."""
        if atom not in self._runs:
            self._atoms.append(atom)
            self._runs[atom] = [m.span() for m in regex.finditer(f"(?:{atom})+", _BMP)]
        return "".join(f"\\u{a:04x}-\\u{b - 1:04x}" for a, b in self._runs[atom])

    # ---- stand-ins for characters beyond the BMP --------------------------------------------

    def _key(self, char: str) -> int:
        """Which atoms `char` belongs to, one bit per atom."""
        return sum(1 << bit for bit, test in enumerate(self._tests) if test(char))

    def _stand_ins_for(self, chars: set[str]) -> dict[str, str] | None:
        """A stand-in for each astral character; None sends the text to `regex` instead.

        That happens for a character in a combination of classes no BMP character has, and for
        texts with thousands of distinct astral characters, where finding their classes one by
        one would cost more than the faster engine saves.
        """
        if len(chars) > _MAX_DISTINCT_ASTRAL:
            return None
        remembered = self._stand_ins
        if len(remembered) + len(chars) > _MAX_REMEMBERED:
            remembered.clear()
        chosen = {}
        for char in chars:
            stand_in = remembered.get(char, "")
            if stand_in == "":
                stand_in = remembered[char] = self._stand_in_table().get(self._key(char))
            if stand_in is None:
                return None
            chosen[char] = stand_in
        return chosen

    def _stand_in_table(self) -> dict[int, str]:
        """For each combination of atoms, the first non-ASCII BMP character that has exactly it.

        Non-ASCII, so a stand-in is never one of the pattern's literals (``'``, ``/``, ``\\r``).
        """
        if self._stand_in_for_key is None:
            keys = [0] * 0x10000
            for bit, atom in enumerate(self._atoms):
                for start, end in self._runs[atom]:
                    for code in range(start, end):
                        keys[code] |= 1 << bit
            table: dict[int, str] = {}
            for code in range(0x80, 0x10000):
                if not 0xD800 <= code < 0xE000:  # surrogates never reach the split
                    table.setdefault(keys[code], chr(code))
            self._stand_in_for_key = table
        return self._stand_in_for_key
