"""The merges page in Chromium: the walkthrough from the page, play and step, keys, links, looks."""

import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.core.texts import corpus_texts
from tests.e2e.conftest import SCREENSHOTS, wait_idle
from tests.e2e.playground_page import query, shown_text
from tests.ui.payloads import XSS_PAYLOADS

OpenApp = Callable[[str], Page]
IDS = [38, 11571, 17, 373, 2727, 416, 4946, 20185]
BEST = [12, 184, 3361, 4690, 19929]


def open_merges(open_app: OpenApp, path: str = "") -> Page:
    """Open a /merges link once the server has run app.py.

    A fresh server runs the page file of its very first request without app.py (Streamlit's
    `pages/` folder detection, before `st.navigation` has ever run); opening "/" first keeps
    these tests about this page (see tests/e2e/test_app_frame.py).
    """
    open_app("/")
    page = open_app(f"/merges{path}")
    expect(page.locator(".mg-chunk")).to_be_attached()  # the first run may not have begun
    expect(button(page, "First")).to_be_visible()  # its key (Home) listens once it is drawn
    wait_idle(page)
    return page


def best_ranks(page: Page) -> list[int]:
    return page.locator(".mg-chunk tr.mg-row[data-best]").evaluate_all(
        "rows => rows.map(r => Number(r.dataset.best))"
    )


def rows(page: Page) -> int:
    return page.locator(".mg-chunk tr.mg-row").count()


def numbers(page: Page, selector: str) -> list[int]:
    return page.locator(selector).evaluate_all("els => els.map(e => Number(e.textContent))")


def step(page: Page) -> int:
    return int(page.locator("[data-testid='stSlider'] input[type=range]").input_value())


def button(page: Page, name: str):
    return page.get_by_role("button", name=re.compile(f"^{name}"))


