"""What every page owes a screen reader and a washed-out projector, checked in the browser.

- **Headings form an outline:** one h1, the page's title, and no level skipped. The sections
  were h3 under the title's h1 (and the Playground's title an h3 alone), so a screen reader's
  list of headings jumped a level. They are h2 now, drawn at the size the h3 had.
- **Faint text still reads:** captions, the code in them and the chosen option of a segmented
  control reach WCAG's 4.5:1 against what is behind them, in both themes. Streamlit fades a
  whole caption (code included) to 60%, which left code at 3.0:1 in light mode, and draws the
  chosen option in the theme's blue, 3.9:1 in dark mode.
- **Charts have names:** a screen reader meets each chart by what it shows ("Line chart: tokens
  in the whole text after each merge step, …"), where Vega named it by its first tick labels.
"""

from itertools import pairwise

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.harness import CONTRAST_JS, wait_settled

PAGES = [
    ("/", "Playground"),
    ("/?mode=chat", "Playground"),
    ("/merges", "Merges"),
    ("/merges?present=1", "Merges"),
    ("/train", "Train"),
    ("/compare", "Compare"),
    ("/vocab?enc=gpt2&id=43453", "Vocabulary"),
]


def outline(page: Page) -> list[tuple[int, str]]:
    """The main area's headings in document order, as (level, text)."""
    found = page.locator("[data-testid='stMain']").evaluate(
        """main => [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')]
             .map(h => [Number(h.tagName[1]), h.textContent.trim()])"""
    )
    return [(level, text) for level, text in found]


@pytest.mark.parametrize(("path", "title"), PAGES, ids=[path for path, _ in PAGES])
def test_the_headings_start_at_the_title_and_skip_no_level(
    open_app, page: Page, path: str, title: str
) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(path)
    wait_settled(page)
    found = outline(page)
    assert found and found[0][0] == 1 and found[0][1].startswith(title), found
    assert [level for level, _ in found].count(1) == 1, found
    for (before, _), (level, text) in pairwise(found):
        assert level <= before + 1, f"{text!r} is an h{level} after an h{before}: {found}"


# Where a heading shares a row with other things, or sections must fit one screen: the size
# the layouts were made with (Streamlit's h3 then; presenting, the row's bold text).
SIZES = [("/train", "h2", 28.0), ("/", "h1", 28.0), ("/merges?present=1", "h1", 16.0)]


def test_headings_are_drawn_at_the_sizes_the_layouts_were_made_with(open_app, page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    for path, tag, size in SIZES:
        open_app(path)
        wait_settled(page)
        found = page.locator(f"[data-testid='stMain'] {tag}").evaluate_all(
            "hs => hs.map(h => parseFloat(getComputedStyle(h).fontSize))"
        )
        assert found and set(found) == {size}, (path, found)


FAINT = {
    "caption": "[data-testid='stCaptionContainer'] p",
    "code in a caption": "[data-testid='stCaptionContainer'] code",
    "chosen option": "[data-testid='stButtonGroup'] button[aria-checked='true'] p",
}


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
@pytest.mark.parametrize("path", ["/", "/train", "/vocab?enc=gpt2&id=43453"])
def test_faint_text_reads_at_four_and_a_half_to_one(open_app, page: Page, path: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(path)
    wait_settled(page)
    worst = {}
    for what, selector in FAINT.items():
        found = page.locator(selector).evaluate_all(
            f"els => els.map(el => [({CONTRAST_JS})(el), el.textContent.trim().slice(0, 40)])"
        )
        if found:
            worst[what] = min(found)
    assert set(worst) >= {"caption", "chosen option"}, worst  # the page has what is measured
    assert all(ratio >= 4.5 for ratio, _ in worst.values()), worst


@pytest.mark.parametrize(
    ("path", "names"),
    [
        ("/merges", ["Line chart: tokens in the whole text after each merge step"]),
        ("/compare?tab=languages", ["Dot plot: Languages", "Dot plot: Code", "Dot plot: Tricky"]),
    ],
    ids=["merges", "languages"],
)
def test_every_chart_is_named_by_what_it_shows(
    open_app, page: Page, path: str, names: list[str]
) -> None:
    open_app(path)
    wait_settled(page)
    charts = page.locator("[data-testid='stVegaLiteChart'][role='graphics-document']")
    expect(charts).to_have_count(len(names))
    found = charts.evaluate_all("els => els.map(e => e.getAttribute('aria-label') || '')")
    assert all(label.startswith(name) for label, name in zip(found, names, strict=True)), found
