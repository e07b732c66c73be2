"""Reading and driving the playground in a real browser (used by the playground's e2e tests)."""

from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Locator, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

# Token texts as drawn: plain tokens, and the characters shown once above split bytes.
_SHOWN_TEXT_JS = """root => Array.from(
    root.querySelectorAll('.tok:not(.bytes), .grp-chars'), e => e.textContent).join('')"""


def text_box(page: Page) -> Locator:
    """The live textarea (inside the component's shadow root; Playwright's CSS pierces it)."""
    return page.locator("textarea.lt-area")


def rendered_ids(page: Page) -> list[int]:
    return page.locator(".bpl-text .tok").evaluate_all(
        "els => els.map(e => Number(e.dataset.tokenId))"
    )


def shown_text(page: Page) -> str:
    return page.locator(".bpl-text").evaluate(_SHOWN_TEXT_JS)


# True once the drawn token ids are `expected` (checked on every animation frame).
_IDS_ARE_JS = """expected => {
    const ids = Array.from(document.querySelectorAll('.bpl-text .tok'), e => e.dataset.tokenId);
    return document.querySelector('.bpl-text') !== null
        && ids.length === expected.length && ids.every((id, i) => Number(id) === expected[i]);
}"""


def wait_for_ids(page: Page, expected: list[int], timeout_ms: int = 30_000) -> None:
    """Wait until the drawn token ids equal `expected` (a rerun may still be on its way)."""
    try:
        page.wait_for_function(_IDS_ARE_JS, arg=expected, timeout=timeout_ms)
    except PlaywrightTimeoutError:
        # Not a test module: pytest does not rewrite this assert, so it says what it saw.
        drawn, boxes = rendered_ids(page), text_box(page).evaluate_all("bs => bs.map(b => b.value)")
        assert drawn == expected, f"drawn {drawn}, expected {expected}; box {boxes}; {page.url}"
        raise


def query(page: Page) -> dict[str, str]:
    """The page URL's query parameters (one value each)."""
    return {k: v[0] for k, v in parse_qs(urlsplit(page.url).query).items()}


def paste(page: Page, text: str) -> None:
    """Replace the box's text in one input event, as a paste does (Playwright's `fill` crawls
    through a megabyte)."""
    text_box(page).evaluate(
        "(box, text) => { box.value = text; box.dispatchEvent(new Event('input')); }", text
    )


def clear_and_type(page: Page, text: str, delay_ms: float = 15) -> None:
    """Empty the box and type `text` with real key events (Enter for newlines)."""
    box = text_box(page)
    box.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    for i, line in enumerate(text.split("\n")):
        if i:
            page.keyboard.press("Enter")
        page.keyboard.type(line, delay=delay_ms)


def first_token(page: Page) -> Locator:
    return page.locator(".bpl-text .tok").first


def first_id(page: Page) -> Locator:
    return page.locator(".bpl-ids .tid").first


# Every token that spans more than one line box (glyph tokens included; tokens holding a
# newline are left out: their line break is part of their text).
_TOKENS_ON_TWO_LINES_JS = """root => Array.from(root.querySelectorAll('.tok:not(.bytes)'))
    .filter(e => !e.textContent.includes('\\n'))
    .filter(e => new Set(Array.from(e.getClientRects(), r => Math.round(r.top))).size > 1)
    .map(e => e.textContent)"""


def tokens_cut_across_lines(page: Page) -> list[str]:
    """The drawn tokens (as text) that the browser laid out over two lines or more."""
    return page.locator(".bpl-text").evaluate(_TOKENS_ON_TWO_LINES_JS)


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not laid out"
    return found


def assert_on_screen(page: Page, locator: Locator, what: str) -> None:
    """Wholly inside the window as the page opens (top to bottom, left to right)."""
    size = page.viewport_size
    assert size is not None
    b = box(locator)
    assert b["y"] >= 0 and b["y"] + b["height"] <= size["height"], (what, b, size)
    assert b["x"] >= 0 and b["x"] + b["width"] <= size["width"], (what, b, size)
