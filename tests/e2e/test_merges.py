"""The merges page in Chromium: the walkthrough from the page, play and step, keys, links, looks."""

import re
import statistics
from collections.abc import Callable
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.e2e.harness import goto, new_page, rerun, screenshot, wait_idle
from tests.e2e.playground_page import query, shown_text
from tests.prerequisites import corpus_texts
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
    expect(page.locator(".mg-chunk")).to_be_attached()  # may be drawn after the run has ended
    expect(button(page, "First")).to_be_visible()  # its key (Home) listens once it is drawn
    expect(page.locator("body[data-merges-keys='on']")).to_be_attached()  # and the page's keys
    expect(page.locator("body[data-steps='on']")).to_be_attached()  # ← → counted
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


def slider(page: Page) -> Locator:
    return page.locator("[data-testid='stSlider'] input[type=range]")


def step(page: Page) -> int:
    return int(slider(page).input_value())


def button(page: Page, name: str) -> Locator:
    return page.get_by_role("button", name=re.compile(f"^{name}"))


def table_rows(page: Page) -> Locator:
    return page.locator(".mg-chunk tr.mg-row")


def expect_param(page: Page, name: str, value: str) -> None:
    """Wait until the address bar's `name` parameter is `value` (the app publishes it)."""
    expect(page).to_have_url(re.compile(rf"[?&]{name}={re.escape(value)}(&|$)"))


def wait_for_step(page: Page, condition: str) -> None:
    """Wait until the player's step (`step` in the JavaScript `condition`) makes it true."""
    page.wait_for_function(
        f"() => {{ const el = document.querySelector("
        f"\"[data-testid='stSlider'] input[type=range]\"); "
        f"const step = el ? Number(el.value) : NaN; return {condition}; }}"
    )


def wait_for_rows(page: Page, at_least: int) -> None:
    """Wait until the pair/rank table has at least `at_least` rows (playing adds them)."""
    page.wait_for_function(
        "n => document.querySelectorAll('.mg-chunk tr.mg-row').length >= n", arg=at_least
    )


def test_the_page_shows_the_walkthrough_ranks_and_ids(open_app: OpenApp) -> None:
    page = open_merges(open_app)  # opens on " OpenAI": most merges, ends as two tokens
    expect(page.get_by_role("radio", name="·OpenAI")).to_be_checked()
    wait_idle(page)
    assert best_ranks(page) == BEST
    assert numbers(page, ".mg-chunk .mg-id") == [4946, 20185]
    assert numbers(page, ".mg-text .bpl-ids .tid") == IDS
    expect(page.locator(".mg-chunk tr.mg-now")).to_contain_text("no pair left to merge")


def test_the_token_count_chart_has_room_to_fall(browser: Browser, app_url: str) -> None:
    """Its plot was 57 px tall at 1280x720 (a helper): Streamlit fits the title and axes in
    the chart's height, so the fall from one token per byte was a near-flat line."""
    with new_page(browser, width=1280, height=720) as page:
        goto(page, app_url + "/")
        goto(page, app_url + "/merges")
        y_axis = page.locator("[data-testid='stVegaLiteChart'] [aria-label^='Y-axis']")
        expect(y_axis).to_be_attached()
        plot = y_axis.bounding_box()
        assert plot is not None and plot["height"] >= 120, plot


