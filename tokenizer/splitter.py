"""The pre-tokenizer split: chunks exactly as the reference engine cuts them, fast, and safely.

`splitter(pattern)` gives a ``findall``-like function. Every split has three properties:

- **Frozen classes.** ``\\p{L}``, ``\\s`` ... mean the classes of one Unicode version
  (`tokenizer.unicode_tables`; tiktoken's by default), not those of the installed `regex`.
- **Whole matches.** A chunk is what the whole pattern matched, as in tiktoken, even if the
  pattern has capturing groups (``findall`` would return the groups instead).
- **Bounded time** for patterns that come from users: each chunk must be found within
  `MATCH_TIMEOUT_S`, so a pattern that backtracks catastrophically (``(a+)+$``) fails with
  `PatternTimeoutError` instead of holding the server.

Two engines give those chunks:

- `FastSplit`: the bundled patterns (`PATTERNS`) translated for the standard library's `re`,
  2-2.5x faster than `regex` (whose engine alone needs more than tiktoken's whole encode time).
  Each frozen class becomes explicit ranges of the Basic Multilingual Plane. Characters beyond
  it (emoji, rare CJK) would make `re` walk hundreds of ranges per character tested, so each is
  replaced before the split by a BMP *stand-in* in exactly the same classes, and the chunks are
  cut from the original text at the same offsets. That holds because these patterns see a
  character only through those classes and a few ASCII literals (which no stand-in is), with no
  look-behind and no back-references. The tests compare it with `RegexSplit` and with tiktoken
  on every code point.
- `RegexSplit`: any other pattern (training, imported vocabularies), on `regex` through
  `tokenizer.frozen_regex`, with the time limit.
"""

import re
from bisect import bisect_right
from collections.abc import Callable
from functools import lru_cache
from itertools import accumulate
from time import perf_counter

from tokenizer.frozen_regex import (
    PatternError,
    check_tiktoken_syntax,
    compile_pattern,
    regex_members,
)
from tokenizer.patterns import PATTERNS
from tokenizer.unicode_tables import (
    DEFAULT_UNICODE,
    LIMIT,
    CharSet,
    ranges_source,
    unicode_tables,
)

Split = Callable[[str], list[str]]

MATCH_TIMEOUT_S = 0.8
"""Longest a user pattern may take to find one chunk; with `regex`'s own lateness in noticing
(up to about half of it), a runaway pattern is stopped well within 2 s."""

SPLIT_S_PER_CHAR = 5e-6
"""What a user pattern may take per character of a whole text, beyond `MATCH_TIMEOUT_S`: a
pattern that backtracks a little at every chunk never hits the one-chunk limit, yet holds the
server for minutes on a page of text. 50 times what `regex` takes with GPT-2's pattern; 1 MB
of text may take 5.8 s."""

_MIN_ROUND_S = 0.05  # the least time a resumed round gets
_SIMPLIFY = "Simplify it, e.g. with possessive quantifiers (a++) or atomic groups (?>...)."

BMP = 0x10000
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_SYNTAX = re.compile(r"\\p\{\w+\}|\\[sS]|\\.|\(\?i:|\[\^?|.", re.DOTALL)
_WHITESPACE = r"\s"
_PLAIN_ESCAPES = frozenset([r"\r", r"\n", r"\t"])


BLOCK_MIN_CHARS = 4096
"""Texts at least this long are encoded block by block (`block_cutter`)."""

# Where a bundled pattern's chunks always break (see `block_cutter`): before a letter or digit
# that follows a newline. One such place in four or so is taken, by the character that follows
# it, so blocks are a few lines long and the same lines always give the same blocks.
_TAKEN = "AEIMQUYaeimquy159"
_BLOCK_CUTS = {
    PATTERNS["gpt2"]: re.compile(rf"\n(?=[{_TAKEN}])(?<=[!-~]\n)"),
    PATTERNS["cl100k_base"]: re.compile(rf"\n(?=[{_TAKEN}])"),
    PATTERNS["o200k_base"]: re.compile(rf"\n(?=[{_TAKEN}])"),
    PATTERNS["llama3"]: re.compile(rf"\n(?=[{_TAKEN}])"),
    PATTERNS["qwen3"]: re.compile(rf"\n(?=[{_TAKEN}])"),
}


