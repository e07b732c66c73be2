"""Hugging Face's files for byte-level BPE: ``tokenizer.json`` and ``vocab.json`` + ``merges.txt``.

What these files mean is what the `tokenizers` library does with them, so that is what loading
reproduces, or refuses to:

- **Text before BPE.** Added tokens are cut out first (they become our special tokens, so encode
  imported text with ``allowed_special="all"``); an ``NFC`` normalizer and ByteLevel's
  ``add_prefix_space`` become the encoding's `Normalizer`; the pre-tokenizer's regex becomes its
  pattern (ByteLevel's own regex is GPT-2's). Anything else that changes text (lowercasing, other
  normalizers, Metaspace, digit splitting, several regexes in a row) is refused, as are the
  WordPiece, Unigram and WordLevel models. A post-processor's BOS and any truncation are ignored:
  `encode` never adds tokens.
- **BPE.** Hugging Face merges the adjacent pair that comes *first in the merge list*, leftmost on
  ties, and with ``ignore_merges`` takes a chunk that is itself a token whole. Our encodings merge
  by rank (tiktoken's rule: the pair whose merged token has the lowest id, and a chunk that is a
  token is taken whole) or, for trained vocabularies, by their own merge list. A file whose ids
  are laid out as training lays them out (bytes 0-255, merge i makes 256 + i) loads as a merge
  list, exact by construction. Any other file loads by rank only after `_check_rank_rule` has
  proved that both rules give the same ids for every text; otherwise it is refused.

Writing goes the other way: a merge list is written as it is; a ranks vocabulary (cl100k_base) gets
the merge list BPE over ranks implies (`tokenizer.vocab.parents_from_ranks`), with
``ignore_merges`` when some token can only be taken whole.
"""

import json
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import regex

from tokenizer.bpe import merge
from tokenizer.encoding import Encoding
from tokenizer.formats import (
    FormatError,
    check_count,
    check_id,
    ordinary_ids,
    read_json,
    refuse_duplicates,
    utf8,
)
from tokenizer.frozen_regex import PatternError, compile_pattern
from tokenizer.normalize import Normalizer
from tokenizer.onig import TranslationError, from_oniguruma, to_oniguruma
from tokenizer.patterns import PATTERNS
from tokenizer.symbols import bytes_to_symbols, gpt2_byte_symbols, gpt2_symbol_bytes
from tokenizer.train import WHOLE_TEXT, resolve_pattern
from tokenizer.vocab import parents_from_merges, parents_from_ranks

MergeTriple = tuple[int, int, int]  # (left id, right id, id of the merged token)

# Text no splitting regex may match as an empty string (one from every broad class of characters).
_EMPTY_MATCH_PROBE = "Ab1 \n\t.'s\u00e9\u4e2d\U0001f600-_\u0301"


@dataclass(frozen=True)
class _Model:
    """A parsed byte-level BPE model, checked and in ids."""

    pieces: dict[int, bytes]  # every ordinary token
    merges: list[MergeTriple]  # in list order: the first merges first
    ignore_merges: bool


# ---- reading ------------------------------------------------------------------------------------


def load_tokenizer_json(data: bytes, *, name: str = "tokenizer.json") -> Encoding:
    """Read a Hugging Face ``tokenizer.json`` for byte-level BPE, or raise `FormatError` saying why.

    The result gives Hugging Face's ids (``tokenizer.encode(text, add_special_tokens=False)``) for
    ``enc.encode(text, allowed_special="all")``.
    """
    root = read_json(data, "tokenizer.json")
    if not isinstance(root, dict) or not isinstance(root.get("model"), dict):
        raise FormatError("tokenizer.json: expected a JSON object with a 'model'")
    _check_model_kind(root["model"])  # the most basic reason to refuse comes first
    normalizer = _read_normalizer(root.get("normalizer"))
    pattern, prefix_space = _read_pre_tokenizer(root.get("pre_tokenizer"))
    _check_decoder(root.get("decoder"))
    specials = _read_added_tokens(root.get("added_tokens", []), normalizer_set=normalizer)
    model = _read_model(root["model"], specials)
    norm = Normalizer(nfc=normalizer, prefix_space=prefix_space)
    return _build(name, pattern, model, specials, norm if norm.describe() else None)


