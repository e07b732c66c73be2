"""The README's screenshots, taken from the running app: `python -m bench.screenshots`.

Starts the app on a free port and drives headless Chromium with the browser tests' own harness
(`tests/e2e/harness.py`), opens each view of SHOTS in a 1280x720 window, in the light and the
dark theme, and writes `assets/screenshots/<name>-<theme>.png`. Tests never write there; this
command is the only thing that does. To show a new page in the README, add a row to SHOTS.

    python -m bench.screenshots                 # every view, both themes
    python -m bench.screenshots vocab train     # only these views
"""

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import Browser, Page, expect

from tests.e2e.harness import (
    ROOT,
    chromium,
    goto,
    new_page,
    rerun,
    running_app,
    wait_settled,
)
from ui.common.examples import EXAMPLES

ASSETS = ROOT / "assets" / "screenshots"
WIDTH, HEIGHT = 1280, 720
THEMES = ("light", "dark")
SLOW_MS = 120_000  # a training or a first index of a big vocabulary on a loaded machine

Step = Callable[[Page], None]


# ---- steps: each does one thing on the page and waits for what it causes -----------------------


def visible(selector: str, timeout_ms: int = 30_000) -> Step:
    """Wait until `selector` (any Playwright selector) shows."""
    return lambda page: expect(page.locator(selector).first).to_be_visible(timeout=timeout_ms)


def click(selector: str, timeout_ms: int = 30_000) -> Step:
    """Click `selector`, wait for the script run the click starts, move the mouse away."""

    def step(page: Page) -> None:
        with rerun(page, timeout_ms):
            page.locator(selector).first.click()
        page.mouse.move(WIDTH // 2, 5)  # onto the empty header: no hover effect in the picture

    return step


def press(selector: str, key: str) -> Step:
    """Press `key` in `selector` (focusing it first) and wait for the script run it starts."""

    def step(page: Page) -> None:
        with rerun(page):
            page.locator(selector).first.press(key)

    return step


def hover(selector: str) -> Step:
    return lambda page: page.locator(selector).first.hover()


def scroll_to(selector: str) -> Step:
    """Scroll Streamlit's main block so that `selector` is at the top of the window."""
    return lambda page: page.locator(selector).first.evaluate("e => e.scrollIntoView()")


@dataclass(frozen=True)
class Shot:
    name: str  # assets/screenshots/<name>-<theme>.png
    path: str  # the app's URL path, with its query
    steps: Sequence[Step] = ()


EMOJI_AND_CODE = EXAMPLES["Emoji"] + "\n" + EXAMPLES["Code indentation"]
DIFF_TEXT = (
    "Tokenizers disagree on numbers (2024-12-31, 1234567), on words like naïve and "
    "unbelievably, on code (    return x**2) and on scripts: 你好世界, Привет, Καλημέρα 👋🏽."
)
TRAIN_BUTTON = ".st-key-train-train button"
CHART = "[data-testid='stVegaLiteChart']"
TOKEN_HEADING = "role=heading[name='Token 43453']"
REPLAY = ".st-key-train-replay"
REPLAY_SLIDER = ".st-key-train-step input[type=range]"

SHOTS = [
    # The playground as it opens, a token pinned: its merge, bytes and a link to the Vocabulary.
    Shot("playground", "/", [visible(".bpl-text .tok"), click(".bpl-text .tok >> nth=6")]),
    # Emoji cut into bytes, whitespace glyphs, regex chunks, colours by token id.
    Shot(
        "playground-emoji",
        "/?" + urlencode({"ws": 1, "chunks": 1, "color": "id", "text": EMOJI_AND_CODE}),
        [visible(".bpl-text .grp .tok"), hover(".bpl-text .grp .tok")],
    ),
    # The Chat view: a conversation in Llama 3's template, its special tokens one id each.
    Shot("chat", "/?" + urlencode({"mode": "chat", "enc": "llama3"}), [visible(".bpl-text .tok")]),
    # The GPT-2 walkthrough of " OpenAI" in presentation mode, at its third merge.
    Shot(
        "merges-presentation", "/merges?chunk=5&step=11&present=1", [visible(".mg-chunk .mg-now")]
    ),
    # A vocabulary trained on the default corpus, replayed at an early step (77: a tie).
    Shot(
        "train",
        "/train",
        [
            click(TRAIN_BUTTON, SLOW_MS),
            # Trained, or (the second theme) taken from the identical training just made, which
            # shows no progress bar.
            visible(REPLAY, SLOW_MS),
            wait_settled,
            # From step 0, a page up the replay: an early merge, won on the tie rule.
            press(REPLAY_SLIDER, "Home"),
            press(REPLAY_SLIDER, "PageUp"),
            scroll_to(".st-key-train-step"),
        ],
    ),
    # The same training presented for a projector, at the same early step: the race beside the
    # sample's tokens, on one screen.
    Shot(
        "train-presentation",
        "/train",
        [
            click(TRAIN_BUTTON, SLOW_MS),
            visible(REPLAY, SLOW_MS),  # trained, or taken from the shot before
            wait_settled,  # the runs that end a training, before the toggle's
            click(".st-key-train-present >> text=Presentation mode"),
            visible(".st-key-train_stage"),
            press(REPLAY_SLIDER, "Home"),
            press(REPLAY_SLIDER, "PageUp"),
        ],
    ),
    # Three tokenizers side by side on the same text, as the page opens.
    Shot("compare", "/compare", [visible(".bdw .blk")]),
    # Where they cut differently: a row per tokenizer, unique cuts marked, counts in the key.
    Shot(
        "compare-diff",
        "/compare?" + urlencode({"text": DIFF_TEXT}),
        [visible(".bdw .blk"), scroll_to("role=heading[name='Where they cut differently']")],
    ),
    # Languages & code: a row per sample, a dot per encoding (premium for the translations).
    Shot(
        "languages",
        "/compare",
        [
            click("role=tab[name='Languages & code']"),
            visible(CHART),
            scroll_to(".st-key-compare-lang_metric"),
        ],
    ),
    # " SolidGoldMagikarp" found by search, with its merge tree.
    Shot(
        "vocab",
        "/vocab?" + urlencode({"enc": "gpt2", "q": "Magikarp", "id": 43453}),
        [visible(TOKEN_HEADING, SLOW_MS), scroll_to(TOKEN_HEADING)],
    ),
]


def theme_of(page: Page) -> str:
    """The theme the app is drawn in, from its background's brightness."""
    colour = page.evaluate("getComputedStyle(document.querySelector('.stApp')).backgroundColor")
    rgb = [int(part) for part in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3]]
    return "dark" if sum(rgb) < 200 else "light"


