"""`load` and `save`: any supported vocabulary file in, any supported format out.

Formats are told apart by file names and, for ``.json``, by content:

==========================  =================================================================
files                       read by
==========================  =================================================================
``tokenizer.json``          `tokenizer.hf.load_tokenizer_json` (Hugging Face)
``vocab.json + merges.txt`` `tokenizer.hf.load_vocab_merges` (Hugging Face, GPT-2's pattern)
``encoder.json + vocab.bpe`` `tokenizer.formats.load_gpt2` (OpenAI's GPT-2 files)
``*.tiktoken``, ``*.model`` `tokenizer.formats.load_tiktoken` (pattern by name or regex)
bundle ``*.json``           `tokenizer.formats.load_bundle` (this app's trained vocabularies)
==========================  =================================================================

`load_files` reads uploads (name -> bytes) without touching the disk; `load` reads paths (a file,
its partner beside it, or a folder). `dump` gives the bytes of each file of a format (downloads);
`save` writes them. Every refusal is a `FormatError` naming the reason.
"""

import os
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePath
from typing import Literal, get_args

from tokenizer import formats, hf
from tokenizer.encoding import Encoding
from tokenizer.formats import FormatError
from tokenizer.patterns import PATTERNS

SaveFormat = Literal["hf", "tiktoken", "gpt2", "bundle"]
SAVE_FORMATS: tuple[str, ...] = get_args(SaveFormat)

PathLike = str | os.PathLike[str]

_PAIRS = (("vocab.json", "merges.txt"), ("encoder.json", "vocab.bpe"))
_TIKTOKEN_SUFFIXES = (".tiktoken", ".model")


# ---- reading ------------------------------------------------------------------------------------


def load(
    path: PathLike | Sequence[PathLike],
    *,
    name: str | None = None,
    pattern: str | None = None,
    special_tokens: dict[str, int] | None = None,
) -> Encoding:
    """Load a vocabulary from a file, a pair of files or a folder.

    A folder is searched for ``tokenizer.json``, then ``vocab.json`` + ``merges.txt``, then
    ``encoder.json`` + ``vocab.bpe``, then one ``*.tiktoken`` file. One file of a pair finds its
    partner beside it. `pattern` (an encoding's name or a regex) and `special_tokens` are for the
    formats that do not hold them (see `load_files`); `name` defaults to the file or folder name.

    >>> import tokenizer as tk, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> enc = tk.train("aaabdaaabac", 259, special_tokens=())
    >>> _ = tk.save(enc, folder / "tokenizer.json", "hf")
    >>> tk.load(folder).encode("aaabdaaabac")
    [258, 100, 258, 97, 99]
    """
    paths = [Path(p) for p in ([path] if isinstance(path, str | os.PathLike) else path)]
    if len(paths) == 1 and paths[0].is_dir():
        folder = paths[0]
        paths = _pick_in_folder(folder)
        name = name or folder.name
    elif len(paths) == 1 and (other := partner_file(paths[0].name)):
        partner = paths[0].with_name(other)
        if not partner.is_file():
            raise FormatError(f"{paths[0].name} needs {partner.name} beside it")
        paths.append(partner)
    files = {p.name: _read(p) for p in paths}
    return load_files(files, name=name, pattern=pattern, special_tokens=special_tokens)


