"""Long texts are encoded block by block: the blocks' chunks are exactly the text's chunks.

`tokenizer.splitter.block_cutter` argues why a newline before an ASCII letter or digit always
ends a chunk of the bundled patterns (for GPT-2, after a visible character); these tests try to
break that on texts built around such newlines, on real text, and against tiktoken.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from tests.cases import slow_if
from tests.core.texts import corpus_texts, stdlib_code
from tests.oracles import oracle_ids
from tokenizer.patterns import PATTERNS
from tokenizer.splitter import BLOCK_MIN_CHARS, block_cutter, splitter

NAMES = tk.list_encodings()

# Pieces that meet around newlines in every way the patterns care about.
_AROUND = st.sampled_from(
    ["a", "A", "e", "I", "1", "5", "9", "0", ".", "'", "/", "!", "~", " ", "  ", "\t", "\r",
     "\n", "\n\n", "\r\n", "'s", "'LL", "é", "Ü", "日本", "\u0301", "🙂", "\u00a0", "\u3000",
     "x/", "/\n", ":\n", "\n/"]
)  # fmt: skip
fragments = st.lists(_AROUND, min_size=1, max_size=40).map("".join)
texts = st.lists(fragments, min_size=1, max_size=30).map("\n".join)


def blocks_of(pattern: str, text: str) -> list[str]:
    """The text cut where `block_cutter` allows."""
    cutter = block_cutter(pattern)
    assert cutter is not None
    ends = [m.end() for m in cutter.finditer(text)]
    return [text[a:b] for a, b in zip([0, *ends], [*ends, len(text)], strict=True)]


def assert_blocks_split_alike(pattern: str, text: str) -> None:
    split = splitter(pattern)
    assert [c for block in blocks_of(pattern, text) for c in split(block)] == split(text)


@pytest.mark.parametrize("name", NAMES)
@given(text=texts)
def test_blocks_split_as_the_whole_text(name: str, text: str) -> None:
    assert_blocks_split_alike(PATTERNS[name], text)


@pytest.mark.parametrize("name", NAMES)
def test_real_text_blocks_split_as_the_whole_text(name: str) -> None:
    for text in [*corpus_texts().values(), stdlib_code()]:
        assert_blocks_split_alike(PATTERNS[name], text)
    code = blocks_of(PATTERNS[name], stdlib_code())
    assert len(code) > 20


# Qwen 3's oracle (Hugging Face on a 151,669-id tokenizer.json) takes seconds on long texts.
@pytest.mark.parametrize("name", [slow_if(n == "qwen3", n) for n in NAMES])
@given(text=texts)
def test_long_texts_encode_as_tiktoken(name: str, text: str) -> None:
    long = (text + "\n") * (BLOCK_MIN_CHARS // (len(text) + 1) + 1)
    enc = tk.get_encoding(name)
    assert enc.encode_ordinary(long) == oracle_ids(name, long)
    assert enc.encode_ordinary(long) == oracle_ids(name, long)  # now from the block cache


def test_a_second_pass_reads_whole_blocks() -> None:
    enc = tk.get_encoding("cl100k_base")
    text = corpus_texts()["the-verdict.txt"]
    enc.block_cache.clear()
    first = enc.encode_ordinary(text)
    assert len(enc.block_cache) > 10
    enc.chunk_cache.clear()  # the second pass needs no chunk at all
    assert enc.encode_ordinary(text) == first
    assert len(enc.chunk_cache) == 0
    edited = text.replace("Gisburn", "Gisbourne", 1)
    assert enc.encode_ordinary(edited) == oracle_ids("cl100k_base", edited)
    # Only the edited block was split again: a small part of the text's chunks.
    assert 0 < len(enc.chunk_cache) < len(set(enc.split(edited))) / 4


def test_other_patterns_are_never_cut() -> None:
    assert block_cutter(r"\S+|\s+") is None
    trained = tk.train(corpus_texts()["the-verdict.txt"], 300, pattern=r"\w+|\W")
    trained.encode_ordinary(corpus_texts()["the-verdict.txt"])
    assert len(trained.block_cache) == 0
