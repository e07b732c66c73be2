"""Shared browser fixtures: one `streamlit run app.py` and one headless Chromium per session.

Other pages' browser tests live beside these and use the same fixtures:

    def test_something(open_app):
        page = open_app("/merges?enc=gpt2")   # waits until the script has finished
        expect(page.locator(".tok").first).to_be_visible()

Browser tests skip, with the reason, only when Chromium is missing and E2E_REQUIRED is unset;
CI sets E2E_REQUIRED=1, which turns a missing browser into a failure.
"""

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LOGS = ROOT / "artifacts" / "logs"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
STARTUP_TIMEOUT_S = 90


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything in tests/e2e is a browser test: mark it, and skip or fail without Chromium."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)
            if not CHROMIUM.exists() and not os.environ.get("E2E_REQUIRED"):
                reason = (
                    f"no Chromium at {CHROMIUM} (apt-get install chromium); "
                    "set E2E_REQUIRED=1 to make this a failure"
                )
                item.add_marker(pytest.mark.skip(reason=reason))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(url: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"streamlit exited with {server.returncode}: {log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"streamlit did not answer {url}/_stcore/health in {STARTUP_TIMEOUT_S} s")


@contextmanager
def running_app() -> Iterator[str]:
    """`streamlit run app.py` on a free port; yields its base URL, stops it on exit.

    Its output goes to artifacts/logs/streamlit-<port>.log while it runs (a pipe nobody reads
    could fill and stall the server); a failed start raises with the log's text.
    """
    port = _free_port()
    options = {
        "server.port": port,
        "server.address": "127.0.0.1",
        "server.headless": "true",
        "server.fileWatcherType": "none",
        "browser.gatherUsageStats": "false",
    }
    command = [sys.executable, "-m", "streamlit", "run", "app.py"]
    command += [f"--{name}={value}" for name, value in options.items()]
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / f"streamlit-{port}.log"
    with log.open("w") as out:
        server = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, server, log)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """Base URL of the app server shared by the whole test session."""
    with running_app() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():  # only reached with E2E_REQUIRED set: see above
        pytest.fail(f"E2E_REQUIRED is set but there is no Chromium at {CHROMIUM}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def wait_idle(page: Page, timeout_ms: int = 30_000) -> None:
    """Wait until the app's script has finished its current run."""
    expect(page.locator(IDLE)).to_be_attached(timeout=timeout_ms)


@pytest.fixture(params=["light"])
def color_scheme(request: pytest.FixtureRequest) -> str:
    """The system colour scheme the browser reports; override with indirect parametrization."""
    return request.param


@pytest.fixture
def page(browser: Browser, color_scheme: str) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": 1400, "height": 1000},
        color_scheme=color_scheme,
        device_scale_factor=1,
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


@pytest.fixture
def open_app(page: Page, app_url: str) -> Callable[[str], Page]:
    """Go to a path of the app (``"/"``, ``"/?text=hi"``) and wait for its first run to end."""

    def go(path: str = "/") -> Page:
        page.goto(app_url + path)
        expect(page.locator("[data-testid='stApp']")).to_be_attached()
        wait_idle(page)
        return page

    return go


def choose_option(page: Page, opener: Locator, option: str | re.Pattern[str]) -> None:
    """Open a selectbox with `opener` and pick `option`, again if a rerun closed the menu.

    A page's live text box reports its text once it has mounted; that rerun can close a menu
    opened just before it (seen on a loaded machine).
    """
    wanted = page.get_by_role("option", name=option)
    for _ in range(3):
        wait_idle(page)
        opener.click()
        try:
            wanted.click(timeout=10_000)
            return
        except PlaywrightTimeoutError:
            page.keyboard.press("Escape")
    raise AssertionError(f"the option {option!r} never became clickable")


def screenshot(page: Page, name: str) -> Path:
    """Save a full-page screenshot under artifacts/screenshots/ (gitignored) and return it."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
