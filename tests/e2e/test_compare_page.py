"""The Compare page in Chromium: side by side, the Languages & code tab's charts and table, and
links that open the same view in a fresh browser context."""

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

import tokenizer as tk
from tests.e2e.harness import (
    assert_styled,
    commit,
    go_to,
    goto,
    keyed,
    metric,
    new_page,
    rerun,
    screenshot,
    wait_idle,
    wait_settled,
)
from tests.e2e.playground_page import assert_on_screen, box, paste, query, text_box
from ui.common.examples import DEFAULT_TEXT
from ui.common.registry import OPENAI_GENERATIONS
from ui.common.samples import load_samples
from ui.compare.languages.data import METRICS

HOSTILE_TITLE = '<img src=x onerror="window.__pwned = 1">'

# The dataframe is a canvas grid; its accessible table holds only the rows in view, so scroll it
# and collect the first column's cells on the way down. After each scroll, wait (frame by frame,
# at most 2 s) until the grid has drawn rows that were not in view before.
_TABLE_ROWS_JS = """async (grid) => {
  const scroller = grid.querySelector('.dvn-scroller');
  const seen = new Map();
  const rows = () => Array.from(grid.querySelectorAll('table tbody tr'));
  const last = () => Math.max(0, ...rows().map(r => Number(r.getAttribute('aria-rowindex'))));
  const collect = () => {
    for (const row of rows()) {
      const cell = row.querySelector('td');
      if (cell) seen.set(Number(row.getAttribute('aria-rowindex')), cell.textContent);
    }
  };
  collect();
  for (;;) {
    const top = scroller.scrollTop, before = last();
    scroller.scrollTop = top + 200;
    if (scroller.scrollTop === top) break;  // at the bottom
    scroller.dispatchEvent(new Event('scroll'));
    for (let frame = 0; frame < 120 && last() === before; frame++) {
      await new Promise(r => requestAnimationFrame(r));
    }
    collect();
  }
  return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(e => e[1]);
}"""


def table_rows(page: Page) -> list[str]:
    grid = page.locator("[data-testid='stDataFrame']").first
    return grid.evaluate(_TABLE_ROWS_JS)


def chart_texts(page: Page) -> list[str]:
    return page.locator("[data-testid='stVegaLiteChart'] text").evaluate_all(
        "els => els.map(e => e.textContent)"
    )


def open_compare(open_app, tab: str | None = None) -> Page:
    """Start at "/" (app.py registers the pages), then switch pages as a user does."""
    page = open_app("/")
    go_to(page, "Compare")
    if tab is not None:
        with rerun(page):
            page.get_by_role("tab", name=tab).click()
    return page


def test_side_by_side_counts_equal_the_cores(open_app, page: Page) -> None:
    open_compare(open_app)
    for index, name in enumerate(OPENAI_GENERATIONS):  # the default sides, not every encoding
        column = keyed(page, f"compare.col_{index}")
        expect(column).to_contain_text(name)
        count = len(tk.get_encoding(name).encode(DEFAULT_TEXT))
        expect(metric(page, "Tokens", column)).to_have_text(f"{count:,}")
        assert_styled(column)
    expect(page.locator(".bdw .blk").first).to_be_visible()
    expect(page.locator(".bdw .lane.l2").first).to_be_visible()  # a row for each of the three
    expect(page.get_by_text("the cheapest for this text")).to_be_visible()  # "are" on a tie
    screenshot(page, "compare-light")


# The distinct lines of a column's tokens that lie wholly inside the window.
_LINES_IN_VIEW_JS = """(column) => {
  const tops = new Set();
  for (const tok of column.querySelectorAll('.bpl-text .tok')) {
    const r = tok.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= window.innerHeight) tops.add(Math.round(r.top));
  }
  return tops.size;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1024, 768)])
def test_side_by_side_shows_every_columns_first_lines_without_scrolling(
    browser: Browser, app_url: str, width: int, height: int, scheme: str
) -> None:
    """The page's head on one row, a four-line box and packed column heads. Before, the
    columns' tokens began 880 px down at 1280x720: not one token on the first screen."""
    with new_page(browser, width=width, height=height, color_scheme=scheme) as page:
        goto(page, app_url + "/compare")
        wait_settled(page)
        assert_on_screen(page, page.get_by_role("heading", name="Compare"), "the title")
        assert_on_screen(page, text_box(page), "the text box")
        assert_on_screen(page, keyed(page, "compare.encs"), "the tokenizers")
        for index, name in enumerate(OPENAI_GENERATIONS):
            column = keyed(page, f"compare.col_{index}")
            assert_on_screen(page, column.get_by_text(name, exact=True), f"{name}'s name")
            assert_on_screen(page, metric(page, "Tokens", column), f"{name}'s count")
            assert_on_screen(page, column.locator(".tok").first, f"{name}'s first token")
            assert column.evaluate(_LINES_IN_VIEW_JS) >= 3, name
        assert page.evaluate("window.scrollY") == 0
        screenshot(page, f"compare-fit-{width}x{height}-{scheme}", whole=False)


