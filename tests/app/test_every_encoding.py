"""Every page with every bundled encoding (issue 16): the core's numbers on screen, no exception.

Each page is opened with ``?enc=`` set to each of `tk.list_encodings()`, and what it draws is held
against the core run in the test: the Playground's count and ids against `encode`, the Merges
table's best ranks against `trace`, the Vocabulary's parents against the last merge of `trace`
over the token's own text, Compare's columns against `encode`. Then what is particular to the
open models: Qwen composes text to NFC before splitting (every view is of that text, and says
so), and Llama 3 has no ``<|endoftext|>``.
"""

import re

import pytest

import tokenizer as tk
from tests.app.helpers import live_view, metric, open_app, rerun, shown_ids
from tests.app.test_compare_page import column_counts, open_compare
from tests.app.test_merges import TEXT as MERGES_TEXT
from tests.app.test_merges import best_ranks, block, open_merges, text_ids
from tests.app.test_vocab_page import listed_ids, open_vocab, search, shown_token
from tests.cases import slow_if
from ui.common.examples import DEFAULT_TEXT, EXAMPLES
from ui.common.token_text import label

ENCODINGS = tk.list_encodings()
PAGES = ["playground", "merges", "train", "compare", "vocab"]
# Decomposed accents (e + U+0301, e + U+0300) and Hangul jamo: what NFC composes.
DECOMPOSED = "Un cafe\u0301 cre\u0300me, \u1100\u1161\u11a8 and naïve"


# Opening the Vocabulary page indexes the vocabulary on its first visit (about 2 s for each big
# one): the inner loop opens it with gpt2 only.
@pytest.mark.parametrize(
    ("name", "page"),
    [slow_if(p == "vocab" and n != "gpt2", n, p) for n in ENCODINGS for p in PAGES],
)
def test_every_page_opens_with_every_encoding(name: str, page: str) -> None:
    at = open_app(enc=name)
    if page != "playground":
        at.switch_page(f"pages/{page}.py")
        rerun(at)
    assert at.selectbox(key="common.enc").value == name
    assert not at.error and not at.warning, [e.value for e in (*at.error, *at.warning)]


@pytest.mark.parametrize("name", ENCODINGS)
def test_playground_counts_and_ids_are_the_cores(name: str) -> None:
    at = open_app(enc=name)
    expected = tk.get_encoding(name).encode(DEFAULT_TEXT)
    assert metric(at, "Tokens") == f"{len(expected):,}"
    assert shown_ids(at) == expected


@pytest.mark.parametrize("name", ENCODINGS)
def test_merges_shows_the_cores_pair_ranks(name: str) -> None:
    enc = tk.get_encoding(name)
    at = open_merges(enc=name)
    chunk = at.button_group(key="merges.chunk").value
    trace = enc.trace(MERGES_TEXT)[chunk]
    assert best_ranks(at) == [s.best for s in trace.steps if s.best is not None]
    assert text_ids(at) == enc.encode(MERGES_TEXT)


def most_merged_token(enc: tk.Encoding, text: str) -> tuple[int, tuple[int, int]]:
    """The token of `text` made by the most merges, and its parents as the core's `trace` gives
    them: a chunk that ends as one token was made by its last merge, of its last two pieces."""
    whole = [t for t in enc.trace(text) if len(t.ids) == 1 and len(t.steps) > 2]
    chunk = max(whole, key=lambda t: len(t.steps))
    left, right = chunk.steps[-2].ids
    return chunk.ids[0], (left, right)


@pytest.mark.parametrize("name", [slow_if(n != "gpt2", n) for n in ENCODINGS])
def test_vocabulary_search_finds_a_token_and_its_parents(name: str) -> None:
    enc = tk.get_encoding(name)
    token_id, (left, right) = most_merged_token(enc, DEFAULT_TEXT)
    at = search(open_vocab(enc=name), "bytes", enc.token_bytes(token_id).hex(" "))
    assert listed_ids(at)[0] == token_id  # the exact bytes first
    row = at.dataframe[0].value.iloc[0]
    assert (row["left"], row["right"]) == (label(enc, left), label(enc, right))
    assert row["rank"] == enc.merge_rank(token_id)
    at = search(at, "id", str(token_id))
    assert shown_token(at) == token_id
    at.button(key=f"vocab.parent_{left}")  # the parents, as buttons that open them
    at.button(key=f"vocab.parent_{right}")
    card = next(h.value for h in at.html if 'class="vocab"' in h.value)
    tree = set(map(int, re.findall(r'data-token-id="(\d+)"', card)))
    assert {token_id, left, right} <= tree


