"""Side-by-side figures, the plain-words verdict, the boundary diff of any number of tokenizers."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from tests.ui.html_probe import probe
from tests.ui.payloads import XSS_PAYLOADS
from ui.common.glyphs import DOTTED_CIRCLE, visible_html
from ui.common.stats import text_stats
from ui.common.token_view import ViewOptions, render_tokens
from ui.compare.colours import slots
from ui.compare.view import (
    LANE_COLOURS,
    Row,
    boundaries,
    boundary_diff,
    char_offsets,
    cheapest_sentence,
    column_html,
    diff_html,
    diff_summary,
    figures_frame,
    lane_counts,
    ratio_caption,
    stretches,
)

TEXT = "Hello 👋🏽 world   1234567 naïve 你好世界 <|endoftext|> def f(x):\n    return x"


NAMES = ["gpt2", "cl100k_base", "o200k_base"]


@pytest.fixture(scope="module")
def three() -> list[tk.Tokenized]:
    return [tk.get_encoding(name).tokenize(TEXT) for name in NAMES]


def test_boundaries_are_token_ends_inside_the_text() -> None:
    tok = tk.get_encoding("gpt2").tokenize("hello world!")
    assert sorted(boundaries(tok)) == [5, 11]


@pytest.mark.parametrize("n", [2, 3])
def test_stretches_cover_the_text_and_differ_exactly_where_any_cut_differs(three, n) -> None:
    diff = boundary_diff(three[:n])
    parts = stretches(TEXT, diff)
    assert parts[0].start == 0 and parts[-1].end == len(TEXT)
    assert all(x.end == y.start for x, y in pairwise(parts))
    offsets = char_offsets(TEXT)
    for part in parts:
        lo, hi = offsets[part.start], offsets[part.end]
        inside = {p for p in diff.differing if lo < p < hi}
        assert part.differs == bool(inside)
    assert diff.shared == frozenset.intersection(*diff.cuts)
    for i in range(n):  # a unique cut is in no other tokenizer's set
        assert all(
            all(p not in c for c in diff.cuts[:i] + diff.cuts[i + 1 :]) for p in diff.unique(i)
        )


def test_identical_tokenizations_have_no_differing_stretch() -> None:
    tok = tk.get_encoding("gpt2").tokenize(TEXT)
    assert not any(s.differs for s in stretches(TEXT, boundary_diff([tok, tok, tok])))
    assert "exactly the same pieces" in diff_summary([tok, tok, tok])


def test_a_diff_needs_the_same_text() -> None:
    gpt2 = tk.get_encoding("gpt2")
    with pytest.raises(ValueError, match="same text"):
        boundary_diff([gpt2.tokenize("a"), gpt2.tokenize("b")])


def test_summary_and_per_tokenizer_counts(three) -> None:
    diff = boundary_diff(three)
    text = diff_summary(three)
    assert text.startswith(f"All 3 share {len(diff.shared):,} token boundaries")
    counts = lane_counts(three, NAMES)
    assert [c.tokens for c in counts] == [len(t.ids) for t in three]
    assert [c.unique for c in counts] == [len(diff.unique(i)) for i in range(3)]


def test_one_shared_boundary_is_said_in_the_singular() -> None:
    """The summary said "Both share 1 token boundaries"; its second half had its singular."""
    toks = [tk.get_encoding(name).tokenize("   \n\t ") for name in ("gpt2", "cl100k_base")]
    assert len(boundary_diff(toks).shared) == 1
    assert diff_summary(toks).startswith("Both share 1 token boundary; ")


def shown(html: str) -> str:
    """The text the diff shows once, for the stretches all cut alike (markers are empty)."""
    return "".join(e.text for e in probe(html).with_class("same"))


def lane_text(html: str, lane: int) -> str:
    """What one tokenizer's reading shows: shared text, then its own row in each block."""
    doc = probe(html)
    return "".join(
        e.text
        for e in doc.elements
        if e.attrs.get("class") == "same" or e.attrs.get("class") == f"lane l{lane}"
    ).replace("\n", "")


@given(st.text(max_size=80))
def test_any_text_reads_whole_in_every_row(text: str) -> None:
    text = text.encode("utf-8", "replace").decode("utf-8")
    toks = [tk.get_encoding(name).tokenize(text) for name in NAMES]
    html = diff_html(toks, NAMES, show_whitespace=True)
    expected = visible_html(text, show_whitespace=True, line_breaks=False)
    expected = probe(f"<div>{expected}</div>").elements[0].text
    for lane in range(3):  # each row is the text, aligned with the rest
        # (and a combining mark that starts a block on a dotted circle, in every row)
        assert lane_text(html, lane).replace(DOTTED_CIRCLE, "") == expected.replace(
            DOTTED_CIRCLE, ""
        )


def test_each_row_marks_its_own_cuts_and_the_unique_ones(three) -> None:
    html = diff_html(three, NAMES, show_whitespace=False)
    doc = probe(html)
    diff = boundary_diff(three)
    offsets = char_offsets(TEXT)
    for lane in range(3):
        rows = [e for e in doc.elements if e.attrs.get("class") == f"lane l{lane}"]
        assert rows, "every tokenizer has a row in each differing block"
        marked = [e for e in doc.elements if e.attrs.get("class", "").endswith((" u", " p"))]
        assert marked
    unique_chars = sum(
        1 for i in range(3) for p in diff.unique(i) if p in offsets and 0 < p < offsets[-1]
    )
    unique_marks = [e for e in doc.elements if e.attrs.get("class", "").endswith(" u")]
    assert len(unique_marks) >= 1 and unique_chars >= 1
    assert doc.with_class("mid")  # the emoji some cut inside
    key = doc.with_class("bdiff-key")[0].text
    assert all(name in key for name in NAMES) and "cuts only it makes" in key