def block_cutter(pattern: str) -> "re.Pattern[str] | None":
    """Where a text can be cut so that its chunks are the chunks of the pieces, or None.

    A newline followed by an ASCII letter or digit is such a place for the bundled patterns.
    No chunk of theirs holds both a newline and a letter or digit: letters and digits come
    only with letters, digits, one leading space or, in the patterns after GPT-2's, one
    leading character that is neither a newline nor a letter nor a digit. So the chunk that
    holds the newline ends right after it, in the whole text; it must also end there in the
    piece cut after it, where the text ends instead of going on with a letter:

    - cl100k_base, o200k_base, llama3 and qwen3 take a run of whitespace that ends with a
      newline whole (``\\s*[\\r\\n]``, ``\\s*[\\r\\n]+``, or ``\\s++$`` at the end of a
      piece) or after punctuation (``[\\r\\n]*``), whatever follows;
    - GPT-2 splits such a run with ``\\s+(?!\\S)``, whose look-ahead sees the letter in the
      text but the end in the piece: the same only for a newline alone, so its cuts also need
      a visible character before the newline.

    Nothing looks behind a chunk's start. `tests/core/test_blocks.py` tries to break this on
    texts built around newlines; other patterns are never cut.

    >>> text = "a.\\nAnd b\\n2 c\\n d\\n\\n1"  # "2" is not one of the characters taken
    >>> [m.end() for m in block_cutter(PATTERNS["cl100k_base"]).finditer(text)]
    [3, 17]
    >>> [m.end() for m in block_cutter(PATTERNS["gpt2"]).finditer(text)]
    [3]
    """
    return _BLOCK_CUTS.get(pattern)


class PatternTimeoutError(PatternError):
    """A pattern took too long to find one chunk: it backtracks catastrophically on this text."""


class UntranslatableError(ValueError):
    """The pattern uses syntax the `re` translation does not cover: split it with `regex`."""


@lru_cache(maxsize=64)  # bounded: custom training patterns come from users
def splitter(pattern: str, unicode: str = DEFAULT_UNICODE) -> Split:
    """The split for `pattern`: the fast translation for the bundled patterns, else `regex`.

    A pattern that does not compile is a `PatternError` saying why.

    >>> splitter(PATTERNS["gpt2"])("Hello world's 2024 🙂!")
    ['Hello', ' world', "'s", ' 2024', ' 🙂!']
    >>> splitter(r"(\\w)\\w*|\\s")("ab c")  # a capturing group: still the whole match
    ['ab', ' ', 'c']
    """
    if pattern in PATTERNS.values():
        return FastSplit(pattern, unicode).findall
    return RegexSplit(pattern, unicode)


class RegexSplit:
    """Any pattern on `regex`: frozen classes, whole matches, each found within a time limit."""

    def __init__(
        self, pattern: str, unicode: str = DEFAULT_UNICODE, timeout: float | None = MATCH_TIMEOUT_S
    ) -> None:
        self.pattern = pattern
        self._finditer = compile_pattern(pattern, unicode).finditer
        check_tiktoken_syntax(pattern)  # a pre-tokenizer: it must split as tiktoken would
        self._timeout = timeout

    def __call__(self, text: str) -> list[str]:
        """Every match of the pattern in `text`, whole, in order, as ``findall`` would find them.

        `regex` limits the time of a whole search, not of one match, so the search runs in
        rounds. A round that times out after finding chunks resumes after the last one (a long
        text is not a runaway pattern), with what is left of the limit for the chunk it was
        looking for. The pattern is refused when one chunk takes the whole limit, or when the
        text as a whole takes longer than its length allows (`SPLIT_S_PER_CHAR`).
        """
        if self._timeout is None:
            return [match[0] for match in self._finditer(text)]
        chunks: list[str] = []
        start = 0
        found_at = perf_counter()  # when the last chunk was found: the next one is due
        allowed = self._timeout + len(text) * SPLIT_S_PER_CHAR  # for the whole text
        deadline = found_at + allowed
        budget = self._timeout
        repeat_empty_at = -1  # a resumed round finds again the empty match it resumed after
        while True:
            last = (start, start)
            try:
                for match in self._finditer(text, start, timeout=budget):
                    span = match.span()
                    if span[1] == span[0] == repeat_empty_at:
                        continue
                    chunks.append(match[0])
                    last = span
                    found_at = perf_counter()
                return chunks
            except TimeoutError:
                now = perf_counter()
                if now - found_at >= self._timeout:
                    raise PatternTimeoutError(
                        f"the pattern '{self.pattern}' took more than {self._timeout:g} s to find "
                        f"one chunk, at character {last[1]:,} of a text of {len(text):,}: it "
                        f"backtracks catastrophically. {_SIMPLIFY}"
                    ) from None
                if now >= deadline:
                    raise PatternTimeoutError(
                        f"the pattern '{self.pattern}' took more than {allowed:.1f} s to split a "
                        f"text of {len(text):,} characters ({self._timeout:g} s plus "
                        f"{SPLIT_S_PER_CHAR * 1e6:g} µs per character) and was at character "
                        f"{last[1]:,}: it backtracks at every chunk. {_SIMPLIFY}"
                    ) from None
                # Resume after `last`, within both limits.
                budget = max(min(self._timeout - (now - found_at), deadline - now), _MIN_ROUND_S)
                start = last[1]
                repeat_empty_at = start if last[0] == last[1] else -1