def load_files(
    files: Mapping[str, bytes],
    *,
    name: str | None = None,
    pattern: str | None = None,
    special_tokens: dict[str, int] | None = None,
) -> Encoding:
    """Load a vocabulary from its files' names and bytes (an upload), choosing the format by name.

    - ``tokenizer.json`` (any ``.json`` with a ``model``): pattern, normaliser and special tokens
      come from the file; its added tokens are special, so encode with ``allowed_special="all"``.
    - ``.json`` + ``.txt`` (``vocab.json`` + ``merges.txt``): `pattern` or GPT-2's, no specials.
    - ``.json`` + ``.bpe`` (``encoder.json`` + ``vocab.bpe``): `pattern` or GPT-2's; tokens no merge
      makes are special (GPT-2's ``<|endoftext|>``).
    - ``.tiktoken`` or ``.model`` (Llama 3's ``tokenizer.model`` is one): `pattern` is required
      unless the file is named after a bundled encoding (``cl100k_base.tiktoken``);
      `special_tokens` as given.
    - a bundle ``.json``: everything from the file.
    """
    if not files:
        raise FormatError("no file given")
    for file_name, data in files.items():
        if len(data) > formats.MAX_FILE_BYTES:
            raise FormatError(
                f"{file_name} has {len(data):,} bytes; the limit is {formats.MAX_FILE_BYTES:,}"
            )
        if not data:  # rather than "not valid JSON: line 1 column 1" or "lacks 256 tokens"
            raise FormatError(f"{file_name} is empty (0 bytes)")
    by_suffix = {PurePath(n).suffix.lower(): (n, data) for n, data in files.items()}
    if len(by_suffix) != len(files):
        raise FormatError(f"two files of the same kind: {', '.join(sorted(files))}")
    stem = name or PurePath(next(iter(files))).stem
    if special_tokens is not None and set(by_suffix) - set(_TIKTOKEN_SUFFIXES):
        raise FormatError("special_tokens can be given for a .tiktoken file only")
    if len(files) == 2 and set(by_suffix) in ({".json", ".txt"}, {".json", ".bpe"}):
        vocab, merges = by_suffix[".json"][1], (by_suffix.get(".txt") or by_suffix[".bpe"])[1]
        if ".txt" in by_suffix:
            return hf.load_vocab_merges(vocab, merges, name=stem, pattern=pattern or "gpt2")
        return formats.load_gpt2(vocab, merges, name=stem, pattern=pattern or "gpt2")
    if len(files) != 1:
        raise FormatError(
            f"cannot tell the format of {', '.join(sorted(files))}: give tokenizer.json, "
            "vocab.json + merges.txt, encoder.json + vocab.bpe, a .tiktoken file or a bundle"
        )
    (file_name, data), suffix = next(iter(files.items())), next(iter(by_suffix))
    if suffix in _TIKTOKEN_SUFFIXES:
        default = PurePath(file_name).stem if PurePath(file_name).stem in PATTERNS else None
        if (pattern or default) is None:
            raise FormatError(
                f"{file_name} holds no splitting pattern: pass pattern= an encoding's name "
                f"({', '.join(PATTERNS)}) or a regex"
            )
        return formats.load_tiktoken(
            data, name=stem, pattern=pattern or default, special_tokens=special_tokens
        )
    if suffix == ".json":
        return _load_json(file_name, data, name=name, pattern=pattern)
    partner = partner_file(file_name)
    if partner:
        raise FormatError(f"{file_name} needs {partner} too")
    raise FormatError(
        f"cannot tell the format of {file_name}: expected tokenizer.json, vocab.json + "
        "merges.txt, encoder.json + vocab.bpe, a .tiktoken file or a bundle .json"
    )


def _load_json(file_name: str, data: bytes, *, name: str | None, pattern: str | None) -> Encoding:
    """A single .json: a bundle or a Hugging Face tokenizer.json, told apart by their keys."""
    head = data[:4096]
    if formats.BUNDLE_FORMAT.encode() in head:
        if pattern is not None:
            raise FormatError("a bundle holds its own pattern; do not pass one")
        return formats.load_bundle(data)
    partner = partner_file(file_name)
    if partner:
        raise FormatError(f"{file_name} needs {partner} too")
    if pattern is not None:
        raise FormatError("tokenizer.json holds its own pattern; do not pass one")
    return hf.load_tokenizer_json(data, name=name or PurePath(file_name).stem)


