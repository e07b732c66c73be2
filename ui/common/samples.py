"""The bundled sample texts, read from assets/samples/ and checked before anything shows them.

Three kinds of sample, so the comparison charts can ask "what does the same thing cost?":
- ``language``: one paragraph with the same meaning in many languages and scripts;
- ``code``: one small task (count words, print the top 3) in many programming languages;
- ``tricky``: inputs that stress a tokenizer (numbers, emoji, whitespace, URLs, minified code...).

Each sample is one UTF-8 file; ``samples.json`` beside them holds the metadata. A sample's text is
its file's content minus one final newline, so files can end the way editors and POSIX tools
expect while a sample such as the whitespace one can still end in blank lines.

This module imports neither Streamlit nor pandas: tests and scripts use it directly, and pages wrap
it in their own caching if they want more than the per-process cache here.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from tokenizer.formats import FormatError, read_json
from ui.common.limits import MAX_SAMPLE_BYTES

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "assets" / "samples"
MANIFEST_NAME = "samples.json"
MANIFEST_VERSION = 1
KINDS = ("language", "code", "tricky")
# The Train page's corpus made of every sample, by this title (a vocabulary's notes name it).
CORPUS_TITLE = "Languages & code samples"

# Fields each kind must fill in (besides id, kind, title and file, which every sample needs).
# script applies to natural language only: code and tricky samples mix scripts or have none.
_REQUIRED_BY_KIND: dict[str, tuple[str, ...]] = {
    "language": ("language", "code", "script", "script_name"),
    "code": ("language", "code", "description"),
    "tricky": ("description",),
}
_COMMON_REQUIRED = ("id", "kind", "title", "file")
_FIELDS = frozenset(
    {"id", "kind", "title", "language", "code", "script", "script_name", "description", "file"}
)
_TOP_LEVEL = frozenset({"about", "version", "samples"})

_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_ISO_639 = re.compile(r"[a-z]{2,3}")  # 639-1 where the language has one, else 639-3 ("yue")
_ISO_15924 = re.compile(r"[A-Z][a-z]{3}")  # "Latn", "Hang", "Jpan"
_CODE_NAME = re.compile(r"[a-z][a-z0-9+#-]*")  # a syntax-highlighting name: "python", "c", "bash"
_UTF8_BOM = b"\xef\xbb\xbf"


class SamplesError(ValueError):
    """The samples manifest or a sample file is broken; the message names the file and entry."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One sample text and what it is, as the charts and tables label it.

    For ``language`` samples, ``code`` is the ISO 639 code and ``script`` the ISO 15924 code
    (``script_name`` spells it out); for ``code`` samples, ``code`` is the name a syntax
    highlighter knows (``st.code(text, language=sample.code)``) and ``script`` is empty.
    ``description`` says what a code or tricky sample shows.
    """

    id: str
    kind: str
    title: str
    language: str
    code: str
    script: str
    text: str
    script_name: str = ""
    description: str = ""


@dataclass(frozen=True, slots=True)
class Coverage:
    """What a set of samples covers: the figures issue 7 promises (25 languages, 12 scripts...)."""

    languages: frozenset[str]  # ISO 639 codes of the natural-language samples
    scripts: frozenset[str]  # ISO 15924 codes of the natural-language samples
    code_languages: frozenset[str]  # highlighter names of the code samples


def coverage(samples: Iterable[Sample]) -> Coverage:
    """Count distinct languages, scripts and programming languages.

    >>> s = Sample("lang-ko", "language", "Korean", "Korean", "ko", "Hang", "...")
    >>> c = coverage([s]); (sorted(c.languages), sorted(c.scripts), sorted(c.code_languages))
    (['ko'], ['Hang'], [])
    """
    samples = list(samples)
    natural = [s for s in samples if s.kind == "language"]
    return Coverage(
        languages=frozenset(s.code for s in natural),
        scripts=frozenset(s.script for s in natural),
        code_languages=frozenset(s.code for s in samples if s.kind == "code"),
    )


def load_samples(root: Path | str = SAMPLES_DIR) -> list[Sample]:
    """Every sample listed in ``root/samples.json``, in manifest order, validated.

    Read once per process and root (the bundled files do not change while the app runs); each
    call returns a new list, so a caller that appends the user's own samples cannot alter the
    cache. Raises SamplesError, naming the file and the entry, for anything malformed.
    """
    return list(_load(Path(root).resolve()))


def corpus_text() -> str:
    """The Train page's corpus of every sample (`CORPUS_TITLE`), separated by blank lines."""
    return "\n\n".join(sample.text for sample in load_samples())


def text_sha256(text: str) -> str:
    """What identifies a training text: the SHA-256 of its UTF-8 bytes, lone surrogates counted
    as U+FFFD, as in training. A vocabulary keeps its corpus's (`Stored.corpus_sha256`), so the
    Compare page knows one trained on these very samples, however the text reached the trainer.
    """
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


@functools.cache
def corpus_sha256() -> str:
    """`text_sha256` of `corpus_text`: the samples do not change while the app runs."""
    return text_sha256(corpus_text())


