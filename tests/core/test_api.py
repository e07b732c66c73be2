"""tiktoken's public API, point by point, with tiktoken itself as the oracle.

Each test calls the same method on our encoding and on tiktoken's (tests/oracles.py builds
tiktoken offline for all three vocabularies) and expects the same result or the same exception.
"""

import pickle
import tomllib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tiktoken
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from tests.core.texts import texts
from tests.oracles import cl100k_oracle, gpt2_oracle, o200k_tiktoken

ORACLES: dict[str, Callable[[], Any]] = {
    "gpt2": gpt2_oracle,
    "cl100k_base": cl100k_oracle,
    "o200k_base": o200k_tiktoken,
}
NAMES = list(ORACLES)


def pair(name: str) -> tuple[tk.Encoding, Any]:
    return tk.get_encoding(name), ORACLES[name]()


def same_outcome(
    ours: Callable[..., object], theirs: Callable[..., object], *args: Any, **kwargs: Any
) -> None:
    """Both calls return equal values, or both raise the same kind of exception."""
    try:
        expected: object = theirs(*args, **kwargs)
    except Exception as exc:  # the oracle's exception is the expectation
        with pytest.raises(type(exc)):
            ours(*args, **kwargs)
        return
    assert ours(*args, **kwargs) == expected


# ---- construction and attributes ---------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_attributes(name: str) -> None:
    ours, theirs = pair(name)
    assert ours.n_vocab == theirs.n_vocab
    assert ours.max_token_value == theirs.max_token_value
    assert ours.eot_token == theirs.eot_token
    assert ours.special_tokens_set == theirs.special_tokens_set
    assert ours._special_tokens == theirs._special_tokens
    assert ours._mergeable_ranks == theirs._mergeable_ranks
    assert repr(ours) == f"<Encoding {name!r}>"


def test_constructor_is_tiktokens() -> None:
    """Same signature: name positional, the rest keyword-only; explicit_n_vocab is checked."""
    gpt2 = tk.get_encoding("gpt2")
    args = {
        "pat_str": gpt2._pat_str,
        "mergeable_ranks": gpt2._mergeable_ranks,
        "special_tokens": {"<|endoftext|>": 50256},
    }
    enc = tk.Encoding("mine", **args, explicit_n_vocab=50257)
    assert enc.name == "mine"
    assert enc.encode("hello world") == [31373, 995]
    with pytest.raises(TypeError):
        tk.Encoding("mine", gpt2._pat_str, gpt2._mergeable_ranks, {})  # type: ignore[misc]
    with pytest.raises(ValueError, match="explicit_n_vocab"):
        tk.Encoding("mine", **args, explicit_n_vocab=50258)


def test_extending_an_encoding_as_tiktoken_readme_does() -> None:
    """New special tokens on top of cl100k_base, through the underscore attributes."""
    base, oracle_base = pair("cl100k_base")
    extra = {"<|im_start|>": 100264, "<|im_end|>": 100265}
    ours = tk.Encoding(
        "cl100k_im",
        pat_str=base._pat_str,
        mergeable_ranks=base._mergeable_ranks,
        special_tokens={**base._special_tokens, **extra},
    )
    theirs = tiktoken.Encoding(
        "cl100k_im",
        pat_str=oracle_base._pat_str,
        mergeable_ranks=oracle_base._mergeable_ranks,
        special_tokens={**oracle_base._special_tokens, **extra},
    )
    text = "<|im_start|>user\nhi<|im_end|>"
    assert ours.encode(text, allowed_special="all") == theirs.encode(text, allowed_special="all")
    assert ours.n_vocab == theirs.n_vocab == 100277
    assert ours.decode([100264]) == theirs.decode([100264]) == "<|im_start|>"


def test_ids_no_vocabulary_can_have_are_refused_at_construction() -> None:
    """tiktoken refuses these too (out of range: OverflowError; one rank twice: it panics);
    ours built them, and decoded another token's bytes for the id."""
    base, oracle_base = pair("gpt2")
    twice = {**base._mergeable_ranks, b"zzzzqq": 31373}
    with pytest.raises(ValueError, match="both have rank 31373"):
        tk.Encoding("x", pat_str=base._pat_str, mergeable_ranks=twice, special_tokens={})
    for special_id in [-1, 2**40]:
        specials = {"<|x|>": special_id}
        same_outcome(
            partial(tk.Encoding, pat_str=base._pat_str, mergeable_ranks=base._mergeable_ranks),
            partial(tiktoken.Encoding, pat_str=oracle_base._pat_str,
                    mergeable_ranks=oracle_base._mergeable_ranks),
            "x", special_tokens=specials,
        )  # fmt: skip