def load_vocab_merges(
    vocab_json: bytes,
    merges_txt: bytes,
    *,
    name: str = "vocab.json",
    pattern: str | None = "gpt2",
) -> Encoding:
    """Read Hugging Face's ``vocab.json`` + ``merges.txt`` pair (``BPE.from_file``).

    The pair says nothing about splitting or special tokens, so the pattern is GPT-2's unless given
    (a name or a regex) and there are no special tokens: entries no merge builds (a trainer's
    ``<|endoftext|>``) are never produced by Hugging Face from text, and are left out.
    """
    vocab = read_json(vocab_json, "vocab.json")
    if not isinstance(vocab, dict):
        raise FormatError("vocab.json must be one JSON object: token text -> id")
    lines = utf8(merges_txt, "merges.txt").split("\n")
    check_count(len(lines), "merges.txt")
    merges: list[tuple[str, str, str]] = []
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r")
        if not line or (number == 1 and line.startswith("#version")):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not all(parts):
            raise FormatError(
                f"merges.txt line {number}: expected two tokens separated by one space, "
                f"got {line[:80]!r}"
            )
        merges.append((parts[0], parts[1], f"merges.txt line {number}"))
    model = _model_from(vocab, merges, specials={}, ignore_merges=False, where="vocab.json")
    return _build(name, resolve_pattern(pattern), model, {}, None)


def _read_normalizer(spec: object) -> bool:
    """True for NFC, False for none; anything else cannot be reproduced exactly."""
    if spec is None:
        return False
    kind = _kind(spec, "normalizer")
    if kind == "NFC":
        return True
    if kind == "Sequence":
        steps = _field(spec, "normalizers", list, "normalizer")
        kinds = [_kind(step, "normalizer") for step in steps]
        if kinds in ([], ["NFC"]):
            return bool(kinds)
        raise FormatError(
            f"tokenizer.json: the normalizer sequence {kinds} cannot be reproduced exactly "
            "(BPE Lens applies NFC only)"
        )
    raise FormatError(
        f"tokenizer.json: the {kind} normalizer cannot be reproduced exactly (BPE Lens applies "
        "NFC only)"
    )


def _read_pre_tokenizer(spec: object) -> tuple[str, bool]:
    """The splitting pattern and whether ByteLevel adds a prefix space."""
    if spec is None:
        raise FormatError(
            "tokenizer.json has no pre-tokenizer, so it is not byte-level BPE (BPE Lens needs "
            "ByteLevel)"
        )
    kind = _kind(spec, "pre_tokenizer")
    steps = _field(spec, "pretokenizers", list, "pre_tokenizer") if kind == "Sequence" else [spec]
    kinds = [_kind(step, "pre_tokenizer") for step in steps]
    if kinds == ["ByteLevel"]:
        level = steps[0]
        uses_regex = _flag(level, "use_regex", default=True)
        return (PATTERNS["gpt2"] if uses_regex else WHOLE_TEXT), _flag(
            level, "add_prefix_space", default=True
        )
    if kinds == ["Split", "ByteLevel"]:
        split, level = steps
        assert isinstance(split, dict)  # _kind checked it
        if _flag(level, "use_regex", default=True):
            raise FormatError(
                "tokenizer.json: a Split followed by ByteLevel with its own regex splits twice; "
                "BPE Lens reproduces one split only"
            )
        if _flag(level, "add_prefix_space", default=True):
            raise FormatError(
                "tokenizer.json: ByteLevel after a Split adds a space to every chunk, which BPE "
                "Lens cannot reproduce"
            )
        return _read_split(split), False
    raise FormatError(
        f"tokenizer.json: the pre-tokenizer {' + '.join(kinds)} cannot be reproduced exactly "
        "(BPE Lens reads ByteLevel, or one Split regex followed by ByteLevel)"
    )


