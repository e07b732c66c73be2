"""Every page at 1024x768, a small laptop or an older projector, with the sidebar open: no
label is cut with "…" and no row of options hides some of them off to the side. Streamlit
scrolls a button group sideways, and cuts a toggle's label, when a column is too narrow for it;
the pages use wrapping rows where that happened."""

import pytest
from playwright.sync_api import Browser

from tests.e2e.harness import cut_texts, goto, new_page, rerun, wait_settled

PATHS = ["/", "/?mode=chat", "/merges", "/train", "/compare", "/compare?tab=languages", "/vocab"]

# Rows of options (segmented controls, pills) that scroll sideways to show them all.
_HIDDEN_JS = """() => [...document.querySelectorAll(
        "[data-testid='stMain'] [data-testid='stButtonGroup'] > div[aria-orientation]")]
    .filter(row => row.scrollWidth > row.clientWidth + 1)
    .map(row => row.getAttribute("aria-label"))"""


@pytest.mark.parametrize("path", PATHS)
def test_nothing_is_cut_at_1024_by_768(browser: Browser, app_url: str, path: str) -> None:
    with new_page(browser, width=1024, height=768) as page:
        goto(page, app_url + "/")  # app.py runs first: it registers the pages
        goto(page, app_url + path)
        wait_settled(page)
        assert cut_texts(page) == []
        assert page.evaluate(_HIDDEN_JS) == []


def test_the_vocabulary_files_panel_keeps_its_labels_at_1024_by_768(
    browser: Browser, app_url: str
) -> None:
    """Export's buttons and Import's boxes sit in half the page there: columns cut both."""
    with new_page(browser, width=1024, height=768) as page:
        goto(page, app_url + "/")
        goto(page, app_url + "/vocab")
        with rerun(page):
            page.get_by_text("Vocabulary files: export or import").click()
        wait_settled(page)
        assert page.get_by_role("button", name="Hugging Face tokenizer.json").is_visible()
        # Streamlit's uploader cuts its own line of file types ("32MB per file • JSON, …").
        assert [text for text in cut_texts(page) if " per file • " not in text] == []


@pytest.mark.parametrize(("width", "opened"), [(390, False), (1024, True)])
def test_the_sidebar_starts_closed_on_a_phone_only(
    browser: Browser, app_url: str, width: int, opened: bool
) -> None:
    """Kept open everywhere, it covered the page of a phone, which then showed a sliver of it."""
    with new_page(browser, width=width, height=844) as page:
        goto(page, app_url + "/")
        wait_settled(page)
        box = page.get_by_test_id("stSidebar").bounding_box()
        assert (box is not None and box["x"] >= 0 and box["width"] > 0) is opened
        heading = page.get_by_role("heading", name="Playground").bounding_box()
        assert heading is not None and heading["x"] >= (300 if opened else 0)


def test_the_chat_template_menu_takes_a_phones_row(browser: Browser, app_url: str) -> None:
    """Beside the generation prompt's toggle it was squeezed to its least width: "hai"."""
    with new_page(browser, width=390, height=844) as page:
        goto(page, app_url + "/?mode=chat&enc=o200k_harmony")
        wait_settled(page)
        menu = page.get_by_test_id("stSelectbox").filter(has_text="Template").first
        box = menu.bounding_box()
        assert box is not None and box["width"] >= 250