def test_a_special_token_on_an_ordinary_tokens_id_is_refused() -> None:
    """tiktoken builds it, and decodes the id as the ordinary token: the special token does not
    survive a round trip. Ours decoded the id as the special token. Neither is a vocabulary."""
    base = tk.get_encoding("gpt2")
    with pytest.raises(ValueError, match="which is already the token b'&'"):
        tk.Encoding("x", pat_str=base._pat_str, mergeable_ranks=base._mergeable_ranks,
                    special_tokens={"<|x|>": 5})  # fmt: skip


def test_explicit_n_vocab_0_means_none_as_in_tiktoken() -> None:
    base = tk.get_encoding("gpt2")
    enc = tk.Encoding("x", pat_str=base._pat_str, mergeable_ranks=base._mergeable_ranks,
                      special_tokens={}, explicit_n_vocab=0)  # fmt: skip
    assert enc.n_vocab == 50256


def test_a_vocabulary_without_every_byte_is_refused() -> None:
    ranks = {bytes([b]): b for b in range(255)}
    with pytest.raises(ValueError, match="single bytes are not tokens"):
        tk.Encoding("short", pat_str=r"\S+|\s", mergeable_ranks=ranks, special_tokens={})


def test_a_pattern_that_does_not_compile_is_refused() -> None:
    gpt2 = tk.get_encoding("gpt2")
    with pytest.raises(tk.PatternError, match="does not compile"):
        tk.Encoding("bad", pat_str="(?P<", mergeable_ranks=gpt2._mergeable_ranks, special_tokens={})


# ---- encoding ----------------------------------------------------------------------------------


SPECIAL_TEXTS = [
    "hello <|endoftext|> world",
    "<|endoftext|> hello <|fim_prefix|> there <|fim_middle|>",
    "<|endofprompt|><|endoftext|>",
    "no special here",
    "<|endoftext",
]
SPECIAL_OPTIONS: list[dict[str, Any]] = [
    {},
    {"allowed_special": "all"},
    {"disallowed_special": ()},
    {"allowed_special": {"<|endoftext|>"}},
    {"allowed_special": {"<|endoftext|>"}, "disallowed_special": ()},
    {"allowed_special": "all", "disallowed_special": "all"},
    {"disallowed_special": {"<|fim_prefix|>"}},
    {"allowed_special": {"<|fim_prefix|>"}, "disallowed_special": {"<|endoftext|>"}},
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", SPECIAL_TEXTS)
@pytest.mark.parametrize("options", SPECIAL_OPTIONS, ids=str)
def test_encode_allowed_and_disallowed_special(name: str, text: str, options: dict) -> None:
    ours, theirs = pair(name)
    same_outcome(ours.encode, theirs.encode, text, **options)


def test_disallowed_special_message_names_the_token() -> None:
    with pytest.raises(ValueError, match=r"disallowed special token '<\|endoftext\|>'"):
        tk.get_encoding("gpt2").encode("a <|endoftext|>")


@pytest.mark.parametrize("name", NAMES)
@given(text=texts)
def test_encode_variants_on_generated_text(name: str, text: str) -> None:
    ours, theirs = pair(name)
    for options in SPECIAL_OPTIONS:
        same_outcome(ours.encode, theirs.encode, text, **options)
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)


@pytest.mark.parametrize("value", [b"hello", None, 3, ["a"]])
def test_only_str_is_encoded(value: object) -> None:
    ours, theirs = pair("cl100k_base")
    for method in ("encode", "encode_ordinary"):
        with pytest.raises(TypeError):
            getattr(theirs, method)(value)
        with pytest.raises(TypeError):
            getattr(ours, method)(value)
    for extra in ("split", "tokenize", "trace"):  # ours alone: AttributeError on 'isascii'
        with pytest.raises(TypeError, match="text must be a str"):
            getattr(ours, extra)(value)


