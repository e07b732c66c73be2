"""Merges presentation mode on a projector's screen: one screen, large ranks, keys from the start.

Each size and theme opens a presentation link with no `step=` in a fresh browser context and
checks what a teacher needs without touching the mouse: no page scroll, the controls, the chunk's
table and the whole text all inside the window, rank numbers of at least 18 px whose lit (best)
one reads at WCAG AA contrast, and → stepping at once.
"""

import re
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.harness import (
    CONTRAST_JS,
    choose_option,
    goto,
    keyed,
    new_page,
    rerun,
    screenshot,
    wait_idle,
)
from tests.e2e.playground_page import assert_on_screen, query

SIZES = [(1280, 720), (1024, 768), (1920, 1080)]

# The largest overflow of the page's scroll containers (the document and Streamlit's main area).
_OVERFLOW_JS = """() => Math.max(...[document.scrollingElement,
    document.querySelector("[data-testid='stMain']"),
    document.querySelector("[data-testid='stAppViewContainer']")]
    .filter(Boolean).map(e => e.scrollHeight - e.clientHeight))"""


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param


@pytest.fixture(params=["light", "dark"])
def presenting(
    browser: Browser, app_url: str, size: tuple[int, int], request: pytest.FixtureRequest
) -> Iterator[Page]:
    """A presentation link opened in a fresh browser of this size and theme, settled."""
    with new_page(browser, width=size[0], height=size[1], color_scheme=request.param) as page:
        goto(page, app_url + "/")  # app.py runs first (see test_merges.open_merges)
        open_presenting(page, app_url + "/merges?present=1")
        expect(page.locator(".mg-chunk tr.mg-now")).to_be_attached()
        expect(page.locator(".mg-text .tok").first).to_be_attached()
        wait_idle(page)
        yield page


def open_presenting(page: Page, url: str) -> None:
    """Open a presentation link and wait for its style: the page's own style element can arrive
    a moment after the parts it lays out (the chips first wrap onto five lines, then one)."""
    goto(page, url)
    expect(page.get_by_test_id("stHeader")).to_be_hidden()  # the presentation style hides it
    expect(page.locator("body[data-merges-keys='on']")).to_be_attached()  # the keys listen
    expect(page.locator("body[data-steps='on']")).to_be_attached()  # ← → counted


def slider_value(page: Page) -> str:
    return page.locator("[data-testid='stSlider'] input[type=range]").input_value()


def test_one_screen_with_no_page_scroll(presenting: Page, size: tuple[int, int]) -> None:
    assert presenting.evaluate(_OVERFLOW_JS) <= 1
    parts = {
        "step controls": "[data-testid='stSlider']",
        "the chunk's table": ".mg-chunk table",
        "the whole text": ".mg-text",
    }
    for name, selector in parts.items():
        box = presenting.locator(selector).first.bounding_box()
        assert box is not None, f"{name} is not drawn"
        assert box["y"] >= 0 and box["y"] + min(box["height"], 40) <= size[1], f"{name} off screen"
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1, f"{name} off screen"
    name = f"merges-present-{size[0]}x{size[1]}"
    screenshot(presenting, name, whole=False)


def _scale(size: tuple[int, int]) -> float:
    """How much larger a presenting page's type is than at 1280x720 (ui/common/presentation.css):
    a 1920x1080 projector shows that screen magnified 1.5 times; smaller windows keep it."""
    return max(1.0, min(size[0] / 1280, size[1] / 720))


def test_ranks_are_large_and_the_best_one_readable(presenting: Page, size: tuple[int, int]) -> None:
    sizes = presenting.locator(".mg-chunk tbody .mg-r").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert sizes and min(sizes) >= 18 * _scale(size)
    best = presenting.locator(".mg-chunk tbody .mg-best").first
    assert best.evaluate(CONTRAST_JS) >= 4.5


def test_the_teachers_text_chips_and_buttons_read_from_the_back(
    presenting: Page, size: tuple[int, int]
) -> None:
    """They were the smallest type on the projector, 14 px, beside a 22 px table (helper). On a
    larger screen they grow with the rest (a 1920x1080 projector: 1.5 times)."""
    least = {
        ".st-key-merges-text_line textarea": 20,
        ".st-key-merges_chips button p": 18,
        ".st-key-merges-next button p": 18,
        ".st-key-merges-play button p": 18,
    }
    for selector, least_px in least.items():
        found = presenting.locator(selector).evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert found and min(found) >= least_px * _scale(size), (selector, found)


