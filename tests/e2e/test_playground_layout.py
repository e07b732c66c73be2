"""The Playground fits the room: what must be on screen without scrolling, at a laptop's and a
projector's size, in both themes; long text scrolling in its own panes; how tokens wrap."""

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Locator, Page, expect

import tokenizer as tk
from tests.e2e.harness import goto, metric, new_page, screenshot, wait_settled
from tests.e2e.playground_page import (
    assert_on_screen,
    box,
    first_id,
    first_token,
    paste,
    text_box,
    tokens_cut_across_lines,
    wait_for_ids,
)
from tests.oracles import oracle_ids
from ui.common.examples import EXAMPLES

SIZES = [(1280, 720), (1024, 768)]
# Page height, as Streamlit scrolls inside its main block rather than the document.
_PAGE_HEIGHT_JS = "() => document.querySelector('[data-testid=stMain]').scrollHeight"


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_box_first_tokens_and_ids_show_without_scrolling(
    browser, app_url: str, size: tuple[int, int], scheme: str
) -> None:
    width, height = size
    with new_page(browser, width=width, height=height, color_scheme=scheme) as page:
        goto(page, app_url + "/")
        wait_settled(page)
        assert_on_screen(page, text_box(page), "the text box")
        assert_on_screen(page, first_token(page), "the first token")
        assert_on_screen(page, first_id(page), "the first id")
        for label in ("Tokens", "Characters", "UTF-8 bytes", "Words"):
            assert_on_screen(page, metric(page, label), f"the {label} count")
        text, tokens = box(text_box(page)), box(page.locator(".bpl-text"))
        if width >= 1100:  # side by side: the box left of the tokens
            assert text["x"] + text["width"] <= tokens["x"]
            assert tokens["y"] < text["y"] + text["height"]
        else:  # stacked, and the box kept short
            assert text["y"] + text["height"] <= tokens["y"]
            assert text["height"] <= 0.25 * height
        assert page.evaluate("window.scrollY") == 0
        assert page.evaluate(_PAGE_HEIGHT_JS) <= height  # nothing below: one screen, stacked too
        screenshot(page, f"playground-fit-{width}x{height}-{scheme}", whole=False)


@pytest.mark.parametrize(("width", "height"), [(1024, 768), (1366, 768), (1600, 900), (1920, 1080)])
def test_tokens_and_ids_side_by_side_line_up(
    browser, app_url: str, width: int, height: int
) -> None:
    """The two panes begin and end on the same lines. At 1366 pixels the ids' header wrapped
    its second copy button, and the ids began 31 pixels lower than the tokens. Beside the box
    they run down to the column's foot: the stacked panes' two rows left them three fifths of
    it (290 px short at 1600x900), where "Copy ids" was dropped with room to spare."""
    with new_page(browser, width=width, height=height) as page:
        goto(page, app_url + "/")
        wait_settled(page)
        tokens, ids = box(page.locator(".bpl-text")), box(page.locator(".bpl-ids"))
        assert tokens["x"] + tokens["width"] < ids["x"]  # side by side
        assert abs(tokens["y"] - ids["y"]) <= 1, (tokens, ids)
        assert abs(tokens["height"] - ids["height"]) <= 1, (tokens, ids)
        copy = page.locator(".bpl-copy")
        assert copy.count() == 2 and all(copy.nth(i).is_visible() for i in range(2))
        if width >= 1100:  # beside the box
            assert tokens["y"] + tokens["height"] >= height - 60, (tokens, height)
        if width >= 1600:
            expect(page.locator(".bpl-copy-label")).to_be_visible()