class FastSplit:
    """One bundled pattern translated for `re`, with stand-ins for characters beyond the BMP."""

    def __init__(self, pattern: str, unicode: str = DEFAULT_UNICODE) -> None:
        self.pattern = pattern
        self._unicode = unicode
        self._tables = unicode_tables(unicode)
        self._classes: list[CharSet] = []  # each class the translation spelled out, in order
        self._class_of: dict[str, int] = {}
        self._findall = re.compile(self._translate(pattern)).findall
        self._reference: RegexSplit | None = None  # for texts the stand-ins cannot serve
        # Where the classes change beyond the BMP, and the stand-in of each stretch (first use).
        self._intervals: tuple[list[int], list[str | None]] | None = None

    def findall(self, text: str) -> list[str]:
        """The chunks of `text`, exactly as `RegexSplit` (and tiktoken) gives them."""
        if text.isascii():
            return self._findall(text)
        astral = set(_ASTRAL.findall(text))
        if not astral:
            return self._findall(text)
        stand_ins = self._stand_ins_for(astral)
        if stand_ins is None:
            return self.reference(text)
        found = self._findall(_ASTRAL.sub(lambda match: stand_ins[match.group()], text))
        bounds = list(accumulate(map(len, found), initial=0))
        return list(map(text.__getitem__, map(slice, bounds, bounds[1:])))

    def reference(self, text: str) -> list[str]:
        """The same split on `regex` (trusted pattern: no time limit)."""
        if self._reference is None:
            self._reference = RegexSplit(self.pattern, self._unicode, timeout=None)
        return self._reference(text)

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
        """The BMP part of the one-character `atom`, as the inside of an `re` class."""
        if atom not in self._class_of:
            # Frozen classes from the tables; others (a case-insensitive letter, whose twins
            # are ſ for s and K for k, or a property the tables do not hold) from `regex`.
            chars = self._tables.atom(atom) or regex_members(atom)
            self._class_of[atom] = len(self._classes)
            self._classes.append(chars)
        return ranges_source(self._classes[self._class_of[atom]].below(BMP))

    # ---- stand-ins for characters beyond the BMP --------------------------------------------

    def _stand_ins_for(self, chars: set[str]) -> dict[str, str] | None:
        """A stand-in for each astral character; None sends the text to `regex` instead.

        That happens only for a character in a combination of classes no BMP character has.
        """
        starts, stand_ins = self._astral_intervals()
        chosen = {}
        for char in chars:
            stand_in = stand_ins[bisect_right(starts, ord(char)) - 1]
            if stand_in is None:
                return None
            chosen[char] = stand_in
        return chosen

    def _astral_intervals(self) -> tuple[list[int], list[str | None]]:
        """The astral planes cut where any class starts or stops, with each stretch's stand-in.

        Within a stretch every code point is in the same classes, so one stand-in serves all:
        the first non-ASCII BMP character with exactly those classes (non-ASCII, so a stand-in
        is never one of the pattern's literals such as ``'``, ``/`` or ``\\r``).
        """
        if self._intervals is None:
            keys = [0] * BMP
            for bit, chars in enumerate(self._classes):
                for start, stop in chars.below(BMP).spans:
                    for code in range(start, stop):
                        keys[code] |= 1 << bit
            first_with: dict[int, str] = {}
            for code in range(0x80, BMP):
                if not 0xD800 <= code < 0xE000:  # surrogates never reach the split
                    first_with.setdefault(keys[code], chr(code))
            cuts = {BMP, *(p for chars in self._classes for span in chars.spans for p in span)}
            starts = sorted(cut for cut in cuts if BMP <= cut < LIMIT)
            stand_ins = []
            for start in starts:
                key = sum(1 << bit for bit, chars in enumerate(self._classes) if start in chars)
                stand_ins.append(first_with.get(key))
            self._intervals = starts, stand_ins
        return self._intervals
