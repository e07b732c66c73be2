"""`Encoding`: a byte-level BPE vocabulary plus the pattern that pre-splits text for it.

It is a drop-in for ``tiktoken.Encoding``: the same constructor, names, semantics and exceptions
(``encode`` refuses special-token text unless told otherwise, ``decode`` is lossy by default,
unknown ids are KeyErrors). On top of that it keeps what BPE Lens shows: `split`, `tokenize`
and `trace`, and vocabularies trained here, which keep their merge list.

>>> import tokenizer as tk
>>> enc = tk.get_encoding("cl100k_base")
>>> enc.encode("hello world"), enc.decode([15339, 1917])
([15339, 1917], 'hello world')
>>> enc.encode("<|endoftext|>", allowed_special="all"), enc.encode_ordinary("<|endoftext|>")[:3]
([100257], [27, 91, 8862])
"""

import operator
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import accumulate
from typing import Any, Literal, NoReturn, cast

from tokenizer.bpe import ChunkTrace, merge_bytes, merge_ids, merge_many, trace_steps
from tokenizer.cache import DEFAULT_BLOCK_CACHE_BYTES, ChunkCache
from tokenizer.normalize import Normalizer
from tokenizer.splitter import BLOCK_MIN_CHARS, block_cutter, splitter
from tokenizer.unicode_tables import DEFAULT_UNICODE, unicode_tables

AllowedSpecial = Literal["all"] | Collection[str]
DisallowedSpecial = Literal["all"] | Collection[str]


@dataclass(frozen=True)
class Tokenized:
    """Token ids of a text with what a renderer needs to show each token honestly.

    ``char_spans[i]`` covers every character token i touches, so the tokens that share one split
    character (an emoji cut into two tokens) have overlapping spans.
    """

    text: str
    ids: tuple[int, ...]
    pieces: tuple[bytes, ...]
    byte_spans: tuple[tuple[int, int], ...]
    char_spans: tuple[tuple[int, int], ...]

    @staticmethod
    def joined(parts: Sequence["Tokenized"]) -> "Tokenized":
        """Texts tokenized one by one, as one: each part's spans shifted past the parts before.

        Exact wherever encoding the joined text would cut between the parts anyway (at a
        special token), so a text read in parts needs no second reading as a whole.
        """
        byte_shift = char_shift = 0
        byte_spans: list[tuple[int, int]] = []
        char_spans: list[tuple[int, int]] = []
        for part in parts:
            byte_spans += ((s + byte_shift, e + byte_shift) for s, e in part.byte_spans)
            char_spans += ((s + char_shift, e + char_shift) for s, e in part.char_spans)
            byte_shift += sum(map(len, part.pieces))
            char_shift += len(part.text)
        return Tokenized(
            "".join(part.text for part in parts),
            tuple(i for part in parts for i in part.ids),
            tuple(piece for part in parts for piece in part.pieces),
            tuple(byte_spans),
            tuple(char_spans),
        )