@functools.cache
def _load(root: Path) -> tuple[Sample, ...]:
    manifest = root / MANIFEST_NAME
    try:
        raw = manifest.read_bytes()
    except OSError as exc:
        raise SamplesError(f"{manifest}: cannot read the samples manifest: {exc}") from exc
    try:
        data = read_json(raw, str(manifest))
    except FormatError as exc:
        raise SamplesError(str(exc)) from exc
    return _parse_manifest(data, root, manifest)


def _parse_manifest(data: object, root: Path, manifest: Path) -> tuple[Sample, ...]:
    if not isinstance(data, dict):
        raise SamplesError(f"{manifest}: the top level must be an object with a 'samples' list")
    unknown = sorted(set(data) - _TOP_LEVEL)
    if unknown:
        raise SamplesError(f"{manifest}: unknown top-level keys {unknown}")
    if data.get("version") != MANIFEST_VERSION:
        raise SamplesError(
            f"{manifest}: 'version' must be {MANIFEST_VERSION}, got {data.get('version')!r}"
        )
    entries = data.get("samples")
    if not isinstance(entries, list) or not entries:
        raise SamplesError(f"{manifest}: 'samples' must be a non-empty list")

    samples: list[Sample] = []
    ids: set[str] = set()
    files: set[str] = set()
    for index, entry in enumerate(entries):
        sample, file = _parse_entry(entry, index, root, manifest)
        where = f"{manifest}: sample {index} ({sample.id!r})"
        if sample.id in ids:
            raise SamplesError(f"{where}: the id is used twice")
        if file in files:
            raise SamplesError(f"{where}: file {file!r} is already another sample's")
        ids.add(sample.id)
        files.add(file)
        samples.append(sample)
    return tuple(samples)


def _parse_entry(entry: object, index: int, root: Path, manifest: Path) -> tuple[Sample, str]:
    """One manifest entry -> (Sample, its file as written), or SamplesError saying what is wrong."""
    where = f"{manifest}: sample {index}"
    if not isinstance(entry, dict):
        raise SamplesError(f"{where}: must be an object, got {type(entry).__name__}")
    if isinstance(entry.get("id"), str):
        where += f" ({entry['id']!r})"
    unknown = sorted(set(entry) - _FIELDS)
    if unknown:
        raise SamplesError(f"{where}: unknown fields {unknown}; allowed: {sorted(_FIELDS)}")
    for key, value in entry.items():
        if not isinstance(value, str):
            raise SamplesError(f"{where}: {key!r} must be a string, got {type(value).__name__}")

    kind = entry.get("kind", "")
    if kind not in KINDS:
        raise SamplesError(f"{where}: 'kind' must be one of {list(KINDS)}, got {kind!r}")
    missing = [
        k for k in (*_COMMON_REQUIRED, *_REQUIRED_BY_KIND[kind]) if not entry.get(k, "").strip()
    ]
    if missing:
        raise SamplesError(f"{where}: a {kind} sample needs non-empty {missing}")

    _check_format(where, "id", entry["id"], _ID, "lowercase words joined by '-', like 'lang-en'")
    if kind == "language":
        _check_format(where, "code", entry["code"], _ISO_639, "an ISO 639 code like 'en' or 'yue'")
        _check_format(where, "script", entry["script"], _ISO_15924, "an ISO 15924 code like 'Latn'")
    elif kind == "code":
        _check_format(where, "code", entry["code"], _CODE_NAME, "a highlighter name like 'python'")

    text = _read_text(root, entry["file"], where)
    sample = Sample(
        id=entry["id"],
        kind=kind,
        title=entry["title"],
        language=entry.get("language", ""),
        code=entry.get("code", ""),
        script=entry.get("script", ""),
        text=text,
        script_name=entry.get("script_name", ""),
        description=entry.get("description", ""),
    )
    return sample, entry["file"]


def _check_format(where: str, key: str, value: str, pattern: re.Pattern[str], want: str) -> None:
    if not pattern.fullmatch(value):
        raise SamplesError(f"{where}: {key!r} must be {want}, got {value!r}")


def _read_text(root: Path, file: str, where: str) -> str:
    """The sample's text: its file decoded as strict UTF-8, minus one final newline."""
    rel = PurePosixPath(file)
    if rel.is_absolute() or ".." in rel.parts or "\\" in file:
        raise SamplesError(f"{where}: 'file' must be a relative path inside {root}, got {file!r}")
    path = root.joinpath(*rel.parts)
    try:
        data = path.read_bytes()  # bytes, not text mode: universal newlines would rewrite "\r\n"
    except OSError as exc:
        raise SamplesError(f"{where}: cannot read {path}: {exc}") from exc
    if len(data) > MAX_SAMPLE_BYTES:
        raise SamplesError(
            f"{where}: {path} has {len(data)} bytes, more than the {MAX_SAMPLE_BYTES} a sample may "
            "have (every sample is tokenized live for every encoding)"
        )
    if data.startswith(_UTF8_BOM):
        # Decoded, a BOM is a real character (U+FEFF) that every tokenizer would count.
        raise SamplesError(f"{where}: {path} starts with a byte order mark; save it without one")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SamplesError(
            f"{where}: {path} is not valid UTF-8 (byte {exc.start}: {exc.reason})"
        ) from exc
    text = text.removesuffix("\n")
    if not text.strip():
        raise SamplesError(f"{where}: {path} is empty or only whitespace")
    return text
