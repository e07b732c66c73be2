"""The vocabulary table and merge trees of a trained vocabulary."""

import io

import pandas as pd
import pytest

import tokenizer as tk
from tests.ui.html_probe import probe
from tests.ui.payloads import XSS_PAYLOADS
from tokenizer import formats
from ui.train.table import (
    COLUMNS,
    HEADERS,
    MAX_TREE_NODES,
    merge_tree,
    merge_tree_html,
    search,
    vocab_csv,
    vocab_frame,
)

CORPUS = "low lower lowest newer newest widest 👋👋 👋🏽\n\tindent   spaces " * 30 + "".join(
    XSS_PAYLOADS * 3
)


@pytest.fixture(scope="module")
def enc() -> tk.Encoding:
    return tk.train(CORPUS, 700, special_tokens=("<|endoftext|>", "<script>"))


def test_one_row_per_id_with_parents_that_make_the_token(enc: tk.Encoding) -> None:
    frame = vocab_frame(enc)
    assert frame["id"].tolist() == list(range(enc.n_vocab))
    merges = frame[frame["kind"] == "merge"]
    assert len(merges) == len(enc.merges)
    for row in merges.itertuples():
        assert enc.token_bytes(row.left) + enc.token_bytes(row.right) == enc.token_bytes(row.id)
        assert bytes.fromhex(row.bytes) == enc.token_bytes(row.id)
    assert merges["count"].tolist() == list(enc.training.counts)
    assert (frame["kind"] == "byte").sum() == 256
    specials = frame[frame["kind"] == "special"]
    assert specials["token"].tolist() == ["<|endoftext|>", "<script>"]
    assert specials["count"].isna().all()


def test_search_by_text_space_id_and_bytes(enc: tk.Encoding) -> None:
    frame = vocab_frame(enc)
    assert set(search(frame, "")["id"]) == set(frame["id"])
    low = search(frame, " low")
    assert len(low) and all("·low" in t for t in low["token"])
    assert 300 in search(frame, "300")["id"].tolist()
    assert 32 in search(frame, "20")["id"].tolist()  # the hex bytes of a space
    assert search(frame, "LOW")["token"].str.contains("low").all()
    assert search(frame, "\u00b2").empty  # a digit for str.isdigit, not for int(): no crash
    assert search(frame, "9" * 5_000).empty  # int() refuses over 4,300 digits: no crash
    spaces = search(frame, "  ")  # what the placeholder promises: a space matches ·
    assert 0 < len(spaces) < len(frame) and all("··" in t for t in spaces["token"])


def test_csv_has_every_row_and_a_bom(enc: tk.Encoding) -> None:
    data = vocab_csv(vocab_frame(enc))
    assert data.startswith(b"\xef\xbb\xbf")
    assert data.decode("utf-8-sig").count("\n") == enc.n_vocab + 1


def test_csv_has_the_rows_listed_under_the_tables_headers(enc: tk.Encoding) -> None:
    """It held every token, under field names, whatever the search listed (QA round 18)."""
    listed = search(vocab_frame(enc), " th")
    back = pd.read_csv(io.BytesIO(vocab_csv(listed)), encoding="utf-8-sig")
    assert list(back.columns) == [HEADERS[name] for name in COLUMNS]
    assert back["Id"].tolist() == listed["id"].tolist()


def test_a_merge_tree_goes_down_to_the_bytes(enc: tk.Encoding) -> None:
    longest = max(range(256, 256 + len(enc.merges)), key=lambda i: len(enc.token_bytes(i)))
    tree = merge_tree(enc, longest)

    def leaves(node) -> bytes:
        return node.piece if not node.children else b"".join(map(leaves, node.children))

    assert leaves(tree) == enc.token_bytes(longest)
    assert merge_tree(enc, 65).children == ()


def test_big_trees_are_cut_at_whole_levels() -> None:
    enc = tk.train("a" * 5000, 256 + 12, special_tokens=(), pattern=None)
    big = 256 + 10  # merge 10 made 2,048 a's: a full binary tree of 4,095 nodes

    def size(node) -> int:
        return 1 + sum(map(size, node.children))

    tree = merge_tree(enc, big)
    assert size(tree) <= MAX_TREE_NODES
    assert "tree cut" in merge_tree_html(enc, big)


def test_merge_tree_html_escapes_every_token(enc: tk.Encoding) -> None:
    for token_id in range(256, enc.n_vocab):
        html = merge_tree_html(enc, token_id)
        tags = {e.tag for e in probe(html).elements}
        assert tags <= {"div", "style", "ul", "li", "span"}, (token_id, tags)


def test_a_vocabulary_without_merges_says_so_in_its_tree(enc: tk.Encoding) -> None:
    ranks = formats.load_tiktoken(formats.dump_tiktoken(enc), pattern="gpt2")
    longest = max(range(256, len(enc.merges) + 256), key=lambda i: len(enc.token_bytes(i)))
    html = merge_tree_html(ranks, longest)
    assert "no merge list" in html
    assert vocab_frame(ranks)["parents"].eq("").all()
