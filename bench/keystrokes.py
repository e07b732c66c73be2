"""Keystroke to tokens on screen, in real headless Chromium: `python -m bench.keystrokes`.

Starts the app on a free port with the browser tests' harness (`tests/e2e/harness.py`), opens
the Playground at 1280x720, puts 1 KB of text in the live box, then types real keystrokes at its
end. Each keystroke is timed in the page itself, from the key event (`keydown`, as the browser
stamps it) to the first animation frame where the tokens pane shows the new text's token count
and exactly its ids (computed here with the core), so a stale or half-drawn pane never counts.
Then a 50 KB paste is timed the same way, from the paste's input event to the pane drawn (its
count, and the ids of the first page of tokens).

Keys are pressed one at a time, each after the previous one is drawn (no overlap); `--cps`
instead types at that many characters a second, as a fast typist does, and times each key to the
first frame that shows its text (or a later one). Prints median, p95 and max, and the machine's
load average (other work on the machine makes the figures noisy: repeat, report ranges).

    python -m bench.keystrokes                      # 60 keys, gpt2, then the 50 KB paste
    python -m bench.keystrokes --enc o200k_base --keys 100 --cps 8
"""

import argparse
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from playwright.sync_api import Page

import tokenizer as tk
from tests.e2e.harness import chromium, goto, new_page, running_app, wait_idle
from tests.e2e.playground_page import text_box
from ui.common.examples import DEFAULT_TEXT, EXAMPLES
from ui.common.limits import RENDER_LIMIT

WIDTH, HEIGHT = 1280, 720
TIMEOUT_MS = 30_000
# What is typed, one key at a time, at the end of the text: words, spaces, digits, punctuation.
TYPED = "the quick brown fox jumps over 13 lazy dogs, then naps. "

# In the page: every keydown's time stamp, in order (the box lives in a shadow root; key events
# are composed, so they reach the window).
_LISTEN_JS = """() => {
  window.__keys = [];
  window.addEventListener('keydown', e => window.__keys.push(e.timeStamp), true);
}"""

# True, on the first animation frame where the pane shows `count` tokens and `ids` drawn; it then
# records that frame's time. Runs as a `wait_for_function` predicate polled every frame.
_DRAWN_JS = """([count, ids]) => {
  const value = Array.from(document.querySelectorAll("[data-testid='stMetric']"))
      .find(m => m.querySelector("[data-testid='stMetricLabel']")?.textContent.trim() === 'Tokens');
  if (!value || value.querySelector("[data-testid='stMetricValue']").textContent.trim() !== count)
    return false;
  const drawn = document.querySelectorAll('.bpl-text .tok');
  if (drawn.length !== ids.length) return false;
  for (let i = 0; i < ids.length; i++) {
    if (Number(drawn[i].dataset.tokenId) !== ids[i]) return false;
  }
  window.__drawnAt = performance.now();
  return true;
}"""

# Replace the box's text in one input event, as a paste does, and note when.
_PASTE_JS = """(box, text) => {
  window.__pasteAt = performance.now();
  box.value = text;
  box.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
}"""


@dataclass(frozen=True)
class Figures:
    keys_ms: list[float]
    paste_ms: float
    paste_tokens: int


def kilobyte() -> str:
    """About 1 KB of mixed text: prose, numbers, code, other scripts, emoji."""
    unit = "\n".join([DEFAULT_TEXT, EXAMPLES["Numbers"], EXAMPLES["Code indentation"]])
    unit += "\n" + EXAMPLES["Non-English text"] + "\n"
    text = (unit * 4)[:1000]
    return text[: text.rfind(" ")] + " "


