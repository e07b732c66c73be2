"""Save and load vocabularies in three formats, exactly or not at all.

- **GPT-2**: ``encoder.json`` (token text in GPT-2's byte symbols -> id) + ``vocab.bpe`` (one merge
  per line). Merges are named by their text, so two tokens with the same bytes cannot be told apart:
  such a vocabulary is refused rather than saved wrongly.
- **tiktoken**: ``.tiktoken``, one ``base64(token bytes) rank`` per line, read back with tiktoken's
  rule (merge the adjacent pair whose concatenation has the lowest rank). That equals the merge
  list's own rule only if replaying ranks rebuilds every merge; saving checks it (trained
  vocabularies always pass) and refuses otherwise. The file holds no special tokens.
- **bundle**: one JSON document with name, pattern, special tokens, the merge list and the training
  record, so a trained vocabulary comes back exactly, replay included.

Neither format above stores the pattern, so their loaders take it as an argument. Every loader
takes the file's bytes (what an upload gives), refuses files over `MAX_FILE_BYTES`, never uses
pickle or eval, and raises `FormatError` naming the problem (with the line for text formats).
"""

import base64
import binascii
import codecs
import json
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeGuard, get_args

from tokenizer.bpe import merge
from tokenizer.encoding import Encoding
from tokenizer.symbols import bytes_to_symbols, gpt2_byte_symbols, gpt2_symbol_bytes
from tokenizer.train import MAX_VOCAB_SIZE, resolve_pattern
from tokenizer.train_record import RIVALS, StopReason, TrainingRecord

MAX_FILE_BYTES = 32_000_000
"""32 MB (decimal, as Streamlit's uploader counts them): o200k_base's .tiktoken file is 3.6 MB;
anything far larger is not a vocabulary we can use."""

BUNDLE_FORMAT = "bpe-lens-bundle"
BUNDLE_VERSION = 1
GPT2_HEADER = "#version: 0.2"


class FormatError(ValueError):
    """A vocabulary file (or an encoding to save) that cannot be read or written exactly."""


@dataclass(frozen=True)
class Gpt2Files:
    """The two files of GPT-2's format, as bytes ready to write or download."""

    encoder_json: bytes
    vocab_bpe: bytes


# ---- GPT-2: encoder.json + vocab.bpe --------------------------------------------------------


def dump_gpt2(enc: Encoding) -> Gpt2Files:
    """GPT-2's two files for an encoding with a merge list (trained ones, GPT-2 itself)."""
    if enc.merges is None:
        raise FormatError(
            f"{enc.name} has no merge list (it is a ranks vocabulary): save it as .tiktoken"
        )
    ids = ordinary_ids(enc)
    refuse_duplicates(enc, ids, "GPT-2's files name each token by its text")
    encoder = {bytes_to_symbols(enc.token_bytes(i)): i for i in ids}
    for text, token_id in enc.special_tokens.items():
        if text in encoder:
            raise FormatError(
                f"special token {text!r} reads like ordinary token {encoder[text]} in GPT-2's "
                "symbols, so encoder.json cannot hold both"
            )
        encoder[text] = token_id
    symbols = [
        f"{bytes_to_symbols(enc.token_bytes(left))} {bytes_to_symbols(enc.token_bytes(right))}"
        for left, right in enc.merges
    ]
    return Gpt2Files(
        encoder_json=json.dumps(encoder).encode("utf-8"),  # as OpenAI wrote it
        vocab_bpe="\n".join([GPT2_HEADER, *symbols, ""]).encode("utf-8"),
    )