def test_a_long_text_scrolls_inside_each_column(open_app, page: Page) -> None:
    """Each column's tokens stop at 24rem and scroll: the columns end together, and the diff
    under them stays a short scroll away whatever the text's length."""
    open_compare(open_app)
    with rerun(page):
        paste(page, DEFAULT_TEXT * 30)
    wait_settled(page)
    root = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    for index, name in enumerate(OPENAI_GENERATIONS):
        pane = keyed(page, f"compare.col_{index}").locator(".bpl-pane")
        expect(pane).to_have_count(1)
        height, overflow = pane.evaluate("e => [e.clientHeight, e.scrollHeight - e.clientHeight]")
        assert height <= 24 * root + 1 and overflow > 0, (name, height, overflow)


def test_on_a_phone_the_columns_stack_at_full_width(browser: Browser, app_url: str) -> None:
    """A rule meant for each column's figures row once matched the columns' row too, and kept
    three columns of 100 px side by side on a phone. The tokenizers menu, squeezed by the
    toggle beside it to one name and a half, takes the whole width too."""
    with new_page(browser, width=390, height=844) as page:
        goto(page, app_url + "/compare")
        wait_settled(page)
        first, second = (box(keyed(page, f"compare.col_{i}")) for i in (0, 1))
        text = box(text_box(page))
        assert second["y"] >= first["y"] + first["height"]  # one under the other
        assert first["width"] >= 0.9 * text["width"], (first, text)  # as wide as the box
        menu = box(keyed(page, "compare.encs"))
        assert menu["width"] >= 0.9 * text["width"], (menu, text)


def test_the_keys_point_at_a_columns_tokens(open_app, page: Page) -> None:
    open_compare(open_app)
    column = keyed(page, "compare.col_0")
    pane = column.locator(".bpl-text")
    pane.focus()
    page.keyboard.press("End")
    last = pane.locator(".tok").last
    expect(last).to_have_class(re.compile(r"\bhl\b"))
    expect(column.locator(".bpl-inspect")).to_have_text(last.get_attribute("title") or "")
    page.keyboard.press("ArrowLeft")
    expect(pane.locator(".tok.hl")).to_have_count(1)
    expect(pane.locator(".tok").nth(-2)).to_have_class(re.compile(r"\bhl\b"))


def test_a_tab_chosen_with_the_arrow_keys_keeps_the_focus(open_app, page: Page) -> None:
    """The tabs are drawn again as the page reruns: the focus fell to the page's body, and the
    next arrow did nothing (ui/components/tab_focus.js puts it back)."""
    open_compare(open_app)
    page.get_by_role("tab", name="Side by side").focus()
    for key, name, tab in (
        ("ArrowRight", "Languages & code", "languages"),
        ("ArrowLeft", "Side by side", None),
    ):
        with rerun(page):
            page.keyboard.press(key)
        wait_settled(page)
        assert query(page).get("tab") == tab
        expect(page.get_by_role("tab", name=name)).to_be_focused()


def test_a_right_to_left_word_keeps_the_order_of_its_tokens_in_the_diff(open_app) -> None:
    """GPT-2 cuts "مرحبا" letter by letter: its row in the diff laid them out right to left,
    against the panes above (and the blocks around), which keep the tokens' order."""
    page = open_app("/compare?" + urlencode({"encs": "gpt2,o200k_base", "text": "مرحبا"}))
    lane = page.locator(".bdw .lane.l0").first
    expect(lane).to_be_visible()
    tokens = lane.locator(":scope > span")
    assert tokens.count() >= 3
    xs = tokens.evaluate_all("els => els.map(e => e.getBoundingClientRect().left)")
    assert xs == sorted(xs) and len(set(xs)) == len(xs)


