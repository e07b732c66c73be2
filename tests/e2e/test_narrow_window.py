"""Every page at 1024x768, a small laptop or an older projector, with the sidebar open: no
label is cut with "…" and no row of options hides some of them off to the side. Streamlit
scrolls a button group sideways, and cuts a toggle's label, when a column is too narrow for it;
the pages use wrapping rows where that happened."""

import pytest
from playwright.sync_api import Browser

from tests.e2e.harness import goto, new_page, wait_settled

PATHS = ["/", "/?mode=chat", "/merges", "/train", "/compare", "/compare?tab=languages", "/vocab"]

# Text the page cuts with "…" (a widget's label, a toggle's, an option's, a chosen item's): any
# element set to end in an ellipsis whose text is wider than it. A label only read out (1 px
# wide, as the Chat view's icon buttons have) is not one.
_CUT_JS = """() => [...document.querySelectorAll("[data-testid='stMain'] *")]
    .filter(e => e.offsetParent !== null && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1
        && getComputedStyle(e).textOverflow === "ellipsis")
    .map(e => e.textContent)"""

# Rows of options (segmented controls, pills) that scroll sideways to show them all.
_HIDDEN_JS = """() => [...document.querySelectorAll(
        "[data-testid='stMain'] [data-testid='stButtonGroup'] > div[aria-orientation]")]
    .filter(row => row.scrollWidth > row.clientWidth + 1)
    .map(row => row.getAttribute("aria-label"))"""


@pytest.mark.parametrize("path", PATHS)
def test_nothing_is_cut_at_1024_by_768(browser: Browser, app_url: str, path: str) -> None:
    page = new_page(browser, width=1024, height=768)
    try:
        goto(page, app_url + "/")  # app.py runs first: it registers the pages
        goto(page, app_url + path)
        wait_settled(page)
        assert page.evaluate(_CUT_JS) == []
        assert page.evaluate(_HIDDEN_JS) == []
    finally:
        page.context.close()
