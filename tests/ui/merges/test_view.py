"""The merges page's HTML and chip labels: right numbers, right highlights, nothing unescaped."""

import itertools
import re
import string
from html import unescape

import pytest

import tokenizer as tk
from tests.ui.html_probe import probe
from tests.ui.payloads import XSS_PAYLOADS
from tokenizer.patterns import PATTERNS
from ui.common.limits import MAX_ROW_PIECES
from ui.merges.chart import count_points, token_count_chart
from ui.merges.model import build_walkthrough
from ui.merges.view import (
    CHIP_CHARS,
    MAX_TABLE_ROWS,
    alternatives_html,
    chip_label,
    chunk_html,
    markdown_literal,
    pattern_html,
    piece_html,
    presentation_css,
    step_summary,
    step_words,
    summary_html,
    whole_text_html,
)

GPT2 = tk.get_encoding("gpt2")
WALK = build_walkthrough(GPT2, "GPT2 was created by OpenAI")
OPENAI = WALK.chunks[-1]


def rows(html: str) -> list[dict[str, str]]:
    return [e.attrs for e in probe(html).elements if "mg-row" in e.attrs.get("class", "")]


def test_the_walkthrough_table_of_openai() -> None:
    html = chunk_html(OPENAI, OPENAI.merges, "text")
    assert [r.get("data-best") for r in rows(html)] == ["12", "184", "3361", "4690", "19929", None]
    assert "no pair left to merge" in html
    parsed = probe(html)
    assert [e.text for e in parsed.with_class("mg-id")] == ["4946", "20185"]
    assert [e.attrs["data-token-id"] for e in parsed.with_class("mg-id")] == ["4946", "20185"]
    (now,) = [r for r in rows(html) if "mg-now" in r["class"]]
    assert now["data-merges"] == "5"  # the chunk's 5th merge ...
    assert now["data-step"] == "18"  # ... is the whole text's step 18 (k merges applied)
    assert [r["data-step"] for r in rows(html)] == ["0", "4", "11", "15", "16", "18"]