def test_languages_tab_at_1024_shows_every_encoding_and_option(
    browser: Browser, app_url: str
) -> None:
    """At 1024x768 with the sidebar open: each chart's key names every encoding charted, inside
    the chart (Vega's legend in fixed columns lost the third; an HTML key above the charts was
    not in their PNGs), and every metric and sample group is whole in view (in columns, both
    rows were cut and scrolled sideways)."""
    with new_page(browser, width=1024, height=768) as page:
        chosen = ["gpt2", "cl100k_base", "o200k_base", "llama3", "qwen3"]
        goto(page, app_url + "/")
        goto(page, app_url + f"/compare?tab=languages&langs={','.join(chosen)}")
        charts = page.locator("[data-testid='stVegaLiteChart']")
        expect(charts).to_have_count(3)
        for n in range(3):
            labels = charts.nth(n).locator(".role-legend-label text")
            expect(labels).to_have_text(chosen)
            frame = box(charts.nth(n))
            for label in labels.all():
                drawn = box(label)
                assert (
                    frame["x"] <= drawn["x"]
                    and drawn["x"] + drawn["width"] <= frame["x"] + frame["width"]
                )
        for group in ("Show", "Samples"):
            options = page.locator(f"[data-testid='stButtonGroup'] [aria-label='{group}']")
            expect(options.locator("button").last).to_be_in_viewport(ratio=1)
            assert options.evaluate("row => row.scrollWidth <= row.clientWidth"), group
        screenshot(page, "languages-1024x768")


# Each chart's texts (labels, ticks, titles) that reach past its left or right edge, or that
# Vega cut short itself (an ellipsis at its label limit, 180 px).
_CUT_TEXTS_JS = r"""chart => {
  const frame = chart.getBoundingClientRect();
  const cut = t => {
    const drawn = t.getBoundingClientRect();
    return drawn.left < frame.left || drawn.right > frame.right || t.textContent.endsWith("…");
  };
  const exponent = t => /\de[+-]?\d/.test(t.textContent);
  return Array.from(chart.querySelectorAll('text')).filter(t => cut(t) || exponent(t))
    .map(t => t.textContent);
}"""


@pytest.mark.parametrize(("width", "height"), [(1024, 768), (1280, 720)])
def test_no_chart_text_is_cut_by_its_frame(
    browser: Browser, app_url: str, width: int, height: int
) -> None:
    """For every metric, each chart's words and numbers lie whole inside it: at 1024x768 the
    tricky cases' axis title ("Characters per token") ran past the frame and lost its last
    letter, and at both sizes the last tick label lost a pixel. No bundled sample's name is
    cut short either: "Unicode normalization and in…" was. And no tick is written with an
    exponent: at 1024x768 the premium axis read "0" and "1e+1"."""
    with new_page(browser, width=width, height=height) as page:
        goto(page, app_url + "/")
        cut = {}
        for shown in METRICS:
            goto(page, app_url + f"/compare?tab=languages&metric={shown}")
            charts = page.locator("[data-testid='stVegaLiteChart']")
            expect(charts.locator(".role-axis-title text")).to_have_count(3)  # all three drawn
            for n, chart in enumerate(charts.all()):
                if texts := chart.evaluate(_CUT_TEXTS_JS):
                    cut[shown, n] = texts
        assert not cut


def test_languages_tab_chart_table_metric_and_own_sample(open_app, page: Page) -> None:
    open_compare(open_app, "Languages & code")
    chart = page.locator("[data-testid='stVegaLiteChart']")
    expect(chart).to_have_count(3)  # languages, code, tricky cases
    expect(chart.locator("svg, canvas").first).to_be_visible()
    samples = load_samples()
    shown = chart_texts(page)
    for sample in samples:  # every sample is a label on the chart (long ones cut with "…")
        assert any(
            t == sample.title or (t.endswith("…") and sample.title.startswith(t[:-1]))
            for t in shown
        ), sample.title
    screenshot(page, "languages-light")  # before the table is scrolled
    grid = page.locator("[data-testid='stDataFrame'] table").first
    expect(grid).to_have_attribute("aria-rowcount", str(len(samples) + 1))
    assert table_rows(page) == [s.title for s in samples]

    expect(chart.locator("text").filter(has_text="Tokens relative to English (×)")).to_have_count(1)
    with rerun(page):
        keyed(page, "compare.lang_metric").get_by_text("Characters / token").click()
    axis = chart.locator("text").filter(has_text=re.compile("^Characters per token$"))
    expect(axis).to_have_count(3)

    commit(keyed(page, "compare.lang_new_title").locator("input"), HOSTILE_TITLE)
    text = keyed(page, "compare.lang_new_text").locator("textarea")
    commit(text, "Hello from my own sample 👋", "ControlOrMeta+Enter")
    with rerun(page):
        keyed(page, "compare.lang_add").locator("button").click()
    expect(grid).to_have_attribute("aria-rowcount", str(len(samples) + 2))
    assert any(t.startswith("<img src=x") for t in chart_texts(page))  # drawn as text…
    assert page.evaluate("() => window.__pwned") is None  # …never run