def test_play_and_step_advance_the_table_and_the_link_restores_the_step(
    open_app: OpenApp, browser: Browser
) -> None:
    page = open_merges(open_app, "?chunk=5")
    button(page, "First").click()
    expect(table_rows(page)).to_have_count(1)
    expect(slider(page)).to_have_value("0")
    next_at = button(page, "Next").bounding_box()
    button(page, "Play").click()
    wait_for_rows(page, 3)  # the table grows by itself
    # "Pause" is longer than "Play": the buttons after it moved 10 px at each start and stop.
    assert button(page, "Next").bounding_box() == next_at
    button(page, "Pause").click()
    expect(button(page, "Play")).to_be_visible()  # paused
    wait_idle(page)
    paused = rows(page)
    assert paused < 6
    button(page, "Next").click()
    expect(table_rows(page)).to_have_count(paused + 1)
    wait_idle(page)
    now = step(page)
    expect_param(page, "step", str(now))
    current = page.locator(".mg-chunk tr.mg-now").get_attribute("data-step")
    # The link opens the same view in a new session.
    with new_page(browser) as other:
        goto(other, page.url)
        # The run has ended; the browser may still be laying out its table (CI saw 0 rows).
        expect(table_rows(other)).to_have_count(paused + 1)
        assert step(other) == now
        assert other.locator(".mg-chunk tr.mg-now").get_attribute("data-step") == current
        assert best_ranks(other) == BEST[: paused + 1][: rows(other)]
    # Paused means paused: while the other session loaded, this one did not move on.
    assert step(page) == now and rows(page) == paused + 1


def test_keys_step_play_and_jump(open_app: OpenApp) -> None:
    page = open_merges(open_app, "?chunk=5")
    page.keyboard.press("Home")
    expect(slider(page)).to_have_value("0")
    for expected in (4, 11):
        page.keyboard.press("ArrowRight")
        expect(slider(page)).to_have_value(str(expected))
    page.keyboard.press("ArrowLeft")
    expect(slider(page)).to_have_value("4")
    page.keyboard.press("Space")
    expect(button(page, "Pause")).to_have_count(1)
    wait_for_step(page, "step > 4")
    page.keyboard.press("Space")
    expect(button(page, "Play")).to_have_count(1)
    page.keyboard.press("End")
    expect(slider(page)).to_have_value("18")
    assert best_ranks(page) == BEST


def test_space_on_a_focused_button_is_that_buttons(open_app: OpenApp) -> None:
    """Space activates the focused control, as everywhere; it used to start playing too."""
    page = open_merges(open_app, "?chunk=5&step=4")
    button(page, "Next").focus()
    page.keyboard.press("Space")
    expect(slider(page)).to_have_value("11")
    wait_idle(page)
    assert button(page, "Play").count() == 1


def test_the_keys_step_after_a_click_on_a_setting_or_a_chip(open_app: OpenApp) -> None:
    """A clicked option kept the focus in its group (a setting's options, the chunk chips),
    whose arrows moved along the group instead of stepping. A click now hands the keys back;
    a control reached with Tab keeps them until Esc."""
    page = open_merges(open_app, "?chunk=5&step=4")
    with rerun(page):
        page.get_by_role("radio", name="Hex bytes").click()
    page.keyboard.press("ArrowRight")
    expect(slider(page)).to_have_value("11")

    chips = page.get_by_role("radiogroup", name="Chunks").get_by_role("radio")
    with rerun(page):
        chips.nth(0).click()
    page.keyboard.press("Home")
    expect(slider(page)).to_have_value("0")
    page.keyboard.press("ArrowRight")
    wait_for_step(page, "step > 0")

    chips.nth(0).focus()  # as Tab leaves it: the arrows are the group's
    page.keyboard.press("Escape")
    page.keyboard.press("Home")
    expect(slider(page)).to_have_value("0")
    page.keyboard.press("Space")  # plays: the chip no longer has the focus to take it
    expect(button(page, "Pause")).to_have_count(1)
    page.keyboard.press("Space")
    expect(button(page, "Play")).to_have_count(1)


def test_typing_is_not_taken_for_keys(open_app: OpenApp) -> None:
    page = open_merges(open_app, "?chunk=5&step=4")
    box = page.locator("textarea.lt-area")
    box.click()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    page.keyboard.type(" x")
    expect(page).to_have_url(re.compile(r"[?&]text=[^&]*x"))
    wait_idle(page)
    assert button(page, "Play").count() == 1  # the space typed did not start playing


