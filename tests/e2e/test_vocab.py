"""The Vocabulary page in Chromium: search, open a merge tree, and arrive by links."""

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.e2e.harness import rerun, screenshot, wait_idle
from tests.e2e.playground_page import query

# st.dataframe draws on a canvas: rows are found by position. Streamlit's default row height.
ROW_PX = 35
# The token card and merge tree sit below the table: a tall window shows the whole page, since
# Streamlit scrolls its own container and full-page screenshots only see the window.
TALL = {"width": 1400, "height": 2000}
INDEXING_MS = 60_000


def open_vocab(open_app: Callable[[str], Page], path: str) -> Page:
    """Open a /vocab link, in a tall window, once the server has run app.py.

    A fresh server runs the page of its very first request without app.py (Streamlit's `pages/`
    folder detection, before `st.navigation` has ever run): no sidebar picker, no wide layout.
    Reported to the lead; opening "/" first keeps these tests about this page.
    """
    open_app("/").set_viewport_size(TALL)
    return open_app(path)


def click_row(page: Page, row: int) -> None:
    """Tick the selection box of `row` (0-based) in the page's only table."""
    grid = page.locator("[data-testid='stDataFrame']")
    expect(grid).to_be_visible()
    box = grid.bounding_box()
    assert box is not None
    with rerun(page):
        page.mouse.click(box["x"] + 16, box["y"] + ROW_PX * (row + 1) + ROW_PX / 2)


def tree_node(page: Page, token_id: int):
    return page.locator(f".vocab .vt-box[data-token-id='{token_id}']")


def test_search_magikarp_and_open_its_merge_tree(open_app: Callable[[str], Page]) -> None:
    page = open_vocab(open_app, "/vocab?enc=gpt2")
    page.get_by_label("Text in the token", exact=True).fill("Magikarp")
    expect(page.get_by_text("3 tokens contain")).to_be_visible()
    wait_idle(page)
    click_row(page, 2)  # exact "Magikarp", "GoldMagikarp", then " SolidGoldMagikarp"
    expect(page.get_by_role("heading", name="Token 43453")).to_be_visible()
    # The tree: the token on top, its parents " Solid" + "GoldMagikarp", down to single bytes.
    expect(tree_node(page, 43453)).to_have_count(1)
    expect(tree_node(page, 42202)).to_have_count(1)
    leaves = page.locator(".vocab .vt-node:not(:has(.vt-kids)) > .vt-box")
    expect(leaves).to_have_count(len(" SolidGoldMagikarp"))
    assert query(page)["id"] == "43453"
    screenshot(page, "vocab-magikarp")
    # A parent's pill opens that token.
    with rerun(page):
        page.get_by_role("button", name="GoldMagikarp #42202").click()
    expect(page.get_by_role("heading", name="Token 42202")).to_be_visible()
    assert query(page)["id"] == "42202"


def test_a_row_is_selected_from_the_keyboard_as_the_hint_says(
    open_app: Callable[[str], Page],
) -> None:
    """The hint under the table names the keys (`SELECT_A_ROW`); they work, on Streamlit's table."""
    page = open_vocab(open_app, "/vocab?enc=gpt2&q=Magikarp")
    expect(page.get_by_text("Shift+Space")).to_be_visible()
    grid = page.locator("[data-testid='stDataFrame']")
    box = grid.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 120, box["y"] + ROW_PX * 1.5)  # a cell of the first row
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    with rerun(page):
        page.keyboard.press("Shift+Space")
    expect(page.get_by_role("heading", name="Token 43453")).to_be_visible()
    assert query(page)["id"] == "43453"


def test_a_permalink_opens_a_token_and_curiosities_are_listed(
    open_app: Callable[[str], Page],
) -> None:
    page = open_vocab(open_app, "/vocab?enc=o200k_base&find=curious&list=longest&id=200000")
    expect(page.get_by_text("o200k_base does not have this token")).to_be_visible()  # unused id
    page = open_app("/vocab?enc=o200k_base&find=curious&list=not_utf8&id=9707")
    expect(page.get_by_role("heading", name="Token 9707")).to_be_visible(timeout=INDEXING_MS)
    expect(page.get_by_text("tokens are not valid UTF-8 on their own")).to_be_visible()
    screenshot(page, "vocab-o200k-curiosities")


# For each box of the tree that spans the tree's whole window, how much of its label and of its
# ids lie in view and out of the fades (px), and the fades (left, right).
_WIDE_LABELS_JS = """tree => {
    const view = tree.getBoundingClientRect(), style = getComputedStyle(tree);
    const fades = ['--vt-more-left', '--vt-more-right']
        .map(name => parseFloat(style.getPropertyValue(name)));
    const left = view.left + fades[0], right = view.right - fades[1];
    const seen = e => { const r = e.getBoundingClientRect();
        return Math.min(r.width, Math.min(r.right, right) - Math.max(r.left, left)); };
    const boxes = [...tree.querySelectorAll('.vt-box')].filter(b => {
        const r = b.getBoundingClientRect();
        return r.left <= view.left + 2 && r.right >= view.right - 2;
    });
    return {fades, seen: boxes.map(b => [b.querySelector('.vt-text'), b.querySelector('.vt-meta')]
        .map(seen).map(Math.round))};
}"""


def test_a_tree_wider_than_the_window_keeps_its_labels_in_view(
    open_app: Callable[[str], Page],
) -> None:
    """GPT-2's longest token, 128 bytes, is a tree of about 4,900 px: at 1024x768 its top boxes
    centred their labels off screen and read as empty bands, and the edge cut a box with no cue.
    The edge with more beyond it fades; each label stays in view, clear of the fades."""
    open_app("/").set_viewport_size({"width": 1024, "height": 768})
    page = open_app("/vocab?enc=gpt2&id=35496")
    expect(page.get_by_role("heading", name="Token 35496")).to_be_visible()
    card = page.locator(".vocab")
    assert card.evaluate("e => e.scrollWidth <= e.clientWidth")  # the tree scrolls, not the card
    tree = card.locator(".vt-scroll")
    tree.scroll_into_view_if_needed()
    for scroll_left, fades in (
        ("0", "right"),
        ("e.scrollWidth / 2", "both"),
        ("e.scrollWidth", "left"),
    ):
        tree.evaluate(f"e => {{ e.scrollLeft = {scroll_left}; }}")
        page.wait_for_timeout(100)  # the scroll timeline moves with the next frame
        found = tree.evaluate(_WIDE_LABELS_JS)
        full = {"right": [0, 40], "both": [40, 40], "left": [40, 0]}[fades]
        assert found["fades"] == full, (scroll_left, found)
        assert len(found["seen"]) >= 3, found  # a 128-, a 64- and a 32-byte token at least
        assert all(min(label, ids) >= 40 for label, ids in found["seen"]), (scroll_left, found)
    screenshot(page, "vocab-wide-tree-end", whole=False)
