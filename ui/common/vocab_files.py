"""Vocabulary files out (every format the core writes) and in (every format it reads), checked.

The formats live in the core (`tokenizer.dump`, `tokenizer.load_files`). This module decides what
a user can download for a vocabulary (a format that cannot hold it exactly is offered with the
core's reason instead), reads uploads into one result with a sentence for the user, and checks an
import against itself: a pattern or special tokens that contradict the file (the vocabulary's own
tokens no longer encode to their ids) give a warning. Uploads are untrusted: every failure is one
sentence naming the files and the problem, never a traceback. No Streamlit here.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

import tokenizer as tk
from tokenizer import Encoding
from tokenizer.files import partner_file
from ui.common.messages import inline_code

ERROR_CHARS = 400
"""Longest error detail quoted back to the user."""

FILE_NAME_CHARS = 80
"""Longest file name quoted whole in a message (the uploader shortens it in the middle)."""

# What a malformed upload can raise besides FormatError: a bad pattern or special token
# (ValueError), JSON nested too deep (RecursionError), numbers out of range (OverflowError).
_READ_ERRORS = (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError)

# Tokens the round-trip check encodes (evenly spread over the vocabulary), and the share of them
# that may fail to encode back to themselves before the pattern is suspect. Read with their own
# patterns, gpt2, cl100k_base, o200k_base and trained vocabularies all give 100% on the sample;
# GPT-2's files read with cl100k_base's pattern give 98.5% (its multi-digit tokens).
ROUND_TRIP_SAMPLE = 2_000
ROUND_TRIP_SLACK = 0.005


@dataclass(frozen=True)
class Format:
    """One file format as the pages offer it."""

    label: str
    about: str


FORMATS: dict[str, Format] = {
    "hf": Format(
        "Hugging Face tokenizer.json",
        "One file with the vocabulary, merges, pattern and special tokens; loads in Hugging "
        "Face `tokenizers` and `transformers`, which read the special tokens' text as the "
        "tokens wherever it is (here, the Playground does with **Special tokens** on).",
    ),
    "gpt2": Format(
        "GPT-2 encoder.json + vocab.bpe",
        "OpenAI's two GPT-2 files: token text (in GPT-2's byte symbols) to id, and the merges "
        "in order (no pattern in them).",
    ),
    "tiktoken": Format(
        "tiktoken .tiktoken",
        "tiktoken's format: each token's bytes in base64 and its rank (no pattern, no special "
        "tokens in it).",
    ),
    "bundle": Format(
        "BPE Lens bundle .json",
        "Everything: merges, pattern, special tokens and the training record, so the replay "
        "works after import.",
    ),
}


@dataclass(frozen=True)
class Export:
    """The files of one format for a vocabulary, or why that format cannot hold it."""

    fmt: str
    label: str
    about: str
    files: tuple[tuple[str, bytes], ...] = ()
    problem: str | None = None


def file_stem(name: str) -> str:
    """A vocabulary name made safe for a file name: ``file_stem("my vocab/1") == "my-vocab-1"``."""
    stem = re.sub(r"[^\w.-]+", "-", name).strip("-.")
    return stem or "vocabulary"


def _download_name(stem: str, file_name: str) -> str:
    """Fixed names (``tokenizer.json``, ``vocab.bpe``) get the vocabulary's name in front, so
    two vocabularies' downloads do not collide; suffixes, which imports go by, stay."""
    return file_name if file_name.startswith(stem) else f"{stem}-{file_name}"


def export(enc: Encoding, fmt: str) -> Export:
    """`enc` written in `fmt` (a `tokenizer.SAVE_FORMATS`), or the core's reason it cannot be."""
    spec = FORMATS[fmt]
    try:
        files = tk.dump(enc, fmt)  # type: ignore[arg-type]  # fmt is one of SAVE_FORMATS
    except tk.FormatError as exc:
        return Export(fmt, spec.label, spec.about, problem=str(exc))
    stem = file_stem(enc.name)
    named = tuple((_download_name(stem, name), data) for name, data in files.items())
    return Export(fmt, spec.label, spec.about, named)


def exports(enc: Encoding) -> list[Export]:
    """Every format, in the order the pages offer them."""
    return [export(enc, fmt) for fmt in FORMATS]


# ---- import ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    """The result of reading uploaded files: an encoding (with warnings), or an error sentence."""

    encoding: Encoding | None = None
    error: str | None = None
    kind: str = ""  # "Hugging Face tokenizer.json", "GPT-2 files", ".tiktoken", "bundle", …
    warnings: tuple[str, ...] = ()

    @property
    def specials_are_text(self) -> bool:
        """Whether its special tokens are recognised in text (Hugging Face's added tokens are)."""
        return self.kind == KINDS["hf"]