def test_a_link_without_step_opens_at_step_0_and_the_keys_work_at_once(presenting: Page) -> None:
    assert slider_value(presenting) == "0"
    presenting.keyboard.press("ArrowRight")  # no click anywhere first: the chunk's first merge
    expect(presenting.locator("[data-testid='stSlider'] input[type=range]")).to_have_value("4")
    presenting.keyboard.press("End")
    expect(presenting.locator("[data-testid='stSlider'] input[type=range]")).to_have_value("18")
    presenting.keyboard.press("Home")
    expect(presenting.locator("[data-testid='stSlider'] input[type=range]")).to_have_value("0")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_ranks_outside_presentation_are_at_least_13px_and_the_best_readable(
    browser: Browser, app_url: str, scheme: str
) -> None:
    with new_page(browser, width=1280, height=720, color_scheme=scheme) as page:
        goto(page, app_url + "/")
        goto(page, app_url + "/merges")
        expect(page.locator(".mg-chunk tbody .mg-r").first).to_be_attached()
        sizes = page.locator(".mg-chunk tbody .mg-r").evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert sizes and min(sizes) >= 13
        best = page.locator(".mg-chunk tbody .mg-best").first
        assert best.evaluate(CONTRAST_JS) >= 4.5


def test_a_long_paste_while_presenting_is_cut_with_a_word(browser: Browser, app_url: str) -> None:
    """As in the normal view: the text is cut at the page's limit and the page says so (the
    one-line box used to refuse a paste over the limit, silently)."""
    with new_page(browser, width=1280, height=720) as page:
        text = "ab " * 900
        goto(page, app_url + "/")
        goto(page, app_url + "/merges?present=1")
        box = keyed(page, "merges.text_line").locator("textarea")
        box.click()
        page.keyboard.press("ControlOrMeta+a")
        page.keyboard.insert_text(text)
        with rerun(page):
            box.press("ControlOrMeta+Enter")
        expect(page.get_by_text("traces at most 2,000 characters")).to_be_visible()
        expect(box).to_have_value(text[:2000])


def test_many_chunks_keep_whole_chips_in_one_scrolling_row(browser: Browser, app_url: str) -> None:
    """48 chunks: each chip keeps its label whole (they used to shrink to empty ovals) and the
    row scrolls sideways, on one line, with no page scroll, to show the chosen chunk's chip."""
    with new_page(browser, width=1280, height=720) as page:
        text = "%20".join(f"word{i}" for i in range(24))
        goto(page, app_url + "/")
        open_presenting(page, app_url + f"/merges?present=1&text={text}&chunk=41")
        chips = keyed(page, "merges_chips")
        chosen = chips.locator("button[aria-checked='true']")
        expect(chosen).to_have_text(re.compile(r"20$"))  # the chunk "20", after its icon
        expect(chosen).to_be_in_viewport(ratio=1)  # scrolled into view within the row
        expect(chips.locator("button")).to_have_count(48)
        clipped = chips.locator("button p").evaluate_all(  # a label cut by its own box
            "labels => labels.filter(p => p.scrollWidth > p.clientWidth + 1).length"
        )
        assert clipped == 0
        tops = chips.locator("button").evaluate_all(
            "bs => new Set(bs.map(b => Math.round(b.getBoundingClientRect().top))).size"
        )
        assert tops == 1
        assert chips.evaluate("row => row.scrollWidth > row.clientWidth")
        assert page.evaluate(_OVERFLOW_JS) <= 1
        # The edges with more chips beyond them fade, so a cut chip is not read as the last.
        for scroll, more in [(0, "right"), (10**6, "left"), (200, "left right")]:
            chips.evaluate("(row, x) => { row.scrollLeft = x; }", scroll)
            expect(chips).to_have_attribute("data-more", more)
            fade = chips.evaluate("row => getComputedStyle(row).maskImage")
            assert fade.startswith("linear-gradient"), fade