def test_settings_survive_a_text_with_nothing_to_merge(open_app: OpenApp) -> None:
    """Empty text hides the player; typing again brings it back with the settings as they were.

    Streamlit forgets what a hidden widget showed unless it keeps its state (``persist_state``):
    the settings came back blank and the next keystroke crashed the page (KeyError: None).
    """
    page = open_merges(open_app, "?pieces=hex&by=text")
    box = page.locator("textarea.lt-area")
    infos = page.locator("[data-testid='stAlert']")
    box.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    expect(infos.filter(has_text="Type some text above")).to_be_visible()
    page.keyboard.type("   ")
    expect(infos.filter(has_text="Nothing in this text merges")).to_be_visible()
    for more in ("hello", " world"):
        page.keyboard.type(more)
        expect(page).to_have_url(re.compile(r"[?&]text=[^&]*" + more.strip()))
        wait_idle(page)
    assert page.locator("[data-testid='stException']").count() == 0
    expect(page.get_by_role("radio", name="Hex bytes")).to_be_checked()
    expect(page.get_by_role("radio", name="Every merge")).to_be_checked()
    expect(page.get_by_role("radio", name="1×")).to_be_checked()
    expect_param(page, "pieces", "hex")
    assert "None" not in page.url


# True once the chunk chips, joined, show `expected` (with visible spaces read as spaces).
_CHIPS_SHOW_JS = """expected => {
    const group = document.querySelector("[role=radiogroup][aria-label='Chunks']");
    if (!group) return false;
    const shown = Array.from(group.querySelectorAll('[role=radio]'), chip =>
        chip.querySelector('[data-testid=stMarkdownContainer]')?.innerText ?? '').join('');
    // A repeated chip ends in invisible word joiners (ui/merges/view.py, told_apart).
    return shown.replaceAll('·', ' ').replaceAll('\\u2060', '') === expected;
}"""


@pytest.mark.parametrize("payload", XSS_PAYLOADS[:9])
def test_user_text_stays_text(open_app: OpenApp, payload: str) -> None:
    page = open_merges(open_app, f"?text={quote(payload)}&pieces=text")
    assert page.evaluate("window.__pwned") is None
    page.wait_for_function(_CHIPS_SHOW_JS, arg=payload.replace("·", " "))
    # The whole text is drawn without st.html's sanitizer: it must be our escaping that holds.
    assert shown_text(page).replace("·", " ") == payload
    assert page.locator(".mg-block").locator("iframe, form, img, svg, a, input, i").count() == 0
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background != "rgb(255, 0, 0)"


def test_the_patched_whole_text_equals_a_fresh_drawing(open_app: OpenApp, browser: Browser) -> None:
    """Steps patch the whole text in place (ui/components/merges_block.js): after any walk
    through the steps, the page must hold exactly what drawing that step from scratch gives."""
    text = "Hello hello 👋🏽 naïve 日本語 aaaa aaaaa, the theme\n\tthen"
    page = open_merges(open_app, f"?by=text&step=0&text={quote(text)}")
    keys = ["ArrowRight"] * 12 + ["ArrowLeft"] * 3 + ["End", "Home"] + ["ArrowRight"] * 5
    for key in keys:
        before = step(page)
        page.keyboard.press(key)
        wait_for_step(page, f"step !== {before}")
        wait_idle(page)
    expect_param(page, "step", str(step(page)))
    patched = page.locator(".mg-block").inner_html()
    with new_page(browser) as fresh:
        goto(fresh, page.url)
        expect(fresh.locator(".mg-block")).to_be_attached()
        wait_idle(fresh)
        assert step(fresh) == step(page) == 5
        assert patched == fresh.locator(".mg-block").inner_html()


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


@pytest.mark.parametrize("pause_ms", [0, 33], ids=["burst", "held"])
def test_every_press_of_an_arrow_is_a_step(open_app: OpenApp, pause_ms: int) -> None:
    """As the buttons' shortcuts, presses faster than the page's runs were lost: 20 presses in
    a burst moved 2 steps, 20 at a held key's pace 11 (QA round 15)."""
    text = corpus_texts()["the-verdict.txt"][:300]
    page = open_merges(open_app, f"?by=text&present=1&text={quote(text)}")
    for _ in range(20):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(pause_ms)
    expect(slider(page)).to_have_value("20")
    for _ in range(7):
        page.keyboard.press("ArrowLeft")
        page.wait_for_timeout(pause_ms)
    expect(slider(page)).to_have_value("13")
    wait_idle(page)
    assert query(page)["step"] == "13"