@pytest.mark.parametrize("name", NAMES)
def test_batches(name: str) -> None:
    ours, theirs = pair(name)
    batch = ["hello world", "goodbye <|endoftext|>", "", "日本語 🙂"]
    assert ours.encode_ordinary_batch(batch) == theirs.encode_ordinary_batch(batch)
    for options in SPECIAL_OPTIONS:
        same_outcome(ours.encode_batch, theirs.encode_batch, batch, num_threads=2, **options)
    ids = theirs.encode_batch(batch, allowed_special="all")
    assert ours.decode_batch(ids) == theirs.decode_batch(ids)
    assert ours.decode_batch(ids, errors="strict") == theirs.decode_batch(ids, errors="strict")
    assert ours.decode_bytes_batch(ids) == theirs.decode_bytes_batch(ids)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("threads", [0, -1, 1, None])
def test_batch_thread_counts_are_checked_as_tiktoken_checks_them(
    name: str, threads: int | None
) -> None:
    """tiktoken's thread pool refuses 0 or fewer threads; ours accepted any count."""
    ours, theirs = pair(name)
    for method, batch in [
        ("encode_batch", ["hello", ""]),
        ("encode_ordinary_batch", ["hello"]),
        ("decode_batch", [[31373, 995]]),
        ("decode_bytes_batch", [[31373], []]),
    ]:
        same_outcome(getattr(ours, method), getattr(theirs, method), batch, num_threads=threads)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", ["a\ud800b", "\udc00", "x <|endoftext|> \ud83d"])
def test_lone_surrogates_are_repaired_only_where_tiktoken_does(name: str, text: str) -> None:
    """`encode` repairs a lone surrogate; `encode_to_numpy` and `encode_with_unstable` refuse it
    (UnicodeEncodeError), after the check for disallowed special tokens, as tiktoken does."""
    ours, theirs = pair(name)
    for options in SPECIAL_OPTIONS:
        same_outcome(ours.encode, theirs.encode, text, **options)
        for method in ["encode_to_numpy", "encode_with_unstable"]:
            with pytest.raises(Exception) as expected:  # noqa: PT011  # the oracle's kind
                getattr(theirs, method)(text, **options)
            with pytest.raises(expected.type):
                getattr(ours, method)(text, **options)


@pytest.mark.parametrize("name", NAMES)
def test_encode_to_numpy(name: str) -> None:
    ours, theirs = pair(name)
    text = "hello <|endoftext|> 日本"
    got = ours.encode_to_numpy(text, allowed_special="all")
    assert got.dtype == np.uint32
    assert got.tolist() == theirs.encode_to_numpy(text, allowed_special="all").tolist()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "text",  # texts ending in a space or a newline complete in thousands of ways: slow
    [
        "hello fanta",
        "🙂",
        "x<|endoftext|>",
        "",
        "12",
        *[pytest.param(t, marks=pytest.mark.slow) for t in ["hello", "hello ", "hello\n", "a \n"]],
    ],
)
def test_encode_with_unstable(name: str, text: str) -> None:
    ours, theirs = pair(name)

    def outcome(enc: Any, **options: Any) -> tuple[list[int], list[tuple[int, ...]]]:
        stable, completions = enc.encode_with_unstable(text, **options)
        return stable, sorted(map(tuple, completions))  # they come in no particular order

    for options in [{}, {"allowed_special": "all"}]:
        same_outcome(partial(outcome, ours), partial(outcome, theirs), **options)


@pytest.mark.parametrize("name", NAMES)
def test_encode_single_token(name: str) -> None:
    ours, theirs = pair(name)
    for value in ["hello", b"hello", " world", "<|endoftext|>", b"<|endoftext|>", b"\xff"]:
        same_outcome(ours.encode_single_token, theirs.encode_single_token, value)
    for value in ["hello world", b"\xff\xfe", "", "<|nope|>"]:
        with pytest.raises(KeyError):
            theirs.encode_single_token(value)
        with pytest.raises(KeyError):
            ours.encode_single_token(value)
    for value in [5, None, ["hello"]]:  # TypeError, where ours said KeyError(5)
        same_outcome(ours.encode_single_token, theirs.encode_single_token, value)


@pytest.mark.parametrize("name", NAMES)
@given(data=st.binary(max_size=40))
def test_encode_bytes_and_single_pieces(name: str, data: bytes) -> None:
    """`_encode_bytes` (invalid UTF-8 included) and BPE without a split, as tiktoken."""
    ours, theirs = pair(name)
    assert ours._encode_bytes(data) == theirs._encode_bytes(data)
    if data:  # tiktoken 0.14 panics on an empty piece
        assert ours._encode_single_piece(data) == theirs._encode_single_piece(data)
    assert ours._encode_single_piece(b"") == []
    assert ours.decode_bytes(ours._encode_bytes(data)) == data