def in_rows(html: str, css_class: str) -> list[str]:
    """The texts of the elements with `css_class` in the table's body (not its header's key)."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [e.text for e in probe(body).with_class(css_class)]


def test_first_row_shows_every_pair_rank_and_lights_the_best() -> None:
    html = chunk_html(OPENAI, 0, "symbols")
    parsed = probe(html)
    (row,) = [e for e in parsed.elements if e.tag == "tr" and "mg-row" in e.attrs.get("class", "")]
    assert in_rows(html, "mg-r") == ["184", "18001", "175", "12", "—", "19929"]
    assert in_rows(html, "mg-best") == ["12"]
    assert [e.text for e in parsed.with_class("mg-pick")] == ["e", "n"]
    assert "Ġ" in row.text  # the space, as GPT-2's byte symbol
    assert "mg-pending" in parsed.with_class("mg-lookup")[0].attrs["class"]  # ids come last


def test_rows_are_revealed_up_to_the_current_step() -> None:
    for upto in range(OPENAI.merges + 1):
        assert len(rows(chunk_html(OPENAI, upto, "text"))) == upto + 1


def test_every_occurrence_of_the_best_pair_is_lit_and_counted() -> None:
    chunk = build_walkthrough(GPT2, "zzzzzzzz").chunks[0]
    step = next(s for s in chunk.trace.steps if s.best is not None and s.ranks.count(s.best) > 2)
    upto = chunk.trace.steps.index(step)
    lit = in_rows(chunk_html(chunk, upto, "text"), "mg-best")
    assert len(lit) > 1
    assert f"× {len(lit)}" in chunk_html(chunk, upto + 1, "text")  # the row it leads to says so


def test_long_chunks_are_capped() -> None:
    chunk = build_walkthrough(GPT2, "q" * 600).chunks[0]
    parsed = probe(chunk_html(chunk, chunk.merges, "hex"))
    table_rows = [e for e in parsed.elements if e.tag == "tr" and "data-step" in e.attrs]
    assert len(table_rows) <= MAX_TABLE_ROWS
    first_row = chunk_html(chunk, 0, "hex")
    assert len(probe(first_row).with_class("mg-p")) == MAX_ROW_PIECES  # row 0: single bytes
    assert "480 more" in first_row


@pytest.mark.parametrize(
    ("piece", "style", "shown"),
    [
        (b" the", "text", "·the"),
        (b" the", "symbols", "Ġthe"),
        (b" the", "hex", "20 74 68 65"),
        (b"\n", "symbols", "Ċ"),
        (b"\xf0\x9f", "text", "F0 9F"),  # half an emoji is not text: its bytes
        (b"<b>&", "text", "<b>&"),
        (b"<b>&", "symbols", "<b>&"),
    ],
)
def test_piece_styles(piece: bytes, style: str, shown: str) -> None:
    assert probe(f"<span>{piece_html(piece, style)}</span>").elements[0].text == shown


def test_the_whole_text_at_a_step_lights_the_tokens_this_step_made() -> None:
    html = whole_text_html(WALK, 4, GPT2, "text")
    summary = step_summary(WALK, 4)
    assert summary is not None
    assert (summary.rank, summary.left, summary.right, summary.places) == (12, b"e", b"n", 1)
    assert summary.merged == 268  # rank 12 makes id 268, "en"
    ids = [int(e.attrs["data-token-id"]) for e in probe(html).with_class("tok")]
    assert ids == WALK.ids_at(4)
    made = WALK.made_positions(4)  # outlined by the block
    assert made and all(ids[i] == 268 for i in made)
    assert WALK.made_positions(0) == []
    assert "Step 4</b> of 18" in html
    assert "(id&nbsp;268)" in html  # never "(id" at a line's end, "268)" on the next


def test_the_words_said_for_a_step_are_its_headline_in_plain_text() -> None:
    tokens = WALK.token_counts[4]
    assert (
        step_words(WALK, 4)
        == f"Step 4 of 18: merge of rank 12, e + n → en (id 268), {tokens} tokens."
    )
    assert step_words(WALK, 0) == f"Step 0 of 18: single bytes, {WALK.token_counts[0]} tokens."


def test_one_token_is_one_token_not_one_tokens() -> None:
    """A text of one character ("a") is one token before any merge; "ab" one after its merge."""
    one = build_walkthrough(GPT2, "a")
    assert step_words(one, 0) == "Step 0 of 0: single bytes, 1 token."
    assert "its own token · 1 token</div>" in summary_html(None, one, "hex")
    merged = build_walkthrough(GPT2, "ab")
    assert step_words(merged, 1).endswith("(id 397), 1 token.")
    assert summary_html(step_summary(merged, 1), merged, "hex").endswith("· 1 token</div>")


def test_the_whole_text_at_the_end_is_the_encoding() -> None:
    html = whole_text_html(WALK, WALK.last, GPT2, "hex")
    ids = [int(e.text) for e in probe(html).with_class("tid")]
    assert ids == [38, 11571, 17, 373, 2727, 416, 4946, 20185]


def test_step_zero_has_no_rule_yet() -> None:
    assert step_summary(WALK, 0) is None
    assert "every byte is its own token" in whole_text_html(WALK, 0, GPT2, "text")


def test_alternatives_table_counts_chunks_per_alternative() -> None:
    parsed = probe(alternatives_html(WALK))
    counted = {
        e.attrs["data-alternative"]: e.text
        for e in parsed.elements
        if "data-alternative" in e.attrs
    }
    assert len(counted) == 12
    assert "letters" in counted["8"] and "5" in counted["8"]  # GPT, was, created, by, OpenAI


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_a_pattern_wraps_between_its_parts_only(name: str) -> None:
    """Never between an atom and its quantifier (``[^\\s\\p{L}\\p{N}]`` wrapped before its ``+``)
    nor inside an escape; the text without the breaks is the pattern, escaped."""
    shown = pattern_html(PATTERNS[name])
    parts = shown.split("<wbr>")
    assert len(parts) > 3
    assert unescape("".join(parts)) == PATTERNS[name]
    for before, after in itertools.pairwise(parts):
        assert after[0] not in "+*?{" and not before.endswith("\\"), (before, after)
        assert after[0] in "[(" or before.endswith("|"), (before, after)


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_user_text_never_becomes_markup(payload: str) -> None:
    walk = build_walkthrough(GPT2, payload)
    blocks = [alternatives_html(walk), whole_text_html(walk, walk.last // 2, GPT2, "text")]
    for chunk in walk.chunks:
        for style in ("text", "symbols", "hex"):
            blocks.append(chunk_html(chunk, chunk.merges, style))
    allowed = {
        "div",
        "span",
        "style",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "b",
        "code",
        "wbr",
    }
    for html in blocks:
        for element in probe(html).elements:
            assert element.tag in allowed, element  # no <script>: the block is patched as is
            assert not any(name.startswith("on") for name in element.attrs), element


def unescape_markdown(literal: str) -> str:
    """Undo `markdown_literal`'s escapes, failing on any punctuation left unescaped but the
    backticks of a character's name in inline code (`ESC`), which it gives as ⟦ESC⟧."""
    out = []
    chars = iter(literal)
    for char in chars:
        if char == "\\":
            char = next(chars)
            assert char in string.punctuation, f"needless escape of {char!r}"
        elif char == "`":
            name = "".join(iter(chars.__next__, "`"))
            assert re.fullmatch(r"[A-Z][A-Z0-9]{1,2}|U\+[0-9A-F]{4,5}", name), literal
            char = f"⟦{name}⟧"
        else:
            assert char not in string.punctuation, f"unescaped {char!r} in {literal!r}"
        out.append(char)
    return "".join(out)


