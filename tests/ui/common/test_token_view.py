"""The token view's HTML: one span per token, honest bytes, tooltips, caps, and no injection."""

import re

import pytest

import tokenizer as tk
from tests.ui.html_probe import probe
from tests.ui.payloads import XSS_PAYLOADS, as_drawn
from ui.common.token_view import (
    HINT,
    TOKENS_HINT,
    ViewOptions,
    clusters,
    render_tokens,
    tooltip,
    view_parts,
)
from ui.common.tokens import tokenized_from_ids

ALLOWED_TAGS = {"div", "span", "style", "script"}
ALLOWED_ATTRS = {
    "class", "data-i", "data-token-id", "data-own-arrows", "title", "tabindex", "aria-label",
    "aria-live",
}  # fmt: skip


@pytest.fixture(scope="module")
def gpt2() -> tk.Encoding:
    return tk.get_encoding("gpt2")


def token_spans(html: str) -> list:
    return probe(html).with_class("tok")


def chunk_spans(tokens_html: str) -> list[str]:
    """The HTML of each chunk's span in the tokens pane (chunks are never nested)."""
    return ['<span class="chunk' + piece for piece in tokens_html.split('<span class="chunk')[1:]]


def test_one_span_per_token_carrying_its_id(gpt2: tk.Encoding) -> None:
    tok = gpt2.tokenize("hello world, hello again")
    spans = token_spans(render_tokens(tok, gpt2))
    assert [int(s.attrs["data-token-id"]) for s in spans] == list(tok.ids)
    assert [s.attrs["data-i"] for s in spans] == [str(i) for i in range(len(tok.ids))]


def test_token_texts_rebuild_the_text_when_glyphs_are_off(gpt2: tk.Encoding) -> None:
    text = "def f(x):\n    return x  # two  spaces\n\ttab"
    spans = token_spans(render_tokens(gpt2.tokenize(text), gpt2))
    assert "".join(s.text for s in spans) == text


def test_glyphs_make_whitespace_visible(gpt2: tk.Encoding) -> None:
    html = render_tokens(gpt2.tokenize("a b\tc\n"), gpt2, ViewOptions(show_whitespace=True))
    texts = "".join(s.text for s in token_spans(html))
    assert texts == "a·b→c↵\n"


def test_a_split_character_is_shown_once_above_each_tokens_bytes(gpt2: tk.Encoding) -> None:
    tok = gpt2.tokenize("hi 👋")
    assert clusters(tok, len(tok.ids)) == [range(0, 1), range(1, 3)]
    view = probe(render_tokens(tok, gpt2))
    (group,) = view.with_class("grp")
    assert view.with_class("grp-chars")[0].text == " 👋"
    assert [s.text for s in view.with_class("bytes")] == ["20 F0 9F 91", "8B"]
    assert "👋" in group.text


def test_an_invisible_character_split_between_tokens_shows_its_code_point(
    gpt2: tk.Encoding,
) -> None:
    """A zero-width joiner is two GPT-2 tokens: its group names it, as a whole one would be."""
    tok = gpt2.tokenize("a\u200db")
    view = probe(render_tokens(tok, gpt2))
    assert view.with_class("grp-chars")[0].text == "U+200D"
    assert [s.text for s in view.with_class("bytes")] == ["E2 80", "8D"]
    family = probe(render_tokens(gpt2.tokenize("\U0001f468\u200d\U0001f469"), gpt2))
    assert family.shown_text() == "\U0001f468U+200D\U0001f469"  # the joiner is its own group


