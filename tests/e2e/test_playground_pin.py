"""Clicking tokens in the Playground: pin one, see its merge, open it in the Vocabulary page,
let go with Esc; copy every id."""

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.harness import goto, keyed, new_page, rerun, wait_idle, wait_settled
from tests.e2e.playground_page import paste, query, rendered_ids, text_box, wait_for_ids
from tests.oracles import oracle_ids

PIN = ".bpl-pin"
ACTIONS = ".bpl-pin-actions"  # the pinned token's link and button, beside the tokens' name
INDEXING_MS = 60_000  # the Vocabulary page indexes a vocabulary on its first visit


def pin(page: Page, index: int) -> None:
    with rerun(page):
        page.locator(".bpl-text .tok").nth(index).click()


def test_a_click_pins_a_token_and_esc_lets_go(open_app) -> None:
    page = open_app("/?text=hello%20world")
    pin(page, 1)
    panel = page.locator(PIN)
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("#995")
    expect(panel).to_contain_text("merge rank 739: ·wor #476 + ld #335")
    expect(panel).to_contain_text("bytes 20 77 6F 72 6C 64")
    expect(page.locator(".bpl-text .tok.pin")).to_have_attribute("data-token-id", "995")
    expect(page.locator(".bpl-hover")).to_be_hidden()  # the panel stands in for the hover line
    with rerun(page):
        page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(page.locator(".bpl-text .tok.pin")).to_have_count(0)


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1024, 768)])
def test_hovering_and_pinning_never_move_the_panes(
    browser, app_url: str, width: int, height: int
) -> None:
    """A pinned token's panel was taller than the hover line; sized by it, the panes moved 19 px
    down, off the token just clicked. Its link and button sit in the tokens' head row, in sight."""
    with new_page(browser, width=width, height=height) as page:
        goto(page, app_url + "/?text=" + quote("Tokenization, indubitably, is fascinating"))
        wait_settled(page)  # the fonts in: the title's line grows 3 px when they land
        tokens = page.locator(".bpl-text")
        top = tokens.bounding_box()
        longest = max(
            range(tokens.locator(".tok").count()),
            key=lambda i: len(tokens.locator(".tok").nth(i).inner_text()),
        )
        tokens.locator(".tok").nth(longest).hover()
        expect(page.locator(".bpl-hover")).to_contain_text("merge rank")
        assert tokens.bounding_box() == top
        pin(page, longest)
        expect(page.locator(PIN)).to_contain_text("merge rank")
        assert tokens.bounding_box() == top
        head = page.locator(".bpl-head").first.bounding_box()
        for action in (page.get_by_role("link", name="in Vocabulary"), page.locator(".bpl-unpin")):
            shown = action.bounding_box()
            assert head and shown, action
            assert (
                head["y"] <= shown["y"]
                and shown["y"] + shown["height"] <= head["y"] + head["height"]
            )
            assert shown["x"] + shown["width"] <= head["x"] + head["width"]


def test_the_keys_walk_the_tokens_and_enter_pins_one(open_app) -> None:
    page = open_app("/?text=hello%20world")
    lit = page.locator(".bpl-text .tok.hl")
    page.locator(".bpl-text").focus()  # one tab stop: the first token is pointed at
    expect(lit).to_have_attribute("data-token-id", "31373")
    expect(page.locator(".bpl-hover")).to_contain_text("id 31373")
    page.keyboard.press("ArrowRight")
    expect(lit).to_have_attribute("data-token-id", "995")
    expect(page.locator(".bpl-ids .tid.hl")).to_have_text("995")  # its id is lit too
    expect(page.locator(".bpl-hover")).to_contain_text("id 995")
    page.keyboard.press("ArrowRight")  # no further than the last token
    expect(lit).to_have_attribute("data-i", "1")
    with rerun(page):
        page.keyboard.press("Enter")
    expect(page.locator(PIN)).to_contain_text("merge rank 739: ·wor #476 + ld #335")
    page.keyboard.press("Home")  # the pane kept the focus through the rerun
    expect(lit).to_have_attribute("data-token-id", "31373")
    with rerun(page):
        page.keyboard.press("Escape")
    expect(page.locator(PIN)).to_be_hidden()