def load_gpt2(
    encoder_json: bytes,
    vocab_bpe: bytes,
    *,
    name: str = "gpt2-format",
    pattern: str | None = "gpt2",
) -> Encoding:
    """Read GPT-2's two files (OpenAI's own, or `dump_gpt2`'s) with the given pre-split pattern.

    Tokens of encoder.json that are neither a byte nor made by a merge are special tokens (GPT-2's
    ``<|endoftext|>``). Ids laid out as training makes them (bytes in byte order, merge i -> id
    256 + i) give a merge-list Encoding; other layouts (GPT-2's own) a ranks Encoding, after
    checking that ranks rebuild every merge, so both encode as the files say.
    """
    source = resolve_pattern(pattern)
    encoder = _read_encoder(encoder_json)
    symbols = gpt2_byte_symbols()
    missing = [f"0x{b:02x}" for b in range(256) if symbols[b] not in encoder]
    if missing:
        raise FormatError(
            f"encoder.json lacks {len(missing)} single-byte tokens ({', '.join(missing[:5])}...); "
            "every byte must be a token"
        )
    byte_ids = {encoder[symbols[b]] for b in range(256)}
    merges, made_by = _read_merges(vocab_bpe, encoder, byte_ids)
    specials = {text: i for text, i in encoder.items() if i not in byte_ids and i not in made_by}
    canonical = all(encoder[symbols[b]] == b for b in range(256)) and all(
        new_id == 256 + rank for rank, new_id in enumerate(made_by)
    )
    if canonical:
        return Encoding.from_merges(
            name=name, pattern=source, merges=merges, special_tokens=specials
        )
    pieces = {i: _symbol_bytes(text) for text, i in encoder.items() if i not in specials.values()}
    mismatch = first_rank_mismatch([(pieces[a], pieces[b]) for a, b in merges])
    if mismatch is not None:
        raise FormatError(
            f"vocab.bpe line {list(made_by.values())[mismatch]}: replaying merges by rank, as "
            "this loader must for these ids, would not rebuild this merge"
        )
    return Encoding.from_ranks(
        name=name,
        pattern=source,
        ranks={piece: i for i, piece in pieces.items()},
        special_tokens=specials,
        merges=merges,
    )


def read_json(data: bytes, what: str) -> object:
    """A JSON file's value, refusing a size over the limit and any object that repeats a key.

    Python keeps the last of two equal keys silently; in a vocabulary that hides a conflict.
    """
    text = utf8(data, what)

    def no_duplicates(items: list[tuple[str, object]]) -> dict[str, object]:
        seen: dict[str, object] = {}
        for key, value in items:
            if key in seen:
                raise FormatError(f"{what} has the key {key!r} twice")
            seen[key] = value
        return seen

    try:
        return json.loads(text, object_pairs_hook=no_duplicates)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{what} is not valid JSON: {exc}") from exc
    except RecursionError:
        raise FormatError(f"{what} is nested too deeply to be a vocabulary") from None


def _read_encoder(data: bytes) -> dict[str, int]:
    """encoder.json as text -> id, refusing duplicates, non-integer and clashing ids."""
    encoder = read_json(data, "encoder.json")
    if not isinstance(encoder, dict):
        raise FormatError("encoder.json must be one JSON object: token text -> id")
    check_count(len(encoder), "encoder.json")
    owners: dict[int, str] = {}
    for token, token_id in encoder.items():
        check_id(token_id, f"encoder.json: the id of {token!r}")
        if token_id in owners:
            raise FormatError(
                f"encoder.json gives id {token_id} to both {owners[token_id]!r} and {token!r}"
            )
        owners[token_id] = token
    return encoder


def _read_merges(
    data: bytes, encoder: dict[str, int], byte_ids: set[int]
) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """vocab.bpe's merges as id pairs, and which line made each new id (in merge order).

    Each line must merge tokens that already exist into a new token of encoder.json, with ids
    growing line by line (they are the ranks).
    """
    merges: list[tuple[int, int]] = []
    made_by: dict[int, int] = {}
    last_id = -1
    for number, left, right in _read_merge_lines(data):
        for part in (left, right):
            part_id = encoder.get(part)
            if part_id is None:
                raise FormatError(f"vocab.bpe line {number}: {part!r} is not in encoder.json")
            if part_id not in byte_ids and part_id not in made_by:
                raise FormatError(
                    f"vocab.bpe line {number}: {part!r} is neither a byte nor made by an "
                    "earlier line"
                )
        new_id = encoder.get(left + right)
        if new_id is None:
            raise FormatError(
                f"vocab.bpe line {number}: the merged token {left + right!r} is not in encoder.json"
            )
        if new_id in made_by:
            raise FormatError(
                f"vocab.bpe line {number}: {left + right!r} was already made by line "
                f"{made_by[new_id]}; merges that make the same text cannot be told apart"
            )
        if new_id in byte_ids or new_id < last_id:
            raise FormatError(
                f"vocab.bpe line {number}: {left + right!r} has id {new_id}, out of merge order"
            )
        made_by[new_id] = number
        last_id = new_id
        merges.append((encoder[left], encoder[right]))
    return merges, made_by


