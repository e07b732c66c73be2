"""Our ids equal the references' (tests/oracles.py): tiktoken, Meta's Llama 3, HF for Qwen 3."""

import pytest
from hypothesis import given

import tokenizer as tk
from tests.cases import slow_if
from tests.core.texts import corpus_texts, stdlib_code, texts
from tests.oracles import oracle_ids

NAMES = tk.list_encodings()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("file", sorted(corpus_texts()))
def test_corpus_matches_oracle(name: str, file: str) -> None:
    text = corpus_texts()[file]
    enc = tk.get_encoding(name)
    assert enc.encode_ordinary(text) == oracle_ids(name, text)


@pytest.mark.parametrize("name", NAMES)
def test_stdlib_code_matches_oracle(name: str) -> None:
    code = stdlib_code()
    assert len(code) > 300_000
    assert tk.get_encoding(name).encode_ordinary(code) == oracle_ids(name, code)


@pytest.mark.parametrize("name", NAMES)
@given(text=texts)
def test_generated_text_matches_oracle(name: str, text: str) -> None:
    enc = tk.get_encoding(name)
    assert enc.encode_ordinary(text) == oracle_ids(name, text)
    assert enc.encode(text, allowed_special="all") == oracle_ids(name, text, "all")


# Qwen 3's oracle is a tokenizer.json written for each allowed set (151,669 ids, ~0.7 s each).
@pytest.mark.parametrize("name", [slow_if(n == "qwen3", n) for n in NAMES])
def test_allowed_special_subset(name: str) -> None:
    enc = tk.get_encoding(name)
    by_id = sorted(enc.special_tokens, key=enc.special_tokens.__getitem__)
    first, last = by_id[0], by_id[-1]
    text = f"a<|endoftext|>b<|endofprompt|>c <|fim_prefix|>{first}x{last} {first}"
    for allowed in [set(), {"<|endoftext|>"}, {"<|endofprompt|>"}, {first}, "all"]:
        ids = enc.encode(text, allowed_special=allowed, disallowed_special=())
        assert ids == oracle_ids(name, text, allowed)
    ids = enc.encode(text, allowed_special={first}, disallowed_special=())
    assert ids.count(enc.special_tokens[first]) == text.count(first)


@pytest.mark.parametrize("name", NAMES)
def test_gpt2_original_pattern_equals_tiktoken_rewrite_on_whitespace(name: str) -> None:
    """Trailing and mixed whitespace is where pattern rewrites usually differ."""
    enc = tk.get_encoding(name)
    for text in ["a  ", "a \n", "a\n\n  b", " \t\n ", "x   \n\n\t y  ", "\n", "   "]:
        assert enc.encode_ordinary(text) == oracle_ids(name, text)


def test_hello_world() -> None:
    assert tk.get_encoding("gpt2").encode("hello world") == [31373, 995]
