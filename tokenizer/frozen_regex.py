"""Any pattern on the `regex` module, with ``\\p{L}``, ``\\s`` ... meaning the frozen classes.

The `regex` module knows a newer Unicode than the engines we reproduce (see
`tokenizer.unicode_tables`). Spelling a class out as code-point ranges would fix that, but makes
`regex` 6-10x slower, so each class that holds a frozen escape is kept and corrected instead: the
code points `regex` puts in it but the frozen tables do not are excluded by a look-ahead, and
those the tables add are offered as an alternative::

    \\p{L}     ->  (?:(?![<assigned since>])\\p{L}|[<letters once, not now>])

Both corrections are computed by comparing, over all code points, what `regex` matches with what
the tables say, so they are exact whatever version the installed `regex` knows (and empty when
it knows the same one). Inside a character class the whole class is corrected at once, so
``[^\\s\\p{L}\\p{N}]`` stays one class with its negation intact.

Not rewritten: patterns with ``(?V1)`` set operations (refused) and case-insensitive classes
(``(?i)\\p{Lu}``), which keep `regex`'s folding.

`end_anchored` reads a pattern piece by piece as `frozen_source` does (escapes, classes and
comments whole), to give the vocabulary search a ``$`` that means the token's end.
"""

import re
from array import array
from collections.abc import Iterator
from functools import lru_cache

import regex

from tokenizer.unicode_tables import (
    DEFAULT_UNICODE,
    LIMIT,
    SURROGATES,
    CharSet,
    UnicodeTables,
    ranges_source,
    unicode_tables,
)


class PatternError(ValueError):
    """A pre-tokenizer pattern that cannot be used: it does not compile, or is refused."""


# One escape: \p{..}-style with braces, \pL, \xhh, \uhhhh, \Uhhhhhhhh, \g<..>, or any one character.
_ESCAPE = re.compile(
    r"\\(?:[pPNxuUg]\{[^}]*\}|[pP][A-Za-z]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}"
    r"|g<[^>]*>|.)",
    re.DOTALL,
)
_POSIX = re.compile(r"\[:\^?\w+:\]")
_COMMENT = re.compile(r"\(\?#[^)]*\)")
_NOT_SURROGATES = ~CharSet((SURROGATES,))


# Counted repeats: `regex` builds each one out in memory when it compiles (x{1000000} took
# 250 MB; x{99999999} filled 22 GB and the kernel killed the server). Their product is bounded,
# which also bounds nested ones ((?:x{1000}){1000}); tokenizers' patterns count to 3 or so.
MAX_REPEATS = 10_000
# Groups in groups: `regex` parses them by recursion, a few Python frames per level, and ran out
# of stack at 200 levels (a RecursionError, not a regex.error). Tokenizers' patterns nest 2 deep.
MAX_NESTING = 50
# The pattern in pieces: an escape, a character class (its braces are literal), a comment, a
# counted repeat {m}, {m,} or {m,n}, or any other character.
_PIECE = re.compile(
    _ESCAPE.pattern + r"|\[\^?\]?(?:\\.|[^\]])*\]|\(\?#[^)]*\)|\{([0-9]+)(?:,([0-9]*))?\}|.",
    re.DOTALL,
)


# A call of a group: (?R) or (?0) (the whole pattern), (?1), (?+1), (?-1), (?&name), (?P>name).
# `regex` runs them by recursion: (?R) ran out of memory on the first search, a MemoryError no
# caller expects (QA round 13: a Vocabulary link showed the page a traceback). Tokenizers'
# patterns call no group.
_GROUP_CALL = re.compile(r"\(\?(?:R|[+-]?[0-9]+|&\w+|P>\w+)\)")


