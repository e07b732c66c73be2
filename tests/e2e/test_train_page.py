"""Train a vocabulary through the UI, replay it, export and re-import it, compare it with GPT-2;
open its link in a fresh browser context; cancel a long training and keep what it learned.

Every figure checked on the page is recomputed with the core.
"""

import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

import tokenizer as tk
from tests.e2e.harness import (
    assert_styled,
    choose_option,
    commit,
    cut_texts,
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
from tests.prerequisites import corpus_texts
from ui.common.examples import DEFAULT_TEXT
from ui.common.limits import MAX_TRAIN_VOCAB
from ui.common.sidebar import option_label
from ui.train import table

CORPUS = corpus_texts()["the-verdict.txt"]
VOCAB = 1_000
# Where each chart's plot starts: the left end of its horizontal grid lines, in page pixels.
PLOT_LEFT_JS = """charts => charts.map(chart => Math.round(Math.min(
  ...[...chart.querySelectorAll(".role-axis-grid line, .role-axis-grid path")]
    .map(line => line.getBoundingClientRect())
    .filter(box => box.width > box.height)
    .map(box => box.left))))"""


def on_page(page: Page, text: str) -> Locator:
    """`text` in the page's own content: not in the live region, outside it, that tells a screen
    reader each step's headline again (ui/components/steps.js)."""
    return page.get_by_test_id("stMain").get_by_text(text)


def train_through_the_ui(page: Page, name: str) -> None:
    with rerun(page):
        keyed(page, "train.source").get_by_text("Type or paste").click()
    commit(keyed(page, "train.paste").locator("textarea"), CORPUS, "ControlOrMeta+Enter")
    expect(page.get_by_text("20,479 characters")).to_be_visible()
    commit(keyed(page, "train.vocab").locator("input"), str(VOCAB))
    commit(keyed(page, "train.name").locator("input"), name)
    keyed(page, "train.train").locator("button").click()
    bar = page.locator("[data-testid='stProgress']").filter(has_text="Finished")
    expect(bar).to_be_visible(timeout=60_000)
    wait_idle(page)


def train_a_slice(go: Callable[[str], object], page: Page, size: int) -> None:
    """Open the page on the corpus' first 2,000 characters, train `size` ids and wait for it.

    Each test asks for a size of its own. The server shares identical trainings, and a page
    opened within a minute of one's end takes it (ui/train/session.py `resume`), so with the
    same size a test's Train found its vocabulary already held, no "Finished" bar was drawn,
    and whether it was came down to how long the test before it took.
    """
    go(f"/train?source=paste&text={quote(CORPUS[:2_000])}&size={size}")
    keyed(page, "train.train").locator("button").click()
    finished = page.locator("[data-testid='stProgress']").filter(has_text="Finished")
    expect(finished).to_be_visible(timeout=60_000)


@pytest.fixture(scope="module")
def expected() -> tk.Encoding:
    return tk.train(CORPUS, VOCAB)


def test_train_replay_export_import_and_compare(
    open_app, page: Page, expected: tk.Encoding, tmp_path: Path
) -> None:
    open_app("/")
    go_to(page, "Train")
    train_through_the_ui(page, "verdict-1k")
    n = expected.training.n_merges
    expect(page.locator("[data-testid='stProgress']")).to_contain_text(f"Finished: {n:,} merges")
    expect(page.get_by_text("Trained verdict-1k on your text")).to_be_visible()

    # Replay: the slider starts at the last step; Home goes to step 0 (single bytes), → to 1.
    headline = on_page(page, f"Step {n:,} of {n:,}")
    expect(headline).to_be_visible()
    slider = keyed(page, "train.step").get_by_role("slider")
    slider.focus()
    with rerun(page):
        page.keyboard.press("Home")
    expect(on_page(page, f"Step 0 of {n:,} — single bytes")).to_be_visible()
    with rerun(page):
        page.keyboard.press("ArrowRight")
    expect(on_page(page, f"Step 1 of {n:,} — merge of rank 0 made id 256")).to_be_visible()
    expect(metric(page, "Pair count")).to_have_text(f"{expected.training.counts[0]:,}")
    expect(page.locator("[data-testid='stVegaLiteChart']")).to_have_count(3)
    with rerun(page):
        page.keyboard.press("PageUp")  # about a tenth of the way: a sample worth looking at
    step = int(slider.input_value())
    assert step > 1
    expect(on_page(page, f"Step {step:,} of {n:,}")).to_be_visible()
    assert f"step={step}" in page.url
    # With nothing focused, the step buttons' keys step the replay, as on Merges.
    page.evaluate("() => document.activeElement.blur()")
    with rerun(page):
        page.keyboard.press("ArrowLeft")
    expect(on_page(page, f"Step {step - 1:,} of {n:,}")).to_be_visible()
    with rerun(page):
        page.keyboard.press("ArrowRight")
    expect(on_page(page, f"Step {step:,} of {n:,}")).to_be_visible()
    wait_idle(page)
    screenshot(page, "train-replay-light")
    # The two curves, one above the other over the same steps, start at the same x: their red
    # marks sat 20 px apart when each y axis took its own labels' width ("1,500" and "3").
    curves = page.locator("[data-testid='stVegaLiteChart']").filter(has_text="Step (merges")
    expect(curves).to_have_count(2)
    assert len(set(curves.evaluate_all(PLOT_LEFT_JS))) == 1
    # The sample's tokens can be pointed at, by keys as by mouse: their facts show above them.
    # Those keys are the view's, not the replay's: the step stays (they stepped it, QA round 18).
    assert_styled(page.locator(".bpl"))
    sample = page.locator(".bpl-text")
    sample.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    second = sample.locator(".tok").nth(1)
    expect(second).to_have_class(re.compile(r"\bhl\b"))
    expect(page.locator(".bpl-inspect")).to_have_text(second.get_attribute("title") or "")
    page.keyboard.press("End")
    expect(sample.locator(".tok").last).to_have_class(re.compile(r"\bhl\b"))
    page.wait_for_timeout(1_000)  # a shortcut's run would have started by now
    wait_idle(page)
    expect(slider).to_have_value(str(step))
    assert f"step={step}" in page.url

    # The vocabulary table: search, select a row, see that token's merge tree.
    with rerun(page):
        page.get_by_role("tab", name="Vocabulary").click()
    commit(keyed(page, "train.search").locator("input"), " the")
    grid = page.locator("[data-testid='stDataFrame']").first
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    with rerun(page):
        page.mouse.click(box["x"] + 15, box["y"] + 53)  # the first row's selection box
    the = expected.encode_ordinary(" the")
    assert len(the) == 1  # " the" is one token of this vocabulary
    expect(page.get_by_text(f"Merge tree of token {the[0]:,}")).to_be_visible()
    expect(page.locator(".mtree .node").first).to_have_text("·the")
    # The download holds what the search lists, under the table's headers.
    with page.expect_download() as download:
        keyed(page, "train.csv").get_by_role("button", name=re.compile("^Download")).click()
    lines = Path(download.value.path()).read_text(encoding="utf-8-sig").splitlines()
    listed = table.search(table.vocab_frame(expected), " the")
    assert lines[0] == ",".join(table.HEADERS[name] for name in table.COLUMNS)
    assert [int(line.split(",")[0]) for line in lines[1:]] == listed["id"].tolist()

    # Export the bundle, then import it back under another name.
    with rerun(page):
        page.get_by_role("tab", name="Export").click()
    with page.expect_download() as download:
        keyed(page, "train.export_bundle_0").locator("button").click()
    bundle = tmp_path / download.value.suggested_filename
    download.value.save_as(bundle)
    assert bundle.name == "verdict-1k.bpe-lens.json"
    with rerun(page):  # opening the panel draws it
        page.get_by_text("Import a vocabulary").click()
    with rerun(page):
        keyed(page, "train.import_files").locator("input[type=file]").set_input_files(bundle)
    commit(keyed(page, "train.import_name").locator("input"), "reimported")
    with rerun(page):
        keyed(page, "train.import").locator("button").click()
    expect(page.get_by_text("Imported reimported (bundle")).to_be_visible()
    expect(keyed(page, "train.import_result_box")).to_be_visible()  # by the Import button

    # Compare: GPT-2 against the latest vocabulary (the re-imported one), counts from the core.
    go_to(page, "Compare")
    first, second = keyed(page, "compare.col_0"), keyed(page, "compare.col_1")
    expect(first).to_contain_text("gpt2")
    expect(second).to_contain_text("reimported")
    gpt2_count = len(tk.get_encoding("gpt2").encode(DEFAULT_TEXT))
    ours = len(expected.encode(DEFAULT_TEXT))
    expect(metric(page, "Tokens", first)).to_have_text(f"{gpt2_count:,}")
    expect(metric(page, "Tokens", second)).to_have_text(f"{ours:,}")
    ids = second.locator(".tok").evaluate_all("els => els.map(e => Number(e.dataset.tokenId))")
    assert ids == expected.encode(DEFAULT_TEXT)
    expect(page.locator(".bdw .blk").first).to_be_visible()  # they split differently somewhere


LONG_VOCAB = 48 * 1024
LONG_MERGES = LONG_VOCAB - 256 - 1  # the bytes and <|endoftext|> are not merges
LONG_NAME = "python-code-48k"


def test_a_size_typed_out_of_bounds_then_train_clicked_at_once_is_named(
    open_app, page: Page
) -> None:
    """With bounds of its own the box kept 99999 to itself (red) and Train trained the old size."""
    open_app(f"/train?source=paste&text={quote(CORPUS[:2_000])}&size=300")
    keyed(page, "train.vocab").locator("input").fill("99999")
    with rerun(page):
        keyed(page, "train.train").locator("button").click()
    expect(page.get_by_text(f"The vocabulary size is at most {MAX_TRAIN_VOCAB:,}")).to_be_visible()
    expect(keyed(page, "train.train").locator("button")).to_be_disabled()
    expect(page.locator("[data-testid='stProgress']")).to_have_count(0)


def test_cancel_keeps_what_a_long_training_learned(open_app, page: Page) -> None:
    open_app("/")
    go_to(page, "Train")
    # Choosing it builds the corpus (4 MB of the standard library's source) in that run.
    choose_option(page, keyed(page, "train.bundled"), "Python source code", run_timeout_ms=60_000)
    # The largest vocabulary the page trains: the longest training, the most time to cancel.
    commit(keyed(page, "train.vocab").locator("input"), str(LONG_VOCAB))
    keyed(page, "train.train").locator("button").click()
    # Cancel as soon as the job shows progress: a fast machine trains this in under 2 s (CI's
    # did, and waiting for merges under way let it finish first). A job cancelled while it
    # still counts stops after its first merge, so something is learned either way.
    expect(page.locator("[data-testid='stProgress']").first).to_be_visible(timeout=60_000)
    keyed(page, "train.cancel").locator("button").first.click()
    # One alert says both what was made and what was kept; read from it, so that a failure
    # shows its whole text.
    kept = page.locator("[data-testid='stAlert']").filter(has_text=f"Kept as {LONG_NAME}-partial")
    expect(kept).to_be_visible(timeout=60_000)
    message = kept.inner_text()
    assert "Cancelled after " in message, message
    made = int(message.split("Cancelled after ")[1].split(" merge")[0].replace(",", ""))
    assert 0 < made < LONG_MERGES
    chosen = keyed(page, "train.selected").get_by_role("combobox")
    expect(chosen).to_have_value(f"{LONG_NAME}-partial")
    expect(on_page(page, f"Step {made:,} of {made:,}")).to_be_visible()
    # Usable like any other: the sidebar offers it and it tokenizes the playground's text.
    go_to(page, "Playground")
    choose_option(page, keyed(page, "common.enc"), f"{LONG_NAME}-partial")
    expect(page.locator(".bpl-text .tok").first).to_be_visible()


def test_a_trained_vocabulary_link_opens_the_same_view_in_a_fresh_browser_context(
    open_app, page: Page, browser: Browser, expected: tk.Encoding
) -> None:
    open_app("/")
    go_to(page, "Train")
    train_through_the_ui(page, "shared-1k")
    slider = keyed(page, "train.step").get_by_role("slider")
    slider.focus()
    with rerun(page):
        page.keyboard.press("Home")
    with rerun(page):
        page.keyboard.press("PageUp")
    step = int(slider.input_value())
    link = page.url
    assert "vocabs=vocab-" in link and f"step={step}" in link
    vocab_id = link.split("vocabs=")[1].split("&")[0]

    with new_page(browser, width=1400, height=1000) as fresh:  # another browser: nothing shared
        goto(fresh, link)
        expect(keyed(fresh, "train.selected").get_by_role("combobox")).to_have_value("shared-1k")
        n = expected.training.n_merges
        expect(on_page(fresh, f"Step {step:,} of {n:,}")).to_be_visible()
        expect(metric(fresh, "Pair count")).to_have_text(f"{expected.training.counts[step - 1]:,}")
        # The same vocabulary opens on any page by its id, or by its name.
        the = expected.encode_ordinary(" the")[0]
        goto(fresh, link.split("/train")[0] + f"/vocab?vocab={vocab_id}&id={the}")
        picker = fresh.locator("[data-testid='stSidebar']").get_by_role("combobox")
        expect(picker).to_have_value(option_label("shared-1k"))  # "shared-1k · yours"
        expect(fresh.get_by_role("heading", name=f"Token {the}")).to_be_visible()
        goto(fresh, link.split("/train")[0] + "/compare?vocab=shared-1k")
        expect(keyed(fresh, "compare.col_1")).to_contain_text("shared-1k")
        expect(keyed(fresh, "compare.col_1").locator(".tok")).to_have_count(
            len(expected.encode(DEFAULT_TEXT))
        )
        ids = (
            keyed(fresh, "compare.col_1")
            .locator(".tok")
            .evaluate_all("els => els.map(e => Number(e.dataset.tokenId))")
        )
        assert ids == expected.encode(DEFAULT_TEXT)


def test_a_trained_vocabulary_s_buttons_keep_their_labels_at_1024_by_768(
    browser: Browser, app_url: str
) -> None:
    """tests/e2e/test_narrow_window.py opens the page with no vocabulary; with one, its row of
    buttons and the replay's and table's rows were columns that cut "Remove", "Play" and
    "Download CSV", and the Export tab's rows cut its buttons' names."""
    with new_page(browser, width=1024, height=768) as page:
        goto(page, app_url + "/")
        train_a_slice(lambda path: goto(page, app_url + path), page, 301)
        wait_settled(page)
        assert cut_texts(page) == [], "the replay"
        with rerun(page):
            page.get_by_role("tab", name="Vocabulary").click()
        wait_settled(page)
        assert cut_texts(page) == [], "the table"
        with rerun(page):
            page.get_by_role("tab", name="Export").click()
        wait_settled(page)
        assert cut_texts(page) == [], "the export"


@pytest.mark.parametrize(("pause_ms", "size"), [(0, 302), (33, 303)], ids=["burst", "held"])
def test_every_press_of_an_arrow_is_a_replay_step(
    open_app, page: Page, pause_ms: int, size: int
) -> None:
    """As the step buttons' shortcuts, presses faster than the page's runs were lost: 10 presses
    50 ms apart moved 5 steps. The replay now shares Merges' stepper (ui/common/steps.py), which
    takes Home and End too."""
    train_a_slice(open_app, page, size)
    expect(page.locator("body[data-steps='on']")).to_be_attached()  # ← → counted
    slider = keyed(page, "train.step").get_by_role("slider")
    # First by its button: Home, its key, was once lost under CI's load while the runs that
    # finish a training redrew the buttons. The arrows after it are what this test is about.
    with rerun(page):
        keyed(page, "train.step_first").get_by_role("button", name="First").click()
    expect(slider).to_have_value("0")
    page.evaluate("() => document.activeElement.blur()")
    for _ in range(20):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(pause_ms)
    expect(slider).to_have_value("20")
    for _ in range(7):
        page.keyboard.press("ArrowLeft")
        page.wait_for_timeout(pause_ms)
    expect(slider).to_have_value("13")
    for key in ["Home"] + ["ArrowRight"] * 4:  # Home among the arrows is a step too
        page.keyboard.press(key)
        page.wait_for_timeout(pause_ms)
    expect(slider).to_have_value("4")
    wait_idle(page)
    assert "step=4" in page.url
    said = page.get_by_role("status").filter(has_text=re.compile(r"^Step \d"))
    expect(said).to_have_text(re.compile(r"^Step 4 of \d+: merge of rank 3, .+ \(id 259\)"))


def test_a_focused_step_button_keeps_the_focus_at_the_end_and_space_plays(
    open_app, page: Page
) -> None:
    """At the last step Next and Last were disabled: pressed with Enter, Next dropped the focus
    to the page, and the next Tab started from the top (helper, keyboard only). And Space, which
    plays on Merges, did nothing here."""
    train_a_slice(open_app, page, 304)
    wait_idle(page)
    slider = keyed(page, "train.step").get_by_role("slider")
    last = slider.input_value()  # it opens at the last step
    back = keyed(page, "train.step_back").get_by_role("button")
    back.focus()
    for _ in range(2):
        with rerun(page):
            page.keyboard.press("Enter")
    expect(slider).to_have_value(str(int(last) - 2))
    forward = keyed(page, "train.step_next").get_by_role("button")
    forward.focus()
    for _ in range(3):  # the third at the last step, where it changes nothing
        with rerun(page):
            page.keyboard.press("Enter")
    expect(slider).to_have_value(last)
    expect(forward).to_be_focused()
    page.evaluate("() => document.activeElement.blur()")
    play = keyed(page, "train.play").get_by_role("button")
    page.keyboard.press("Space")
    expect(play).to_have_text(re.compile("Pause"))
    page.keyboard.press("Space")
    expect(play).to_have_text(re.compile("Play"))


# How far the page's title is from the window's top: it falls as the page scrolls, whichever
# element does the scrolling.
_TITLE_TOP_JS = "title => title.getBoundingClientRect().top"
_TITLE_ABOVE_JS = "([title, y]) => title.getBoundingClientRect().top < y"


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1400, 1000)])
def test_out_of_sight_the_replay_leaves_its_keys_to_the_page(
    browser: Browser, app_url: str, width: int, height: int
) -> None:
    """Home, End and Space stepped and played the replay while the page was scrolled up to its
    corpus and settings, far above it: End did not go to the page's foot, Space did not scroll
    a screen down, and the replay moved out of sight."""
    with new_page(browser, width=width, height=height) as page:
        train_a_slice(lambda path: goto(page, app_url + path), page, 305 + width % 7)
        wait_idle(page)
        slider = keyed(page, "train.step").get_by_role("slider")
        with rerun(page):
            keyed(page, "train.step_first").get_by_role("button", name="First").click()
        expect(slider).to_have_value("0")
        title = page.get_by_role("heading", name="Train", level=1)
        for key in ["Space", "End"]:  # each from the page's top, the replay far below
            title.scroll_into_view_if_needed()
            page.evaluate("() => document.activeElement.blur()")
            replay = keyed(page, "train.replay").bounding_box()
            assert replay is not None and replay["y"] > height, "the replay is out of sight"
            top = title.evaluate(_TITLE_TOP_JS)
            page.keyboard.press(key)
            page.wait_for_function(_TITLE_ABOVE_JS, arg=[title.element_handle(), top - height / 2])
            page.wait_for_timeout(500)  # time for the step or the play the key would have sent
            wait_idle(page)
            expect(slider).to_have_value("0")
            expect(keyed(page, "train.play").get_by_role("button")).to_have_text(re.compile("Play"))
            assert "step=0" in page.url
        slider.scroll_into_view_if_needed()  # in sight, the keys step again
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("End")
        expect(slider).not_to_have_value("0")


