"""The vocabulary explorer's core: every token's parents, what it is used in, search, curiosities.

A token made by a merge has two *parents*, the pieces that merge joined. Vocabularies that keep a
merge list (GPT-2's ``vocab.bpe``, trained ones) say so directly. tiktoken-style vocabularies
(cl100k_base, o200k_base) keep only ranks, so the parents are recovered the way the tokenizer built
the token: BPE over the token's own bytes with only the lower ranks known stops one merge short, at
exactly two pieces, and those are the parents.

>>> import tokenizer as tk
>>> vocab = build_vocabulary(tk.get_encoding("gpt2"))
>>> vocab.parents[262], vocab.enc.token_bytes(262)  # " the" = " t" + "he"
((256, 258), b' the')
>>> find_text(vocab, "Magikarp").ids
(41538, 42202, 43453)
"""

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import AnyStr, Literal

import regex

from tokenizer.bpe import merge
from tokenizer.encoding import Encoding
from tokenizer.formats import ordinary_ids
from tokenizer.frozen_regex import PatternError, compile_pattern, end_anchored

Parents = tuple[int, int]
ParentSource = Literal["merges", "ranks"]
SearchMode = Literal["text", "regex", "id", "bytes"]

# Each byte as a one-byte string, to cut a token into its bytes without a slice per byte.
_SINGLE_BYTES = tuple(bytes([b]) for b in range(256))

# A regex search stops with an error after this long: a class shares one small server.
REGEX_BUDGET_S = 2.0
# Strings up to this many characters cannot make the `regex` module backtrack for long (even the
# worst patterns take well under a millisecond), so only longer tokens pay for a timeout check.
_REGEX_SAFE_CHARS = 16
_DEADLINE_EVERY = 1024  # tokens between two looks at the clock


class SearchError(ValueError):
    """A query that cannot be run; the message says what is wrong and how to fix it."""


@dataclass(frozen=True)
class SearchResult:
    """Matching ids, best first; an id query's numbers that name no token (`unknown`), and its
    pieces that are not numbers at all (`not_ids`): the user fixes the two differently."""

    ids: tuple[int, ...]
    unknown: tuple[str, ...] = ()
    not_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class MergeNode:
    """One token of a merge tree; `parts` are its parents' nodes, empty for a single byte."""

    token_id: int
    piece: bytes
    rank: int | None
    parts: tuple["MergeNode", ...] = ()


@dataclass(frozen=True)
class Curiosities:
    """Orderings of the ordinary (not special) tokens that a class asks about."""

    longest: tuple[int, ...]  # every token, longest in bytes first (lower id first on ties)
    not_utf8: tuple[int, ...]  # tokens whose bytes are not valid UTF-8 on their own, by id
    last_learned: tuple[int, ...]  # merged tokens, highest merge rank (learned last) first
    leading_space: tuple[int, ...]  # tokens that start with a space, by id
    no_leading_space: tuple[int, ...]  # tokens that do not, by id


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """Everything the explorer asks about one encoding, computed once by `build_vocabulary`.

    `ids`, `pieces`, `texts` and `folded` are aligned: one entry per token (ordinary and special,
    unused ids left out), in id order. `parents` and `children` are indexed by id.
    """

    enc: Encoding
    ids: tuple[int, ...]
    pieces: tuple[bytes, ...]
    texts: tuple[str, ...]  # the bytes as UTF-8, with U+FFFD where they are not valid
    folded: tuple[str, ...]  # `texts` casefolded, for case-insensitive search
    parents: tuple[Parents | None, ...]
    children: dict[int, tuple[int, ...]]
    source: ParentSource  # where the parents came from: the merge list or BPE over ranks
    unreachable: tuple[int, ...] = field(default=())  # tokens BPE never builds from two parts

    @cached_property
    def curiosities(self) -> Curiosities:
        """Computed on first use: the search page never needs them."""
        return find_curiosities(self)

    def used_in(self, token_id: int) -> tuple[int, ...]:
        """The tokens `token_id` is a parent of, by id."""
        return self.children.get(token_id, ())

    def id_of(self, piece: bytes) -> int | None:
        """The id of the token with these bytes (the lowest, if a trained vocabulary has two)."""
        try:
            return self.ids[self.pieces.index(piece)]
        except ValueError:
            return None