def _read_split(split: dict[str, Any]) -> str:
    """The pattern of a Split pre-tokenizer, as one our splitter runs with the same chunks.

    Hugging Face's ``Isolated`` keeps the text between matches as chunks too, while our split keeps
    matches only. The bundled patterns match every character, so they are used as they are; any
    other regex gets a last alternative matching the gaps (``(?:(?!P).)+``). ``Removed`` with
    ``invert`` keeps the matches only, exactly like ours.
    """
    source = _field(split, "pattern", dict, "Split")
    if "Regex" in source and isinstance(source["Regex"], str):
        written = source["Regex"]
        bundled = [p for p in PATTERNS.values() if written == to_oniguruma(p)]
        try:
            pattern = bundled[0] if bundled else from_oniguruma(written)
        except TranslationError as exc:
            raise FormatError(f"tokenizer.json: the Split regex: {exc}") from None
    elif "String" in source and isinstance(source["String"], str) and source["String"]:
        pattern = regex.escape(source["String"])
    else:
        raise FormatError(
            "tokenizer.json: a Split needs a pattern {'Regex': ...} or {'String': ...}"
        )
    behavior, invert = split.get("behavior"), split.get("invert", False)
    try:
        compiled = compile_pattern(pattern)
    except PatternError as exc:
        raise FormatError(f"tokenizer.json: the Split regex: {exc}") from None
    if compiled.groups:
        raise FormatError(
            "tokenizer.json: the Split regex has a capturing group; write it with (?:...) groups"
        )
    if any(m.start() == m.end() for m in compiled.finditer(_EMPTY_MATCH_PROBE)):
        raise FormatError("tokenizer.json: the Split regex can match empty text")
    if behavior == "Removed" and invert is True:
        return pattern
    if behavior != "Isolated" or invert is not False:
        raise FormatError(
            f"tokenizer.json: a Split with behavior {behavior!r} and invert {invert!r} cannot be "
            "reproduced (BPE Lens reads 'Isolated', or 'Removed' with invert)"
        )
    if pattern in PATTERNS.values():
        return pattern
    return cover_gaps(pattern)


def cover_gaps(pattern: str) -> str:
    """`pattern` plus an alternative that makes each run of text it skips one chunk.

    >>> regex.findall(cover_gaps(r"\\w+"), "ab, cd")
    ['ab', ', ', 'cd']
    """
    return f"(?:{pattern})|(?:(?!(?:{pattern}))[\\s\\S])+"


def uncover_gaps(pattern: str) -> str | None:
    """The regex `cover_gaps` was given, or None if `pattern` was not made by it."""
    head, tail = "(?:", ")|(?:(?!(?:"
    if pattern.startswith(head) and pattern.endswith(")))[\\s\\S])+"):
        inner = pattern[len(head) :].split(tail, 1)[0]
        if cover_gaps(inner) == pattern:
            return inner
    return None


def _check_decoder(spec: object) -> None:
    """Our decode joins token bytes: only ByteLevel (or no) decoder does the same."""
    if spec is None:
        return
    kind = _kind(spec, "decoder")
    steps = _field(spec, "decoders", list, "decoder") if kind == "Sequence" else [spec]
    kinds = {_kind(step, "decoder") for step in steps}
    if not kinds <= {"ByteLevel"}:
        raise FormatError(
            f"tokenizer.json: the decoder {' + '.join(sorted(kinds))} is not byte-level; "
            "BPE Lens decodes by joining token bytes"
        )