def partner_file(file_name: str) -> str | None:
    """The file read together with `file_name`, if it is half of a pair, else None.

    Halves are told by how their names end, so prefixed copies pair up too (Megatron's
    ``gpt2-vocab.json`` and ``gpt2-merges.txt``, this app's ``demo-encoder.json`` download):

    >>> partner_file("merges.txt"), partner_file("gpt2-Vocab.json"), partner_file("demo-vocab.bpe")
    ('vocab.json', 'gpt2-merges.txt', 'demo-encoder.json')
    >>> partner_file("tokenizer.json") is None
    True
    """
    name = PurePath(file_name).name
    for first, second in _PAIRS:
        for own, other in ((first, second), (second, first)):
            if name.lower().endswith(own):
                return name[: -len(own)] + other  # the same prefix, as a download's pair has
    return None


def _pick_in_folder(folder: Path) -> list[Path]:
    """The vocabulary files of a folder, in order of preference."""
    for names in (["tokenizer.json"], ["vocab.json", "merges.txt"], ["encoder.json", "vocab.bpe"]):
        if all((folder / n).is_file() for n in names):
            return [folder / n for n in names]
    found = sorted(folder.glob("*.tiktoken"))
    if len(found) == 1:
        return found
    raise FormatError(
        f"{folder} holds no tokenizer.json, vocab.json + merges.txt, encoder.json + vocab.bpe "
        "or single .tiktoken file"
    )


def _read(path: Path) -> bytes:
    """A file's bytes, refusing one over the size limit before reading it."""
    size = path.stat().st_size
    if size > formats.MAX_FILE_BYTES:
        raise FormatError(
            f"{path.name} has {size:,} bytes; the limit is {formats.MAX_FILE_BYTES:,}"
        )
    with path.open("rb") as handle:
        return handle.read(formats.MAX_FILE_BYTES + 1)


# ---- writing ------------------------------------------------------------------------------------


def dump(enc: Encoding, format: SaveFormat) -> dict[str, bytes]:
    """The files of `format` for `enc`: file name -> bytes (what a download offers).

    ``"hf"``: ``tokenizer.json``. ``"tiktoken"``: ``<name>.tiktoken`` (no pattern, no special
    tokens in it). ``"gpt2"``: ``encoder.json`` and ``vocab.bpe``. ``"bundle"``:
    ``<name>.bpe-lens.json`` (trained vocabularies only). A format that cannot hold `enc` exactly
    raises `FormatError` saying why.
    """
    if format not in SAVE_FORMATS:
        raise ValueError(f"unknown format {format!r}; choose one of {', '.join(SAVE_FORMATS)}")
    if format == "hf":
        return {"tokenizer.json": hf.dump_tokenizer_json(enc)}
    if enc.normalizer is not None:
        raise FormatError(
            f"{enc.name} normalises text before splitting it, which only tokenizer.json can say: "
            'save it as "hf"'
        )
    stem = formats_stem(enc.name)
    if format == "tiktoken":
        return {f"{stem}.tiktoken": formats.dump_tiktoken(enc)}
    if format == "gpt2":
        files = formats.dump_gpt2(enc)
        return {"encoder.json": files.encoder_json, "vocab.bpe": files.vocab_bpe}
    return {f"{stem}.bpe-lens.json": formats.dump_bundle(enc)}


def save(enc: Encoding, path: PathLike, format: SaveFormat) -> list[Path]:
    """Write `enc` in `format` and return the paths written.

    `path` is the file to write, except for ``"gpt2"``, whose two files go into the folder `path`
    (created if needed).
    """
    files = dump(enc, format)
    target = Path(path)
    if format == "gpt2":
        target.mkdir(parents=True, exist_ok=True)
        written = [target / file_name for file_name in files]
    else:
        written = [target]
    for out, data in zip(written, files.values(), strict=True):
        out.write_bytes(data)
    return written


def formats_stem(name: str) -> str:
    """A name made safe for a file name: ``formats_stem("my vocab/1") == "my-vocab-1"``."""
    stem = "".join(ch if ch.isalnum() or ch in "._-" else "-" for ch in name).strip("-.")
    return stem or "vocabulary"