def check_no_group_calls(pattern: str) -> None:
    """Refuse a pattern that calls a group (recursion).

    >>> check_no_group_calls(r"[(?R)]|\\(?R\\)")  # a class and escapes: literal characters
    >>> check_no_group_calls("a(?R)?b")
    Traceback (most recent call last):
    ...
    tokenizer.frozen_regex.PatternError: pattern 'a(?R)?b': (?R) calls a group (recursion), \
which is not supported
    """
    for piece in _PIECE.finditer(pattern):
        if piece[0] == "(" and (call := _GROUP_CALL.match(pattern, piece.start())):
            raise PatternError(
                f"pattern {pattern[:60]!r}: {call[0]} calls a group (recursion), "
                "which is not supported"
            )


# Escapes that tiktoken's regex engine (Rust's fancy-regex) reads otherwise than `regex`, which
# reads \h as horizontal space and the others as the characters themselves. A pre-tokenizer
# pattern with one split differently from tiktoken, silently (QA round 14).
_TIKTOKEN_ESCAPES = {
    "\\h": "a hex digit",
    "\\<": "the start of a word",
    "\\>": "the end of a word",
    "\\N": "any character but a newline",
}
_CLASS_OPERATORS = ("--", "&&", "~~")


def check_tiktoken_syntax(pattern: str) -> None:
    """Refuse syntax that tiktoken's regex engine reads otherwise than this one.

    >>> check_tiktoken_syntax(r"'s|\\p{L}+|[^\\s\\p{L}\\p{N}]+|[\\[\\]-]|\\N{BULLET}")
    >>> check_tiktoken_syntax(r"\\h+")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tokenizer.frozen_regex.PatternError: pattern '\\\\h+': \\h means a hex digit to tiktoken's ...
    """
    for _, piece in _pieces(pattern):
        problem: str | None
        if piece in _TIKTOKEN_ESCAPES:
            problem = (
                f"{piece} means {_TIKTOKEN_ESCAPES[piece]} to tiktoken's regex engine, another "
                "thing to this one: write what you mean in other terms"
            )
        elif piece.startswith("["):
            problem = _class_problem(piece)
        else:
            continue
        if problem is not None:
            raise PatternError(f"pattern {pattern[:60]!r}: {problem}")


def _class_problem(piece: str) -> str | None:
    """What in a character class tiktoken's regex engine reads otherwise, if anything."""
    body = piece[2 if piece.startswith("[^") else 1 : -1]
    plain: list[str] = []  # its characters, with each escape as one stand-in
    i = 0
    while i < len(body):
        if body[i] == "\\":
            escape = _ESCAPE.match(body, i)
            item = body[i : escape.end()] if escape else body[i:]
            if item == "\\h":  # in a class, \< \> are the characters there too, \N an error
                return (
                    f"{item} in a class means {_TIKTOKEN_ESCAPES[item]} to tiktoken's regex engine"
                )
            plain.append("\0")
        elif body[i] == "[":
            if _POSIX.match(body, i):
                return (
                    "a POSIX class such as [:alpha:] is ASCII to tiktoken's regex engine and "
                    "Unicode to this one: write the characters out, e.g. [A-Za-z]"
                )
            return (
                "a [ inside a class opens a class within it to tiktoken's regex engine; "
                "write \\[ for the character"
            )
        else:
            item = body[i]
            plain.append(item)
        i += len(item)
    if any(operator in "".join(plain) for operator in _CLASS_OPERATORS):
        return (
            "-- && and ~~ in a class are set operations to tiktoken's regex engine and "
            "characters to this one: write the set out"
        )
    return None


