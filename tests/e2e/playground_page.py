"""Reading and driving the playground in a real browser (used by the playground's e2e tests)."""

import time
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Locator, Page

# Token texts as drawn: plain tokens, and the characters shown once above split bytes.
_SHOWN_TEXT_JS = """root => Array.from(
    root.querySelectorAll('.tok:not(.bytes), .grp-chars'), e => e.textContent).join('')"""


def text_box(page: Page) -> Locator:
    """The live textarea (inside the component's shadow root; Playwright's CSS pierces it)."""
    return page.locator("textarea.lt-area")


def metric(page: Page, label: str) -> Locator:
    return (
        page.locator("[data-testid='stMetric']")
        .filter(has=page.get_by_text(label, exact=True))
        .locator("[data-testid='stMetricValue']")
    )


def rendered_ids(page: Page) -> list[int]:
    return page.locator(".bpl-text .tok").evaluate_all(
        "els => els.map(e => Number(e.dataset.tokenId))"
    )


def shown_text(page: Page) -> str:
    return page.locator(".bpl-text").evaluate(_SHOWN_TEXT_JS)


def wait_for_ids(page: Page, expected: list[int], timeout_s: float = 30) -> None:
    """Poll until the drawn token ids equal `expected` (a rerun may still be on its way)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if page.locator(".bpl-text").count() and rendered_ids(page) == expected:
            return
        page.wait_for_timeout(100)
    assert rendered_ids(page) == expected


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