KINDS = {
    "hf": "Hugging Face tokenizer.json",
    "vocab_merges": "vocab.json + merges.txt",
    "gpt2": "GPT-2 files",
    "tiktoken": ".tiktoken",
    "bundle": "bundle",
}
TAKES_PATTERN = (KINDS["vocab_merges"], KINDS["gpt2"], KINDS["tiktoken"])
ROLES = {  # a pair's files by suffix: the names the loaders' errors call them by
    KINDS["vocab_merges"]: {".json": "vocab.json", ".txt": "merges.txt"},
    KINDS["gpt2"]: {".json": "encoder.json", ".bpe": "vocab.bpe"},
}
UPLOAD_TYPES = ["json", "txt", "bpe", "tiktoken", "model"]
HOW_TO_IMPORT = (
    "Upload a Hugging Face `tokenizer.json`, or `vocab.json` + `merges.txt`, or GPT-2's "
    "`encoder.json` + `vocab.bpe`, or one `.tiktoken` file, or a bundle `.json` from this app."
)


def kind_of(files: Sequence[tuple[str, bytes]]) -> str | None:
    """Which format uploads are, by their names (and a lone .json by its first bytes).

    A lone half of a pair (``vocab.json`` without ``merges.txt``) is no format: `unreadable`
    names what it lacks.
    """
    suffixes = sorted(PurePath(name).suffix.lower() for name, _ in files)
    if suffixes == [".json", ".txt"]:
        return KINDS["vocab_merges"]
    if suffixes == [".bpe", ".json"]:
        return KINDS["gpt2"]
    if suffixes in ([".tiktoken"], [".model"]):
        return KINDS["tiktoken"]
    if suffixes == [".json"]:
        head = files[0][1][:4096]
        if b"bpe-lens" in head:
            return KINDS["bundle"]
        return None if partner_file(files[0][0]) else KINDS["hf"]
    return None


def unreadable(names: Sequence[str]) -> str:
    """What is wrong with files `kind_of` finds no format in, and what to upload instead.

    >>> unreadable(["vocab.json"])
    '`vocab.json` needs its `merges.txt`: upload both together.'
    """
    partner = partner_file(names[0]) if len(names) == 1 else None
    if partner:
        given, missing = inline_code(names[0], 60), inline_code(partner, 60)
        return f"{given} needs its {missing}: upload both together."
    listed = ", ".join(inline_code(n, FILE_NAME_CHARS) for n in names) or "nothing"
    if len(names) > 1:  # often a file left in the box by an import that failed
        return (
            f"{listed} are {len(names)} files, and only a pair makes one vocabulary (GPT-2's "
            "`encoder.json` + `vocab.bpe`, or `vocab.json` + `merges.txt`): import one at a time, "
            "removing the others from the box."
        )
    return f"Cannot tell which format {listed} is. {HOW_TO_IMPORT}"


def import_files(
    files: Sequence[tuple[str, bytes]],
    *,
    name: str,
    pattern: str | None,
    special_tokens: Sequence[str] = (),
) -> Imported:
    """Read uploaded (file name, bytes) pairs as one vocabulary named `name`.

    `pattern` (an encoding's name or a regex) is used by the formats that hold none (the two
    pairs of files and .tiktoken); `special_tokens` are added after a .tiktoken file's last id.
    A bundle and a tokenizer.json bring their own name, pattern and special tokens.
    """
    kind = kind_of(files)
    if kind is None:
        return Imported(error=unreadable([n for n, _ in files]))
    uploads = dict(files)
    own = kind not in TAKES_PATTERN

    def load(with_pattern: str | None) -> Encoding:
        specials = None
        if kind == KINDS["tiktoken"] and special_tokens:
            n_ranks = _count_lines(files[0][1])
            specials = {text: n_ranks + i for i, text in enumerate(special_tokens)}
        return tk.load_files(
            uploads,
            name=name,
            pattern=None if own else with_pattern,
            special_tokens=specials,
        )

    refused = f"Could not import {' + '.join(inline_code(n, FILE_NAME_CHARS) for n, _ in files)}"
    try:
        enc = load(pattern)
    except (tk.FormatError, *_READ_ERRORS) as exc:
        detail = inline_code(str(exc), ERROR_CHARS)
        return Imported(error=f"{refused} as {kind}{roles(kind, files)}: {detail}", kind=kind)
    if (lost := lost_text(enc)) is not None:
        return Imported(error=f"{refused} as {kind}: {lost}", kind=kind)
    warnings = list(_special_clashes(enc))
    if not own:
        warnings += _pattern_warnings(enc, pattern, load)
    return Imported(encoding=enc, kind=kind, warnings=tuple(warnings))