def test_tooltip_names_id_rank_chars_and_bytes(gpt2: tk.Encoding) -> None:
    tok = gpt2.tokenize("hello world")
    assert tooltip(tok, 1, gpt2) == (
        "“·world” · id 995 · merge rank 739 · chars 6–11 · bytes 20 77 6F 72 6C 64"
    )  # the token's own text first: a screen reader walking the tokens hears this line
    half = gpt2.tokenize("🙂")  # two tokens of one character: neither is UTF-8 on its own
    assert tooltip(half, 0, gpt2).startswith(f"“⟨{half.pieces[0].hex(' ').upper()}⟩” · id ")
    longest = gpt2.tokenize("ÃÂ" * 32)  # GPT-2's longest token: 64 characters
    assert longest.ids == (35496,)
    assert tooltip(longest, 0, gpt2).startswith("“" + "ÃÂ" * 19 + "Ã…” · id 35496 ·")
    single = gpt2.tokenize("!")
    assert "single byte" in tooltip(single, 0, gpt2)
    assert "char 1 ·" in tooltip(single, 0, gpt2)
    assert "merge rank 9,197 ·" in tooltip(gpt2.tokenize(" Tok"), 0, gpt2)  # as the pin says it


def test_special_tokens_are_marked(gpt2: tk.Encoding) -> None:
    tok = gpt2.tokenize("a<|endoftext|>b", "all")
    (special,) = probe(render_tokens(tok, gpt2)).with_class("special")
    assert special.attrs["data-token-id"] == "50256"
    assert "special token" in special.attrs["title"]


def test_drawing_stops_at_the_limit(gpt2: tk.Encoding) -> None:
    tok = gpt2.tokenize("one two three " * 20)
    view = probe(render_tokens(tok, gpt2, ViewOptions(limit=10), chunks=gpt2.split(tok.text)))
    assert len(view.with_class("tok")) == 10
    assert len(view.with_class("tid")) == 10
    assert len(view.with_class("chunk")) == 10  # one word per chunk and per token here


def test_colour_by_id_gives_repeats_one_colour(gpt2: tk.Encoding) -> None:
    tok = gpt2.tokenize(" the cat the dog the")
    view = probe(render_tokens(tok, gpt2, ViewOptions(color_by="id")))
    colours: dict[str, set[str]] = {}
    for span in view.with_class("tok"):
        colour = next(c for c in span.attrs["class"].split() if c[0] == "c" and c[1:].isdigit())
        colours.setdefault(span.attrs["data-token-id"], set()).add(colour)
    assert all(len(found) == 1 for found in colours.values())
    assert view.with_class("bpl-by-id")


@pytest.mark.parametrize("color_by", ["id", "position"])
def test_neighbours_of_one_tint_are_told_apart(gpt2: tk.Encoding, color_by: str) -> None:
    """Every token whose left neighbour has its tint carries a rule (`again`), and no other
    does. By id, " by" (416) and " Open" (4946) share a tint and read as one token."""
    text = "OpenAI by Open by Open the the"
    view = probe(render_tokens(gpt2.tokenize(text), gpt2, ViewOptions(color_by=color_by)))
    spans = view.with_class("tok")
    tints = [next(c for c in s.attrs["class"].split() if c[1:].isdigit()) for s in spans]
    marked = ["again" in s.attrs["class"].split() for s in spans]
    assert marked == [i > 0 and tints[i] == tints[i - 1] for i in range(len(spans))]
    assert any(marked) == (color_by == "id")


def test_chunks_band_shows_the_pre_tokenizer_chunks(gpt2: tk.Encoding) -> None:
    tok = gpt2.tokenize("GPT2 was created")
    view = probe(render_tokens(tok, gpt2, chunks=gpt2.split(tok.text)))
    assert [c.text for c in view.with_class("chunk")] == ["GPT", "2", " was", " created"]


@pytest.mark.parametrize(
    "text", ["GPT2 was created by OpenAI", "def f(x):\n    return x  # hi\n\n", "a 👋🏽 b 你好世界"]
)
def test_each_chunk_wraps_its_own_tokens_so_the_band_wraps_with_them(
    gpt2: tk.Encoding, text: str
) -> None:
    tok, chunks = gpt2.tokenize(text), gpt2.split(text)
    html = view_parts(tok, gpt2, ViewOptions(), chunks).tokens
    # Nested, not a separate band: each chunk's span holds exactly its own tokens.
    assert [probe(piece).shown_text() for piece in chunk_spans(html)] == chunks
    assert len(probe(html).with_class("tok")) == len(tok.ids)