# ---- decoding ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_decode_single_tokens(name: str) -> None:
    ours, theirs = pair(name)
    unused = [i for i in range(ours.n_vocab) if not ours.is_valid_id(i)][:3]
    for token in [0, 255, 256, ours.eot_token, ours.max_token_value, *unused, ours.n_vocab, 10**9]:
        same_outcome(ours.decode_single_token_bytes, theirs.decode_single_token_bytes, token)
    tokens = [31, 1000, ours.eot_token]
    assert ours.decode_tokens_bytes(tokens) == theirs.decode_tokens_bytes(tokens)
    with pytest.raises(KeyError):
        ours.decode([ours.n_vocab])
    with pytest.raises(KeyError):
        theirs.decode([ours.n_vocab])


# What is no token id at all: tiktoken's TypeError or OverflowError (its ids are 32-bit unsigned
# integers), not a KeyError that calls 1.0 or -1 an unknown token.
NOT_IDS = [-1, 2**32, None, "1", 1.0]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("bad", NOT_IDS, ids=repr)
def test_what_is_no_token_id_is_refused_as_tiktoken_refuses_it(name: str, bad: object) -> None:
    ours, theirs = pair(name)
    same_outcome(ours.decode_single_token_bytes, theirs.decode_single_token_bytes, bad)
    for method in ["decode", "decode_bytes", "decode_tokens_bytes", "decode_with_offsets"]:
        same_outcome(getattr(ours, method), getattr(theirs, method), [31, bad])


@pytest.mark.parametrize("name", NAMES)
def test_numpy_ids_decode_like_ints(name: str) -> None:
    """`encode_to_numpy`'s own ids: three decoders called them unknown tokens (KeyError)."""
    ours, theirs = pair(name)
    ids = ours.encode_to_numpy("hello world, naïve 👋")
    for method in ["decode", "decode_bytes", "decode_tokens_bytes", "decode_with_offsets"]:
        assert getattr(ours, method)(ids) == getattr(theirs, method)(ids)
    assert ours.decode_single_token_bytes(ids[0]) == theirs.decode_single_token_bytes(ids[0])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("errors", ["replace", "ignore", "strict", "backslashreplace"])
def test_decode_errors(name: str, errors: str) -> None:
    ours, theirs = pair(name)
    ids = ours.encode("a👋b")
    cut = ids[:2]  # ends inside the emoji in gpt2; whole tokens elsewhere
    for tokens in [ids, cut, ids[1:]]:
        same_outcome(ours.decode, theirs.decode, tokens, errors=errors)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "text", ["hello world", "我非常渴望与人工智能一起工作", "நடிகர் சூர்யா", " Ġ除", "👋🏽 x"]
)
def test_decode_with_offsets(name: str, text: str) -> None:
    ours, theirs = pair(name)
    tokens = theirs.encode(text)
    assert ours.decode_with_offsets(tokens) == theirs.decode_with_offsets(tokens)


@pytest.mark.parametrize("name", NAMES)
def test_token_byte_values_and_special_flags(name: str) -> None:
    ours, theirs = pair(name)
    assert ours.token_byte_values() == theirs.token_byte_values()
    for token in [0, 300, ours.eot_token, ours.max_token_value]:
        assert ours.is_special_token(token) == theirs.is_special_token(token)


# ---- module functions, names, pickling ---------------------------------------------------------


def test_encoding_names() -> None:
    bundled = ["gpt2", "cl100k_base", "o200k_base", "o200k_harmony", "llama3", "qwen3"]
    assert tk.list_encoding_names() == [*bundled, "r50k_base"]
    assert tk.list_encodings() == bundled  # one per vocabulary
    with pytest.raises(ValueError, match=r"gpt2, cl100k_base, o200k_base, .*, r50k_base"):
        tk.get_encoding("nope")
    # tiktoken's, and what encoding_for_model names for GPT-3's models: "unknown" misled.
    with pytest.raises(ValueError, match="p50k_base is one of tiktoken's encodings, but no"):
        tk.encoding_for_model("text-davinci-003")
    with pytest.raises(ValueError, match="expected the name"):
        tk.get_encoding(3)  # type: ignore[arg-type]