def take(browser: Browser, base_url: str, shot: Shot, theme: str) -> Path:
    with new_page(browser, width=WIDTH, height=HEIGHT, color_scheme=theme) as page:
        goto(page, base_url + shot.path, timeout_ms=SLOW_MS)
        for step in shot.steps:
            step(page)
        wait_settled(page)
        drawn = theme_of(page)
        if drawn != theme:
            raise RuntimeError(f"{shot.name}: asked for the {theme} theme, the app drew {drawn}")
        path = ASSETS / f"{shot.name}-{theme}.png"
        page.screenshot(path=str(path))
        return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help=f"views to take (all: {[s.name for s in SHOTS]})")
    args = parser.parse_args(argv)
    unknown = set(args.names) - {shot.name for shot in SHOTS}
    if unknown:
        parser.error(f"no such view: {', '.join(sorted(unknown))}")
    shots = [shot for shot in SHOTS if not args.names or shot.name in args.names]
    ASSETS.mkdir(parents=True, exist_ok=True)
    with running_app() as app, chromium() as browser:
        with new_page(browser) as warm:  # a server's first request loads the default vocabulary
            goto(warm, app.url + "/", timeout_ms=SLOW_MS)
        for shot in shots:
            for theme in THEMES:
                start = time.monotonic()
                path = take(browser, app.url, shot, theme)
                print(f"{path.relative_to(ROOT)}  ({time.monotonic() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