def test_the_chosen_chip_stays_in_view_when_the_window_narrows(
    browser: Browser, app_url: str
) -> None:
    """The last chunk chosen by a link, at the row's far end; then the window narrows (a laptop
    moved to a 1024x768 projector): the row scrolls again to keep the chip whole in view. Also
    what brings it into view when the page's style arrives after the chips. A row the user
    scrolls stays where they put it."""
    with new_page(browser, width=1280, height=720) as page:
        text = "%20".join(f"word{i}" for i in range(24))
        goto(page, app_url + "/")
        open_presenting(page, app_url + f"/merges?present=1&text={text}&chunk=47")
        chosen = keyed(page, "merges_chips").locator("button[aria-checked='true']")
        expect(chosen).to_have_text(re.compile(r"23$"))
        expect(chosen).to_be_in_viewport(ratio=1)
        page.set_viewport_size({"width": 1024, "height": 768})
        expect(chosen).to_be_in_viewport(ratio=1)
        row = keyed(page, "merges_chips")
        row.hover()
        page.mouse.wheel(-10_000, 0)  # back to the row's start, by hand
        expect(chosen).not_to_be_in_viewport()
        page.set_viewport_size({"width": 1280, "height": 720})
        # The row's size changed: its observer runs before the next frame is drawn.
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        assert row.evaluate("row => row.scrollLeft") == 0


# The current row lies whole inside what the table's pane shows below its sticky heading, and
# the pane in the window.
_ROW_SHOWN_JS = """() => {
    const pane = document.querySelector(".st-key-merges_table");
    const row = pane.querySelector("tr.mg-now").getBoundingClientRect();
    const edge = pane.getBoundingClientRect().top + pane.clientTop;
    const top = pane.querySelector("thead th").getBoundingClientRect().bottom;
    const bottom = Math.min(edge + pane.clientHeight, window.innerHeight);
    return row.top >= top - 1 && row.bottom <= bottom + 1;
}"""
# A row taller than the pane starts right below the heading, not under it.
_ROW_STARTS_SHOWN_JS = """() => {
    const pane = document.querySelector(".st-key-merges_table");
    const row = pane.querySelector("tr.mg-now").getBoundingClientRect();
    const top = pane.querySelector("thead th").getBoundingClientRect().bottom;
    return row.height > pane.clientHeight - (top - pane.getBoundingClientRect().top)
        && Math.abs(row.top - top) <= 2;
}"""


# A text whose chunk summary takes two lines at 1024 px: the panes below it were sized for one.
_SENTENCE = (
    "In 1968, the quick brown foxes jumped 12345 times over the laziest dogs; naïve café "
    "owners said: 'unbelievable!' "
)
# The last step's note stands apart from the last piece: on a line of its own, or a gap away.
_APART_JS = """done => {
    const piece = done.previousElementSibling.getBoundingClientRect();
    const note = done.getBoundingClientRect();
    return note.top >= piece.bottom - 1 || note.left - piece.right >= 4;
}"""


@pytest.mark.parametrize(
    ("size", "scheme", "query"),
    [
        ((1280, 720), "light", "step=14"),
        ((1280, 720), "dark", "step=14"),
        ((1920, 1080), "light", "text=internationalization%20antidisestablishment"),
    ],
    ids=["1280x720-light", "1280x720-dark", "1920x1080-long-chunk"],
)
def test_the_current_row_of_the_table_stays_in_view(
    browser: Browser, app_url: str, size: tuple[int, int], scheme: str, query: str
) -> None:
    """The chunk's table scrolls in its own pane; each step's row, drawn last, used to land below
    the window (QA round 11: at step 18 of the default text, rows 16 to 18 were out of sight)."""
    with new_page(browser, width=size[0], height=size[1], color_scheme=scheme) as page:
        now = page.locator(".mg-chunk tr.mg-now")
        goto(page, app_url + "/")
        open_presenting(page, app_url + f"/merges?present=1&{query}")
        page.wait_for_function(_ROW_SHOWN_JS, timeout=5_000)
        for key in ["ArrowRight", "ArrowRight", "End"]:
            wait_idle(page)  # a key pressed while the last step's run ends can be lost
            before = now.get_attribute("data-step")
            page.keyboard.press(key)
            expect(now).not_to_have_attribute("data-step", before or "")
            page.wait_for_function(_ROW_SHOWN_JS, timeout=5_000)
        assert page.evaluate(_OVERFLOW_JS) <= 1  # the pane scrolled, not the page
        screenshot(page, f"merges-present-last-row-{size[0]}x{size[1]}-{scheme}", whole=False)