@pytest.mark.parametrize("pause_ms", [0, 33], ids=["burst", "held"])
def test_home_and_end_among_arrows_are_steps_too(open_app: OpenApp, pause_ms: int) -> None:
    """Home and End were the buttons' shortcuts while the arrows went through the stepper: a
    Home among a burst of arrows was lost, or the arrows after it went on from the target
    before it (→ ×6, Home, → ×2 did not end on step 2, at either pace)."""
    text = corpus_texts()["the-verdict.txt"][:300]
    page = open_merges(open_app, f"?by=text&present=1&text={quote(text)}")
    last = int(slider(page).get_attribute("max") or "0")
    for key in ["ArrowRight"] * 6 + ["Home"] + ["ArrowRight"] * 2:
        page.keyboard.press(key)
        page.wait_for_timeout(pause_ms)
    expect(slider(page)).to_have_value("2")
    for key in ["ArrowRight"] * 3 + ["End"] + ["ArrowLeft"] * 3:
        page.keyboard.press(key)
        page.wait_for_timeout(pause_ms)
    expect(slider(page)).to_have_value(str(last - 3))
    wait_idle(page)
    assert query(page)["step"] == str(last - 3)
    # A screen reader is told each step the keys lead to, in the page's one live region.
    said = page.get_by_role("status").filter(has_text=re.compile(r"^Step \d"))
    expect(said).to_have_text(re.compile(rf"^Step {last - 3:,} of {last:,}: merge of rank "))


def test_a_burst_of_presses_follows_the_chunks_stops(open_app: OpenApp) -> None:
    """Following a chunk, each press goes to the next step where the chunk merges: " OpenAI"
    merges at steps 4, 11, 15, 16 and 18 of the default text."""
    page = open_merges(open_app, "?chunk=5&by=chunk&step=0")
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    expect(slider(page)).to_have_value("11")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(slider(page)).to_have_value("18")  # the last stop: the end of the text
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
    expect(slider(page)).to_have_value("4")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(slider(page)).to_have_value("0")  # the first stop, however many presses


def test_a_chunk_whose_text_comes_again_stays_the_one_shown(open_app: OpenApp) -> None:
    """Streamlit reads a chip back by its label: the first step after opening a text said
    three times moved the table from the chosen chunk to the last one with the same text
    ("Chunk 18 of 55" became "Chunk 54 of 55", the step unchanged; QA round 15)."""
    text = "Le petit chat dort sur le canapé. Le chien mange près de la fenêtre. " * 3
    page = open_merges(open_app, f"?by=text&step=0&enc=o200k_base&text={quote(text)}")
    summary = page.get_by_text(re.compile(r"^Chunk \d+ of"))
    shown = summary.inner_text().split(" ·")[0]
    page.keyboard.press("ArrowRight")
    expect(slider(page)).to_have_value("1")
    page.keyboard.press("Home")
    expect(slider(page)).to_have_value("0")
    wait_idle(page)
    expect(summary).to_contain_text(shown + " ·")
    assert "chunk" not in query(page)  # still the default chunk


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
@pytest.mark.parametrize("present", [False, True], ids=["normal", "presentation"])
def test_screenshots(open_app: OpenApp, color_scheme: str, present: bool) -> None:
    page = open_merges(open_app, f"?chunk=5&step=11{'&present=1' if present else ''}")
    now = page.locator(".mg-chunk tr.mg-now")
    expect(now).to_have_attribute("data-step", "11")  # one counter: the whole text's step 11
    expect(now).to_have_attribute("data-merges", "2")  # ... is " OpenAI"'s 2nd merge
    sidebar = page.locator("[data-testid='stSidebar']")
    expect(sidebar).to_be_hidden() if present else expect(sidebar).to_be_visible()
    mode = "presentation" if present else "normal"
    screenshot(page, f"merges-{mode}-{color_scheme}")