def roles(kind: str, files: Sequence[tuple[str, bytes]]) -> str:
    """Which upload a pair's error means, where the user's names differ from the roles': the
    error "merges.txt is not UTF-8" named no file the user had given.

    >>> roles(KINDS["vocab_merges"], [("fake.json", b""), ("merges.txt", b"")])
    ' (`fake.json` read as vocab.json)'
    >>> roles(KINDS["hf"], [("fake.json", b"")])
    ''
    """
    by_suffix = ROLES.get(kind, {})
    told = []
    for name, _ in files:
        role = by_suffix.get(PurePath(name).suffix.lower(), name)
        if role != name:
            told.append(f"{inline_code(name, FILE_NAME_CHARS)} read as {role}")
    return f" ({', '.join(told)})" if told else ""


def _count_lines(data: bytes) -> int:
    """Ranks in a .tiktoken file: its non-blank lines (special tokens go after them)."""
    return sum(1 for line in data.splitlines() if line.strip())


# ---- checks: does what the user chose agree with the file? ------------------------------------


COVERAGE_PROBE = "Hello, world! It's 2024:\n\tnaïve café, 你好 👋 (x+y)*2"
"""Text every pre-tokenizer must keep whole: letters, digits, punctuation, spaces, a newline
and a tab, accents, CJK and an emoji."""


def lost_text(enc: Encoding) -> str | None:
    """Why `enc`'s pattern is no pre-tokenizer, if it leaves text out of its chunks, or None.

    Text the pattern does not match is dropped, as in tiktoken: a bundle with the pattern ``""``
    gave no tokens at all, and ``a*`` kept only the a's, without a word (the Train page already
    refuses such a regex).

    >>> lost_text(tk.get_encoding("gpt2")) is None
    True
    """
    kept = "".join(enc.split(COVERAGE_PROBE))
    if kept == COVERAGE_PROBE:
        return None
    keeps = f"only {inline_code(kept, 80)}" if kept else "nothing"
    return (
        f"its pattern {inline_code(enc.pattern, 60)} leaves text out of its chunks, and text "
        f"outside the chunks is dropped: of {inline_code(COVERAGE_PROBE, 80)} it keeps {keeps}"
    )


def round_trip_rate(enc: Encoding, sample: int = ROUND_TRIP_SAMPLE) -> float:
    """Of the vocabulary's own multi-byte UTF-8 tokens (up to `sample`, spread evenly), the
    share that encodes back to exactly that token with its pattern.

    A vocabulary read with the pattern it was made with gives nearly all; a wrong pattern cuts
    tokens it never could have made (GPT-2's ``"2017"`` under cl100k_base's 3-digit groups).

    >>> round_trip_rate(tk.train("the cat sat on the mat " * 20, 270))
    1.0
    """
    ids = [
        i
        for i in range(enc.n_vocab)
        if enc.is_valid_id(i) and not enc.is_special(i) and len(enc.token_bytes(i)) > 1
    ]
    step = max(1, len(ids) // sample)
    checked = ok = 0
    for token_id in ids[::step]:
        try:
            text = enc.token_bytes(token_id).decode("utf-8")
        except UnicodeDecodeError:
            continue  # a piece of a character: no text encodes to it alone
        checked += 1
        ok += enc.encode_ordinary(text) == [token_id]
    return ok / checked if checked else 1.0


def _pattern_warnings(
    enc: Encoding, pattern: str | None, load: Callable[[str | None], Encoding]
) -> list[str]:
    """A warning when the chosen pattern cuts the vocabulary's own tokens, naming a better one."""
    chosen = round_trip_rate(enc)
    if chosen >= 1 - ROUND_TRIP_SLACK:
        return []
    rates = {}
    for other in tk.PATTERNS:
        if other != pattern:
            try:
                rates[other] = round_trip_rate(load(other))
            except (tk.FormatError, *_READ_ERRORS):
                continue
    best = max(rates, key=rates.__getitem__, default=None)
    shown = inline_code(pattern or "gpt2", 60)
    sentence = (
        f"With the pattern {shown}, {1 - chosen:.1%} of this vocabulary's own tokens do not "
        "encode back to their ids: the pattern cuts them apart, so the file was probably made "
        "with another pattern."
    )
    if best is not None and rates[best] > chosen:
        sentence += (
            f" With {inline_code(best)}, {1 - rates[best]:.1%} do not: import it again with "
            "that one."
        )
    return [sentence]


def _special_clashes(enc: Encoding) -> list[str]:
    """Special tokens whose text the file also has as an ordinary token, under another id."""
    clashes = []
    for text, special_id in enc.special_tokens.items():
        ordinary = [i for i in enc.encode_ordinary(text) if not enc.is_special(i)]
        if len(ordinary) == 1 and ordinary[0] != special_id:
            # The ids outside the quote: a quote is shortened, and they are the news.
            clashes.append(f"{inline_code(text)} (ordinary {ordinary[0]}, special {special_id})")
    if not clashes:
        return []
    more = f" and {len(clashes) - 4:,} more" if len(clashes) > 4 else ""
    return [
        f"The file already has {', '.join(clashes[:4])}{more} as ordinary tokens: with special "
        "tokens on, that text gets the special id; with them off, the file's own id."
    ]