def _read_added_tokens(entries: object, *, normalizer_set: bool) -> dict[str, int]:
    """Added tokens, all treated as special tokens (Hugging Face always cuts them out first)."""
    if not isinstance(entries, list):
        raise FormatError("tokenizer.json: added_tokens must be a list")
    specials: dict[str, int] = {}
    owners: dict[int, str] = {}
    for n, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise FormatError(f"tokenizer.json: added_tokens[{n}] must be an object")
        content, token_id = entry.get("content"), entry.get("id")
        if not isinstance(content, str) or not content:
            raise FormatError(f"tokenizer.json: added_tokens[{n}] has no content")
        check_id(token_id, f"tokenizer.json: the id of added token {content!r}")
        assert isinstance(token_id, int)
        for option in ("lstrip", "rstrip", "single_word"):
            if entry.get(option):
                raise FormatError(
                    f"tokenizer.json: added token {content!r} sets {option}, which BPE Lens "
                    "cannot reproduce"
                )
        if normalizer_set and entry.get("normalized"):
            raise FormatError(
                f"tokenizer.json: added token {content!r} is matched in normalised text; BPE "
                "Lens cuts special tokens out before normalising"
            )
        if content in specials or token_id in owners:
            raise FormatError(
                f"tokenizer.json: added token {content!r} (id {token_id}) is listed twice"
            )
        specials[content] = token_id
        owners[token_id] = content
    return specials


def _read_model(spec: dict[str, Any], specials: dict[str, int]) -> _Model:
    """The BPE model's vocabulary and merges, refusing what Hugging Face would do differently."""
    _check_model_kind(spec)
    if spec.get("dropout") not in (None, 0, 0.0):
        raise FormatError("tokenizer.json: BPE dropout makes encoding random; it must be null")
    for option in ("continuing_subword_prefix", "end_of_word_suffix"):
        if spec.get(option):
            raise FormatError(
                f"tokenizer.json: the model sets {option}, which byte-level BPE does not use"
            )
    vocab = spec.get("vocab")
    raw = spec.get("merges", [])
    if not isinstance(vocab, dict) or not isinstance(raw, list):
        raise FormatError("tokenizer.json: the model needs a vocab object and a merges list")
    check_count(len(raw), "tokenizer.json: merges")
    merges = []
    for n, item in enumerate(raw):
        parts = item.split(" ") if isinstance(item, str) else item
        if not (
            isinstance(parts, list)
            and len(parts) == 2
            and all(isinstance(p, str) and p for p in parts)
        ):
            raise FormatError(f"tokenizer.json: merges[{n}] must be 'left right' or [left, right]")
        merges.append((parts[0], parts[1], f"merges[{n}]"))
    ignore = spec.get("ignore_merges", False)
    if not isinstance(ignore, bool):
        raise FormatError("tokenizer.json: ignore_merges must be true or false")
    return _model_from(vocab, merges, specials, ignore_merges=ignore, where="tokenizer.json")


def _check_model_kind(spec: dict[str, Any]) -> None:
    """Only BPE (Hugging Face infers the type from the fields when it is missing)."""
    kind = spec.get("type", "BPE" if "merges" in spec else None)
    if kind != "BPE":
        raise FormatError(
            f"tokenizer.json holds a {kind} model; BPE Lens reads byte-level BPE only "
            "(WordPiece, Unigram/SentencePiece and WordLevel models work differently)"
        )