def test_long_text_scrolls_in_its_panes_not_the_page(
    browser, app_url: str, size: tuple[int, int]
) -> None:
    width, height = size
    with new_page(browser, width=width, height=height) as page:
        unit = EXAMPLES["Code indentation"] + EXAMPLES["Non-English text"] + "\n"
        goto(page, app_url + "/")
        heights = []
        for copies in (8, 16):  # both fill the panes; the second is twice as long
            text = unit * copies
            paste(page, text)
            expect(metric(page, "Tokens")).to_have_text(f"{len(oracle_ids('gpt2', text)):,}")
            wait_settled(page)
            heights.append(page.evaluate(_PAGE_HEIGHT_JS))
            for pane in (text_box(page), page.locator(".bpl-text"), page.locator(".bpl-ids")):
                assert pane.evaluate("e => e.scrollHeight > e.clientHeight + 100"), pane
            assert_on_screen(page, first_token(page), "the first token")
            assert_on_screen(page, first_id(page), "the first id")
        assert heights[1] == heights[0]  # more text, same page: the panes scroll instead
        if width >= 1100:  # side by side, the page is exactly the window
            assert heights[0] <= height


# How far each edge of a pane fades, in pixels: above, below (ui/common/token_view.css).
_FADES_JS = """e => ['--bpl-more-above', '--bpl-more-below'].map(
    name => parseFloat(getComputedStyle(e).getPropertyValue(name)))"""


def _fades_after_scrolling_to(pane: Locator, scroll_top: str) -> list[float]:
    """The pane's fades once scrolled to `scroll_top` (JS, of the pane `e`) and drawn."""
    pane.evaluate(f"e => {{ e.scrollTop = {scroll_top}; }}")
    pane.page.wait_for_timeout(100)  # the scroll timeline moves with the next frame
    return pane.evaluate(_FADES_JS)


def test_a_pane_fades_where_more_lies_beyond_an_edge(browser, app_url: str) -> None:
    """Where scroll bars show only while scrolling, a pane cut at a line's edge looked whole.
    An edge fades as deep as what lies beyond it, up to a few lines' worth; nothing to scroll,
    no fade; a pane in keyboard use shows its focus ring whole."""
    with new_page(browser, width=1280, height=720) as page:
        goto(page, app_url + "/")
        wait_settled(page)
        pane = page.locator(".bpl-text")
        assert pane.evaluate(_FADES_JS) == [0, 0]  # the default text fits
        text = EXAMPLES["Code indentation"] * 12
        paste(page, text)
        expect(metric(page, "Tokens")).to_have_text(f"{len(oracle_ids('gpt2', text)):,}")
        wait_settled(page)
        above, full = _fades_after_scrolling_to(pane, "0")
        assert above == 0 and full >= 20, (above, full)
        assert _fades_after_scrolling_to(pane, "10") == [10, full]
        assert _fades_after_scrolling_to(pane, "e.scrollHeight / 2") == [full, full]
        screenshot(page, "playground-pane-fades", whole=False)
        assert _fades_after_scrolling_to(pane, "e.scrollHeight") == [full, 0]
        pane.focus()
        page.keyboard.press("End")
        assert pane.evaluate("e => getComputedStyle(e).maskImage") == "none"


def test_the_chat_cards_fade_where_more_lie_beyond_an_edge(browser, app_url: str) -> None:
    """At 1024x768 the chat's pane shows one card and the next one's top edge: the pane fades
    where more cards (and the add buttons) lie, as the token panes do."""
    with new_page(browser, width=1024, height=768) as page:
        goto(page, app_url + "/?mode=chat&enc=llama3")
        wait_settled(page)
        cards = page.locator(".st-key-playground-chat-messages")
        above, full = _fades_after_scrolling_to(cards, "0")
        assert above == 0 and full >= 20, (above, full)
        assert _fades_after_scrolling_to(cards, "e.scrollHeight") == [full, 0]
        screenshot(page, "playground-chat-cards-fade", whole=False)


def test_decode_and_chat_views_fit_the_room_too(
    browser, app_url: str, size: tuple[int, int]
) -> None:
    """Ids → text is one screen like Text → tokens. Chat with a model's template keeps its
    counts and the first tokens and ids in view: at 1024x768 its two message cards pushed every
    token below the window."""
    width, height = size
    with new_page(browser, width=width, height=height) as page:
        goto(page, app_url + "/?mode=decode")
        wait_settled(page)
        assert_on_screen(page, first_token(page), "the first decoded token")
        assert page.evaluate(_PAGE_HEIGHT_JS) <= height
        goto(page, app_url + "/?mode=chat&enc=llama3")
        wait_settled(page)
        for label in ("Tokens", "Characters"):
            assert_on_screen(page, metric(page, label), f"the {label} count")
        assert_on_screen(page, first_token(page), "the first token")
        assert_on_screen(page, first_id(page), "the first id")
        if width >= 1100:  # side by side, the page is exactly the window
            assert page.evaluate(_PAGE_HEIGHT_JS) <= height
        screenshot(page, f"playground-chat-fit-{width}x{height}", whole=False)