@pytest.mark.parametrize("color_scheme", ["dark"], indirect=True)
def test_dark_screenshot(open_app, page: Page, color_scheme: str) -> None:
    open_app("/")
    go_to(page, "Train")
    keyed(page, "train.train").locator("button").click()
    expect(page.locator("[data-testid='stProgress']").filter(has_text="Finished")).to_be_visible(
        timeout=60_000
    )
    wait_idle(page)
    screenshot(page, "train-dark")


# Notes on the window whether `words` were ever in the page. Streamlit shows a spinner from
# half a second into its block to the block's end: here half a second, which polling from the
# test can miss on a loaded machine (it polls at 0.1, 0.35, 0.85, 1.85 s…).
_WATCH_FOR_JS = """words => {
  window.seen = false;
  new MutationObserver((_, observer) => {
    if (!document.body.textContent.includes(words)) return;
    window.seen = true;
    observer.disconnect();
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}"""


def test_a_custom_regex_being_tried_says_so_in_place_of_the_last_verdict(
    open_app, page: Page
) -> None:
    """Trying a regex on the corpus takes up to a second, during which the previous regex's
    verdict ("finds no text") stood beside the new regex's preview, with no word of a check."""
    open_app("/train?" + "&".join(["pattern=custom", "regex=" + quote(r"\b")]))
    expect(page.get_by_text("finds no text in")).to_be_visible()
    box = keyed(page, "train.regex").locator("input")
    box.fill("(?:a|aa)+$|\\s+")  # backtracks for the whole second on the corpus' long words
    page.evaluate(_WATCH_FOR_JS, "Trying the regex on the corpus")
    box.press("Enter")
    expect(page.get_by_text("needs more than 1 s")).to_be_visible(timeout=15_000)
    assert page.evaluate("window.seen")
    expect(page.get_by_text("Trying the regex on the corpus")).to_have_count(0)