def test_dense_text_is_cut_into_blocks_that_wrap() -> None:
    text = "naïve café 你好世界 " * 20  # few boundaries shared by all three
    toks = [tk.get_encoding(name).tokenize(text) for name in NAMES]
    doc = probe(diff_html(toks, NAMES, show_whitespace=False))
    blocks = doc.with_class("blk")
    assert blocks and all(len(b.text) <= 3 * 40 for b in blocks)


def test_an_accent_that_starts_a_block_sits_on_a_dotted_circle_in_every_lane() -> None:
    """Cut off from its "e", the U+0301 of "café" was a tick half hidden by the lanes' bars."""
    toks = [tk.get_encoding(name).tokenize("cafe\u0301 naive") for name in NAMES]
    lanes = [lane.text for lane in probe(diff_html(toks, NAMES, show_whitespace=False)).elements
             if lane.attrs.get("class", "").startswith("lane")]  # fmt: skip
    accented = [lane for lane in lanes if "\u0301" in lane]
    assert len(accented) == len(NAMES)
    assert all("\u25cc\u0301" in lane for lane in accented)


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_hostile_text_and_names_stay_text(payload: str) -> None:
    toks = [tk.get_encoding(n).tokenize(payload) for n in ("gpt2", "cl100k_base")]
    html = diff_html(toks, [payload, "<b>x</b>"], show_whitespace=False)
    tags = {e.tag for e in probe(html).elements}
    assert tags <= {"div", "span", "style", "b"}
    assert [e.text for e in probe(html).elements if e.tag == "b"] == [payload, "<b>x</b>"]


def test_a_column_draws_every_token_and_no_ids_pane() -> None:
    enc = tk.get_encoding("gpt2")
    tok = enc.tokenize(TEXT)
    html = column_html(render_tokens(tok, enc, ViewOptions(ids=False)))  # as the tab draws it
    assert html.startswith('<div class="cmp-col">')
    spans = [e for e in probe(html).with_class("tok") if "bytes" not in e.attrs["class"]]
    assert len(probe(html).with_class("tok")) == len(tok.ids) >= len(spans)
    assert not probe(html).with_class("bpl-ids")


def test_a_ratio_wraps_between_its_figures_never_inside_one() -> None:
    caption = ratio_caption(text_stats("naïve café", 4))
    assert caption.replace("\N{NO-BREAK SPACE}", " ") == "2.50 chars / token · 3.00 bytes / token"
    assert [part.count(" ") for part in caption.split(" · ")] == [0, 0]  # breaks only at "·"


def test_figures_and_verdict() -> None:
    rows = [
        Row("gpt2", text_stats("x" * 100, 40)),
        Row("cl100k_base", text_stats("x" * 100, 25)),
        Row("o200k_base", text_stats("x" * 100, 25)),
    ]
    frame = figures_frame(rows)
    assert frame["Tokens"].tolist() == [40, 25, 25]
    assert frame["vs cheapest"].tolist() == ["+60%", "cheapest", "cheapest"]
    assert frame["Chars / token"].tolist() == [2.5, 4.0, 4.0]
    assert cheapest_sentence(rows) == (
        "cl100k_base and o200k_base tie as the cheapest for this text: 25 tokens each. "
        "gpt2 needs 40 (60% more)."
    )


def test_verdict_edge_cases() -> None:
    same = [Row("a", text_stats("xy", 1)), Row("b", text_stats("xy", 1))]
    assert cheapest_sentence(same).startswith("All of them need the same number")
    assert cheapest_sentence([Row("a", text_stats("", 0))]) == "Type some text to compare."
    # No text: no encoding is the cheapest, however equal their 0 tokens.
    empty = figures_frame([Row("a", text_stats("", 0)), Row("b", text_stats("", 0))])
    assert empty["vs cheapest"].tolist() == ["–", "–"]


def test_a_lane_of_one_token_says_token() -> None:
    spaces = [tk.get_encoding(name).tokenize(" " * 6) for name in NAMES]
    counts = [len(tok.ids) for tok in spaces]
    assert 1 in counts and max(counts) > 1  # cl100k_base: one token; gpt2: more
    (legend,) = probe(diff_html(spaces, NAMES, show_whitespace=False)).with_class("bdiff-key")
    for name, n in zip(NAMES, counts, strict=True):
        assert f"{name} {n} {'token' if n == 1 else 'tokens'} · " in legend.text


def test_each_tokenizers_lane_has_its_own_hue_whatever_its_place(
    three: list[tk.Tokenized],
) -> None:
    """Lane colours went by place, so a tokenizer was blue first and green third; they are the
    charts' fixed hues now (ui/compare/colours.py)."""
    forward = diff_html(three, NAMES, show_whitespace=False)
    backward = diff_html(three[::-1], NAMES[::-1], show_whitespace=False)
    for lane, name in enumerate(NAMES):
        (slot,) = slots([name])
        assert f".bdiff .l{lane}{{border-left:3px solid {LANE_COLOURS[slot]}}}" in forward
        flipped = len(NAMES) - 1 - lane
        assert f".bdiff .l{flipped}{{border-left:3px solid {LANE_COLOURS[slot]}}}" in backward
