"""The explorer's views: honest token text, escaped HTML, the merge tree, table rows, links."""

import io
import re

import pandas as pd
import pytest

import tokenizer as tk
from tests.ui.html_probe import probe
from tests.ui.payloads import XSS_PAYLOADS
from tokenizer.vocab import Vocabulary, build_vocabulary
from ui.common.limits import MAX_TREE_COLUMNS, MAX_TREE_DEPTH
from ui.common.links import vocab_url
from ui.common.token_text import label, plain, read_glyphs, token_html, write_glyphs
from ui.vocab.view import listing_csv, rows, token_card_html

ALLOWED_TAGS = {"div", "span", "style", "b", "code", "small"}
ALLOWED_ATTRS = {"class", "style", "title", "data-token-id"}


@pytest.fixture(scope="module")
def gpt2() -> Vocabulary:
    return build_vocabulary(tk.get_encoding("gpt2"))


def assert_only_our_markup(html: str) -> None:
    for element in probe(html).elements:
        assert element.tag in ALLOWED_TAGS, element
        assert set(element.attrs) <= ALLOWED_ATTRS, element
        if "style" in element.attrs and element.tag != "style":
            assert element.attrs["style"].startswith(("flex:", "min-width:")), element


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_token_text_is_escaped(payload: str) -> None:
    html = token_html(payload.encode("utf-8"))
    assert_only_our_markup(html)
    assert probe(f"<div>{html}</div>").elements[0].text == plain(payload.encode("utf-8"))


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_a_hostile_trained_token_is_escaped_in_the_card_and_tree(payload: str) -> None:
    data = payload.encode("utf-8")[:40]
    # A trained vocabulary whose last token is the payload, built left to right.
    merges = [(data[0], data[1])] + [(256 + i, b) for i, b in enumerate(data[2:])]
    enc = tk.Encoding.from_merges(name="x", pattern=r".+", merges=merges, special_tokens={})
    vocab = build_vocabulary(enc)
    html = token_card_html(vocab, enc.n_vocab - 1)
    assert_only_our_markup(html)
    assert plain(data) in probe(html).with_class("vc-token")[0].text


def test_plain_text_shows_whitespace_controls_and_bad_bytes() -> None:
    assert plain(b" the\n") == "·the↵"
    assert plain(b"\t\x00") == "→␀"
    assert plain(b"\xe2\x80") == "⟨E2 80⟩"
    assert plain("é\u200b".encode()) == "éU+200B"
    assert plain(b" a\tb\nc\r") == "·a→b↵c␍"
    assert plain(b"\x1b[0m") == "␛[0m"


def test_the_search_box_reads_the_glyphs_it_shows() -> None:
    assert read_glyphs("·the↵→") == " the\n\t"
    assert write_glyphs(" SolidGoldMagikarp") == "·SolidGoldMagikarp"
    assert read_glyphs(write_glyphs(" a\tb\nc\r\u00a0")) == " a\tb\nc\r\u00a0"


def test_rows_name_the_parents(gpt2: Vocabulary) -> None:
    (row, byte, special) = rows(gpt2, [43453, 220, 50256])
    assert (row.id, row.token, row.length, row.rank) == (43453, "·SolidGoldMagikarp", 18, 43197)
    assert (row.left, row.right, row.used_in) == ("·Solid (#15831)", "GoldMagikarp (#42202)", 0)
    assert row.bytes.startswith("20 53 6F")
    assert (byte.token, byte.rank, byte.left, byte.right) == ("·", None, None, None)
    assert byte.used_in > 100  # " t", " a", ...
    assert (special.token, special.rank) == ("<|endoftext|>", None)


def test_label() -> None:
    assert label(tk.get_encoding("gpt2"), 262) == "·the (#262)"


def test_the_card_draws_the_merge_tree_down_to_bytes(gpt2: Vocabulary) -> None:
    html = token_card_html(gpt2, 43453)
    assert_only_our_markup(html)
    boxes = probe(html).with_class("vt-box")
    assert [b.attrs["data-token-id"] for b in boxes[:3]] == ["43453", "15831", "4294"]
    # A binary tree over 18 bytes: 18 leaves and 17 merges, each merge with a row of parents.
    assert len(boxes) == 2 * 18 - 1
    assert html.count('class="vt-kids"') == 17
    assert boxes[0].text == "·SolidGoldMagikarp#43453r43197"


def test_single_bytes_and_special_tokens_have_no_tree(gpt2: Vocabulary) -> None:
    for token_id in (220, 50256):
        html = token_card_html(gpt2, token_id)
        assert not probe(html).with_class("vt-box")
        assert_only_our_markup(html)
    assert "special token" in token_card_html(gpt2, 50256)
    assert "single byte" in token_card_html(gpt2, 220)


def test_a_huge_trained_token_draws_a_bounded_tree() -> None:
    merges = [(97, 97), *((256 + i, 97) for i in range(2_000))]  # "aa", "aaa", ... 2,002 a's
    enc = tk.Encoding.from_merges(name="chain", pattern=r".+", merges=merges, special_tokens={})
    html = token_card_html(build_vocabulary(enc), enc.n_vocab - 1)
    # Drawn MAX_TREE_DEPTH levels down, then cut; at most MAX_TREE_COLUMNS columns wide.
    assert html.count('class="vt-kids"') == MAX_TREE_DEPTH
    assert len(probe(html).with_class("vt-box")) == 2 * MAX_TREE_DEPTH + 1
    assert len(probe(html).with_class("cut")) == 1
    (width,) = re.findall(r"min-width:([\d.]+)em", html)
    assert float(width) <= MAX_TREE_COLUMNS * 2.4


def test_vocab_url_is_a_relative_permalink() -> None:
    assert vocab_url("gpt2", 43453) == "vocab?enc=gpt2&id=43453"
    assert vocab_url("my vocab&x", 5) == "vocab?enc=my+vocab%26x&id=5"


def test_a_listings_csv_has_every_token_under_the_tables_headers(gpt2: Vocabulary) -> None:
    """The grid's own download held one page of 100 rows under field names (`used_in`); the
    page's CSV holds the whole list, its exact bytes in hex, and defuses formula-like tokens."""
    ids = [i for i in gpt2.ids if gpt2.enc.token_bytes(i).startswith((b"=", b" the", b" a"))]
    assert len(ids) > 100
    labels = {"id": "id", "token": "token", "rank": "merge rank", "bytes": "bytes (hex)"}
    frame = pd.read_csv(io.BytesIO(listing_csv(gpt2, ids, labels)), encoding="utf-8-sig",
                        keep_default_na=False)  # fmt: skip
    assert list(frame.columns) == list(labels.values())
    assert frame["id"].tolist() == ids
    for row in frame.itertuples(index=False):
        assert bytes.fromhex(row[3]) == gpt2.enc.token_bytes(row[0])
        assert not str(row[1]).startswith("=")  # "'=" in a spreadsheet: text, not a formula
    assert frame.loc[frame["id"] == 28, "token"].item() == "'="  # token 28 is "="