def wait_for(page: Page, condition: Callable[[], bool], timeout_s: float = 30) -> None:
    """Poll `condition` (a rerun or a tick may still be on its way)."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(50)


def test_the_page_shows_the_walkthrough_ranks_and_ids(open_app: OpenApp) -> None:
    page = open_merges(open_app)
    page.get_by_role("radio", name="·OpenAI").click()
    wait_for(page, lambda: query(page).get("chunk") == "5")
    wait_idle(page)
    assert best_ranks(page) == BEST
    assert numbers(page, ".mg-chunk .mg-id") == [4946, 20185]
    assert numbers(page, ".mg-text .bpl-ids .tid") == IDS
    expect(page.locator(".mg-chunk tr.mg-now")).to_contain_text("no more merges")


def test_play_and_step_advance_the_table_and_the_link_restores_the_step(
    open_app: OpenApp, browser
) -> None:
    page = open_merges(open_app, "?chunk=5")
    button(page, "First").click()
    wait_for(page, lambda: rows(page) == 1 and step(page) == 0)
    button(page, "Play").click()
    wait_for(page, lambda: rows(page) >= 3)  # the table grows by itself
    button(page, "Pause").click()
    wait_idle(page)
    page.wait_for_timeout(1500)  # paused: nothing moves any more
    paused = rows(page)
    assert rows(page) == paused and paused < 6
    button(page, "Next").click()
    wait_for(page, lambda: rows(page) == paused + 1)
    wait_idle(page)
    now = step(page)
    assert query(page)["step"] == str(now)
    current = page.locator(".mg-chunk tr.mg-now").get_attribute("data-step")
    # The link opens the same view in a new session.
    other = browser.new_page(viewport={"width": 1400, "height": 1000})
    other.goto(page.url)
    wait_idle(other)
    assert step(other) == now and rows(other) == paused + 1
    assert other.locator(".mg-chunk tr.mg-now").get_attribute("data-step") == current
    assert best_ranks(other) == BEST[: paused + 1][: rows(other)]
    other.close()


def test_keys_step_play_and_jump(open_app: OpenApp) -> None:
    page = open_merges(open_app, "?chunk=5")
    page.keyboard.press("Home")
    wait_for(page, lambda: step(page) == 0)
    for expected in (4, 11):
        page.keyboard.press("ArrowRight")
        wait_for(page, lambda expected=expected: step(page) == expected)
    page.keyboard.press("ArrowLeft")
    wait_for(page, lambda: step(page) == 4)
    page.keyboard.press("Space")
    wait_for(page, lambda: button(page, "Pause").count() == 1)
    wait_for(page, lambda: step(page) > 4)
    page.keyboard.press("Space")
    wait_for(page, lambda: button(page, "Play").count() == 1)
    page.keyboard.press("End")
    wait_for(page, lambda: step(page) == 18)
    assert best_ranks(page) == BEST


def test_typing_is_not_taken_for_keys(open_app: OpenApp) -> None:
    page = open_merges(open_app, "?chunk=5&step=4")
    box = page.locator("textarea.lt-area")
    box.click()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type(" x")
    wait_for(page, lambda: "x" in query(page).get("text", ""))
    wait_idle(page)
    assert button(page, "Play").count() == 1  # the space typed did not start playing


@pytest.mark.parametrize("payload", XSS_PAYLOADS[:9])
def test_user_text_stays_text(open_app: OpenApp, payload: str) -> None:
    page = open_merges(open_app, f"?text={quote(payload)}&pieces=text")
    assert page.evaluate("window.__pwned") is None
    chips = page.get_by_role("radiogroup", name="Chunks").get_by_role("radio")

    def shown() -> str:
        texts = chips.evaluate_all(
            "els => els.map(e => e.querySelector('[data-testid=stMarkdownContainer]').innerText)"
        )
        return "".join(texts).replace("·", " ")

    wait_for(page, lambda: shown() == payload.replace("·", " "))
    # The whole text is drawn without st.html's sanitizer: it must be our escaping that holds.
    assert shown_text(page).replace("·", " ") == payload
    assert page.locator(".mg-block").locator("iframe, form, img, svg, a, input, i").count() == 0
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background != "rgb(255, 0, 0)"


def test_the_patched_whole_text_equals_a_fresh_drawing(open_app: OpenApp, browser) -> None:
    """Steps patch the whole text in place (ui/components/merges_block.js): after any walk
    through the steps, the page must hold exactly what drawing that step from scratch gives."""
    text = "Hello hello 👋🏽 naïve 日本語 aaaa aaaaa, the theme\n\tthen"
    page = open_merges(open_app, f"?by=text&step=0&text={quote(text)}")
    keys = ["ArrowRight"] * 12 + ["ArrowLeft"] * 3 + ["End", "Home"] + ["ArrowRight"] * 5
    for key in keys:
        before = step(page)
        page.keyboard.press(key)
        wait_for(page, lambda before=before: step(page) != before)
        wait_idle(page)
    wait_for(page, lambda: query(page).get("step") == str(step(page)))
    patched = page.locator(".mg-block").inner_html()
    fresh = browser.new_page(viewport={"width": 1400, "height": 1000})
    fresh.goto(page.url)
    expect(fresh.locator(".mg-block")).to_be_attached()
    wait_idle(fresh)
    assert step(fresh) == step(page) == 5
    assert patched == fresh.locator(".mg-block").inner_html()
    fresh.close()


# Browser clock: from the key going down to the next step's whole text being in the page.
_STEP_TIMER = """() => {
    window.__steps = [];
    window.__last = document.querySelector('.mg-summary').innerText;
    document.addEventListener('keydown', () => { window.__t0 = performance.now(); }, true);
    new MutationObserver(() => {
        const shown = document.querySelector('.mg-summary')?.innerText;
        if (shown && shown !== window.__last && window.__t0 !== null) {
            window.__last = shown;
            window.__steps.push(performance.now() - window.__t0);
            window.__t0 = null;
        }
    }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


def test_each_step_of_a_2000_character_text_redraws_it(open_app: OpenApp) -> None:
    """Twenty key presses, twenty redraws of the whole text; the time of each is printed."""
    text = corpus_texts()["the-verdict.txt"][:2000]
    page = open_merges(open_app, f"?by=text&step=100&text={quote(text)}")
    page.evaluate(_STEP_TIMER)
    for done in range(1, 21):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"window.__steps.length === {done}")
        wait_idle(page)
    times = page.evaluate("window.__steps")
    median = statistics.median(times)
    print(f"\nmerges step, 2,000 characters: median {median:.0f} ms, max {max(times):.0f} ms")


def full_screenshot(page: Page, name: str) -> Path:
    """The whole page: Streamlit scrolls its own container, so grow the window to fit it."""
    height = page.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": min(height + 40, 4000)})
    page.wait_for_timeout(500)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
@pytest.mark.parametrize("present", [False, True], ids=["normal", "presentation"])
def test_screenshots(open_app: OpenApp, color_scheme: str, present: bool) -> None:
    page = open_merges(open_app, f"?chunk=5&step=11{'&present=1' if present else ''}")
    expect(page.locator(".mg-chunk tr.mg-now")).to_have_attribute("data-step", "2")
    sidebar = page.locator("[data-testid='stSidebar']")
    expect(sidebar).to_be_hidden() if present else expect(sidebar).to_be_visible()
    mode = "presentation" if present else "normal"
    full_screenshot(page, f"merges-{mode}-{color_scheme}")