def build_vocabulary(enc: Encoding) -> Vocabulary:
    """Index `enc` for the explorer (o200k_base: about 2 s, most of it recovering parents)."""
    ids = tuple(i for i in range(enc.n_vocab) if enc.is_valid_id(i))
    pieces = tuple(map(enc.token_bytes, ids))
    texts = tuple(piece.decode("utf-8", errors="replace") for piece in pieces)
    from_merges = parents_from_merges(enc)
    unreachable: tuple[int, ...] = ()
    source: ParentSource = "merges"
    if from_merges is not None:
        parents = from_merges
    else:
        parents, unreachable = parents_from_ranks(enc)
        source = "ranks"
    return Vocabulary(
        enc=enc,
        ids=ids,
        pieces=pieces,
        texts=texts,
        folded=tuple(text.casefold() for text in texts),
        parents=tuple(parents),
        children=children_of(parents),
        source=source,
        unreachable=unreachable,
    )


# ---- parents ----------------------------------------------------------------------------------


def parents_from_merges(enc: Encoding) -> list[Parents | None] | None:
    """Parents read off the merge list (merge i makes id 256 + i), or None if there is none.

    Also None if the ids are laid out otherwise (an imported file may number them its own way):
    then the caller recovers parents from ranks instead of trusting a layout that does not hold.
    """
    if enc.merges is None:
        return None
    parents: list[Parents | None] = [None] * enc.n_vocab
    for rank, (left, right) in enumerate(enc.merges):
        made = 256 + rank
        if enc.token_bytes(made) != enc.token_bytes(left) + enc.token_bytes(right):
            return None
        parents[made] = (left, right)
    return parents


def parents_from_ranks(enc: Encoding) -> tuple[list[Parents | None], tuple[int, ...]]:
    """Recover every token's parents from ranks alone; also return the tokens BPE cannot build.

    Tokens are visited in rank order while `known` grows, so BPE over a token's bytes sees only
    the ranks below its own. It must stop at exactly two pieces: one more merge would need the
    token's own rank. (Single bytes are where BPE starts; their ranks are never looked up.)

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"aba": 257, b"abab": 258}
    >>> enc = Encoding.from_ranks(name="t", pattern=r"\\w+", ranks=ranks, special_tokens={})
    >>> parents, unreachable = parents_from_ranks(enc)
    >>> parents[256:], unreachable  # "abab" is "ab" + "ab", not "aba" + "b"
    ([(97, 98), (256, 97), (256, 256)], ())
    """
    parents: list[Parents | None] = [None] * enc.n_vocab
    id_of: dict[bytes, int] = {}
    known: dict[bytes, int] = {}
    unreachable = []
    for token_id in ordinary_ids(enc):
        piece = enc.token_bytes(token_id)
        id_of[piece] = token_id
        if len(piece) > 1:
            parts = merge(list(map(_SINGLE_BYTES.__getitem__, piece)), known, None)
            if len(parts) == 2:
                parents[token_id] = (id_of[parts[0]], id_of[parts[1]])
            else:
                unreachable.append(token_id)
        known[piece] = token_id
    return parents, tuple(unreachable)


def children_of(parents: Sequence[Parents | None]) -> dict[int, tuple[int, ...]]:
    """Invert the parents: each token -> the tokens it is a parent of, by id.

    >>> children_of([None, None, (0, 1), (2, 2)])
    {0: (2,), 1: (2,), 2: (3,)}
    """
    children: dict[int, list[int]] = {}
    for token_id, pair in enumerate(parents):
        if pair is not None:
            for parent in dict.fromkeys(pair):  # "aa" = a + a is used in once, not twice
                children.setdefault(parent, []).append(token_id)
    return {parent: tuple(made) for parent, made in sorted(children.items())}


def merge_tree(vocab: Vocabulary, token_id: int) -> MergeNode:
    """The token and, recursively, its parents down to single bytes.

    Built bottom-up without recursion, so a trained vocabulary's 10,000-byte token is no problem;
    a token that occurs twice in the tree is one shared node.
    """
    enc = vocab.enc
    built: dict[int, MergeNode] = {}
    todo = [token_id]
    while todo:
        current = todo[-1]
        pair = vocab.parents[current] or ()
        waiting = [p for p in pair if p not in built]
        if waiting:
            todo.extend(waiting)
            continue
        todo.pop()
        parts = tuple(built[p] for p in pair)
        piece = enc.token_bytes(current)
        built[current] = MergeNode(current, piece, enc.merge_rank(current), parts)
    return built[token_id]


# ---- search -----------------------------------------------------------------------------------