def test_a_row_taller_than_the_pane_starts_below_the_heading(
    browser: Browser, app_url: str
) -> None:
    """A chunk of a hundred letters is a hundred pieces at its first steps, a row taller than
    the pane: it was scrolled to the pane's top, under the sticky heading, its merge hidden."""
    word = "supercalifragilisticexpialidocious" * 3
    with new_page(browser, width=1024, height=768, color_scheme="dark") as page:
        goto(page, app_url + "/")
        open_presenting(page, app_url + f"/merges?present=1&text={word}")
        now = page.locator(".mg-chunk tr.mg-now")
        for _ in range(2):
            wait_idle(page)
            before = now.get_attribute("data-step")
            page.keyboard.press("ArrowRight")
            expect(now).not_to_have_attribute("data-step", before or "")
            page.wait_for_function(_ROW_STARTS_SHOWN_JS, timeout=5_000)
        screenshot(page, "merges-present-tall-row-1024x768-dark", whole=False)


def test_a_two_line_summary_leaves_the_panes_inside_the_window(
    browser: Browser, app_url: str
) -> None:
    """At 1024x768 a long text's chunk summary wraps; the panes were sized for one line and ran
    past the window. Its last row's note stood against the last piece ("[able]no pair left")."""
    with new_page(browser, width=1024, height=768) as page:
        goto(page, app_url + "/")
        open_presenting(
            page, app_url + f"/merges?present=1&by=text&step=77&text={quote(_SENTENCE * 3)}"
        )
        summary = page.locator(".st-key-merges_stage [data-testid='stCaptionContainer']").first
        expect(summary).to_contain_text("unchanged since step")
        line = summary.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
        assert summary.bounding_box()["height"] > 1.5 * line  # two lines: the case in question
        page.wait_for_function(_ROW_SHOWN_JS, timeout=5_000)
        assert page.evaluate(_OVERFLOW_JS) <= 1
        for pane in (".st-key-merges_table", ".st-key-merges_text"):
            box = page.locator(pane).bounding_box()
            assert box["y"] + box["height"] <= 768, pane
        note = page.locator(".mg-chunk tr.mg-now .mg-done")
        assert note.evaluate(_APART_JS), "'no pair left' runs into the last piece"
        screenshot(page, "merges-present-two-line-summary-1024x768", whole=False)


_CAFE = "Le café de l'école coûte déjà 3,50 € 🍰 日本語のテキスト"


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)], ids=["1280x720", "1024x768"])
def test_the_tokens_and_their_ids_both_stay_in_sight(
    browser: Browser, app_url: str, size: tuple[int, int]
) -> None:
    """The whole text's pane scrolled as one: with this text the ids box began at the window's
    bottom edge at 1280x720 and below it at 1024x768 (QA round 15). Each box now scrolls in its
    own part of the pane, both inside the window."""
    with new_page(browser, width=size[0], height=size[1], color_scheme="dark") as page:
        goto(page, app_url + "/")
        query = f"present=1&by=text&step=5&enc=cl100k_base&text={quote(_CAFE)}"
        open_presenting(page, app_url + f"/merges?{query}")
        expect(page.locator(".st-key-merges_text .bpl-ids")).to_be_visible()
        assert page.evaluate(_OVERFLOW_JS) <= 1
        for box in (".bpl-text", ".bpl-ids"):
            found = page.locator(f".st-key-merges_text {box}").bounding_box()
            assert found is not None and found["height"] >= 40, box
            assert found["y"] + found["height"] <= size[1], box
        screenshot(page, f"merges-present-tokens-and-ids-{size[0]}x{size[1]}-dark", whole=False)


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)], ids=["1280x720", "1024x768"])
def test_a_short_texts_ids_show_whole_where_there_is_room(
    browser: Browser, app_url: str, size: tuple[int, int]
) -> None:
    """At 1024x768 the ids box was capped at two lines: the opening text's 26 ids showed 18 and
    faded, above half a pane of nothing. It gives way only to a text that needs the room (the
    test above: the tokens first, the ids down to two lines)."""
    with new_page(browser, width=size[0], height=size[1]) as page:
        goto(page, app_url + "/")
        open_presenting(page, app_url + "/merges?present=1")
        ids = page.locator(".st-key-merges_text .bpl-ids")
        expect(ids.locator(".tid").first).to_be_attached()
        wait_idle(page)
        assert ids.evaluate("e => e.scrollHeight - e.clientHeight") <= 1
        found = ids.bounding_box()
        assert found is not None and found["y"] + found["height"] <= size[1]
        assert page.evaluate(_OVERFLOW_JS) <= 1