def test_the_decoded_text_is_named_and_comes_before_the_tokens(
    browser, app_url: str, size: tuple[int, int]
) -> None:
    """It was an unnamed box at the column's foot, 180 px below the panes at 1366x768."""
    width, height = size
    with new_page(browser, width=width, height=height) as page:
        goto(page, app_url + "/?" + urlencode({"mode": "decode", "ids": "15496 11 995 0"}))
        wait_settled(page)
        decoded = page.locator(".st-key-playground-decoded")
        label, text = decoded.get_by_text("Decoded text", exact=True), decoded.locator("code")
        expect(text).to_have_text("Hello, world!")
        named, shown, tokens = box(label), box(text), box(page.locator(".bpl-text"))
        assert named["y"] + named["height"] <= shown["y"] < tokens["y"]  # name, text, tokens
        assert_on_screen(page, label, "the decoded text's name")
        assert_on_screen(page, text, "the decoded text")


@pytest.mark.parametrize("query", ["?enc=o200k_base", "?enc=o200k_base&text=" + "word%20" * 8_000])
def test_the_header_stays_one_row_at_1024(browser, app_url: str, query: str) -> None:
    """A longer caption (o200k_base's models) or a longer button ("Copy link without the
    text") put "Copy link" on a line of its own, and moved everything below it 37 px down."""
    with new_page(browser, width=1024, height=768) as page:
        goto(page, app_url + "/" + query)
        wait_settled(page)
        title = box(page.get_by_role("heading", name="Playground"))
        button = box(page.locator(".st-key-playground-copy_link button"))
        assert button["y"] < title["y"] + title["height"], (title, button)


def test_a_long_decoded_text_leaves_the_panes_their_room(browser, app_url: str) -> None:
    """The decoded text grew with the ids and squeezed the panes above it: 19 px at 300 ids."""
    ids = " ".join(["40778"] * 300)
    with new_page(browser, width=1280, height=720) as page:
        goto(page, app_url + "/?" + urlencode({"mode": "decode", "ids": ids}))
        wait_settled(page)
        assert box(page.locator(".bpl-text"))["height"] >= 120  # as with a short text
        assert box(page.locator(".bpl-ids"))["height"] >= 80
        decoded = page.locator(".st-key-playground-decoded")
        assert decoded.evaluate("e => e.scrollHeight > e.clientHeight")  # it scrolls instead
        assert page.evaluate(_PAGE_HEIGHT_JS) <= 720


def test_a_long_text_s_notes_leave_the_panes_their_room(browser, app_url: str) -> None:
    """50,000 characters: "too long for a link", the context window's two lines, and "Showing
    the first 5,000", as a box with a button under it, squeezed the panes to 112 and 63 px."""
    text = ("The quick brown fox 🦊 jumps; naïve café 你好 " * 2000)[:50_000]
    with new_page(browser, width=1280, height=720) as page:
        goto(page, app_url + "/")
        paste(page, text)
        expect(page.get_by_text("Showing the first 5,000 of")).to_be_visible(timeout=30_000)
        wait_settled(page)
        more = box(page.get_by_role("button", name="Show 5,000 more"))
        said = box(page.get_by_text("Showing the first 5,000 of"))
        assert abs(more["y"] + more["height"] / 2 - (said["y"] + said["height"] / 2)) < 8  # a row
        assert box(page.locator(".bpl-text"))["height"] >= 150
        assert box(page.locator(".bpl-ids"))["height"] >= 90
        assert page.evaluate(_PAGE_HEIGHT_JS) <= 720