def test_after_a_click_the_keys_go_on_from_the_clicked_token(open_app) -> None:
    """A click focuses the pane without moving anything (the pane used to be scrolled to its
    first token under the pointer); the arrows then start from the token clicked."""
    text = "%20".join(f"word{i}" for i in range(400))
    page = open_app(f"/?text={text}")
    pane = page.locator(".bpl-text")
    target = pane.locator(".tok").nth(300)
    target.scroll_into_view_if_needed()
    scrolled = pane.evaluate("el => el.scrollTop")
    assert scrolled > 0
    with rerun(page):
        target.click()
    expect(pane.locator(".tok.pin")).to_have_attribute("data-i", "300")
    assert pane.evaluate("el => el.scrollTop") == scrolled
    page.keyboard.press("ArrowRight")
    expect(pane.locator(".tok.hl")).to_have_attribute("data-i", "301")


def test_a_second_click_or_the_unpin_button_lets_go_and_typing_keeps_the_pin(open_app) -> None:
    page = open_app("/?text=hello%20world")
    pin(page, 1)
    pin(page, 1)
    expect(page.locator(PIN)).to_be_hidden()
    pin(page, 1)
    expect(page.locator(PIN)).to_contain_text("#995")
    box = text_box(page)
    box.click()
    box.press("Home")
    page.keyboard.type("oh ")  # a token before the pinned one: the pin follows it
    wait_for_ids(page, oracle_ids("gpt2", "oh hello world"))
    expect(page.locator(".bpl-text .tok.pin")).to_have_attribute("data-token-id", "995")
    expect(page.locator(".bpl-text .tok.pin")).to_have_attribute("data-i", "2")
    with rerun(page):
        page.get_by_role("button", name="Unpin (Esc)").click()
    expect(page.locator(PIN)).to_be_hidden()


def test_the_pinned_tokens_link_opens_it_in_the_vocabulary_page(open_app) -> None:
    page = open_app("/?text=hello%20world&enc=cl100k_base")
    pin(page, 1)
    link = page.locator(ACTIONS).get_by_role("link", name="Open #1917 in Vocabulary")
    expect(link).to_have_attribute("href", re.compile(r"^vocab\?enc=cl100k_base&id=1917$"))
    link.click()
    expect(page.get_by_role("heading", name="Token 1917")).to_be_visible(timeout=INDEXING_MS)
    wait_idle(page)
    assert page.url.split("?")[0].endswith("/vocab")
    assert query(page) == {"enc": "cl100k_base", "id": "1917"}


@pytest.mark.parametrize(("button", "separator"), [("comma", ", "), ("space", " ")])
def test_copy_ids_copies_every_id(open_app, page: Page, button: str, separator: str) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    text = "Copy me, all of me: 12345 👋"
    open_app("/?" + "text=" + re.sub(" ", "%20", text))
    wait_for_ids(page, oracle_ids("gpt2", text))
    name = f"Copy ids, {button}-separated"
    page.get_by_role("button", name=name).click()
    expect(page.get_by_role("button", name=name)).to_have_text("Copied ✓")
    # Said as well as shown: the button is a live region, so a screen reader reads the result.
    expect(page.get_by_role("button", name=name)).to_have_attribute("aria-live", "polite")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == separator.join(map(str, rendered_ids(page)))
    assert copied == separator.join(map(str, oracle_ids("gpt2", text)))


def test_more_ids_than_copy_ids_copies_are_said_and_downloaded_whole(open_app, page: Page) -> None:
    """A text of 250,000 tokens: the buttons copy the first 200,000 (as many as decode mode
    reads) and say so, where their tooltip said "every id"; the download holds every one."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    text = "a " * 250_000
    ids = oracle_ids("gpt2", text)
    open_app("/")
    with rerun(page):
        paste(page, text)
    button = page.get_by_role("button", name="Copy ids, space-separated")
    expect(button).to_have_attribute(
        "title",
        f"Copy the first 200,000 of {len(ids):,} ids, as many as Ids → text reads, space-separated",
    )
    button.click()
    expect(button).to_have_text("Copied 200,000 ✓")
    assert page.evaluate("navigator.clipboard.readText()") == " ".join(map(str, ids[:200_000]))
    with page.expect_download() as download:
        keyed(page, "playground.all_ids").get_by_role("button").click()
    assert download.value.suggested_filename == "token-ids.txt"
    assert Path(download.value.path()).read_text(encoding="utf-8") == ", ".join(map(str, ids))