def fifty_kilobytes() -> str:
    unit = EXAMPLES["Code indentation"] + EXAMPLES["Non-English text"] + "\n" + DEFAULT_TEXT + "\n"
    data = (unit * (50_000 // len(unit.encode()) + 1)).encode()[:50_000]
    return data.decode("utf-8", errors="ignore")  # whole characters only


def drawn(page: Page, enc: tk.Encoding, text: str) -> float:
    """Wait for the pane to show `text`'s tokens; the page's time of that frame, in ms."""
    ids = enc.encode_ordinary(text)
    expected = [f"{len(ids):,}", ids[:RENDER_LIMIT]]
    page.wait_for_function(_DRAWN_JS, arg=expected, polling="raf", timeout=TIMEOUT_MS)
    return float(page.evaluate("window.__drawnAt"))


def put_text(page: Page, enc: tk.Encoding, text: str) -> float:
    """Paste `text` into the box; milliseconds until its tokens are drawn."""
    text_box(page).evaluate(_PASTE_JS, text)
    end = drawn(page, enc, text)
    return end - float(page.evaluate("window.__pasteAt"))


def type_keys(page: Page, enc: tk.Encoding, text: str, keys: int) -> list[float]:
    """Type `keys` characters at the end of `text`, each once the last is drawn; ms each."""
    box = text_box(page)
    box.click()
    box.press("ControlOrMeta+End")
    wait_idle(page)
    page.evaluate(_LISTEN_JS)
    times = []
    for n in range(keys):
        char = TYPED[n % len(TYPED)]
        text += char
        page.keyboard.press("Space" if char == " " else char)
        end = drawn(page, enc, text)
        start = float(page.evaluate("window.__keys[window.__keys.length - 1]"))
        times.append(end - start)
    return times


def type_at_speed(page: Page, enc: tk.Encoding, text: str, keys: int, cps: float) -> list[float]:
    """Type `keys` characters at `cps` characters a second; each key's ms until a frame shows
    its text or a later one (keys that a later frame covered first count to that frame)."""
    box = text_box(page)
    box.click()
    box.press("ControlOrMeta+End")
    wait_idle(page)
    page.evaluate(_LISTEN_JS)
    typed = "".join(TYPED[n % len(TYPED)] for n in range(keys))
    # Record, on every frame, the box's text length whenever the drawn count changes.
    page.evaluate(
        """() => {
          window.__frames = [];
          const tick = () => {
            const m = Array.from(document.querySelectorAll("[data-testid='stMetric']")).find(
              x => x.querySelector("[data-testid='stMetricLabel']")?.textContent.trim()
                   === 'Tokens');
            const ids = Array.from(document.querySelectorAll('.bpl-text .tok'),
                                   e => e.dataset.tokenId).join(',');
            const last = window.__frames[window.__frames.length - 1];
            const shown = (m ? m.textContent : '') + '|' + ids;
            if (!last || last[1] !== shown) window.__frames.push([performance.now(), shown]);
            window.__tick = requestAnimationFrame(tick);
          };
          tick();
        }"""
    )
    page.keyboard.type(typed, delay=1000 / cps)
    drawn(page, enc, text + typed)
    page.evaluate("cancelAnimationFrame(window.__tick)")
    key_times: list[float] = page.evaluate("window.__keys")
    frames: list[tuple[float, str]] = page.evaluate("window.__frames")
    # What each prefix of the typing looks like when drawn.
    views = {}
    for k in range(1, keys + 1):
        ids = enc.encode_ordinary(text + typed[:k])
        views[f"{len(ids):,}" + "|" + ",".join(map(str, ids[:RENDER_LIMIT]))] = k
    latencies = []
    for k, pressed in enumerate(key_times[-keys:], start=1):
        shown_at = next(
            (at for at, shown in frames if at >= pressed and views.get(_normal(shown), 0) >= k),
            None,
        )
        if shown_at is not None:
            latencies.append(shown_at - pressed)
    return latencies


def _normal(shown: str) -> str:
    """The frame record's metric text may carry the label: keep the count and the ids."""
    count, _, ids = shown.partition("|")
    return count.replace("Tokens", "").strip() + "|" + ids


def summary(values: Sequence[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"n={len(values)}  median {statistics.median(values):4.0f} ms  "
        f"p95 {p95:4.0f} ms  max {max(values):4.0f} ms"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--enc", default="gpt2", help="encoding picked in the sidebar")
    parser.add_argument("--keys", type=int, default=60, help="keystrokes to time")
    parser.add_argument("--cps", type=float, default=0, help="type at this speed instead")
    args = parser.parse_args(argv)
    enc = tk.get_encoding(args.enc)
    start_text, big = kilobyte(), fifty_kilobytes()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with (
        running_app() as app,
        chromium() as browser,
        new_page(browser, width=WIDTH, height=HEIGHT) as page,
    ):
        goto(page, f"{app.url}/?enc={args.enc}")
        put_text(page, enc, start_text)  # the first paste warms the caches; not reported
        if args.cps:
            keys = type_at_speed(page, enc, start_text, args.keys, args.cps)
            label = f"at {args.cps:g} chars/s"
        else:
            keys = type_keys(page, enc, start_text, args.keys)
            label = "one at a time"
        put_text(page, enc, start_text)
        paste = put_text(page, enc, big)
    tokens = len(enc.encode_ordinary(big))
    print(
        f"{args.enc}, {len(start_text.encode())} bytes of text, {WIDTH}x{HEIGHT}, headless Chromium"
    )
    print(f"keystroke -> tokens pane ({label}): {summary(keys)}")
    print(f"50 KB paste -> drawn ({len(big.encode()):,} bytes, {tokens:,} tokens): {paste:.0f} ms")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