def test_notes_above_the_tokens_leave_them_room(browser, app_url: str) -> None:
    """Qwen's NFC note and the special-token hint together, on a laptop screen: both are short
    lines, so the token pane keeps several lines of tokens (two boxes left it three)."""
    with new_page(browser, width=1280, height=720) as page:
        text = "Cafe\u0301 <|endoftext|> and <|im_start|>.\n" + "The quick brown fox. " * 60
        goto(page, app_url + "/?" + urlencode({"text": text, "enc": "qwen3"}))
        wait_for_ids(page, oracle_ids("qwen3", text))
        for note in ("normalises text (NFC) first", "read here as ordinary text"):
            assert_on_screen(page, page.get_by_text(note), note)
        pane = box(page.locator(".bpl-text"))
        assert pane["height"] >= 160, pane
        assert pane["y"] + pane["height"] <= 720
        assert page.evaluate(_PAGE_HEIGHT_JS) <= 720


def _side_by_side(page: Page) -> bool:
    """Whether the input column stands left of the counts and tokens (else they are stacked)."""
    left, right = (box(page.locator(f".st-key-playground-{key}")) for key in ("input", "output"))
    return left["x"] + left["width"] <= right["x"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_closing_the_sidebar_gives_a_1024_window_the_one_screen_layout(
    browser, app_url: str, scheme: str
) -> None:
    """The page's room decides the layout, not the window's width: at 1024x768 with the sidebar
    closed the page has 944 px, more than beside the sidebar at 1280x720, and it stayed stacked
    (Chat showed one message card). Closed, both columns are one screen, Chat's two cards and
    its add buttons included; opened again, the page is stacked as before."""
    with new_page(browser, width=1024, height=768, color_scheme=scheme) as page:
        goto(page, app_url + "/?mode=chat&enc=llama3")
        wait_settled(page)
        assert not _side_by_side(page)
        page.get_by_test_id("stSidebar").hover()  # its close button shows on hover
        page.get_by_role("button", name="Collapse sidebar").click()
        expect(page.get_by_test_id("stSidebar")).to_have_attribute("data-collapsed", "true")
        page.wait_for_function(
            "() => document.querySelector('.st-key-playground-workspace')"
            ".getBoundingClientRect().width > 900"
        )  # the sidebar has slid away
        assert _side_by_side(page)
        cards = page.locator('[class*="st-key-playground-chat-message-"]')
        expect(cards).to_have_count(2)
        for i in range(2):
            assert_on_screen(page, cards.nth(i), f"message card {i + 1}")
        assert_on_screen(page, page.get_by_role("button", name="Add user"), "the add buttons")
        assert_on_screen(page, first_token(page), "the first token")
        assert_on_screen(page, first_id(page), "the first id")
        assert page.evaluate(_PAGE_HEIGHT_JS) <= 768
        screenshot(page, f"playground-chat-sidebar-closed-1024x768-{scheme}", whole=False)
        page.get_by_test_id("stExpandSidebarButton").click()
        expect(page.get_by_test_id("stSidebar")).to_have_attribute("data-collapsed", "false")
        page.wait_for_function(
            "() => document.querySelector('.st-key-playground-workspace')"
            ".getBoundingClientRect().width < 700"
        )
        assert not _side_by_side(page)


@pytest.mark.parametrize("ws", ["0", "1"])
def test_no_token_is_cut_across_two_lines(open_app, page: Page, ws: str) -> None:
    page.set_viewport_size({"width": 1100, "height": 900})  # a narrow pane: many wraps
    text = (
        "Supercalifragilisticexpialidocious antidisestablishmentarianism " * 6
        + "    indented   spaces\tand\ttabs " * 6
        + "naïve café 你好世界 👋🏽 " * 6
    )
    open_app("/?" + urlencode({"text": text, "ws": ws, "chunks": "1"}))
    wait_for_ids(page, oracle_ids("gpt2", text))
    lines = page.locator(".bpl-text").evaluate(
        "e => new Set(Array.from(e.querySelectorAll('.tok'), t => t.getBoundingClientRect().top))"
        ".size"
    )
    assert lines > 10  # it does wrap, and not only at spaces
    assert tokens_cut_across_lines(page) == []
    assert page.locator(".bpl-text").evaluate("e => e.scrollWidth <= e.clientWidth + 1")


def test_the_chunk_band_wraps_with_its_tokens(open_app, page: Page) -> None:
    page.set_viewport_size({"width": 1100, "height": 900})
    text = "GPT2 was created by OpenAI, in 2019, with 1,234,567 merges?! " * 8
    open_app("/?" + urlencode({"text": text, "chunks": "1"}))
    wait_for_ids(page, oracle_ids("gpt2", text))
    # Each chunk's underline is drawn under its own tokens, on whatever line they landed: every
    # token lies within one of the boxes its chunk is drawn as (one per line it spans).
    apart = page.locator(".bpl-text").evaluate(
        """root => Array.from(root.querySelectorAll('.chunk')).filter(chunk => {
            const boxes = Array.from(chunk.getClientRects());
            return Array.from(chunk.querySelectorAll('.tok'), t => t.getBoundingClientRect())
                .some(t => !boxes.some(r => {
                    const middle = (t.top + t.bottom) / 2;
                    return r.top <= middle && middle <= r.bottom
                        && r.left - 1 <= t.left && t.right <= r.right + 1;
                }));
        }).length"""
    )
    assert apart == 0
    wrapped = page.locator(".bpl-text .chunk").evaluate_all(
        "chunks => chunks.filter(c => c.getClientRects().length > 1).length"
    )
    lines = page.locator(".bpl-text").evaluate(
        "e => new Set(Array.from(e.querySelectorAll('.tok'), t => t.getBoundingClientRect().top))"
        ".size"
    )
    assert lines > 3 and wrapped <= lines  # the text wraps; chunks wrap with it
    assert page.locator(".bpl-text .chunk").count() == len(tk.get_encoding("gpt2").split(text))


def test_newline_tokens_show_with_glyphs_off(open_app, page: Page) -> None:
    open_app("/?" + urlencode({"text": "one\n\ntwo"}))
    wait_for_ids(page, oracle_ids("gpt2", "one\n\ntwo"))
    newline = page.locator(".bpl-text .tok").filter(has=page.locator(".nl")).first
    assert newline.text_content() == "\n"
    mark = newline.locator(".nl").first.evaluate("e => getComputedStyle(e, '::before').content")
    assert mark == '"↵"'
    box_ = box(newline)
    assert box_["width"] > 4  # the glyph gives it a body to hover and click


# In DOM order, each token not left of the one before it on its line (top within 2 px); returns
# the pairs that break that, as text. Only the drawn tokens of characters (not byte groups).
_OUT_OF_ORDER_JS = """root => {
  const toks = Array.from(root.querySelectorAll('.tok:not(.bytes)'), t => [t.textContent,
      t.getClientRects()[0]]).filter(([, r]) => r);
  const wrong = [];
  for (let k = 1; k < toks.length; k++) {
    const [a, ra] = toks[k - 1], [b, rb] = toks[k];
    if (Math.abs(ra.top - rb.top) <= 2 && rb.left < ra.left) wrong.push(a + ' | ' + b);
  }
  return wrong;
}"""


def test_right_to_left_tokens_keep_their_order(open_app, page: Page) -> None:
    """Hebrew and Arabic words, Arabic-Indic digits and a right-to-left override among Latin
    text: each token stays where it is in the text, left to right, and its own letters read
    right to left (only tokens that can reorder their neighbours are bidi isolates)."""
    text = (
        "Hello שלום עולם 123, مرحبا بالعالم ١٢٣ (ok) and \u202eevil\u202c end. "
        "Mixed: abc אבג def مرحبا 42 ghi! "
    ) * 3
    open_app("/?" + urlencode({"text": text, "enc": "o200k_base"}))  # whole words as tokens
    wait_for_ids(page, oracle_ids("o200k_base", text))
    pane = page.locator(".bpl-text")
    assert pane.evaluate(_OUT_OF_ORDER_JS) == []
    isolated = pane.evaluate("e => Array.from(e.querySelectorAll('.tok.bidi'), t => t.textContent)")
    assert {" שלום", " עולם", " مرح", "١"} <= set(isolated)
    assert all(not t.isascii() or t.startswith("U+") for t in isolated)  # nothing Latin