def search(
    vocab: Vocabulary, mode: SearchMode, query: str, *, ignore_case: bool = False
) -> SearchResult:
    """Run one of the four searches; `ignore_case` applies to text and regex."""
    if mode == "text":
        return find_text(vocab, query, ignore_case=ignore_case)
    if mode == "regex":
        return find_regex(vocab, query, ignore_case=ignore_case)
    if mode == "id":
        return find_ids(vocab, query)
    if mode == "bytes":
        return find_bytes(vocab, query)
    raise ValueError(f"unknown search mode {mode!r}")


def find_text(vocab: Vocabulary, query: str, *, ignore_case: bool = False) -> SearchResult:
    """Tokens whose text contains `query`: exact match first, then prefixes, then the rest.

    Whitespace counts, so ``" the"`` and ``"the"`` find different tokens first.
    """
    if not query:
        return SearchResult(())
    texts = vocab.folded if ignore_case else vocab.texts
    wanted = query.casefold() if ignore_case else query
    pairs = zip(vocab.ids, texts, strict=True)
    hits = [(token_id, text) for token_id, text in pairs if wanted in text]
    return SearchResult(_best_first(hits, wanted))


def find_regex(
    vocab: Vocabulary, pattern: str, *, ignore_case: bool = False, budget_s: float = REGEX_BUDGET_S
) -> SearchResult:
    """Tokens in which the regular expression matches (anywhere: anchor it with ``^…$``), by id.

    ``$`` is the token's end, not also the place before a final newline (`end_anchored`): ``^$``
    finds no token, and ``a$`` does not find "a\\n". A malformed pattern, or one that runs longer
    than `budget_s` over the whole vocabulary, raises `SearchError` with the reason.
    """
    if not pattern:
        return SearchResult(())
    try:  # \p{L} and co. mean the classes the tokenizers split with (tokenizer.unicode_tables)
        flags = regex.IGNORECASE if ignore_case else 0
        compile_pattern(pattern, vocab.enc.unicode, flags)  # as typed: errors point into it
        compiled = compile_pattern(end_anchored(pattern), vocab.enc.unicode, flags)
    except PatternError as exc:
        if exc.__cause__ is None:  # it compiles, but a rule of ours refuses it (a size limit)
            raise SearchError(str(exc)) from None
        raise SearchError(f"not a valid regular expression: {exc.__cause__}") from None
    search = compiled.search
    deadline = time.monotonic() + budget_s
    hits = []
    try:
        for n, (token_id, text) in enumerate(zip(vocab.ids, vocab.texts, strict=True)):
            if len(text) <= _REGEX_SAFE_CHARS:
                found = search(text)
            else:
                found = search(text, timeout=max(deadline - time.monotonic(), 0.001))
            if found:
                hits.append(token_id)
            if n % _DEADLINE_EVERY == 0 and time.monotonic() > deadline:
                raise TimeoutError
    except TimeoutError:
        raise SearchError(
            f"this regular expression takes longer than {budget_s:g} s over {vocab.enc.name}'s "
            "tokens: make it simpler (fewer nested repeats such as (a+)+)"
        ) from None
    return SearchResult(tuple(hits))


_ID_RANGE = re.compile(r"\s*(?:-|–|\.\.)\s*")
_ID_SEPARATORS = re.compile(r"[\s,;\[\]]+")
# ASCII digits (\d would take "٣" for 3); a number or a range of two.
_ID_ITEM = re.compile(r"([0-9]+)(?:-([0-9]+))?")
_ID_DIGITS = 19  # past 19 digits a number is no id (and int() refuses 4,301): read as 10**19


def _id_number(digits: str) -> int:
    """A number of an id query; any of more than 19 digits is past every vocabulary alike."""
    return int(digits) if len(digits) <= _ID_DIGITS else 10**_ID_DIGITS


def find_ids(vocab: Vocabulary, query: str) -> SearchResult:
    """Tokens by id: ``"995, 31373"``, ``"[995 31373]"`` or a range ``"50250-50256"``.

    Ids come back in the order asked, once each. Numbers no token has (out of range, o200k_base's
    unused ones) are returned in `unknown`, pieces that are not numbers in `not_ids`.
    """
    wanted: dict[int, None] = {}
    unknown: list[str] = []
    not_ids: list[str] = []
    for item in _ID_SEPARATORS.split(_ID_RANGE.sub("-", query.strip())):
        if not item:
            continue
        match = _ID_ITEM.fullmatch(item)
        if match is None:
            not_ids.append(item)
            continue
        first = _id_number(match[1])
        last = _id_number(match[2]) if match[2] else first
        if last < first:
            first, last = last, first
        in_range = range(max(first, 0), min(last, vocab.enc.n_vocab - 1) + 1)
        valid = [i for i in in_range if vocab.enc.is_valid_id(i)]
        if not valid:
            unknown.append(item)
        wanted.update(dict.fromkeys(valid))
    return SearchResult(tuple(wanted), tuple(unknown), tuple(not_ids))