def repair_surrogates(text: str) -> str:
    """Replace lone surrogates (which UTF-8 cannot encode) with U+FFFD, as tiktoken does.

    >>> repair_surrogates("a\\ud800b"), repair_surrogates("\\ud83d\\udc4d")  # a pair is joined
    ('a�b', '👍')
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


class Encoding:
    """A byte-level BPE tokenizer, constructed exactly like ``tiktoken.Encoding``.

    `mergeable_ranks` maps each ordinary token's bytes to its rank, which is also its id; a pair
    merges when its concatenation is a token. `explicit_n_vocab`, when given, must equal the
    number of tokens. `unicode` names the Unicode version whose classes the pattern's ``\\p{..}``
    and ``\\s`` mean (`tokenizer.unicode_tables`; tiktoken's by default); `merges` optionally
    records the merge list that built the ranks (GPT-2's ``vocab.bpe``), for teaching.

    Trained vocabularies come from `from_merges`: there a pair merges only if it *is* a learned
    merge, exactly what training did, even when two merges produced the same bytes.
    """

    normalizer: Normalizer | None

    def __init__(
        self,
        name: str,
        *,
        pat_str: str,
        mergeable_ranks: dict[bytes, int],
        special_tokens: dict[str, int],
        explicit_n_vocab: int | None = None,
        merges: list[tuple[int, int]] | None = None,
        unicode: str = DEFAULT_UNICODE,
        normalizer: Normalizer | None = None,
    ) -> None:
        _check_ids(name, mergeable_ranks, special_tokens)
        if explicit_n_vocab:  # tiktoken's test: 0 means none
            size = len(mergeable_ranks) + len(special_tokens)
            top = max([*mergeable_ranks.values(), *special_tokens.values()])
            if size != explicit_n_vocab or top != explicit_n_vocab - 1:
                raise ValueError(
                    f"{name}: explicit_n_vocab is {explicit_n_vocab}, but the vocabulary has "
                    f"{size} tokens and its largest id is {top}"
                )
        decoder: list[bytes | None] = [None] * (
            max([*mergeable_ranks.values(), *special_tokens.values()]) + 1
        )
        for token, rank in mergeable_ranks.items():
            decoder[rank] = token
        self._setup(name, pat_str, special_tokens, decoder, unicode, ranks=mergeable_ranks)
        self.merges = merges
        self.normalizer = normalizer

    @classmethod
    def from_ranks(
        cls,
        *,
        name: str,
        pattern: str,
        ranks: dict[bytes, int],
        special_tokens: dict[str, int],
        merges: list[tuple[int, int]] | None = None,
        unicode: str = DEFAULT_UNICODE,
        normalizer: Normalizer | None = None,
    ) -> "Encoding":
        """A tiktoken-style vocabulary: token bytes -> rank (= id); the constructor's other name."""
        return cls(
            name,
            pat_str=pattern,
            mergeable_ranks=ranks,
            special_tokens=special_tokens,
            merges=merges,
            unicode=unicode,
            normalizer=normalizer,
        )

    @classmethod
    def from_merges(
        cls,
        *,
        name: str,
        pattern: str,
        merges: Sequence[tuple[int, int]],
        special_tokens: dict[str, int],
        training: object | None = None,
        unicode: str = DEFAULT_UNICODE,
        normalizer: Normalizer | None = None,
    ) -> "Encoding":
        """A trained vocabulary: ids 0-255 are the bytes, merge i makes id 256 + i.

        >>> enc = Encoding.from_merges(name="t", pattern=r"\\w+|\\W", merges=[(97, 97)],
        ...                            special_tokens={})
        >>> enc.encode("aaa")
        [256, 97]
        """
        decoder: list[bytes | None] = [bytes([b]) for b in range(256)]
        pairs: dict[tuple[int, ...], int] = {}  # (left, right) -> the id their merge makes
        for rank, (left, right) in enumerate(merges):
            if not (0 <= left < len(decoder) and 0 <= right < len(decoder)):
                raise ValueError(f"merge {rank} uses an id that does not exist yet: {left, right}")
            pairs[(left, right)] = 256 + rank
            decoder.append(decoder[left] + decoder[right])  # type: ignore[operator]
        _check_ids(name, {}, special_tokens)
        decoder.extend([None] * (max(special_tokens.values(), default=0) + 1 - len(decoder)))
        enc = cls.__new__(cls)
        enc._setup(name, pattern, special_tokens, decoder, unicode, pairs=pairs)
        enc.merges = list(merges)
        enc.training = training
        enc.normalizer = normalizer
        return enc

    def _setup(
        self,
        name: str,
        pattern: str,
        special_tokens: dict[str, int],
        decoder: list[bytes | None],
        unicode: str,
        ranks: dict[bytes, int] | None = None,
        pairs: dict[tuple[int, ...], int] | None = None,
    ) -> None:
        """The state both vocabulary shapes share; the pattern is checked here (PatternError)."""
        self.name = name
        self.pattern = self._pat_str = pattern
        self.special_tokens = self._special_tokens = dict(special_tokens)
        self.unicode = unicode
        self.training: object | None = None
        # Applied to each stretch of ordinary text before the split (Qwen's NFC, a prefix space;
        # `tokenizer.normalize`), after special tokens are cut. None for tiktoken's encodings.
        self.normalizer = None
        # How a bundled encoding pickles: the call that returns it (`tokenizer.loaders` sets it
        # when it keeps one), so a pickle holds a name, not 200,000 tokens.
        self.pickled_as: tuple[Callable[[str], Encoding], tuple[str]] | None = None
        self._decoder = decoder
        ordinary = decoder.copy()  # two special tokens may share an id (o200k_harmony's do)
        for text, token_id in self.special_tokens.items():
            if ordinary[token_id] is not None:
                raise ValueError(
                    f"{name}: special token {text!r} has id {token_id}, which is already "
                    f"the token {ordinary[token_id]!r}"
                )
            decoder[token_id] = text.encode("utf-8")
        self._ranks = ranks
        self._pairs = pairs
        self._split = splitter(pattern, unicode)
        self._special_ids = frozenset(self.special_tokens.values())
        self.chunk_cache = ChunkCache()
        self.block_cache = ChunkCache(DEFAULT_BLOCK_CACHE_BYTES)
        self._block_cut = block_cutter(pattern)
        self._byte_ids = self._single_byte_ids()
        self.max_token_value = len(decoder) - 1

    def __repr__(self) -> str:
        return f"<Encoding {self.name!r}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle a bundled encoding by name, any other by what rebuilds it (not its cache)."""
        if self.pickled_as is not None:
            return self.pickled_as
        if self._ranks is None:
            trained = (self.name, self.pattern, self.merges, self.special_tokens, self.training)
            return (_restore_merges, (*trained, self.unicode, self.normalizer))
        ranked = (self.name, self.pattern, self._ranks, self.special_tokens, self.merges)
        return (_restore_ranks, (*ranked, self.unicode, self.normalizer))

    # ---- vocabulary -------------------------------------------------------------------------

    @property
    def n_vocab(self) -> int:
        """One more than the largest id (o200k_base leaves a few ids unused, like tiktoken)."""
        return self.max_token_value + 1

    @property
    def eot_token(self) -> int:
        """The id of ``<|endoftext|>``; a KeyError if this encoding has none (as in tiktoken)."""
        return self.special_tokens["<|endoftext|>"]

    @cached_property
    def special_tokens_set(self) -> set[str]:
        """The special tokens' texts."""
        return set(self.special_tokens)

    @cached_property
    def _mergeable_ranks(self) -> dict[bytes, int]:
        """tiktoken's name for bytes -> rank of the ordinary tokens (derived for trained ones)."""
        if self._ranks is not None:
            return self._ranks
        return {
            piece: i
            for i, piece in enumerate(self._decoder)
            if piece is not None and i not in self._special_ids
        }

    def token_bytes(self, token_id: int) -> bytes:
        """The raw bytes of one token (a special token's are its text in UTF-8)."""
        token = self._decoder[token_id] if 0 <= token_id < len(self._decoder) else None
        if token is None:
            raise KeyError(f"{token_id} is not a token id of {self.name}")
        return token

    def is_valid_id(self, token_id: int) -> bool:
        """Whether `token_id` names a token (o200k_base has a few unused ids)."""
        return 0 <= token_id < len(self._decoder) and self._decoder[token_id] is not None

    def is_special(self, token_id: int) -> bool:
        """Whether the id is a special token such as ``<|endoftext|>``."""
        return token_id in self._special_ids

    def is_special_token(self, token: int) -> bool:
        """tiktoken's name for `is_special`."""
        if not isinstance(token, int):
            raise TypeError(f"a token id must be an int, not {type(token).__name__}")
        return token in self._special_ids

    def merge_rank(self, token_id: int) -> int | None:
        """The 0-based rank of the merge that made this token; None for bytes and specials.

        Ids grow with merge order in every vocabulary here, so the rank is ``id - 256``.
        """
        if token_id < 256 or token_id in self._special_ids or not self.is_valid_id(token_id):
            return None
        return token_id - 256

    def token_byte_values(self) -> list[bytes]:
        """Every ordinary token's bytes, sorted."""
        return sorted(self._mergeable_ranks)

    # ---- encoding ---------------------------------------------------------------------------

    def encode_ordinary(self, text: str) -> list[int]:
        """Encode text with no special tokens: ``<|endoftext|>`` is just text here.

        >>> import tokenizer as tk
        >>> tk.get_encoding("gpt2").encode_ordinary("hello world")
        [31373, 995]
        """
        text = repair_surrogates(_checked_text(text))
        return self._encode_ordinary(self.normalizer(text) if self.normalizer else text)

    def encode(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[int]:
        """Encode text; special-token text becomes its id if allowed, is refused if disallowed.

        By default every special token is disallowed: text that contains one is a ValueError
        (so a user cannot slip ``<|endoftext|>`` into a prompt). ``allowed_special="all"`` (or
        a set) encodes them as special tokens; ``disallowed_special=()`` encodes the rest as
        ordinary text.

        >>> import tokenizer as tk
        >>> enc = tk.get_encoding("gpt2")
        >>> enc.encode("hi<|endoftext|>", allowed_special={"<|endoftext|>"})
        [5303, 50256]
        >>> enc.encode("<|endoftext|>")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: Encountered text corresponding to disallowed special token '<|endoftext|>'...
        """
        _checked_text(text)
        allowed = self._allowed(allowed_special)
        self._refuse_disallowed(text, allowed, disallowed_special)
        return self._encode_with(repair_surrogates(text), allowed)

    def encode_batch(
        self,
        text: Sequence[str],
        *,
        num_threads: int | None = 8,  # tiktoken's: checked as its pool does; one thread here
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> list[list[int]]:
        """`encode` for each text (`num_threads` is accepted for tiktoken's sake: one thread)."""
        _check_threads(num_threads)
        return [
            self.encode(t, allowed_special=allowed_special, disallowed_special=disallowed_special)
            for t in text
        ]

    def encode_ordinary_batch(
        self,
        text: Sequence[str],
        *,
        num_threads: int | None = 8,  # tiktoken's: checked as its pool does; one thread here
    ) -> list[list[int]]:
        """`encode_ordinary` for each text."""
        _check_threads(num_threads)
        return [self.encode_ordinary(t) for t in text]

    def encode_to_numpy(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> Any:
        """`encode` as a numpy array of uint32 (needs numpy, imported only here).

        Unlike `encode`, and like tiktoken, a lone surrogate is a UnicodeEncodeError here.
        """
        import numpy as np  # optional: only this method needs it

        _checked_text(text)
        allowed = self._allowed(allowed_special)
        self._refuse_disallowed(text, allowed, disallowed_special)
        return np.array(self._encode_with(_strict_utf8(text), allowed), dtype=np.uint32)

    def encode_single_token(self, text_or_bytes: str | bytes) -> int:
        """The id of one whole token, ordinary or special; a KeyError if it is not one.

        >>> import tokenizer as tk
        >>> tk.get_encoding("gpt2").encode_single_token("hello")
        31373
        """
        if not isinstance(text_or_bytes, str | bytes | bytearray | memoryview):
            raise TypeError(f"a token is str or bytes, not {type(text_or_bytes).__name__}")
        piece = text_or_bytes.encode("utf-8") if isinstance(text_or_bytes, str) else text_or_bytes
        token = self._mergeable_ranks.get(bytes(piece))
        if token is not None:
            return token
        try:
            return self.special_tokens[bytes(piece).decode("utf-8")]
        except (UnicodeDecodeError, KeyError):
            raise KeyError(piece) from None

    def encode_with_unstable(
        self,
        text: str,
        *,
        allowed_special: AllowedSpecial = frozenset(),
        disallowed_special: DisallowedSpecial = "all",
    ) -> tuple[list[int], list[list[int]]]:
        """Stable tokens of a text that may continue, and every way its last bytes may go on.

        The tokens of the text's last chunk (and the whitespace tokens before it) can still
        change when more text is typed, so they are left out of the stable ids; each completion
        is a token sequence whose bytes start with those unstable bytes. As in tiktoken (whose
        own docs call this API unstable), completions come in no particular order. A lone
        surrogate is a UnicodeEncodeError here, as in tiktoken (only `encode` repairs it).
        """
        _checked_text(text)
        allowed = self._allowed(allowed_special)
        self._refuse_disallowed(text, allowed, disallowed_special)
        tokens, last_piece = self._encode_counting_last(_strict_utf8(text), allowed)
        if not last_piece:
            return tokens, []
        last_piece = self._widen_to_spaces(tokens, last_piece)
        unstable = self.decode_bytes(tokens[-last_piece:])
        stable = tokens[:-last_piece]
        return stable, [list(seq) for seq in self._completions(unstable)]

    def _encode_bytes(self, text: bytes) -> list[int]:
        """Encode bytes that may not be valid UTF-8, as tiktoken's tests do.

        Valid UTF-8 is encoded as text. Otherwise the valid prefix is encoded, and its last
        chunk's tokens are joined with the invalid rest and merged again as one piece.
        """
        data = bytes(text)
        try:
            return self.encode_ordinary(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            valid = exc.start
        tokens, last_piece = self._encode_counting_last(data[:valid].decode("utf-8"), frozenset())
        if tokens and last_piece:
            last_piece = self._widen_to_spaces(tokens, last_piece)
            rest = self.decode_bytes(tokens[-last_piece:]) + data[valid:]
            del tokens[-last_piece:]
        else:
            rest = data[valid:]
        if rest:
            tokens += self._bpe_bytes(rest)
        return tokens

    def _encode_single_piece(self, text_or_bytes: str | bytes) -> list[int]:
        """BPE of one piece with no pre-split and no special tokens."""
        piece = text_or_bytes.encode("utf-8") if isinstance(text_or_bytes, str) else text_or_bytes
        return self._bpe_bytes(bytes(piece))

    def _encode_only_native_bpe(self, text: str) -> list[int]:
        """tiktoken's slow reference path; here the same as `encode_ordinary`."""
        return self.encode_ordinary(text)

    # ---- BPE Lens extras --------------------------------------------------------------------

    def split(self, text: str, allowed_special: AllowedSpecial = frozenset()) -> list[str]:
        """The pre-tokenizer's chunks, in order; joined they give the (repaired) text back.

        Special-token text that is not allowed is ordinary text here (no ValueError).
        """
        chunks: list[str] = []
        allowed = self._allowed(allowed_special)
        for piece, special_id in self._cut_specials(
            repair_surrogates(_checked_text(text)), allowed
        ):
            if special_id is None:
                chunks += self._split(piece)
            else:
                chunks.append(piece)
        return chunks

    def tokenize(self, text: str, allowed_special: AllowedSpecial = frozenset()) -> Tokenized:
        """Encode and locate every token in bytes and characters, for rendering.

        Special-token text that is not allowed is ordinary text here (no ValueError).
        """
        text = repair_surrogates(_checked_text(text))
        allowed = self._allowed(allowed_special)
        if self.normalizer is None:
            return self._located(text, tuple(self._encode_with(text, allowed)))
        # The tokens are of the normalised text: locate them in that.
        cut = self._cut_specials(text, allowed)
        return self._located("".join(piece for piece, _ in cut), tuple(self._encode_pieces(cut)))

    def tokenize_pieces(self, pieces: Iterable[tuple[str, bool]]) -> Tokenized:
        """`tokenize` of a text given in pieces, each encoded on its own: ``(text, False)`` is
        ordinary text, special-token text in it included; ``(token, True)`` is one of this
        encoding's special tokens (a ValueError if it is not one). No token spans two pieces.

        This is how a chat renderer that encodes piece by piece reads a conversation (Meta's
        ChatFormat, openai-harmony), where `tokenize` reads one string.

        >>> import tokenizer as tk
        >>> enc = tk.get_encoding("gpt2")
        >>> pieces = [("a", False), ("<|endoftext|>", True), ("<|endoftext|>", False)]
        >>> enc.tokenize_pieces(pieces).ids
        (64, 50256, 27, 91, 437, 1659, 5239, 91, 29)
        """
        cut: list[tuple[str, int | None]] = []
        for piece, special in pieces:
            if special:
                if piece not in self.special_tokens:
                    raise ValueError(f"{piece!r} is not a special token of {self.name}")
                cut.append((piece, self.special_tokens[piece]))
            elif piece:
                text = repair_surrogates(_checked_text(piece))
                cut.append((self.normalizer(text) if self.normalizer else text, None))
        return self._located("".join(piece for piece, _ in cut), tuple(self._encode_pieces(cut)))

    def _located(self, text: str, ids: tuple[int, ...]) -> Tokenized:
        """`ids`, the tokens of `text`, with their bytes and their spans in bytes and characters."""
        # Ids that `encode` made are tokens: none of their pieces is None.
        pieces = cast("tuple[bytes, ...]", tuple(map(self._decoder.__getitem__, ids)))
        ends = tuple(accumulate(map(len, pieces)))
        byte_spans = tuple(zip((0, *ends), ends, strict=False))
        if text.isascii():  # one byte per character: the spans coincide (most pastes)
            return Tokenized(text, ids, pieces, byte_spans, byte_spans)
        # begun[b]: characters that begin before byte b. A token of bytes [s, e) touches the
        # character holding byte s (it may begin in an earlier token) up to the last one begun
        # before e.
        begun = (0, *accumulate(text.encode("utf-8").translate(_BEGINS_CHARACTER)))
        char_spans = tuple((begun[start + 1] - 1, begun[end]) for start, end in byte_spans)
        return Tokenized(text, ids, pieces, byte_spans, char_spans)

    def trace(self, text: str, allowed_special: AllowedSpecial = frozenset()) -> list[ChunkTrace]:
        """Every merge step of every chunk (see `tokenizer.bpe.trace_steps`).

        Special-token text that is not allowed is ordinary text here (no ValueError).
        """
        traces = []
        allowed = self._allowed(allowed_special)
        done: dict[str, ChunkTrace] = {}  # a repeated chunk (" the") shares its (frozen) trace
        for piece, special_id in self._cut_specials(
            repair_surrogates(_checked_text(text)), allowed
        ):
            if special_id is not None:
                only = trace_steps([special_id], self._merged_id, self.token_bytes)
                traces.append(ChunkTrace(piece, *only))
                continue
            for chunk in self._split(piece):
                if chunk not in done:
                    byte_ids = [self._byte_ids[b] for b in chunk.encode("utf-8")]
                    steps, ids = trace_steps(byte_ids, self._merged_id, self.token_bytes)
                    done[chunk] = ChunkTrace(chunk, steps, ids)
                traces.append(done[chunk])
        return traces

    # ---- decoding ---------------------------------------------------------------------------

    def decode_bytes(self, tokens: Iterable[int]) -> bytes:
        """The bytes of a token sequence; an unknown id raises KeyError naming it (and what is no
        id at all `as_token_id`'s error).

        >>> import tokenizer as tk
        >>> tk.get_encoding("gpt2").decode_bytes([31373, 995])
        b'hello world'
        """
        ids = tokens if isinstance(tokens, list | tuple) else list(tokens)
        try:
            if ids and min(ids) < 0:  # a negative index would quietly read from the end
                raise IndexError
            return b"".join(map(self._decoder.__getitem__, ids))  # type: ignore[arg-type]
        except (IndexError, TypeError):  # the bad id's own error, as tiktoken's
            return b"".join(map(self.decode_single_token_bytes, ids))

    def decode(self, tokens: Iterable[int], errors: str = "replace") -> str:
        """The text of a token sequence; by default bytes that are not UTF-8 become U+FFFD."""
        return self.decode_bytes(tokens).decode("utf-8", errors=errors)

    def decode_single_token_bytes(self, token: int) -> bytes:
        """The bytes of one token, special or not; a KeyError if the id is not a token (and what
        is no id at all `as_token_id`'s error)."""
        token_id = as_token_id(token)
        if self.is_valid_id(token_id):
            return self._decoder[token_id]  # type: ignore[return-value]
        raise KeyError(str(token_id))

    def decode_tokens_bytes(self, tokens: Iterable[int]) -> list[bytes]:
        """The bytes of each token."""
        return [self.decode_single_token_bytes(token) for token in tokens]

    def decode_with_offsets(self, tokens: Sequence[int]) -> tuple[str, list[int]]:
        """The text, and the index of the character where each token starts.

        A token that starts inside a character (a split emoji) gets that character's index. As
        in tiktoken, tokens that do not decode to valid UTF-8 raise UnicodeDecodeError.

        >>> import tokenizer as tk
        >>> tk.get_encoding("cl100k_base").decode_with_offsets([15339, 1917])
        ('hello world', [0, 5])
        """
        pieces = self.decode_tokens_bytes(tokens)
        text = b"".join(pieces).decode("utf-8", errors="strict")
        offsets = []
        chars = 0  # characters begun so far: every byte that is not a continuation byte
        for piece in pieces:
            starts_inside = bool(piece) and 0x80 <= piece[0] < 0xC0
            offsets.append(max(0, chars - starts_inside))
            chars += len(piece) - sum(map(_IS_CONTINUATION.__getitem__, piece))
        return text, offsets

    def decode_batch(
        self,
        batch: Sequence[Sequence[int]],
        *,
        errors: str = "replace",
        num_threads: int | None = 8,  # tiktoken's: checked as its pool does; one thread here
    ) -> list[str]:
        """`decode` for each token sequence."""
        _check_threads(num_threads)
        return [self.decode(tokens, errors=errors) for tokens in batch]

    def decode_bytes_batch(
        self,
        batch: Sequence[Sequence[int]],
        *,
        num_threads: int | None = 8,  # tiktoken's: checked as its pool does; one thread here
    ) -> list[bytes]:
        """`decode_bytes` for each token sequence."""
        _check_threads(num_threads)
        return [self.decode_bytes(tokens) for tokens in batch]

    # ---- internals --------------------------------------------------------------------------

    def _allowed(self, allowed_special: AllowedSpecial) -> frozenset[str]:
        """The special tokens to encode as such."""
        if allowed_special == "all":
            return frozenset(self.special_tokens)
        if isinstance(allowed_special, str):
            raise TypeError('allowed_special must be "all" or a collection of special tokens')
        return frozenset(allowed_special)

    def _refuse_disallowed(
        self, text: str, allowed: frozenset[str], disallowed_special: DisallowedSpecial
    ) -> None:
        """A ValueError naming the first disallowed special token found in `text`."""
        if disallowed_special == "all":
            disallowed = frozenset(self.special_tokens).difference(allowed)
        elif isinstance(disallowed_special, str):
            raise TypeError('disallowed_special must be "all" or a collection of special tokens')
        else:
            disallowed = frozenset(disallowed_special)
        if disallowed and (found := _special_finder(disallowed).search(text)):
            _raise_disallowed(found.group())

    def _encode_with(self, text: str, allowed: frozenset[str]) -> list[int]:
        """Encode repaired text, cutting out the allowed special tokens first."""
        if not allowed and self.normalizer is None:
            return self._encode_ordinary(text)
        return self._encode_pieces(self._cut_specials(text, allowed))

    def _encode_pieces(self, pieces: list[tuple[str, int | None]]) -> list[int]:
        """The ids of `_cut_specials`' pieces: BPE for ordinary text, the id of each special."""
        out: list[int] = []
        for piece, special_id in pieces:
            if special_id is None:
                out += self._encode_ordinary(piece)
            else:
                out.append(special_id)
        return out

    def _encode_ordinary(self, text: str) -> list[int]:
        """The hot path: one dict lookup per chunk, or per block.

        A long text is encoded block by block (a few lines each, cut where the chunks always
        break: `tokenizer.splitter.block_cutter`), and each block's ids are remembered whole,
        so text seen before (a page re-encoding its text after an edit) is neither split nor
        looked up chunk by chunk again.
        """
        if self._block_cut is None or len(text) < BLOCK_MIN_CHARS:
            return self._encode_chunks(self._split(text))
        ends = [match.end() for match in self._block_cut.finditer(text)]
        if not ends:
            return self._encode_chunks(self._split(text))
        blocks = list(map(text.__getitem__, map(slice, [0, *ends], [*ends, len(text)])))
        cache = self.block_cache.data  # this dict, even if another thread replaces it meanwhile
        try:
            return _ids_in_order(blocks, cache)
        except KeyError:
            pass
        missing = list(set(blocks).difference(cache))
        chunk_lists = list(map(self._split, missing))
        table = self._chunk_table(set().union(*chunk_lists))
        fresh = {
            block: tuple(_ids_in_order(chunks, table))
            for block, chunks in zip(missing, chunk_lists, strict=True)
        }
        if self.block_cache.add(fresh) is cache:  # nothing evicted: `cache` holds every block
            return _ids_in_order(blocks, cache)
        # Blocks not in `fresh` were in `cache`, which eviction never empties (it replaces it).
        return [i for block in blocks for i in (fresh[block] if block in fresh else cache[block])]

    def _encode_chunks(self, chunks: list[str]) -> list[int]:
        """The ids of the chunks, in order, through the chunk cache."""
        cache = self.chunk_cache.data  # this dict, even if another thread replaces it meanwhile
        try:
            return _ids_in_order(chunks, cache)
        except KeyError:
            pass
        return _ids_in_order(chunks, self._chunk_table(set(chunks)))

    def _chunk_table(self, chunks: set[str]) -> dict[str, tuple[int, ...]]:
        """A dict that holds the ids of every one of `chunks`: BPE for the new ones, cached."""
        cache = self.chunk_cache.data
        fresh = self._bpe_many(list(chunks.difference(cache)))
        if self.chunk_cache.add(fresh) is cache:  # nothing evicted: `cache` holds them all
            return cache
        # Evicted meanwhile (by us or another thread): `cache` kept its old entries, `fresh`
        # has the new ones. Rare, so a Python-level loop is fine.
        table = {chunk: cache[chunk] for chunk in chunks if chunk not in fresh}
        table.update(fresh)
        return table

    def _encode_counting_last(self, text: str, allowed: frozenset[str]) -> tuple[list[int], int]:
        """Encode, and count the tokens of the last chunk (0 if the text ends with a special)."""
        tokens: list[int] = []
        last_piece = 0
        for piece, special_id in self._cut_specials(text, allowed):
            if special_id is not None:
                tokens.append(special_id)
                last_piece = 0
                continue
            for chunk in self._split(piece):
                ids = self._bpe(chunk)
                tokens += ids
                last_piece = len(ids)
        return tokens, last_piece

    def _widen_to_spaces(self, tokens: list[int], last_piece: int) -> int:
        """Count whitespace-only tokens before the last chunk as unstable too.

        Splits between whitespace runs can vanish when text is added (cl100k_base's
        ``\\s*[\\r\\n]+`` turns "\\n" + " " into one chunk once a newline follows), so a last chunk
        of whitespace takes the whitespace tokens before it along.
        """

        def all_space(token: int) -> bool:
            piece = self._decoder[token]
            return (
                token not in self._special_ids and piece is not None and not piece.strip(b" \n\t")
            )

        if last_piece and all_space(tokens[-last_piece]):
            while last_piece < len(tokens) and all_space(tokens[-last_piece - 1]):
                last_piece += 1
        return last_piece

    def _completions(self, unstable: bytes) -> set[tuple[int, ...]]:
        """Every token sequence the unstable bytes may end up as, once more text follows."""
        ordered = self._sorted_token_bytes
        found: set[tuple[int, ...]] = set()
        # Single tokens that extend the unstable bytes (or are them).
        for piece in _with_prefix(ordered, unstable):
            found.add((self._mergeable_ranks[piece],))
        # A token straddling the end: the unstable bytes' tail starts it; encode what results.
        for cut in range(1, len(unstable)):
            prefix, suffix = unstable[:cut], unstable[cut:]
            for piece in _with_prefix(ordered, suffix):
                possibility = prefix + piece
                try:
                    ids = self.encode_ordinary(possibility.decode("utf-8"))
                except UnicodeDecodeError:
                    ids = self._bpe_bytes(possibility)
                sequence: list[int] = []
                covered = 0
                for token in ids:
                    sequence.append(token)
                    covered += len(self._decoder[token])  # type: ignore[arg-type]
                    if covered >= len(unstable):
                        break
                found.add(tuple(sequence))
        # A trailing whitespace character may become its own chunk (``\\s+(?!\\S)``).
        if len(unstable) > 1:
            last = _last_char(unstable)
            if last is not None and _is_white_space(last[0]) and last[1] < len(unstable):
                head, tail = unstable[: -last[1]], unstable[-last[1] :]
                found.add(tuple(self._bpe_bytes(head) + self._bpe_bytes(tail)))
        return found

    @cached_property
    def _sorted_token_bytes(self) -> list[bytes]:
        """Every ordinary token's bytes, sorted (for prefix searches)."""
        return sorted(self._mergeable_ranks)

    def _bpe_many(self, chunks: list[str]) -> dict[str, tuple[int, ...]]:
        """The token ids of many new chunks; those that are one token (most) need no Python loop."""
        if self._ranks is None:
            return {chunk: self._bpe(chunk) for chunk in chunks}
        ranks = self._ranks
        pieces = list(map(str.encode, chunks))
        wholes = list(map(ranks.get, pieces))
        # (id,) tuples; (None,) for the chunks that are not one token, replaced below.
        out = cast("dict[str, tuple[int, ...]]", dict(zip(chunks, zip(wholes), strict=True)))
        todo = [i for i, whole in enumerate(wholes) if whole is None]
        merged = merge_many([pieces[i] for i in todo], ranks)
        out.update(zip([chunks[i] for i in todo], merged, strict=True))
        return out

    def _bpe(self, chunk: str) -> tuple[int, ...]:
        """The token ids of one chunk, by the merge rule of this vocabulary's shape."""
        return tuple(self._bpe_bytes(chunk.encode("utf-8")))

    def _bpe_bytes(self, data: bytes) -> list[int]:
        """BPE of raw bytes (no pre-split)."""
        if not data:
            return []
        if self._ranks is not None:
            return merge_bytes(data, self._ranks)
        assert self._pairs is not None
        return merge_ids([self._byte_ids[b] for b in data], self._pairs)

    def _merged_id(self, left: int, right: int) -> int | None:
        """The id made by merging two tokens, or None if they do not merge."""
        if self._ranks is not None:
            if left in self._special_ids or right in self._special_ids:
                return None
            return self._ranks.get(self._decoder[left] + self._decoder[right])  # type: ignore[operator]
        assert self._pairs is not None
        return self._pairs.get((left, right))

    def _single_byte_ids(self) -> list[int]:
        """The id of each single byte (GPT-2 numbers its bytes in its own order).

        A vocabulary without all 256 bytes cannot encode every text: refused here.
        """
        if self._ranks is None:
            return list(range(256))
        missing = [f"0x{b:02x}" for b in range(256) if bytes([b]) not in self._ranks]
        if missing:
            raise ValueError(
                f"{self.name}: {len(missing)} single bytes are not tokens "
                f"({', '.join(missing[:5])}...); every byte must be one"
            )
        return [self._ranks[bytes([b])] for b in range(256)]

    def _cut_specials(self, text: str, allowed: frozenset[str]) -> list[tuple[str, int | None]]:
        """Cut text at allowed special tokens: (piece, None) for text, (piece, id) for specials.

        Text pieces come out normalised: special tokens are cut from the raw text first, as
        Hugging Face does for added tokens, so normalising cannot make or break one.
        """
        pieces = self._cut_raw(text, allowed)
        normalize = self.normalizer
        if normalize is None:
            return pieces
        return [(normalize(piece) if i is None else piece, i) for piece, i in pieces]

    def _cut_raw(self, text: str, allowed: frozenset[str]) -> list[tuple[str, int | None]]:
        """`_cut_specials` before normalisation."""
        allowed = allowed.intersection(self.special_tokens)
        if not allowed:
            return [(text, None)] if text else []
        pieces: list[tuple[str, int | None]] = []
        start = 0
        for match in _special_finder(allowed).finditer(text):
            if match.start() > start:
                pieces.append((text[start : match.start()], None))
            pieces.append((match.group(), self.special_tokens[match.group()]))
            start = match.end()
        if start < len(text):
            pieces.append((text[start:], None))
        return pieces


def _restore_ranks(
    name: str,
    pattern: str,
    ranks: dict[bytes, int],
    special_tokens: dict[str, int],
    merges: list[tuple[int, int]] | None,
    unicode: str,
    normalizer: Normalizer | None = None,
) -> Encoding:
    """Unpickle a ranks vocabulary."""
    return Encoding.from_ranks(
        name=name,
        pattern=pattern,
        ranks=ranks,
        special_tokens=special_tokens,
        merges=merges,
        unicode=unicode,
        normalizer=normalizer,
    )


def _restore_merges(
    name: str,
    pattern: str,
    merges: list[tuple[int, int]],
    special_tokens: dict[str, int],
    training: object | None,
    unicode: str,
    normalizer: Normalizer | None = None,
) -> Encoding:
    """Unpickle a trained vocabulary."""
    return Encoding.from_merges(
        name=name,
        pattern=pattern,
        merges=merges,
        special_tokens=special_tokens,
        training=training,
        unicode=unicode,
        normalizer=normalizer,
    )


MAX_TOKEN_ID = 2**32 - 1
"""tiktoken's core holds ids as 32-bit unsigned integers."""


def as_token_id(token: object) -> int:
    """`token` as an id, refused as tiktoken refuses it: TypeError for what is not an integer,
    OverflowError for what 32 unsigned bits cannot hold. Any integer type passes (numpy's, as
    `encode_to_numpy` returns them).

    >>> import numpy as np
    >>> as_token_id(np.int64(995)), as_token_id(995)
    (995, 995)
    """
    try:
        value = operator.index(token)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"a token id is an integer, not {type(token).__name__}") from None
    if not 0 <= value <= MAX_TOKEN_ID:
        raise OverflowError(f"token id {value} is out of range (0 to {MAX_TOKEN_ID:,})")
    return value


def _check_ids(name: str, ranks: dict[bytes, int], special_tokens: dict[str, int]) -> None:
    """Refuse ids that no vocabulary can have, as tiktoken does: out of range (checked before
    the decoder's list is sized by the largest), or two tokens with one rank (tiktoken panics;
    its decode would give one of them for both). A special token on an ordinary token's id is
    refused by `_setup`."""
    for ids in (ranks.values(), special_tokens.values()):
        if ids:
            as_token_id(min(ids))
            as_token_id(max(ids))
    if len(set(ranks.values())) != len(ranks):
        seen: dict[int, bytes] = {}
        for token, rank in ranks.items():
            if rank in seen:
                raise ValueError(f"{name}: {seen[rank]!r} and {token!r} both have rank {rank}")
            seen[rank] = token


def _strict_utf8(text: str) -> str:
    """`text`, or a UnicodeEncodeError if it holds a lone surrogate (tiktoken's Rust side
    refuses one everywhere but `encode`, which repairs it first)."""
    if not text.isascii():
        text.encode("utf-8")
    return text


def _check_threads(num_threads: int | None) -> None:
    """Refuse what tiktoken's thread pool refuses, so a call that fails there fails here too."""
    if num_threads is not None and num_threads <= 0:
        raise ValueError(f"num_threads must be greater than 0, not {num_threads}")


def _ids_in_order(pieces: list[str], table: dict[str, tuple[int, ...]]) -> list[int]:
    """The ids of `pieces` (chunks or blocks), in order, from a table that holds each of them
    (KeyError if one is missing).

    A plain loop: ``list += tuple`` copies the tuple as it is, where `itertools.chain` makes an
    iterator for every one; as most chunks are one token, the loop is about a third faster.
    """
    ids: list[int] = []
    for piece in pieces:
        ids += table[piece]
    return ids


@lru_cache(maxsize=128)  # bounded: one entry per distinct set of special tokens
def _special_finder(tokens: frozenset[str]) -> "re.Pattern[str]":
    """A regex finding any of `tokens`, longest first where one contains another."""
    return re.compile("|".join(map(re.escape, sorted(tokens, key=lambda t: (-len(t), t)))))


def _raise_disallowed(token: str) -> NoReturn:
    raise ValueError(
        f"Encountered text corresponding to disallowed special token {token!r}. To encode it as "
        f'the special token, pass allowed_special={{{token!r}}} (or "all"); to encode it as '
        f"ordinary text, pass disallowed_special=() (or leave {token!r} out of "
        "disallowed_special)."
    )


def _checked_text(text: object) -> str:
    """tiktoken takes only str: bytes and other types are a TypeError, not an AttributeError."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    return text


def _with_prefix(ordered: list[bytes], prefix: bytes) -> Iterable[bytes]:
    """The items of a sorted list that start with `prefix`."""
    from bisect import bisect_left

    i = bisect_left(ordered, prefix)
    while i < len(ordered) and ordered[i].startswith(prefix):
        yield ordered[i]
        i += 1


def _last_char(data: bytes) -> tuple[str, int] | None:
    """The last UTF-8 character of `data` and its length in bytes, or None if it is broken."""
    for width in range(1, min(4, len(data)) + 1):
        try:
            return data[-width:].decode("utf-8"), width
        except UnicodeDecodeError:
            continue
    return None


def _is_white_space(char: str) -> bool:
    """Unicode's White_Space, as Rust's `char::is_whitespace` (Python's isspace is wider)."""
    return ord(char) in unicode_tables().named("White_Space")


_IS_CONTINUATION = bytes(1 if 0x80 <= b < 0xC0 else 0 for b in range(256))
_BEGINS_CHARACTER = bytes(1 - b for b in _IS_CONTINUATION)
