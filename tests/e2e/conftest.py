"""Browser fixtures: one `streamlit run app.py` and one headless Chromium per test session.

    def test_something(open_app):
        page = open_app("/merges?enc=gpt2")   # waits until the app's first run has finished
        expect(page.locator(".tok").first).to_be_visible()

Starting the server, launching Chromium, waiting and screenshots live in `harness.py` (shared
with `python -m bench.screenshots`); this file only wires them into pytest.

Chromium comes from $CHROMIUM_PATH or PATH (`harness.find_chromium`). Without one, browser
tests are skipped with the reason, or fail in CI (`tests/prerequisites.py` has the rule).
"""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.harness import chromium, find_chromium, goto, new_page, running_app
from tests.prerequisites import missing, required


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything in tests/e2e is a browser test: mark it, and skip it without Chromium."""
    here = Path(__file__).parent
    path, problem = find_chromium()
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.e2e)
            if path is None and not required():  # in CI the `browser` fixture fails instead
                reason = f"{problem} (set E2E_REQUIRED=1 to make this a failure)"
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """Base URL of the app server shared by the whole test session."""
    with running_app() as app:
        yield app.url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    path, problem = find_chromium()
    if path is None:
        missing(problem)
    with chromium() as browser:
        yield browser


@pytest.fixture(params=["light"])
def color_scheme(request: pytest.FixtureRequest) -> str:
    """The system colour scheme the browser reports; override with indirect parametrization."""
    return request.param


@pytest.fixture
def page(browser: Browser, color_scheme: str) -> Iterator[Page]:
    with new_page(browser, width=1400, height=1000, color_scheme=color_scheme) as page:
        yield page


@pytest.fixture
def open_app(page: Page, app_url: str) -> Callable[[str], Page]:
    """Go to a path of the app (``"/"``, ``"/?text=hi"``) and wait for its first run to end."""

    def go(path: str = "/") -> Page:
        return goto(page, app_url + path)

    return go