def test_lines_wrap_only_between_tokens(gpt2: tk.Encoding) -> None:
    """Where two tokens meet a line may wrap (the pane breaks anywhere); inside a token it
    may not (`white-space: pre`). The browser test checks each token keeps to one line."""
    css = render_tokens(gpt2.tokenize("hi"), gpt2)
    assert "line-break: anywhere" in css
    assert ".bpl .tok { padding: 2px 0; white-space: pre; }" in css


def test_newlines_show_a_mark_when_glyphs_are_off_and_the_text_stays_exact(
    gpt2: tk.Encoding,
) -> None:
    text = "one\n\ntwo.\nthree"
    tok = gpt2.tokenize(text)
    view = probe(render_tokens(tok, gpt2))
    marked = [s for s in view.with_class("tok") if "\n" in s.text]
    assert marked and all(s.text.strip("\n") == s.text.replace("\n", "") for s in marked)
    html = view_parts(tok, gpt2).tokens
    assert html.count('<span class="nl"></span>\n') == text.count("\n")
    assert view.shown_text() == text  # the mark is drawn by CSS, not text
    assert ".bpl .nl::before" in render_tokens(tok, gpt2)
    with_glyphs = view_parts(tok, gpt2, ViewOptions(show_whitespace=True)).tokens
    drawn = re.sub(r' title="[^"]*"', "", with_glyphs)  # the facts lines name the ↵ too
    assert 'class="nl"' not in drawn and drawn.count("↵") == text.count("\n")


def test_colour_by_id_uses_the_id_tints(gpt2: tk.Encoding) -> None:
    tok = gpt2.tokenize(" ".join(str(n) for n in range(300)))
    view = probe(render_tokens(tok, gpt2, ViewOptions(color_by="id")))
    classes = {c for s in view.with_class("tok") for c in s.attrs["class"].split()}
    assert len({c for c in classes if c[0] == "c" and c[1:].isdigit()}) == 24


def test_bytes_that_decode_to_nothing_are_shown_as_hex(gpt2: tk.Encoding) -> None:
    tok = tokenized_from_ids(gpt2, [31373, 233])  # "hello" then a lone continuation byte
    view = probe(render_tokens(tok, gpt2))
    assert [s.text for s in view.with_class("bytes")] == ["8B"]
    assert view.with_class("grp-chars")[0].text == "\ufffd"


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
@pytest.mark.parametrize("show_whitespace", [False, True])
def test_hostile_text_stays_text(gpt2: tk.Encoding, payload: str, show_whitespace: bool) -> None:
    tok = gpt2.tokenize(payload)
    html = render_tokens(
        tok, gpt2, ViewOptions(show_whitespace=show_whitespace), gpt2.split(payload)
    )
    view = probe(html)
    assert {e.tag for e in view.elements} <= ALLOWED_TAGS
    assert [e.tag for e in view.elements].count("script") == 1
    assert [e.tag for e in view.elements].count("style") == 1
    assert {name for e in view.elements for name in e.attrs} <= ALLOWED_ATTRS
    if not show_whitespace:
        shown = as_drawn(payload)
        assert view.shown_text() == shown
        tokens_html = view_parts(tok, gpt2, ViewOptions(), gpt2.split(payload)).tokens
        assert "".join(probe(c).shown_text() for c in chunk_spans(tokens_html)) == shown