_FOX = "The quick brown fox jumps over the lazy dog. Tokenization is fun! 12345 naïve café 🙂"


@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)], ids=["1280x720", "1024x768"])
def test_a_sentence_shows_whole_at_the_first_and_the_last_step(
    browser: Browser, app_url: str, size: tuple[int, int]
) -> None:
    """At 1024x768 the whole text's pane, two fifths of the stage under a three-line headline,
    showed two of this sentence's four lines, and at 1280x720 the last one faded out (QA round
    25): the class saw part of the text the lesson is about."""
    with new_page(browser, width=size[0], height=size[1]) as page:
        goto(page, app_url + "/")
        open_presenting(page, app_url + f"/merges?present=1&text={quote(_FOX)}")
        tokens = page.locator(".st-key-merges_text .bpl-text")
        expect(tokens.locator(".tok").first).to_be_attached()
        wait_idle(page)
        for key in ("Home", "End"):
            with rerun(page):
                page.keyboard.press(key)
            overflow = tokens.evaluate("e => e.scrollHeight - e.clientHeight")
            assert overflow <= 1, (key, overflow)
        assert page.evaluate(_OVERFLOW_JS) <= 1
        screenshot(page, f"merges-present-sentence-{size[0]}x{size[1]}", whole=False)


def test_the_tables_columns_stay_put_from_step_to_step(browser: Browser, app_url: str) -> None:
    """Sized by their content, the pieces' column moved right as wider merges came into the
    table (265, 382, 436 px at steps 0, 15, 18): a lurch on every step on a projector."""
    with new_page(browser, width=1280, height=720) as page:
        goto(page, app_url + "/")
        starts = []
        for step in (0, 11, 16, 18):
            open_presenting(page, app_url + f"/merges?present=1&step={step}")
            column = page.locator(".mg-chunk .mg-table th").nth(2)
            expect(page.locator(f".mg-chunk tr.mg-now[data-step='{step}']")).to_be_attached()
            starts.append(column.bounding_box()["x"])
        assert max(starts) - min(starts) <= 1, starts


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_links_notice_floats_over_the_screen_until_dismissed(
    browser: Browser, app_url: str, scheme: str
) -> None:
    """A link with values the page cannot use names them in a notice. Above the stage it took
    200 px of a 720 px screen, and the page scrolled; presenting, it floats over the screen's
    bottom right corner, and the screen stays as it is."""
    with new_page(browser, width=1280, height=720, color_scheme=scheme) as page:
        goto(page, app_url + "/")
        open_presenting(page, app_url + "/merges?present=1&step=abc&speed=9")
        notice = page.locator(".st-key-common_url_notice")
        expect(notice).to_contain_text("step=abc")
        expect(notice).to_contain_text("speed=9")
        assert_on_screen(page, notice, "the notice")
        wait_idle(page)
        assert page.evaluate(_OVERFLOW_JS) <= 1
        table = page.locator(".mg-chunk table").bounding_box()
        assert table is not None and table["y"] < 360, "the stage where it is without a notice"
        screenshot(page, f"merges-present-link-notice-{scheme}", whole=False)
        with rerun(page):
            notice.get_by_role("button", name="Dismiss").click()
        expect(notice).to_have_count(0)


def test_on_a_phone_the_table_and_the_text_stack(browser: Browser, app_url: str) -> None:
    """Side by side at 390 px, the table's pieces stood one letter per line."""
    with new_page(browser, width=390, height=844) as page:
        goto(page, app_url + "/")
        open_presenting(page, app_url + "/merges?present=1&step=3")
        expect(page.locator(".mg-chunk tr.mg-now")).to_be_attached()
        table = page.locator(".st-key-merges_table").bounding_box()
        text = page.locator(".st-key-merges_text").bounding_box()
        assert table is not None and text is not None
        assert table["width"] >= 300 and text["width"] >= 300
        assert text["y"] >= table["y"] + table["height"] - 1
        screenshot(page, "merges-present-390x844", whole=False)


_HELP_MARKS_JS = """() => [...document.querySelectorAll('.stTooltipHoverTarget svg.icon')]
    .map(e => e.getBoundingClientRect().width).filter(w => w > 0)"""