def check_size(pattern: str) -> None:
    """Refuse a pattern too big for the regex engine to build: counted repeats that would take it
    gigabytes, or groups nested deeper than its parser's recursion goes.

    >>> check_size(r"\\p{N}{1,3}|[{}]{2}|(?:(a)|[(])")
    >>> check_size("x{99999999}")
    Traceback (most recent call last):
    ...
    tokenizer.frozen_regex.PatternError: pattern 'x{99999999}': its counted repeats ({99999999}) \
come to 99,999,999 copies; at most 10,000
    """
    product, counts, depth = 1, [], 0
    for piece in _PIECE.finditer(pattern):
        low, high = piece[1], piece[2]
        if low is None:
            depth += piece[0] == "("
            depth -= piece[0] == ")"
            if depth > MAX_NESTING:
                raise PatternError(
                    f"pattern {pattern[:60]!r}: groups nested more than {MAX_NESTING} deep"
                )
            continue
        count = max(int(low[:9]), int(high[:9]) if high else 0)  # 9 digits already over
        counts.append(piece[0])
        product *= max(count, 1)
        if product > MAX_REPEATS:
            raise PatternError(
                f"pattern {pattern[:60]!r}: its counted repeats ({' '.join(counts[:4])}) come "
                f"to {product:,} copies; at most {MAX_REPEATS:,}"
            )


@lru_cache(maxsize=128)  # bounded: patterns come from users
def compile_pattern(
    pattern: str, unicode: str = DEFAULT_UNICODE, flags: int = 0
) -> "regex.Pattern[str]":
    """`regex.compile(pattern, flags)` with the frozen classes of `unicode`.

    A pattern that does not compile is a `PatternError` that says why.

    >>> compile_pattern(r"\\p{L}+").findall("a\\u0c5cb")  # U+0C5C is a letter only after 16.0
    ['a', 'b']
    """
    if not isinstance(pattern, str):
        raise TypeError(f"a pattern must be a str, not {type(pattern).__name__}")
    check_size(pattern)
    check_no_group_calls(pattern)
    try:
        compiled = regex.compile(pattern, flags)
    except (regex.error, RecursionError) as exc:  # nested sets of (?V1) recurse too
        raise PatternError(f"pattern {pattern[:60]!r} does not compile: {exc}") from exc
    if compiled.flags & regex.VERSION1:
        raise PatternError(f"pattern {pattern!r}: VERSION1 syntax (?V1) is not supported")
    source = frozen_source(pattern, unicode_tables(unicode))
    return compiled if source == pattern else regex.compile(source, flags)


def frozen_source(pattern: str, tables: UnicodeTables) -> str:
    """`pattern` with every class that holds a frozen escape corrected to `tables`.

    >>> frozen_source(r"[a-z]+|\\w", unicode_tables())  # nothing frozen: unchanged
    '[a-z]+|\\\\w'
    """
    out = []
    for _, piece in _pieces(pattern):
        if piece.startswith("\\") and tables.atom(piece):
            out.append(_corrected(piece, (piece,), None, False, tables))
        elif piece.startswith("["):
            out.append(_corrected_class(piece, tables))
        else:
            out.append(piece)
    return "".join(out)


# A group that sets flags, for the whole pattern or its own span: (?m), (?mi:…), (?i-s:…).
_FLAG_GROUP = re.compile(r"\(\?([a-zA-Z0-9]*)(?:-[a-zA-Z0-9]*)?[:)]")


def end_anchored(pattern: str) -> str:
    """`pattern` with each ``$`` made ``\\Z``: the end of the text, never before a final newline.

    In Python's regex engines ``$`` also matches just before a newline that ends the text, so
    ``^$`` finds the text "\\n" and ``x$`` finds "x\\n"; searching tokens, a ``$`` means the
    token's very end. Escaped (``\\$``) and class (``[$]``) dollars are literal and stay. A
    pattern that turns on multi-line mode (``(?m)``, ``(?m:…)``) asks for line ends: unchanged.

    >>> print(end_anchored(r"^$|a\\$[$]$"), end_anchored("(?m)^$"))
    ^\\Z|a\\$[$]\\Z (?m)^$
    """
    pieces = list(_pieces(pattern))
    for start, piece in pieces:
        flags = _FLAG_GROUP.match(pattern, start) if piece == "(" else None
        if flags and "m" in flags[1]:
            return pattern
    return "".join(r"\Z" if piece == "$" else piece for _, piece in pieces)