def _model_from(
    vocab: dict[str, Any],
    merges: list[tuple[str, str, str]],
    specials: dict[str, int],
    *,
    ignore_merges: bool,
    where: str,
) -> _Model:
    """Check a vocabulary and merge list given as text and turn them into ids.

    Entries that are added tokens stay out of the ordinary tokens; every other entry must be written
    in GPT-2's byte symbols, and every byte must have one.
    """
    check_count(len(vocab), f"{where}: vocab")
    owners: dict[int, str] = {}
    for text, token_id in vocab.items():
        check_id(token_id, f"{where}: the id of {text!r}")
        if token_id in owners:
            raise FormatError(
                f"{where}: id {token_id} is given to both {owners[token_id]!r} and {text!r}"
            )
        owners[token_id] = text
    special_ids = set(specials.values())
    symbol_bytes = gpt2_symbol_bytes()
    pieces: dict[int, bytes] = {}
    for text, token_id in vocab.items():
        if specials.get(text) == token_id:
            continue
        if token_id in special_ids:
            raise FormatError(
                f"{where}: id {token_id} is both the vocabulary entry {text!r} and an added token"
            )
        try:
            pieces[token_id] = bytes(symbol_bytes[ch] for ch in text)
        except KeyError:
            raise FormatError(
                f"{where}: the entry {text!r} (id {token_id}) is not written in GPT-2's byte "
                "symbols, so it is not byte-level BPE"
            ) from None
    symbols = gpt2_byte_symbols()
    missing = [f"0x{b:02x}" for b in range(256) if symbols[b] not in vocab]
    if missing:
        raise FormatError(
            f"{where} lacks {len(missing)} single-byte tokens ({', '.join(missing[:5])}...); "
            "every byte must be a token"
        )
    triples: list[MergeTriple] = []
    seen: dict[tuple[int, int], str] = {}
    for left, right, label in merges:
        ids = []
        for part in (left, right, left + right):
            part_id = vocab.get(part)
            if part_id is None:
                raise FormatError(
                    f"{where}: {label} names {part!r}, which is not in the vocabulary"
                )
            if part_id in special_ids:
                raise FormatError(f"{where}: {label} uses the added token {part!r}")
            ids.append(part_id)
        pair = (ids[0], ids[1])
        if pair in seen:
            raise FormatError(
                f"{where}: {label} repeats the merge {left!r} + {right!r} of {seen[pair]}"
            )
        seen[pair] = label
        triples.append((ids[0], ids[1], ids[2]))
    return _Model(pieces, triples, ignore_merges)


# ---- from a model to an Encoding ----------------------------------------------------------------


def _build(
    name: str,
    pattern: str,
    model: _Model,
    specials: dict[str, int],
    normalizer: Normalizer | None,
) -> Encoding:
    """The Encoding that gives the model's ids: by merge list if laid out so, else by rank."""
    if _trained_layout(model) and not model.ignore_merges:
        return Encoding.from_merges(
            name=name,
            pattern=pattern,
            merges=[(left, right) for left, right, _ in model.merges],
            special_tokens=specials,
            normalizer=normalizer,
        )
    ranks = {piece: token_id for token_id, piece in model.pieces.items()}
    enc = Encoding.from_ranks(
        name=name, pattern=pattern, ranks=ranks, special_tokens=specials, normalizer=normalizer
    )
    dead = _check_rank_rule(enc, model)
    if dead and not model.ignore_merges:
        # Tokens no merge builds: Hugging Face never produces them, while a ranks vocabulary would
        # take a chunk equal to one whole. Without them both agree (they never merge otherwise).
        for token_id in dead:
            del ranks[model.pieces[token_id]]
        enc = Encoding.from_ranks(
            name=name, pattern=pattern, ranks=ranks, special_tokens=specials, normalizer=normalizer
        )
    return enc


def _trained_layout(model: _Model) -> bool:
    """Bytes are ids 0-255 in byte order, merge i makes id 256 + i, and nothing else is there."""
    return (
        len(model.pieces) == 256 + len(model.merges)
        and all(model.pieces.get(b) == bytes([b]) for b in range(256))
        and all(
            new == 256 + rank and left < new and right < new
            for rank, (left, right, new) in enumerate(model.merges)
        )
    )