@pytest.mark.parametrize("payload", [*XSS_PAYLOADS, ":red[x] :material/home: $x$ **b** [a](b)"])
def test_chip_labels_escape_every_markdown_character(payload: str) -> None:
    shown = unescape_markdown(markdown_literal(payload))
    if payload.isprintable():
        assert shown == payload.replace(" ", "·")


def test_chip_labels_show_whitespace_and_the_kind_icon() -> None:
    assert chip_label(" a\n", "letters") == ":material/abc: ·a↵"
    long = chip_label("x" * 100, "letters")
    assert long.endswith("…") and len(long) == len(":material/abc: ") + CHIP_CHARS


def test_chip_labels_name_controls_and_invisible_characters_in_inline_code() -> None:
    """As the views' boxes: a control picture (␛) drew as an empty box without a font for it."""
    shown = unescape_markdown(markdown_literal("a\x1b[0m\u200b\x85*"))
    assert shown == "a⟦ESC⟧[0m⟦U+200B⟧⟦U+0085⟧*"


def test_a_shortened_chip_keeps_its_last_character_whole() -> None:
    """A cut inside 👋🏽 (hand + skin tone) showed a plain 👋; inside a flag, half a flag."""
    for unit in ["👋🏽", "🇫🇷", "e\u0301"]:
        label = chip_label(unit * 300, "other")
        shown = label.split(" ", 1)[1].removesuffix("…")
        assert shown and shown == unit * (len(shown) // len(unit)), unit
        assert len(shown) <= CHIP_CHARS - 1
    assert chip_label("a" + "\u0301" * 99, "other").endswith("…")  # one long character: cut


def test_presentation_css_follows_the_theme() -> None:
    assert "--present-fg:#000000" in presentation_css(dark=False)
    assert "--present-fg:#ffffff" in presentation_css(dark=True)
    assert "stSidebar" in presentation_css(dark=False)


def test_token_count_chart_has_one_point_per_step_as_stairs_and_marks_the_step() -> None:
    counts = WALK.token_counts
    line, rule, dot = token_count_chart(count_points(counts), counts, 4)["layer"]
    assert [row["tokens"] for row in line["data"]["values"]] == list(counts)
    assert line["mark"]["interpolate"] == "step-after" and line["mark"]["point"]
    assert rule["data"] == dot["data"] == {"values": [{"step": 4.0, "tokens": float(counts[4])}]}


def test_a_long_walk_is_sampled_straight_with_its_ends_and_the_exact_mark() -> None:
    counts = list(range(5000, 0, -1))  # 4,999 steps
    points = count_points(counts, max_points=100)
    assert 100 <= len(points) <= 102
    assert points[0] == {"step": 0.0, "tokens": 5000.0}
    assert points[-1] == {"step": 4999.0, "tokens": 1.0}
    line, rule, _ = token_count_chart(points, counts, 1234)["layer"]
    assert line["mark"]["interpolate"] == "linear" and not line["mark"]["point"]
    assert rule["data"]["values"] == [{"step": 1234.0, "tokens": float(counts[1234])}]
    assert line["encoding"]["x"]["scale"]["domain"] == [0, 4999]


def test_a_piece_that_starts_with_a_combining_mark_sets_it_on_a_dotted_circle() -> None:
    """In the table's row of pieces it sat on the box before it, or on nothing."""
    assert piece_html("\u0301".encode(), "text") == '<span class="ws">\u25cc</span>\u0301'
    assert piece_html("e\u0301".encode(), "text") == "e\u0301"
