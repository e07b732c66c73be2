"""Driving the real app in headless Chromium: the server, the browser, waits, screenshots.

One module for everything that starts or drives the app in a browser, shared by the fixtures in
`tests/e2e/conftest.py`, the browser tests and `python -m bench.screenshots` (which is why it
does not import pytest):

    with running_app() as app, chromium() as browser:
        with new_page(browser, width=1280, height=720, color_scheme="dark") as page:
            goto(page, app.url + "/merges?chunk=5")    # returns once the first run has finished
            with rerun(page):                           # returns once the run the click starts
                page.get_by_role("button", name="Next").click()   # has finished
            screenshot(page, "merges-next")             # artifacts/screenshots/merges-next.png

Nothing here sleeps for a fixed time: every wait is for a condition (the health check
answering, a script run finishing, the layout no longer changing) with a timeout.
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from ui.common.state import key_class

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "artifacts" / "logs"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"  # gitignored: tests write nowhere else

STARTUP_TIMEOUT_S = 90
RUN_TIMEOUT_MS = 30_000
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# history.js replaces the browser's pushState with its own
HISTORY_SCRIPT_IN = "() => window.history.pushState !== History.prototype.pushState"

# ---- Chromium ----------------------------------------------------------------------------------

CHROMIUM_ENV = "CHROMIUM_PATH"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def find_chromium() -> tuple[str | None, str]:
    """(the Chromium to drive, None) or (None, why there is none).

    `$CHROMIUM_PATH` if set (any Chromium or Chrome binary, e.g. Playwright's own), otherwise
    the first of CHROMIUM_NAMES on PATH (Debian's `apt-get install chromium` gives `chromium`).
    """
    configured = os.environ.get(CHROMIUM_ENV)
    if configured:
        path = shutil.which(configured)
        if path is None:
            return None, f"{CHROMIUM_ENV}={configured} is not an executable file"
        return path, ""
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path is not None:
            return path, ""
    return None, (
        f"no Chromium: none of {', '.join(CHROMIUM_NAMES)} on PATH and {CHROMIUM_ENV} unset "
        "(apt-get install chromium, or point CHROMIUM_PATH at a Chromium or Chrome binary)"
    )


@contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Chromium (found by `find_chromium`), closed on exit."""
    path, problem = find_chromium()
    if path is None:
        raise RuntimeError(problem)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


# ---- the app server ----------------------------------------------------------------------------


@dataclass(frozen=True)
class AppServer:
    url: str  # http://127.0.0.1:<port>, no trailing slash
    process: subprocess.Popen[bytes]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_healthy(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """Poll /_stcore/health until it answers "ok"; raise with the log if the server exits.

    `url` may be the app or a proxy in front of it (tests/e2e/test_replicas.py).
    """
    attempts = int(STARTUP_TIMEOUT_S / 0.25)
    for _ in range(attempts):
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        try:  # between two polls, wait for the server to exit (then the start has failed)
            server.wait(timeout=0.25)
        except subprocess.TimeoutExpired:
            continue
        raise RuntimeError(f"{server.args[0]} exited with {server.returncode}: {log.read_text()}")
    raise RuntimeError(f"nothing answered {url}/_stcore/health in {STARTUP_TIMEOUT_S} s")


@contextmanager
def running_app(*, keep_log: bool = False) -> Iterator[AppServer]:
    """`streamlit run app.py` on a free port of 127.0.0.1, stopped on exit.

    Its output goes to artifacts/logs/streamlit-<port>.log (a pipe nobody reads could fill and
    stall the server), removed on exit unless `keep_log`; a failed start raises with its text.
    """
    port = free_port()
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
    with log.open("wb") as out:
        server = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server, log)
        yield AppServer(url, server)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if not keep_log:
            log.unlink(missing_ok=True)


NGINX_CONFIG = ROOT / "docs" / "deploy" / "nginx.conf"


def find_nginx() -> str | None:
    """Debian's nginx (apt-get install nginx), on PATH or where the package puts it."""
    fallback = Path("/usr/sbin/nginx")
    return shutil.which("nginx") or (str(fallback) if fallback.exists() else None)


def proxied(config: str, upstreams: list[str], port: int, workdir: Path) -> str:
    """The documented config with these upstream addresses and port, writing only to `workdir`."""
    servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+;$", config, flags=re.M)
    if len(servers) != len(upstreams):
        raise ValueError(f"{NGINX_CONFIG.name} names {len(servers)} replicas, not {len(upstreams)}")
    for line, upstream in zip(servers, upstreams, strict=True):
        config = config.replace(line, f"        server {upstream};", 1)
    config = config.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    logs = f"access_log {workdir}/access.log; error_log {workdir}/error.log;"
    return config.replace("http {", f"http {{\n    {logs}", 1)


@contextmanager
def behind_nginx(nginx: str, replicas: int) -> Iterator[tuple[str, list[AppServer]]]:
    """docs/deploy/nginx.conf on a free port in front of `replicas` app servers, as a school
    would run it (only the ports and the paths nginx writes to change); all stopped on exit."""
    with ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        apps = [stack.enter_context(running_app()) for _ in range(replicas)]
        port = free_port()
        upstreams = [app.url.removeprefix("http://") for app in apps]
        conf = Path(tmp) / "nginx.conf"
        documented = NGINX_CONFIG.read_text(encoding="utf-8")
        conf.write_text(proxied(documented, upstreams, port, Path(tmp)))
        globals_ = f"daemon off; pid {tmp}/nginx.pid;"
        server = subprocess.Popen([nginx, "-p", tmp, "-c", str(conf), "-g", globals_])
        try:
            url = f"http://127.0.0.1:{port}"
            wait_healthy(url, server, Path(tmp) / "error.log")
            yield url, apps
        finally:
            server.terminate()
            server.wait(timeout=10)


# ---- pages and script runs ---------------------------------------------------------------------

# WCAG contrast of an element's text, faded by its own and its ancestors' opacity, against the
# layers of translucent background behind it, down to the first opaque one.
CONTRAST_JS = """el => {
    const rgba = c => {  // "rgb(…)", "rgba(…)", or a color-mix's "color(srgb r g b / a)" in 0..1
        const parts = c.match(/[\\d.]+/g).map(Number);
        if (c.startsWith("color(srgb")) parts.splice(0, 3, ...parts.slice(0, 3).map(v => v * 255));
        return parts;
    };
    const lum = ([r, g, b]) => {
        const f = v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const over = (top, alpha, bottom) => top.map((v, i) => v * alpha + bottom[i] * (1 - alpha));
    const layers = [];
    let faded = 1;
    for (let node = el; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        faded *= parseFloat(style.opacity);
        const parts = rgba(style.backgroundColor);
        const alpha = parts.length > 3 ? parts[3] : 1;
        if (alpha > 0) layers.push([parts.slice(0, 3), alpha]);
        if (alpha >= 1) break;
    }
    let back = [255, 255, 255];
    for (const [colour, alpha] of layers.reverse()) back = over(colour, alpha, back);
    const text = rgba(getComputedStyle(el).color);
    const shown = over(text.slice(0, 3), faded * (text.length > 3 ? text[3] : 1), back);
    const [hi, lo] = [lum(shown), lum(back)].sort((a, b) => b - a);
    return (hi + 0.05) / (lo + 0.05);
}"""


# Counts the script runs that finish in this page, read from Streamlit's own websocket: every
# ForwardMsg whose `script_finished` field (a top-level varint) is set, except a run cut short
# for a rerun. The field's number comes from the installed Streamlit's protobuf descriptor.
# Subtle: a length is read into a constant first, as `at += varint()` would add it to the `at`
# read before varint() moved it.
_RUN_COUNTER_JS = """(() => {
  const FIELD = $FIELD, EARLY_FOR_RERUN = $EARLY;
  const finishedRun = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let at = 0;
    const varint = () => {
      let value = 0, scale = 1, byte;
      do { byte = bytes[at++]; value += (byte & 0x7f) * scale; scale *= 128; } while (byte & 0x80);
      return value;
    };
    while (at < bytes.length) {
      const key = varint(), field = Math.floor(key / 8), wire = key % 8;
      if (wire === 0) {
        const value = varint();
        if (field === FIELD) return value !== EARLY_FOR_RERUN;
      } else if (wire === 1) at += 8;
      else if (wire === 2) { const length = varint(); at += length; }
      else if (wire === 5) at += 4;
      else return false;
    }
    return false;
  };
  window.__finishedRuns = 0;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (event.data instanceof ArrayBuffer && finishedRun(event.data)) window.__finishedRuns++;
      });
    }
  };
})();""".replace(
    "$FIELD", str(ForwardMsg.DESCRIPTOR.fields_by_name["script_finished"].number)
).replace("$EARLY", str(ForwardMsg.FINISHED_EARLY_FOR_RERUN))


@contextmanager
def new_page(
    browser: Browser, *, width: int = 1400, height: int = 1000, color_scheme: str = "light"
) -> Iterator[Page]:
    """A page in a browser context of its own (no cookies or storage shared), closed on exit.

    The system colour scheme is what Streamlit's theme follows; every page counts its finished
    script runs (`rerun`, `goto`).
    """
    context = browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme=color_scheme,
        device_scale_factor=1,
    )
    try:
        context.add_init_script(_RUN_COUNTER_JS)
        page = context.new_page()
        page.set_default_timeout(RUN_TIMEOUT_MS)
        yield page
    finally:
        context.close()


def finished_runs(page: Page) -> int:
    """How many script runs (page or fragment) have finished since the page loaded."""
    return int(page.evaluate("window.__finishedRuns"))


def wait_idle(page: Page, timeout_ms: int = RUN_TIMEOUT_MS) -> None:
    """Wait until no script run is in progress (true at once if none has started yet)."""
    expect(page.locator(IDLE)).to_be_attached(timeout=timeout_ms)


def wait_runs(page: Page, count: int, timeout_ms: int = RUN_TIMEOUT_MS) -> None:
    """Wait until `count` runs have finished since the page loaded, then until it is idle."""
    page.wait_for_function("n => window.__finishedRuns >= n", arg=count, timeout=timeout_ms)
    wait_idle(page, timeout_ms)


@contextmanager
def rerun(page: Page, timeout_ms: int = RUN_TIMEOUT_MS) -> Iterator[None]:
    """Wait, after the block, for the script run that what the block did starts to finish.

    For actions that make Streamlit rerun (a widget's new value, a button, a page link); the
    block must cause a run, or this times out.
    """
    before = finished_runs(page)
    yield
    wait_runs(page, before + 1, timeout_ms)


def goto(page: Page, url: str, timeout_ms: int = RUN_TIMEOUT_MS) -> Page:
    """Open `url`; wait until the app's first run there has finished and its scripts are in.

    The history script (ui/components/history.js) loads after the run that draws it; a click
    on a page link before it is in makes the switch two entries (Back then goes to the new
    page's bare address), which is not what a test of Back means to try.
    """
    page.goto(url)
    wait_runs(page, 1, timeout_ms)
    page.wait_for_function(HISTORY_SCRIPT_IN, timeout=timeout_ms)
    return page


def keyed(page: Page, key: str) -> Locator:
    """The element of the widget with this key (`key_class`: ``train.vocab`` ->
    ``st-key-train-vocab``)."""
    return page.locator("." + key_class(key))


def metric(page: Page, label: str, within: Locator | None = None) -> Locator:
    """The value of the metric labelled `label` (in `within`, if given)."""
    scope = within if within is not None else page
    return (
        scope.locator("[data-testid='stMetric']")
        .filter(has=page.get_by_text(label, exact=True))
        .locator("[data-testid='stMetricValue']")
    )


def go_to(page: Page, title: str) -> None:
    """Switch page through the sidebar's navigation, staying in the same session."""
    with rerun(page):
        page.locator("[data-testid='stSidebarNav']").get_by_role("link", name=title).click()


def commit(box: Locator, text: str, key: str = "Enter") -> None:
    """Type `text` into a text box and commit it with `key`; wait for the run that starts."""
    box.fill(text)
    with rerun(box.page):
        box.press(key)


def choose_option(
    page: Page,
    opener: Locator,
    option: str | re.Pattern[str],
    *,
    run_timeout_ms: int = RUN_TIMEOUT_MS,
) -> None:
    """Open a selectbox with `opener`, pick `option` (a new value), wait for the run it starts.

    A page's live text box reports its text once it has mounted; that rerun can close a menu
    opened just before it (seen on a loaded machine), so the menu is opened again if needed.
    """
    wanted = page.get_by_role("option", name=option)
    for _ in range(3):
        wait_idle(page)
        before = finished_runs(page)
        opener.click()
        try:
            wanted.click(timeout=10_000)
        except PlaywrightTimeoutError:
            page.keyboard.press("Escape")
            continue
        wait_runs(page, before + 1, run_timeout_ms)
        return
    raise AssertionError(f"the option {option!r} never became clickable")


# ---- layout and screenshots --------------------------------------------------------------------

# Streamlit scrolls inside its main block, so the document is only as tall as the window.
_CONTENT_HEIGHT_JS = """() => Math.max(document.documentElement.scrollHeight, ...Array.from(
    document.querySelectorAll('[data-testid=stMain], [data-testid=stAppViewContainer]'),
    e => e.scrollHeight))"""
# True once, for 5 frames in a row, the app has been idle with no placeholder left, fonts and
# images have loaded, and the layout's size has not changed.
_SETTLED_JS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const now = [document.documentElement.scrollHeight, main ? main.scrollHeight : 0,
               main ? main.scrollWidth : 0].join();
  const ready = document.querySelector("$IDLE") !== null
      && document.querySelector('[data-testid^=stSkeleton], [data-testid=stAppSkeleton]') === null
      && document.fonts.status === 'loaded'
      && Array.from(document.images).every(image => image.complete);
  const state = window.__layout || (window.__layout = {last: '', same: 0});
  state.same = ready && now === state.last ? state.same + 1 : 0;
  state.last = now;
  if (state.same >= 5) { window.__layout = null; return true; }
  return false;
}""".replace("$IDLE", IDLE.replace('"', '\\"'))
MAX_SCREENSHOT_HEIGHT = 9000


def cut_texts(page: Page) -> list[str]:
    """Texts the page cuts with "…" (a widget's label, a toggle's, an option's, a button's): any
    element set to end in an ellipsis whose text is wider than it. A label only read out (1 px
    wide, as the Chat view's icon buttons have) is not one."""
    return list(page.evaluate(_CUT_JS))


_CUT_JS = """() => [...document.querySelectorAll("[data-testid='stMain'] *")]
    .filter(e => e.offsetParent !== null && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1
        && getComputedStyle(e).textOverflow === "ellipsis")
    .map(e => e.textContent)"""


def assert_styled(view: Locator) -> None:
    """The token view `view` (a `.bpl`, or what holds one) wears its style sheet: its tokens pane
    is a bordered box that scrolls, its first token tinted. `st.html`'s sanitizer drops a whole
    style whose text holds a "<" before a letter, and the Compare and Train views then drew as
    plain text, which no check of their tokens' texts or ids noticed."""
    pane = view.locator(".bpl-text").first
    style = pane.evaluate(
        "e => { const s = getComputedStyle(e), t = getComputedStyle(e.querySelector('.tok'));"
        " return [s.borderTopStyle, s.overflowY, t.backgroundColor]; }"
    )
    assert style[:2] == ["solid", "auto"] and style[2] != "rgba(0, 0, 0, 0)", style


def wait_settled(page: Page, timeout_ms: int = 10_000) -> None:
    """Wait until the app is idle, fonts and images are in, and the layout stops moving."""
    wait_idle(page)
    page.wait_for_function(_SETTLED_JS, polling="raf", timeout=timeout_ms)


def screenshot(page: Page, name: str, *, whole: bool = True) -> Path:
    """Save artifacts/screenshots/<name>.png (gitignored) and return its path.

    `whole` grows the window to the content first, since Streamlit scrolls inside the page,
    then puts it back; otherwise it is the window as it is.
    """
    size = page.viewport_size or {"width": 1400, "height": 1000}
    wait_settled(page)
    if whole:
        for _ in range(3):  # charts and token views may lay out again in a taller window
            height = min(int(page.evaluate(_CONTENT_HEIGHT_JS)) + 40, MAX_SCREENSHOT_HEIGHT)
            if height <= (page.viewport_size or size)["height"]:
                break
            page.set_viewport_size({"width": size["width"], "height": height})
            wait_settled(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)
    return path