def _read_merge_lines(data: bytes) -> list[tuple[int, str, str]]:
    """(line number, left, right) of each merge line; a first ``#version`` line is skipped."""
    lines = utf8(data, "vocab.bpe").split("\n")
    check_count(len(lines), "vocab.bpe")
    out = []
    for number, line in enumerate(lines, start=1):
        if (number == 1 and line.startswith("#")) or not line.strip():
            continue
        parts = line.rstrip("\r").split(" ")
        if len(parts) != 2 or not all(parts):
            raise FormatError(
                f"vocab.bpe line {number}: expected two tokens separated by one space, got {line!r}"
            )
        out.append((number, parts[0], parts[1]))
    return out


def _symbol_bytes(text: str) -> bytes:
    """A token's bytes from GPT-2's symbols, refusing characters that are not symbols."""
    table = gpt2_symbol_bytes()
    try:
        return bytes(table[ch] for ch in text)
    except KeyError as exc:
        raise FormatError(
            f"encoder.json: token {text!r} has {exc.args[0]!r}, which is not a GPT-2 byte symbol"
        ) from None


# ---- tiktoken: base64 token + rank per line ----------------------------------------------------


def dump_tiktoken(enc: Encoding) -> bytes:
    """The .tiktoken ranks file of an encoding's ordinary tokens (special tokens are not in it).

    Refused when tiktoken's rank rule would encode some text differently from the merge list.
    """
    ids = ordinary_ids(enc)
    refuse_duplicates(enc, ids, "a .tiktoken file maps each token's bytes to one rank")
    if ids != list(range(len(ids))):
        gap = next(rank for rank, token_id in enumerate(ids) if rank != token_id)
        raise FormatError(
            f"{enc.name} has no ordinary token with id {gap}, and a .tiktoken file's ranks run "
            "0, 1, 2, ... without a gap: save it as tokenizer.json instead"
        )
    if enc.merges is not None:
        pairs = [(enc.token_bytes(a), enc.token_bytes(b)) for a, b in enc.merges]
        mismatch = first_rank_mismatch(pairs)
        if mismatch is not None:
            left, right = pairs[mismatch]
            raise FormatError(
                f"merge {mismatch} ({left!r} + {right!r}) is not what tiktoken's rank rule "
                f"rebuilds from {left + right!r}, so a .tiktoken file would encode some text "
                "differently; save the bundle instead"
            )
    lines = [base64.b64encode(enc.token_bytes(i)) + b" %d" % i for i in ids]
    return b"\n".join([*lines, b""])