def _pieces(pattern: str) -> Iterator[tuple[int, str]]:
    """`pattern` cut into escapes, character classes, comments and single characters.

    Each with where it starts. A class is one piece however it is spelt (``[]$]``, ``[\\]$]``,
    ``[[:alpha:]$]``), so a character inside it is never read as syntax.

    >>> [piece for _, piece in _pieces(r"a\\$[$](?#$)")]
    ['a', '\\\\$', '[$]', '(?#$)']
    """
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            escape = _ESCAPE.match(pattern, i)
            end = escape.end() if escape else len(pattern)
        elif pattern[i] == "[":
            end = _class_end(pattern, i)
        elif pattern.startswith("(?#", i):
            comment = _COMMENT.match(pattern, i)
            end = comment.end() if comment else len(pattern)
        else:
            end = i + 1
        yield i, pattern[i:end]
        i = end


def _class_end(pattern: str, start: int) -> int:
    """The index just after the character class that opens at `start`."""
    i = start + 1
    if pattern.startswith("^", i):
        i += 1
    if pattern.startswith("]", i):  # a first ']' is a literal
        i += 1
    while i < len(pattern):
        if pattern[i] == "\\":
            escape = _ESCAPE.match(pattern, i)
            i = escape.end() if escape else len(pattern)
        elif pattern[i] == "[" and (posix := _POSIX.match(pattern, i)):
            i = posix.end()
        elif pattern[i] == "]":
            return i + 1
        else:
            i += 1
    return len(pattern)  # unterminated: `regex` has refused it already


def _corrected_class(source: str, tables: UnicodeTables) -> str:
    """A character class, corrected if it holds frozen escapes."""
    negated = source.startswith("[^")
    body = source[2 if negated else 1 : -1 if source.endswith("]") else None]
    atoms: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(body):
        if body[i] == "\\":
            escape = _ESCAPE.match(body, i)
            end = escape.end() if escape else len(body)
        elif body[i] == "[" and (posix := _POSIX.match(body, i)):
            end = posix.end()
        else:
            end = i + 1
        item = body[i:end]
        (atoms if item.startswith("\\") and tables.atom(item) else rest).append(item)
        i = end
    if not atoms:
        return source
    return _corrected(source, tuple(atoms), f"[{''.join(rest)}]" if rest else None, negated, tables)


@lru_cache(maxsize=256)  # bounded; each entry holds two small sets of code-point runs
def _corrected(
    piece: str, atoms: tuple[str, ...], rest: str | None, negated: bool, tables: UnicodeTables
) -> str:
    """`piece` (one escape or one class) made to match exactly what the tables say it matches.

    `atoms` are its frozen escapes; `rest` a class of its other members (ranges, literals,
    escapes that are not frozen), which keep `regex`'s meaning. A class matches the union of its
    members (negated by ``^``), in `regex` as in the tables, so both sides are built that way.
    """
    wanted = actual = regex_members(rest) if rest is not None else CharSet(())
    for atom in atoms:
        chars = tables.atom(atom)
        assert chars is not None
        wanted = wanted | chars
        actual = actual | regex_members(atom)
    if negated:
        wanted, actual = ~wanted, ~actual
    extra = (actual - wanted) & _NOT_SURROGATES  # surrogates never reach a split
    missing = (wanted - actual) & _NOT_SURROGATES
    body = f"(?![{ranges_source(extra)}]){piece}" if extra else piece
    if missing:
        return f"(?:{body}|[{ranges_source(missing)}])"
    return f"(?:{body})" if extra else piece


@lru_cache(maxsize=128)  # bounded: one entry per escape or class seen, a few KB each
def regex_members(piece: str) -> CharSet:
    """Every code point the `regex` module matches with `piece`, a one-character pattern."""
    # All code points, lone surrogates included, so a match's position is its code point.
    every = array("I", range(LIMIT)).tobytes().decode("utf-32-le", "surrogatepass")
    return CharSet(tuple(m.span() for m in regex.finditer(f"(?:{piece})+", every)))
