"""A link into any page works as the very first request of a fresh server.

Streamlit's older multipage mode would run such a page without app.py (no sidebar picker, no
page config) until someone opened "/"; ui/frame.py prevents that. Each case gets its own server,
because only the first request of a server shows the problem.
"""

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.harness import goto, new_page, running_app

LINKS = [
    "/vocab?enc=cl100k_base&id=11571",
    "/merges?enc=cl100k_base",
    "/compare",
    "/train",
]


@pytest.mark.parametrize("link", LINKS)
def test_first_request_opens_inside_the_frame(browser: Browser, link: str) -> None:
    with running_app() as app, new_page(browser, width=1300, height=900) as page:
        goto(page, app.url + link, timeout_ms=60_000)
        sidebar = page.locator("[data-testid='stSidebar']")
        expect(sidebar.get_by_text("Encoding", exact=True)).to_be_visible()
        expect(sidebar.get_by_text("Playground")).to_be_visible()
        assert page.url.split("?")[0].endswith(link.split("?")[0])
        if "enc=" in link:  # the link's encoding reached the sidebar picker
            assert "enc=cl100k_base" in page.url
            expect(sidebar.get_by_text("100,277 token ids", exact=False)).to_be_visible()