@pytest.mark.parametrize("name", ENCODINGS)
def test_compare_with_the_encoding_as_a_side(name: str) -> None:
    other = "gpt2" if name != "gpt2" else "o200k_base"
    at = open_compare(encs=f"{other},{name}")
    assert at.multiselect(key="compare.encs").value == [other, name]
    counts = [len(tk.get_encoding(n).encode(DEFAULT_TEXT)) for n in (other, name)]
    assert column_counts(at) == [f"{c:,}" for c in counts]
    assert any('class="bdw"' in h.value for h in at.html)  # the boundary diff


# ---- Qwen's NFC ---------------------------------------------------------------------------------


def test_qwen3_playground_shows_the_composed_text_and_says_so() -> None:
    qwen = tk.get_encoding("qwen3")
    composed = qwen.normalizer(DECOMPOSED)
    at = open_app(enc="qwen3", text=DECOMPOSED)
    assert shown_ids(at) == qwen.encode(DECOMPOSED) == qwen.encode(composed)
    assert metric(at, "Characters") == f"{len(composed):,}"
    note = next(c.value for c in at.caption if "normalises text (NFC)" in c.value)
    assert f"{len(DECOMPOSED)} characters became {len(composed)}" in note
    # A pinned token's place is in the composed text, where the view draws it.
    tok = qwen.tokenize(DECOMPOSED)
    index = next(i for i, piece in enumerate(tok.pieces) if "é".encode() in piece)
    at.session_state["playground.pin"] = (index, tok.ids[index])
    first, last = tok.char_spans[index]
    assert composed[first:last].endswith("é")
    assert f"chars {first + 1:,}–{last:,}" in live_view(rerun(at))["pin"]


@pytest.mark.parametrize("name", ["qwen3", "llama3"])
def test_merges_of_decomposed_text_follow_the_core(name: str) -> None:
    enc = tk.get_encoding(name)
    at = open_merges(enc=name, text=DECOMPOSED)
    traced = enc.trace(DECOMPOSED)
    chunk = at.button_group(key="merges.chunk").value
    assert best_ranks(at) == [s.best for s in traced[chunk].steps if s.best is not None]
    assert text_ids(at) == enc.encode(DECOMPOSED)
    # The whole text is the text traced: composed for qwen3, the accent a token of its own else.
    assert ("\u0301" in block(at, "mg-text")) == (enc.normalizer is None)
    noted = any("normalises text (NFC)" in c.value for c in at.caption)
    assert noted == (enc.normalizer is not None)


def test_compare_names_the_encoding_that_composes_the_text() -> None:
    at = open_compare(text=DECOMPOSED, encs="llama3,qwen3")
    counts = [len(tk.get_encoding(n).encode(DECOMPOSED)) for n in ("llama3", "qwen3")]
    assert column_counts(at) == [f"{c:,}" for c in counts]
    (info,) = [i.value for i in at.info if "normalises" in i.value]
    assert info.startswith("`qwen3` normalises text (NFC)") and "llama3" not in info
    assert f"divide the text as typed ({len(DECOMPOSED):,} characters)" in info
    # Composed text is the same to both: the boundary diff is drawn.
    composed = open_compare(
        text=tk.get_encoding("qwen3").normalizer(DECOMPOSED), encs="llama3,qwen3"
    )
    assert any('class="bdw"' in h.value for h in composed.html)


def test_compare_lays_side_by_side_those_that_read_the_text_as_typed() -> None:
    """With qwen3 beside two others, the boundary diff used to be left out for every one of
    them; now the two that read the text as typed are compared, and qwen3 is named."""
    at = open_compare(text=DECOMPOSED, encs="gpt2,llama3,qwen3")
    (info,) = [i.value for i in at.info if "normalises" in i.value]
    assert "the columns above show the tokens of `qwen3`" in info
    assert "cannot be laid side by side" not in info
    (diff,) = [h.value for h in at.html if 'class="bdw"' in h.value]
    assert "gpt2" in diff and "llama3" in diff and "qwen3" not in diff


# ---- Llama 3 has no <|endoftext|> ---------------------------------------------------------------


def test_llama3s_special_tokens_example_uses_its_own_document_end() -> None:
    llama = tk.get_encoding("llama3")
    with pytest.raises(KeyError):
        llama.eot_token  # noqa: B018 - tiktoken's behaviour, which pages must not rely on
    at = open_app(enc="llama3")
    at.selectbox(key="playground.example").set_value("Special tokens")
    rerun(at)
    text = at.session_state["playground.text"]
    assert "<|end_of_text|>" in text and "<|endoftext|>" not in text
    assert text == EXAMPLES["Special tokens"].replace("<|endoftext|>", "<|end_of_text|>")
    assert llama.encode_single_token("<|end_of_text|>") in shown_ids(at)
    assert shown_ids(at) == llama.encode(text, allowed_special="all")
    assert "<|end_of_text|>" in at.toggle(key="playground.special").help