def _check_rank_rule(enc: Encoding, model: _Model) -> list[int]:
    """Prove that merging by rank gives Hugging Face's ids for every text; return the dead tokens.

    Both rules have this property: a token formed inside a chunk is formed exactly as BPE over the
    token's own bytes forms it (merges inside its span happen in the same order as alone, and one
    crossing its edges would prevent it). So each rule only ever performs one merge per token, the
    last one of BPE over that token's bytes, and behaves as the list of those merges in its own
    order. The two rules are equal when those lists hold the same merges in the same order: that is
    what is checked here. Tokens neither rule builds ("dead") never appear, except whole (by rank,
    or by Hugging Face with ``ignore_merges``).
    """
    parents, unreachable = parents_from_ranks(enc)
    implied = [(*pair, token_id) for token_id, pair in enumerate(parents) if pair is not None]
    if implied == model.merges:  # the list is exactly the one ranks imply (GPT-2, trainers, ours)
        return list(unreachable)
    first: dict[tuple[int, ...], int] = {
        (left, right): pos for pos, (left, right, _) in enumerate(model.merges)
    }
    made = [new for _, _, new in model.merges]
    single = {piece: token_id for token_id, piece in model.pieces.items() if len(piece) == 1}
    byte_id = [single[bytes([b])] for b in range(256)]
    last: list[int] = []

    def fuse(position: int) -> tuple[int, ...]:
        last.append(position)
        return (made[position],)

    built_at: dict[int, int] = {}  # token -> position of the merge that builds it
    for token_id, piece in model.pieces.items():
        if len(piece) < 2:
            continue
        last.clear()
        start: list[tuple[int, ...]] = [(byte_id[b],) for b in piece]
        parts = merge(start, first, fuse)
        if parts == [(token_id,)]:
            built_at[token_id] = last[-1]
    for token_id, piece in model.pieces.items():
        if len(piece) < 2:
            continue
        by_list = built_at.get(token_id)
        by_rank = parents[token_id]
        if (by_list is None) != (by_rank is None):
            how = "builds" if by_rank is None else "never builds"
            raise FormatError(
                f"{piece!r} (id {token_id}): the merge list {how} it, merging by rank would not; "
                "BPE Lens cannot reproduce this file exactly"
            )
        if by_list is not None and model.merges[by_list][:2] != by_rank:
            raise FormatError(
                f"{piece!r} (id {token_id}) is built from other parts by the merge list than by "
                "rank; BPE Lens cannot reproduce this file exactly"
            )
    order = sorted(built_at, key=built_at.__getitem__)
    for earlier, later in pairwise(order):
        if later < earlier:
            raise FormatError(
                f"the merge list builds id {earlier} ({model.pieces[earlier]!r}) before id {later} "
                f"({model.pieces[later]!r}), but ids are the ranks; BPE Lens cannot reproduce this "
                "file exactly"
            )
    return list(unreachable)


# ---- writing ------------------------------------------------------------------------------------


def dump_tokenizer_json(enc: Encoding) -> bytes:
    """A ``tokenizer.json`` that `tokenizers.Tokenizer.from_file` loads and that gives our ids.

    Special tokens become added tokens (Hugging Face cuts them out of any text, as
    ``allowed_special="all"`` does here). A tokenizer.json gives each id one token, so an id
    with two names (o200k_harmony's 200,018) is written under the one it decodes to.
    """
    specials = {
        enc.token_bytes(i).decode("utf-8"): i for i in sorted(set(enc.special_tokens.values()))
    }
    ids = ordinary_ids(enc)
    refuse_duplicates(enc, ids, "tokenizer.json maps each token's text to one id")
    merges, ignore_merges = _merge_list(enc, ids)
    normalizer = enc.normalizer
    if normalizer is not None and not isinstance(normalizer, Normalizer):
        raise FormatError(f"{enc.name} normalises text in a way tokenizer.json cannot describe")
    nfc = normalizer is not None and normalizer.nfc
    prefix_space = normalizer is not None and normalizer.prefix_space
    level = {"type": "ByteLevel", "add_prefix_space": prefix_space, "trim_offsets": True}
    if enc.pattern in (PATTERNS["gpt2"], WHOLE_TEXT):
        pre_tokenizer: dict[str, Any] = {**level, "use_regex": enc.pattern == PATTERNS["gpt2"]}
    elif prefix_space:
        raise FormatError(
            "tokenizer.json can add a prefix space only with GPT-2's split or none; "
            f"{enc.name} splits with another pattern"
        )
    else:
        pre_tokenizer = {
            "type": "Sequence",
            "pretokenizers": [_split_spec(enc.pattern), {**level, "use_regex": False}],
        }
    symbols = {i: bytes_to_symbols(enc.token_bytes(i)) for i in ids}
    clash = set(specials) & set(symbols.values())
    if clash:
        raise FormatError(
            f"special token {min(clash)!r} reads like an ordinary token in GPT-2's symbols, so "
            "tokenizer.json's vocabulary cannot hold both"
        )
    document = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {
                "id": token_id,
                "content": text,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
            for text, token_id in specials.items()
        ],
        "normalizer": {"type": "NFC"} if nfc else None,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": {**level, "use_regex": True},
        "model": {
            "type": "BPE",
            "dropout": None,
            "unk_token": None,
            "continuing_subword_prefix": None,
            "end_of_word_suffix": None,
            "fuse_unk": False,
            "byte_fallback": False,
            "ignore_merges": ignore_merges,
            # Special tokens are in the vocabulary too: Hugging Face gives an added token that is
            # not there the next free id, whatever id the file says.
            "vocab": {**{symbols[i]: i for i in ids}, **specials},
            "merges": [f"{symbols[left]} {symbols[right]}" for left, right in merges],
        },
    }
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