def test_the_tokens_pane_is_one_tab_stop_where_pointing_is_wired(gpt2: tk.Encoding) -> None:
    tok = gpt2.tokenize("hello world")
    view = probe(render_tokens(tok, gpt2))
    stops = [e for e in view.elements if "tabindex" in e.attrs]
    assert [(e.attrs["class"], e.attrs["tabindex"]) for e in stops] == [("bpl-pane bpl-text", "0")]
    assert stops[0].attrs["aria-label"].startswith("Tokens: the arrow keys")
    named = probe(render_tokens(tok, gpt2, ViewOptions(owner="<gpt2>")))  # a side by side view
    (stop,) = [e for e in named.elements if "tabindex" in e.attrs]
    assert stop.attrs["aria-label"].startswith("<gpt2> tokens: the arrow keys")  # escaped
    assert len(view.with_class("bpl-inspect")) == 1
    assert [e.tag for e in view.elements].count("script") == 1


def test_a_view_without_pointing_has_no_script_no_facts_line_and_no_tab_stop(
    gpt2: tk.Encoding,
) -> None:
    tok = gpt2.tokenize("hello world")
    view = probe(render_tokens(tok, gpt2, ViewOptions(pointing=False)))
    assert "script" not in {e.tag for e in view.elements}
    assert not [e for e in view.elements if "tabindex" in e.attrs]
    assert not view.with_class("bpl-inspect")
    assert [s.attrs["data-token-id"] for s in view.with_class("tok")] == ["31373", "995"]


def test_a_view_without_its_ids_pane_draws_the_tokens_alone_and_says_so(
    gpt2: tk.Encoding,
) -> None:
    tok = gpt2.tokenize("hello world")
    both, alone = (probe(render_tokens(tok, gpt2, ViewOptions(ids=ids))) for ids in (True, False))
    assert len(both.with_class("bpl-ids")) == 1 and not alone.with_class("bpl-ids")
    assert [s.attrs["data-token-id"] for s in alone.with_class("tok")] == ["31373", "995"]
    assert "bpl-alone" in alone.with_class("bpl")[0].attrs["class"].split()
    assert "bpl-alone" not in both.with_class("bpl")[0].attrs["class"].split()
    assert [e.text for e in both.with_class("bpl-inspect")] == [HINT]
    assert [e.text for e in alone.with_class("bpl-inspect")] == [TOKENS_HINT]
    assert "id" in HINT.split(":")[0] and "id" not in TOKENS_HINT.split(":")[0]  # no ids to hover
    assert view_parts(tok, gpt2, ViewOptions(ids=False)).id_units == ()


@pytest.mark.parametrize(
    ("text", "isolated"),
    [
        ("hello world 123", []),
        ("naïve 你好 👋", []),
        (" שלום and مرحبا", [" שלום", " مرح", "با"]),
        ("digits ١٢٣", ["١", "٢", "٣"]),  # Arabic-Indic digits are bidi class AN
        ("a\u202eevil end", ["U+202E"]),  # the override, shown by its code point
    ],
)
def test_only_tokens_that_can_reorder_their_neighbours_are_isolated(
    text: str, isolated: list[str]
) -> None:
    enc = tk.get_encoding("o200k_base")  # whole Hebrew and Arabic words, not byte groups
    spans = token_spans(render_tokens(enc.tokenize(text), enc))
    assert [s.text for s in spans if "bidi" in s.attrs["class"].split()] == isolated


def test_a_token_that_starts_with_a_combining_mark_sets_it_on_a_dotted_circle() -> None:
    """cl100k_base cuts "café" (e + U+0301) before the accent: the browser drew the accent on
    the "fe" token before it, and the accent's own token was 0 px wide."""
    enc = tk.get_encoding("cl100k_base")
    spans = token_spans(render_tokens(enc.tokenize("cafe\u0301 naive"), enc))
    assert [s.text for s in spans] == ["ca", "fe", "\u25cc\u0301", " naive"]
    view = probe(render_tokens(enc.tokenize("\u0928\u092e\u0938\u094d\u0924\u0947"), enc))
    assert "\u25cc\u094d\u0924" in [g.text for g in view.with_class("grp-chars")]  # a virama
