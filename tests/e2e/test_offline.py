"""Every page works offline: nothing is fetched from outside the server, nothing is missing.

A browser context records what each page asks for and what the console says: a request to any
host but the app's own, a response of 400 or more (a 404 for a favicon or a font), a failed
request, a console error or an uncaught exception all fail the test, listed.
"""

from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.harness import go_to, goto, new_page, wait_settled

TITLES = {"/merges": "Merges", "/train": "Train", "/compare": "Compare", "/vocab": "Vocabulary"}
LOCAL = {"127.0.0.1", "localhost"}
SLOW_MS = 60_000  # the Vocabulary page indexes its vocabulary on a first visit


class Recorder:
    """Everything a page did that an offline, error-free app never does."""

    def __init__(self, page: Page) -> None:
        self.problems: list[str] = []
        page.on("request", self._request)
        page.on("response", lambda r: r.status >= 400 and self._add(f"{r.status} for {r.url}"))
        page.on("requestfailed", lambda r: self._add(f"failed: {r.url} ({r.failure})"))
        page.on("console", lambda m: m.type == "error" and self._add(f"console: {m.text}"))
        page.on("pageerror", lambda error: self._add(f"uncaught: {error}"))

    def _add(self, problem: str) -> None:
        self.problems.append(problem)

    def _request(self, request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme not in ("data", "blob") and parts.hostname not in LOCAL:
            self._add(f"fetched from outside: {request.url}")


@pytest.fixture
def recorded(browser: Browser) -> Iterator[tuple[Page, Recorder]]:
    with new_page(browser, width=1280, height=720) as page:
        yield page, Recorder(page)


def test_every_page_loads_only_from_its_server_without_errors(
    recorded: tuple[Page, Recorder], app_url: str
) -> None:
    """Open the app, then every page from the sidebar, as a class does."""
    page, recorder = recorded
    goto(page, app_url + "/", timeout_ms=SLOW_MS)
    wait_settled(page, timeout_ms=SLOW_MS)
    for title in TITLES.values():
        go_to(page, title)
        wait_settled(page, timeout_ms=SLOW_MS)
    assert recorder.problems == [], "\n".join(recorder.problems)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        pytest.param(
            "/merges",
            marks=pytest.mark.xfail(
                strict=True,
                reason="Streamlit's frontend probes <page>/_stcore/health and host-config before "
                "the site root when a page other than the first is opened directly: two 404s "
                "(streamlit/streamlit#7074, open). Fixed only by telling the frontend its base "
                "URL before it loads (window.__streamlit.BACKEND_BASE_URL, e.g. injected by an "
                "st.App middleware in app.py).",
            ),
        ),
    ],
)
def test_a_link_opens_its_page_without_errors(
    recorded: tuple[Page, Recorder], app_url: str, path: str
) -> None:
    page, recorder = recorded
    goto(page, app_url + path, timeout_ms=SLOW_MS)
    wait_settled(page, timeout_ms=SLOW_MS)
    assert recorder.problems == [], "\n".join(recorder.problems)