def test_the_package_says_its_version_as_tiktoken_does() -> None:
    """``tiktoken.__version__`` has a twin; it is the project's own version, kept in one place
    for people (pyproject.toml) and read here so the two cannot drift."""
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text("utf-8"))
    assert isinstance(tiktoken.__version__, str)
    assert tk.__version__ == project["project"]["version"]


def test_r50k_base_is_gpt2_under_tiktokens_other_name() -> None:
    r50k, gpt2 = tk.get_encoding("r50k_base"), tk.get_encoding("gpt2")
    assert r50k.name == "r50k_base" and r50k is tk.get_encoding("r50k_base")
    assert r50k._mergeable_ranks is gpt2._mergeable_ranks  # shared, not loaded twice
    text = "hello world's 2024 <|endoftext|>"
    assert r50k.encode(text, allowed_special="all") == gpt2.encode(text, allowed_special="all")


MODELS = [
    "gpt2", "gpt-2", "gpt-4", "gpt-4-0314", "gpt-4-32k", "gpt-3.5-turbo", "gpt-3.5-turbo-0301",
    "gpt-35-turbo", "gpt-4o", "gpt-4o-2024-05-13", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini",
    "gpt-4.5-preview", "gpt-5", "gpt-5-mini", "o1", "o1-mini", "o3", "o3-mini", "o4-mini",
    "o4-mini-2025", "chatgpt-4o-latest", "gpt-oss-120b", "davinci", "text-davinci-003",
    "text-davinci-edit-001", "code-davinci-002", "text-embedding-3-small", "ada",
    "ft:gpt-4o-mini:org", "ft:gpt-4:org", "ft:gpt-3.5-turbo:x", "ft:davinci-002:y",
    "text-search-ada-doc-001", "unknown-model", "gpt", "o2",
]  # fmt: skip


@pytest.mark.parametrize("model", MODELS)
def test_encoding_name_for_model(model: str) -> None:
    same_outcome(tk.encoding_name_for_model, tiktoken.encoding_name_for_model, model)


def test_encoding_for_model() -> None:
    assert tk.encoding_for_model("gpt-4o") is tk.get_encoding("o200k_base")
    assert tk.encoding_for_model("gpt2").name == "gpt2"
    assert tk.encoding_for_model("davinci").name == "r50k_base"
    with pytest.raises(KeyError):
        tk.encoding_for_model("unknown-model")


@pytest.mark.parametrize("name", [*NAMES, "r50k_base"])
def test_bundled_encodings_pickle_by_name(name: str) -> None:
    enc = tk.get_encoding(name)
    assert len(pickle.dumps(enc)) < 200
    assert pickle.loads(pickle.dumps(enc)) is enc


def test_custom_and_trained_encodings_pickle_whole() -> None:
    gpt2 = tk.get_encoding("gpt2")
    custom = tk.Encoding(
        "custom",
        pat_str=gpt2._pat_str,
        mergeable_ranks=gpt2._mergeable_ranks,
        special_tokens={"<|pickle|>": 100_000},
    )
    back = pickle.loads(pickle.dumps(custom))
    assert back.encode("hello world") == custom.encode("hello world") == [31373, 995]
    assert back.encode("<|pickle|>", allowed_special="all") == [100_000]
    trained = tk.train("the cat sat on the mat " * 50, 280)
    back = pickle.loads(pickle.dumps(trained))
    assert back.merges == trained.merges
    assert back.encode("the cat") == trained.encode("the cat")
    assert back.training.merges == trained.training.merges  # type: ignore[union-attr]


def test_an_encoding_named_like_a_bundled_one_pickles_whole() -> None:
    """Built from GPT-2's tables under its name, it is still not the one `get_encoding` keeps:
    pickling it by name would bring back GPT-2 without its extra special token."""
    gpt2 = tk.get_encoding("gpt2")
    extended = tk.Encoding(
        "gpt2",
        pat_str=gpt2._pat_str,
        mergeable_ranks=gpt2._mergeable_ranks,
        special_tokens={**gpt2._special_tokens, "<|extra|>": 50_257},
    )
    back = pickle.loads(pickle.dumps(extended))
    assert back is not gpt2
    assert back.encode("hi<|extra|>", allowed_special="all") == [5303, 50_257]