def _split_spec(pattern: str) -> dict[str, Any]:
    """The Split that cuts text as `pattern` does with our splitter (matches only)."""
    inner = uncover_gaps(pattern)
    # Read from an Isolated Split, or bundled (they match every character, so Isolated is the
    # same split): written as Isolated, as Hugging Face's own files do. Anything else keeps
    # matches only, exactly as our split does.
    isolated = inner is not None or pattern in PATTERNS.values()
    try:
        written = to_oniguruma(inner if inner is not None else pattern)
    except TranslationError as exc:
        raise FormatError(f"the pattern cannot be written for Hugging Face: {exc}") from None
    return {
        "type": "Split",
        "pattern": {"Regex": written},
        "behavior": "Isolated" if isolated else "Removed",
        "invert": not isolated,
    }


def _merge_list(enc: Encoding, ids: list[int]) -> tuple[list[tuple[int, int]], bool]:
    """The merges to write, and whether Hugging Face must take a chunk that is a token whole.

    An encoding's own merge list is written as it is when its tokens are exactly the bytes and what
    the merges make: Hugging Face then applies the very rule of a merge-list encoding, and a ranks
    encoding keeps a merge list only when its loader proved that ranks rebuild every merge, so that
    both rules agree (GPT-2; see `tokenizer.formats.first_rank_mismatch`). Otherwise the merges are
    those BPE over ranks implies, in rank order, exact for a ranks vocabulary by the argument of
    `_check_rank_rule`.
    """
    if (
        enc.merges is not None
        and len(ids) == 256 + len(enc.merges)
        and parents_from_merges(enc) is not None
    ):
        return list(enc.merges), False
    parents, unreachable = parents_from_ranks(enc)
    return [pair for pair in parents if pair is not None], bool(unreachable)


# ---- JSON helpers -------------------------------------------------------------------------------


def _kind(spec: object, what: str) -> str:
    """The ``type`` of a component object."""
    if not isinstance(spec, dict) or not isinstance(spec.get("type"), str):
        raise FormatError(f"tokenizer.json: each {what} must be an object with a type")
    return str(spec["type"])


def _field(spec: object, key: str, kind: type, what: str) -> Any:
    """A required field of a component, of the given JSON type."""
    value = spec.get(key) if isinstance(spec, dict) else None
    if not isinstance(value, kind):
        raise FormatError(f"tokenizer.json: the {what} needs {key!r}")
    return value


def _flag(spec: object, key: str, *, default: bool) -> bool:
    """A boolean option, with Hugging Face's default when absent."""
    value = spec.get(key, default) if isinstance(spec, dict) else default
    if not isinstance(value, bool):
        raise FormatError(f"tokenizer.json: {key} must be true or false")
    return value