_CUT_IN_POPOVER_JS = """() => {
  const body = document.querySelector("[data-testid='stPopoverBody']").getBoundingClientRect();
  return [...document.querySelectorAll(
      "[data-testid='stPopoverBody'] :is(button, [data-baseweb='select'])")]
    .filter(e => e.getBoundingClientRect().right > body.right + 1).map(e => e.textContent);
}"""


def test_toggled_on_a_4k_screen_help_marks_and_settings_grow_with_the_type(
    browser: Browser, app_url: str
) -> None:
    """The type grows with the screen, but Streamlit draws its help marks in pixels when it
    draws them: turned on by the toggle at 3840x2160 they stayed 16 px beside 48 px type, and
    48 px once it was off. The Settings popover, at most 688 px, cut its controls off."""
    with new_page(browser, width=3840, height=2160) as page:
        goto(page, app_url + "/")
        goto(page, app_url + "/merges?text=hello")
        toggle = keyed(page, "merges.present")
        with rerun(page):
            toggle.get_by_text("Presentation mode").click()
        expect(page.get_by_test_id("stSidebar")).to_be_hidden()
        wait_idle(page)
        marks = page.evaluate(_HELP_MARKS_JS)
        assert marks and min(marks) >= 47, marks
        page.get_by_role("button", name="Settings").click()
        expect(page.get_by_test_id("stPopoverBody")).to_be_visible()
        wait_idle(page)
        assert page.evaluate(_CUT_IN_POPOVER_JS) == []
        page.keyboard.press("Escape")
        with rerun(page):
            toggle.get_by_text("Presentation mode").click()
        expect(page.get_by_test_id("stSidebar")).to_be_visible()
        wait_idle(page)
        marks = page.evaluate(_HELP_MARKS_JS)
        assert marks and max(marks) <= 17, marks


def test_settings_copy_the_presentations_link(presenting: Page) -> None:
    """Presenting hides the page's Copy link: sharing a step meant copying the address bar."""
    presenting.context.grant_permissions(["clipboard-read", "clipboard-write"])
    presenting.get_by_role("button", name="Settings").click()
    presenting.get_by_role("button", name="Copy link").click()
    expect(presenting.get_by_role("button", name="Link copied ✓")).to_be_visible()
    copied = presenting.evaluate("navigator.clipboard.readText()")
    assert copied == presenting.url and "present=1" in copied


def test_one_esc_closes_the_settings_and_hands_the_keys_back(presenting: Page) -> None:
    """Esc closed the popover and left the focus on its button: Space then opened it again
    instead of playing, and it took a second Esc."""
    settings = presenting.get_by_role("button", name="Settings")
    settings.click()
    expect(presenting.get_by_text("Step through")).to_be_visible()
    presenting.keyboard.press("Escape")
    expect(presenting.get_by_text("Step through")).to_be_hidden()
    expect(settings).not_to_be_focused()
    assert slider_value(presenting) == "0"
    presenting.keyboard.press("ArrowRight")  # steps, where it used to reach no one
    expect(presenting.locator("[data-testid='stSlider'] input[type=range]")).not_to_have_value("0")


def test_settings_pick_the_encoding_that_the_hidden_sidebar_holds(
    presenting: Page, size: tuple[int, int]
) -> None:
    """Presenting hides the sidebar, and with it the only encoding picker: a teacher switching
    vocabulary mid-lesson had to leave presentation mode."""
    presenting.get_by_role("button", name="Settings").click()
    picker = keyed(presenting, "merges.present_enc")
    expect(picker.get_by_role("combobox")).to_have_value(re.compile("^gpt2"))
    choose_option(presenting, picker, re.compile("^cl100k_base"))
    # The popover stays open, on the new value.
    expect(picker.get_by_role("combobox")).to_have_value(re.compile("^cl100k_base"))
    assert query(presenting)["enc"] == "cl100k_base"
    screenshot(presenting, f"merges-present-settings-{size[0]}x{size[1]}", whole=False)
    presenting.keyboard.press("Escape")
    expect(presenting.get_by_text("Step through")).to_be_hidden()
    presenting.keyboard.press("End")  # the keys step the new encoding's merges
    expect(
        presenting.get_by_test_id("stMain").get_by_text(re.compile(r"Step (\d+) of \1\b"))
    ).to_be_visible()