def test_with_a_sample_of_your_own_every_group_fits_at_1280(open_app, page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app("/compare?tab=languages")
    commit(keyed(page, "compare.lang_new_title").locator("input"), "Mine")
    text = keyed(page, "compare.lang_new_text").locator("textarea")
    commit(text, "A sample of my own.", "ControlOrMeta+Enter")
    with rerun(page):
        keyed(page, "compare.lang_add").locator("button").click()
    group = keyed(page, "compare.lang_groups")
    pills = group.get_by_role("button")
    expect(pills).to_have_count(4)
    edge = group.bounding_box()  # the pills' row: what goes past it is cut off
    assert edge is not None
    for pill in pills.all():
        box = pill.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= edge["x"] + edge["width"], pill.inner_text()
    screenshot(page, "languages-own-sample-1280x720")


def test_the_add_panel_stays_open_with_the_new_samples_notice(open_app, page: Page) -> None:
    """The panel opens while there is no sample of one's own; adding the first one used to close
    it, hiding the file's encoding notice (shown once) and the sample's Remove button."""
    open_app("/compare?tab=languages")
    upload = page.locator("[class*='st-key-compare-lang_new_file_'] input[type=file]")
    with rerun(page):
        upload.set_input_files(
            {"name": "latin.txt", "mimeType": "text/plain", "buffer": b"caf\xe9"}
        )
    with rerun(page):
        keyed(page, "compare.lang_add").locator("button").click()
    wait_settled(page)
    page.wait_for_timeout(1_000)  # it used to close a moment after the run had drawn the notice
    panel = page.locator("[data-testid='stExpander'] details", has_text="Add your own sample")
    assert panel.get_attribute("open") == ""
    expect(page.get_by_text("could not be read as UTF-8")).to_be_visible()
    expect(keyed(page, "compare.lang_remove_yours-1").locator("button")).to_be_visible()


@pytest.mark.parametrize("color_scheme", ["dark"], indirect=True)
def test_dark_screenshots(open_app, page: Page, color_scheme: str) -> None:
    open_compare(open_app)
    expect(page.locator(".bdw .blk").first).to_be_visible()
    screenshot(page, "compare-dark")
    with rerun(page):
        page.get_by_role("tab", name="Languages & code").click()
    expect(page.locator("[data-testid='stVegaLiteChart']").first).to_be_visible()
    screenshot(page, "languages-dark")


def test_a_compare_link_opens_the_same_view_in_a_fresh_browser_context(
    open_app, page: Page, browser: Browser, app_url: str
) -> None:
    open_compare(open_app)
    with rerun(page):
        paste(page, "Links keep the view: 12345 naïve 👋")  # the live box sends it by itself
    expect(metric(page, "Tokens", keyed(page, "compare.col_0"))).not_to_have_text("44")
    tokenizers = keyed(page, "compare.encs")
    with rerun(page):
        tokenizers.get_by_role("button", name="Remove cl100k_base").click()
    counts = [metric(page, "Tokens", keyed(page, f"compare.col_{i}")).inner_text() for i in (0, 1)]
    side_link = page.url
    with rerun(page):
        page.get_by_role("tab", name="Languages & code").click()
    with rerun(page):
        keyed(page, "compare.lang_metric").get_by_text("Bytes / token").click()
    with rerun(page):
        keyed(page, "compare.lang_groups").get_by_role("button", name="Tricky cases").click()
    wait_idle(page)
    languages_link = page.url
    assert "tab=languages" in languages_link and "metric=bytes_per_token" in languages_link

    with new_page(browser, width=1400, height=1000) as fresh:  # another browser: nothing shared
        goto(fresh, side_link)
        expect(text_box(fresh)).to_have_value("Links keep the view: 12345 naïve 👋")
        expect(keyed(fresh, "compare.col_1")).to_contain_text("o200k_base")
        expect(keyed(fresh, "compare.col_2")).to_have_count(0)
        for i, count in enumerate(counts):
            expect(metric(fresh, "Tokens", keyed(fresh, f"compare.col_{i}"))).to_have_text(count)
        goto(fresh, languages_link)
        expect(fresh.get_by_role("tab", name="Languages & code")).to_have_attribute(
            "aria-selected", "true"
        )
        charts = fresh.locator("[data-testid='stVegaLiteChart']")
        expect(charts).to_have_count(2)  # the tricky cases are off in this view
        axis = charts.locator("text").filter(has_text=re.compile("^UTF-8 bytes per token$"))
        expect(axis).to_have_count(2)
        shown = [s for s in load_samples() if s.kind in ("language", "code")]
        grid = fresh.locator("[data-testid='stDataFrame'] table").first
        expect(grid).to_have_attribute("aria-rowcount", str(len(shown) + 1))