_HEX_NOISE = re.compile(r"0x|\\x|[\s,:;\-]", re.IGNORECASE)


def parse_hex(query: str) -> bytes:
    """Read bytes written in hex: ``"20 74"``, ``"2074"``, ``"0x20 0x74"``, ``"\\x20\\x74"``.

    >>> parse_hex("F0 9f 0x98")
    b'\\xf0\\x9f\\x98'
    """
    digits = _HEX_NOISE.sub("", query)
    if len(digits) % 2:
        raise SearchError("hex bytes come in pairs of digits, like 20 or F0 9F 98 80")
    try:
        return bytes.fromhex(digits)
    except ValueError:
        raise SearchError("use only the hex digits 0-9 and A-F, like 20 74 68 65") from None


def find_bytes(vocab: Vocabulary, query: str) -> SearchResult:
    """Tokens whose bytes contain the hex bytes in `query`: exact first, then prefixes, the rest."""
    wanted = parse_hex(query)
    if not wanted:
        return SearchResult(())
    pairs = zip(vocab.ids, vocab.pieces, strict=True)
    hits = [(token_id, piece) for token_id, piece in pairs if wanted in piece]
    return SearchResult(_best_first(hits, wanted))


def _best_first(hits: Iterable[tuple[int, AnyStr]], wanted: AnyStr) -> tuple[int, ...]:
    """Ids of `hits` (given in id order): exact matches, then those starting with it, the rest."""
    exact: list[int] = []
    starts: list[int] = []
    others: list[int] = []
    for token_id, value in hits:
        if value == wanted:
            exact.append(token_id)
        elif value.startswith(wanted):
            starts.append(token_id)
        else:
            others.append(token_id)
    return (*exact, *starts, *others)


# ---- curiosities ------------------------------------------------------------------------------


def find_curiosities(vocab: Vocabulary) -> Curiosities:
    """Compute the curiosity lists from the vocabulary itself (nothing here is hand-listed)."""
    enc = vocab.enc
    pairs = zip(vocab.ids, vocab.pieces, strict=True)
    tokens = [(i, p) for i, p in pairs if not enc.is_special(i)]
    merged = [i for i, _ in tokens if enc.merge_rank(i) is not None]
    spaced = [i for i, p in tokens if p.startswith(b" ")]
    spaced_set = set(spaced)
    return Curiosities(
        longest=tuple(i for i, _ in sorted(tokens, key=lambda t: (-len(t[1]), t[0]))),
        not_utf8=tuple(i for i, p in tokens if not is_utf8(p)),
        last_learned=tuple(sorted(merged, key=lambda i: enc.merge_rank(i) or 0, reverse=True)),
        leading_space=tuple(spaced),
        no_leading_space=tuple(i for i, _ in tokens if i not in spaced_set),
    )


def is_utf8(piece: bytes) -> bool:
    """Whether `piece` decodes as UTF-8 on its own (half an emoji does not)."""
    try:
        piece.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def utf8_runs(piece: bytes) -> tuple[str | bytes, ...]:
    """Cut bytes into decodable text (str) and runs of bytes that are not UTF-8 (bytes).

    Renderers show the text and write the rest as hex, so nothing is hidden behind a U+FFFD.

    >>> utf8_runs(b"a\\xf0\\x9f b")
    ('a', b'\\xf0\\x9f', ' b')
    """
    runs: list[str | bytes] = []
    while piece:
        try:
            runs.append(piece.decode("utf-8"))
            break
        except UnicodeDecodeError as exc:
            if exc.start:
                runs.append(piece[: exc.start].decode("utf-8"))
            bad_end = exc.end
            # Join neighbouring bad bytes into one run: "F0 9F" rather than "F0", "9F".
            while bad_end < len(piece) and not _starts_utf8(piece[bad_end:]):
                bad_end += 1
            runs.append(piece[exc.start : bad_end])
            piece = piece[bad_end:]
    return tuple(runs)


def _starts_utf8(piece: bytes) -> bool:
    """Whether `piece` begins with one complete UTF-8 character."""
    for width in range(1, min(4, len(piece)) + 1):
        try:
            piece[:width].decode("utf-8")
        except UnicodeDecodeError:
            continue
        return True
    return False
