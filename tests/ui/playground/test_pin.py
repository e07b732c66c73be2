"""The pinned token's panel and the parents it names."""

import random

import pytest

import tokenizer as tk
from tests.ui.html_probe import Probe, probe
from tests.ui.payloads import XSS_PAYLOADS
from tokenizer.vocab import parents_from_merges, parents_from_ranks
from ui.common.token_pane import PinPanel
from ui.common.token_view import tooltip
from ui.common.tokens import _parents_by_bpe, merge_parents
from ui.playground.panels import pinned_index
from ui.playground.pin import pin_html

PANEL_TAGS = {"div", "span", "code", "a", "button"}


@pytest.fixture(scope="module")
def gpt2() -> tk.Encoding:
    return tk.get_encoding("gpt2")


def _probe(panel: PinPanel) -> Probe:
    """Both places of the panel, read as one document."""
    return probe(f"<div>{panel.facts}</div><div>{panel.actions}</div>")


def test_the_panel_names_id_rank_parents_bytes_and_links_the_vocabulary(
    gpt2: tk.Encoding,
) -> None:
    tok = gpt2.tokenize("hello world")
    panel = pin_html(gpt2, tok, 1, merge_parents(gpt2, 995))
    text = _probe(panel).elements[0].text
    assert "#995" in text and "token 2, chars 6–11" in text  # both counted from 1
    assert "merge rank 739: ·wor #476 + ld #335" in text
    assert "bytes 20 77 6F 72 6C 64" in text
    actions = probe(panel.actions)
    (link,) = [e for e in actions.elements if e.tag == "a"]
    assert link.attrs == {
        "href": "vocab?enc=gpt2&id=995",
        "data-vocab": "995",
        "aria-label": "Open #995 in Vocabulary",  # its words, "Open in Vocabulary", name no id
    }
    assert [e.text for e in actions.elements if e.tag == "button"] == ["Unpin (Esc)"]


def test_bytes_and_special_tokens_are_made_by_no_merge(gpt2: tk.Encoding) -> None:
    """In the words of the facts line the panel replaces (it said "a single byte, made by no
    merge" where hovering said "single byte, no merge")."""
    tok = gpt2.tokenize("a<|endoftext|>", "all")
    for i, origin in enumerate(["single byte, no merge", "special token"]):
        assert f"· {origin} ·" in tooltip(tok, i, gpt2)
        assert f"· {origin} ·" in pin_html(gpt2, tok, i, None).facts


def test_without_a_link_the_panel_keeps_its_button(gpt2: tk.Encoding) -> None:
    """The Chat view's encoding with a template's tokens is not one the Vocabulary page opens."""
    actions = probe(pin_html(gpt2, gpt2.tokenize("hi"), 0, None, link=False).actions)
    assert [e.tag for e in actions.elements] == ["button"]


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_the_panel_keeps_hostile_text_as_text(gpt2: tk.Encoding, payload: str) -> None:
    tok = gpt2.tokenize(payload)
    for i, token_id in enumerate(tok.ids):
        panel = _probe(pin_html(gpt2, tok, i, merge_parents(gpt2, token_id)))
        assert {e.tag for e in panel.elements} <= PANEL_TAGS
        assert sum(e.tag == "a" for e in panel.elements) == 1


def test_parents_by_bpe_over_ranks_match_gpt2s_merge_list(gpt2: tk.Encoding) -> None:
    """The ranks-only path (cl100k_base, o200k_base) recovers exactly the merges GPT-2 lists."""
    listed = parents_from_merges(gpt2)
    assert listed is not None
    sample = random.Random(14).sample(range(256, 50_256), 2_000)
    for token_id in sample:
        assert _parents_by_bpe(gpt2, gpt2.token_bytes(token_id), token_id - 256) == listed[token_id]


@pytest.mark.slow
def test_parents_of_cl100k_tokens_are_the_vocabulary_pages() -> None:
    cl100k = tk.get_encoding("cl100k_base")
    parents, _ = parents_from_ranks(cl100k)
    for token_id in random.Random(15).sample(range(256, 100_256), 3_000):
        assert merge_parents(cl100k, token_id) == parents[token_id]


def test_a_pin_follows_its_token_when_the_text_changes_before_it() -> None:
    assert pinned_index((5, 7, 5), (2, 5)) == 2  # still there
    assert pinned_index((1, 9, 5, 7, 5), (2, 5)) == 2  # nearest with the same id
    assert pinned_index((9, 5, 7), (0, 5)) == 1
    assert pinned_index((1, 2), (0, 5)) is None  # gone
    assert pinned_index((1, 2), None) is None
