"""A vocabulary whose pattern is too slow on the text, in Chromium: a message, never a traceback.

The vocabulary is trained here with a pattern that backtracks on forty letters and a "!", saved
as a bundle and imported through Compare's file panel, as a user would bring one.
"""

from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

from playwright.sync_api import Page, expect

import tokenizer as tk
from tests.app.test_slow_pattern import PATTERN, SLOW_TEXT
from tests.e2e.harness import keyed, rerun, screenshot
from tests.e2e.playground_page import paste
from tests.e2e.test_compare_page import open_compare
from tests.e2e.test_hf_import import upload
from tokenizer import formats


def test_compare_and_the_playground_say_the_pattern_is_too_slow(
    open_app, page: Page, tmp_path: Path
) -> None:
    enc = tk.train("a b ab ba " * 20, 260, pattern=PATTERN)
    name = enc.name  # a bundle keeps its vocabulary's name
    bundle = tmp_path / "slow-pattern.json"
    bundle.write_bytes(formats.dump_bundle(enc))
    open_compare(open_app)
    with rerun(page):
        page.get_by_text("Vocabulary files: export or import").click()
    expect(upload(page, bundle)).to_contain_text(f"Imported {name}")
    with rerun(page):
        paste(page, SLOW_TEXT)
    alert = page.locator("[data-testid='stAlertContentError']").filter(has_text="too slow")
    expect(alert).to_have_count(1)
    expect(alert).to_contain_text("backtracks")
    expect(keyed(page, "compare.col_0").locator(".tok").first).to_be_visible()  # the others
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    screenshot(page, "compare-slow-pattern")

    vocabs = parse_qs(urlsplit(page.url).query)["vocabs"][0]  # the imported one's id
    open_app("/?" + urlencode({"enc": name, "vocabs": vocabs, "text": SLOW_TEXT}))
    expect(page.locator("[data-testid='stAlertContentError']")).to_contain_text(
        "too slow on this text"
    )
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    expect(page.locator("textarea.lt-area")).to_have_value(SLOW_TEXT)  # what was typed stays