def load_tiktoken(
    data: bytes,
    *,
    name: str = "tiktoken-format",
    pattern: str | None = "gpt2",
    special_tokens: dict[str, int] | None = None,
) -> Encoding:
    """Read a .tiktoken ranks file; the pattern and special tokens are not in it, so pass them."""
    source = resolve_pattern(pattern)
    text = utf8(data, "the .tiktoken file")
    lines = text.split("\n")
    check_count(len(lines), "the .tiktoken file")
    ranks: dict[bytes, int] = {}
    line_of: dict[int, int] = {}  # rank -> line
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r")
        if not line:
            continue
        parts = line.split(" ")
        if len(parts) != 2:
            raise FormatError(f"line {number}: expected 'base64 rank', got {line[:80]!r}")
        if not (parts[1].isascii() and parts[1].isdigit() and len(parts[1]) < 10):  # -1, 1e9
            raise FormatError(
                f"line {number}: rank must be an integer from 0 to {MAX_VOCAB_SIZE - 1:,}, "
                f"got {parts[1][:40]!r}"
            )
        try:
            # Given bytes, b64decode calls a non-ASCII character "not base64" like any other stray
            # one; given str, it raises a ValueError about ASCII that names no line.
            token = base64.b64decode(parts[0].encode("utf-8"), validate=True)
        except binascii.Error as exc:
            raise FormatError(f"line {number}: {parts[0][:80]!r} is not base64 ({exc})") from None
        rank = int(parts[1])
        check_id(rank, f"line {number}: rank")
        if not token:
            raise FormatError(f"line {number}: empty token")
        if token in ranks:
            raise FormatError(
                f"line {number}: token {token!r} is already on line {line_of[ranks[token]]}"
            )
        if rank in line_of:
            raise FormatError(f"line {number}: rank {rank} is already used on line {line_of[rank]}")
        ranks[token] = rank
        line_of[rank] = number
    missing = [f"0x{b:02x}" for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise FormatError(
            f"the file lacks {len(missing)} single-byte tokens ({', '.join(missing[:5])}...); "
            "every byte must be a token"
        )
    if len(line_of) != max(line_of) + 1:  # ranks are distinct, so a gap is the only way
        gap = next(rank for rank in range(len(line_of)) if rank not in line_of)
        raise FormatError(
            f"rank {gap} is missing: ranks must run 0, 1, 2, ... without a gap, since tiktoken "
            f"reads them as the merge order (the file has {len(line_of):,} tokens, the highest "
            f"rank is {max(line_of):,} on line {line_of[max(line_of)]})"
        )
    specials = dict(special_tokens or {})
    for special, token_id in specials.items():
        check_id(token_id, f"special token {special!r}")
        if token_id in line_of:
            raise FormatError(
                f"special token {special!r} has id {token_id}, which line {line_of[token_id]} "
                "gives to an ordinary token"
            )
    return Encoding.from_ranks(name=name, pattern=source, ranks=ranks, special_tokens=specials)


# ---- bundle: one JSON document -----------------------------------------------------------------


def dump_bundle(enc: Encoding) -> bytes:
    """One self-describing JSON document holding everything of a trained encoding."""
    merges = _trained_merges(enc)
    bundle: dict[str, object] = {
        "format": BUNDLE_FORMAT,
        "version": BUNDLE_VERSION,
        "name": enc.name,
        "pattern": enc.pattern,
        "special_tokens": enc.special_tokens,
        "merges": [list(pair) for pair in merges],
    }
    if isinstance(enc.training, TrainingRecord):
        bundle["training"] = _record_to_json(enc.training)
    return json.dumps(bundle, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def load_bundle(data: bytes) -> Encoding:
    """Read `dump_bundle`'s document back into the same Encoding (training record included)."""
    bundle = read_json(data, "the bundle")
    if not isinstance(bundle, dict) or bundle.get("format") != BUNDLE_FORMAT:
        raise FormatError(f"not a bundle: expected a JSON object with format {BUNDLE_FORMAT!r}")
    if bundle.get("version") != BUNDLE_VERSION:
        raise FormatError(f"bundle version {bundle.get('version')!r} is not {BUNDLE_VERSION}")
    name, pattern = bundle.get("name"), bundle.get("pattern")
    if not isinstance(name, str) or not isinstance(pattern, str):
        raise FormatError("bundle: name and pattern must be strings")
    try:
        resolve_pattern(pattern)
    except ValueError as exc:
        raise FormatError(f"bundle: {exc}") from None
    raw_merges = bundle.get("merges")
    if not isinstance(raw_merges, list):
        raise FormatError("bundle: merges must be a list of [left, right] id pairs")
    check_count(len(raw_merges), "bundle: merges")
    merges = []
    for rank, pair in enumerate(raw_merges):
        if not (isinstance(pair, list) and len(pair) == 2 and all(_is_int(i) for i in pair)):
            raise FormatError(f"bundle: merges[{rank}] must be a pair of ids, got {pair!r}")
        if not all(0 <= i < 256 + rank for i in pair):
            raise FormatError(f"bundle: merges[{rank}] = {pair} uses an id made only later")
        merges.append((pair[0], pair[1]))
    specials = bundle.get("special_tokens")
    if not isinstance(specials, dict):
        raise FormatError("bundle: special_tokens must be an object: text -> id")
    check_count(len(specials), "bundle: special_tokens")
    taken: set[int] = set()
    for text, token_id in specials.items():
        check_id(token_id, f"bundle: special token {text!r}")
        if token_id < 256 + len(merges) or token_id in taken:
            raise FormatError(f"bundle: special token {text!r} has id {token_id}, already taken")
        taken.add(token_id)
    training = bundle.get("training")
    record = None if training is None else _record_from_json(training, merges)
    return Encoding.from_merges(
        name=name, pattern=pattern, merges=merges, special_tokens=specials, training=record
    )


def _record_to_json(record: TrainingRecord) -> dict[str, object]:
    """The step record's numbers; its merged pairs are the bundle's merges."""
    rivals = zip(record.rival_lefts, record.rival_rights, record.rival_counts, strict=True)
    return {
        "tokens_before": record.tokens_before,
        "requested": record.requested,
        "stop": record.stop,
        "counts": list(record.counts),
        "tokens_after": list(record.tokens_after),
        "rivals": [value for triple in rivals for value in triple],  # [left, right, count]...
    }


def _record_from_json(training: object, merges: list[tuple[int, int]]) -> TrainingRecord:
    """Rebuild a step record, checking each field's type and length against the merges."""
    if not isinstance(training, dict):
        raise FormatError("bundle: training must be an object")
    n = len(merges)
    if training.get("stop") not in get_args(StopReason):
        raise FormatError(f"bundle: training.stop must be one of {get_args(StopReason)}")
    lengths = {"counts": n, "tokens_after": n, "rivals": 3 * RIVALS * n}
    for key, length in lengths.items():
        values = training.get(key)
        if not (isinstance(values, list) and len(values) == length and all(map(_is_int, values))):
            raise FormatError(f"bundle: training.{key} must be a list of {length} integers")
    for key in ("tokens_before", "requested"):
        if not _is_int(training.get(key)):
            raise FormatError(f"bundle: training.{key} must be an integer")
    rivals = training["rivals"]
    return TrainingRecord(
        tokens_before=training["tokens_before"],
        requested=training["requested"],
        stop=training["stop"],
        lefts=array("i", [left for left, _ in merges]),
        rights=array("i", [right for _, right in merges]),
        counts=_int_array("q", training["counts"]),
        tokens_after=_int_array("q", training["tokens_after"]),
        rival_lefts=_int_array("i", rivals[0::3]),
        rival_rights=_int_array("i", rivals[1::3]),
        rival_counts=_int_array("q", rivals[2::3]),
    )


def _trained_merges(enc: Encoding) -> list[tuple[int, int]]:
    """The merge list of a trained encoding (bytes as ids 0-255, merge i makes 256 + i)."""
    if enc.merges is None:
        raise FormatError(
            f"{enc.name} has no merge list (it is a ranks vocabulary): save it as .tiktoken"
        )
    trained = all(enc.token_bytes(b) == bytes([b]) for b in range(256)) and all(
        enc.token_bytes(256 + rank) == enc.token_bytes(left) + enc.token_bytes(right)
        for rank, (left, right) in enumerate(enc.merges)
    )
    if not trained:
        raise FormatError(
            f"the bundle holds trained vocabularies (bytes as ids 0-255, merge i as id 256 + i); "
            f"{enc.name} numbers its tokens otherwise: save it as GPT-2 files or .tiktoken"
        )
    return list(enc.merges)


# ---- shared checks -----------------------------------------------------------------------------


def ordinary_ids(enc: Encoding) -> list[int]:
    """Every id that names an ordinary (not special) token, in id order."""
    return [i for i in range(enc.n_vocab) if enc.is_valid_id(i) and not enc.is_special(i)]


def first_rank_mismatch(pairs: Sequence[tuple[bytes, bytes]]) -> int | None:
    """The first merge that tiktoken's rank rule would not rebuild, or None if it rebuilds all.

    `pairs` are the merges' parts in rank order. Merge i passes when BPE by rank over its bytes,
    with only the earlier merges known, stops at exactly its two parts. If every merge passes (and
    no two share their bytes), merging by rank encodes every text as the merge list does: by
    induction on the rank, a non-rule pair can never be the lowest rank in any chunk.

    >>> first_rank_mismatch([(b"h", b"e"), (b"t", b"he")])  # "the" is t + he either way
    >>> first_rank_mismatch([(b"t", b"h"), (b"h", b"e"), (b"t", b"he")])  # "th" comes first
    2
    """
    ranks: dict[bytes, int] = {}
    for rank, (left, right) in enumerate(pairs):
        whole = left + right
        if merge([whole[i : i + 1] for i in range(len(whole))], ranks, None) != [left, right]:
            return rank
        ranks[whole] = rank
    return None


def refuse_duplicates(enc: Encoding, ids: Iterable[int], why: str) -> None:
    """Refuse to save a vocabulary in which two tokens have the same bytes."""
    seen: dict[bytes, int] = {}
    for token_id in ids:
        piece = enc.token_bytes(token_id)
        if piece in seen:
            raise FormatError(
                f"tokens {seen[piece]} and {token_id} both are {piece!r}; {why}, so it cannot "
                "hold this vocabulary exactly: save the bundle instead"
            )
        seen[piece] = token_id


def utf8(data: bytes, what: str) -> str:
    """Decode a file's bytes after checking its size, naming the file in any error.

    A leading byte order mark is dropped: editors on Windows write one, and it is no part of the
    content (json.loads would refuse it, a first merge line or rank line would not parse). It is
    dropped after decoding, so a bad byte's position is counted in the file as it is.

    >>> utf8(b"\\xef\\xbb\\xbf{}", "tokenizer.json")
    '{}'
    """
    if not isinstance(data, bytes | bytearray):
        raise TypeError(f"{what} must be given as bytes, not {type(data).__name__}")
    if len(data) > MAX_FILE_BYTES:
        raise FormatError(f"{what} has {len(data):,} bytes; the limit is {MAX_FILE_BYTES:,}")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise FormatError(f"{what} is UTF-16 text; save it as UTF-8")
    try:
        return bytes(data).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise FormatError(
            f"{what} is not UTF-8 text (byte 0x{data[exc.start]:02X} at offset {exc.start:,})"
        ) from None


def check_count(count: int, what: str) -> None:
    """Refuse more entries than any vocabulary we accept could have."""
    if count > MAX_VOCAB_SIZE + 1:
        raise FormatError(f"{what} has {count:,} entries; the limit is {MAX_VOCAB_SIZE:,}")


def check_id(value: object, what: str) -> None:
    """A token id must be an int in [0, MAX_VOCAB_SIZE)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_VOCAB_SIZE:
        raise FormatError(
            f"{what} must be an integer from 0 to {MAX_VOCAB_SIZE - 1:,}, got {value!r}"
        )


def _is_int(value: object) -> TypeGuard[int]:
    """JSON integers only: bools are ints in Python but not ids."""
    return isinstance(value, int) and not isinstance(value, bool)


def _int_array(typecode: str, values: list[int]) -> "array[int]":
    """An array of JSON integers, refusing values that do not fit its type."""
    try:
        return array(typecode, values)
    except OverflowError as exc:
        raise FormatError(f"bundle: training holds a number out of range ({exc})") from None
