"""Going to another page and back, in one session, finds each page as it was left.

Streamlit drops a widget's value once a run does not draw it, so every setting used to come
back at its default after a visit elsewhere; `Param.seed` now hands the value back.
"""

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.harness import commit, go_to, keyed, rerun, wait_settled
from tests.e2e.playground_page import query

CORPUS = "a corpus typed by hand, word by word, " * 20

LEFT = [
    ("Playground", "/?ws=1&color=id&special=1&chunks=1"),
    ("Merges", "/merges?pieces=hex&by=text&step=3"),
    ("Compare", "/compare?encs=gpt2,llama3&ws=1"),
    ("Compare", "/compare?tab=languages&metric=tokens"),
    ("Vocabulary", "/vocab?find=regex&q=ing%24&ic=1"),
    ("Train", "/train?" + urlencode({"source": "paste", "text": CORPUS, "size": "300"})),
]


@pytest.mark.parametrize(("title", "path"), LEFT, ids=[path.split("&")[0] for _, path in LEFT])
def test_a_page_left_and_come_back_to_keeps_its_link(
    open_app, page: Page, title: str, path: str
) -> None:
    open_app(path)
    wait_settled(page)
    left = query(page)
    assert len(left) >= 2, left  # the link's settings are the page's: the test has teeth
    go_to(page, "Vocabulary" if title != "Vocabulary" else "Merges")
    wait_settled(page)
    go_to(page, title)
    wait_settled(page)
    assert query(page) == left


def test_settings_changed_on_the_page_survive_a_visit_elsewhere(open_app, page: Page) -> None:
    """The steps of a user: type a corpus and a name, look at Compare, come back to Train."""
    open_app("/train")
    with rerun(page):
        keyed(page, "train.source").get_by_text("Type or paste").click()
    commit(keyed(page, "train.paste").locator("textarea"), CORPUS, "ControlOrMeta+Enter")
    commit(keyed(page, "train.vocab").locator("input"), "300")
    commit(keyed(page, "train.name").locator("input"), "mine")
    go_to(page, "Compare")
    go_to(page, "Train")
    wait_settled(page)
    expect(keyed(page, "train.paste").locator("textarea")).to_have_value(CORPUS)
    expect(keyed(page, "train.vocab").locator("input")).to_have_value("300")
    expect(keyed(page, "train.name").locator("input")).to_have_value("mine")
    assert query(page)["name"] == "mine"


def test_the_focused_page_link_shows_a_ring_even_on_the_current_page(open_app, page: Page) -> None:
    """Tabbing onto the current page's link used to change nothing: its background already
    marks the page, and Streamlit shows focus with that same background."""
    open_app("/")
    wait_settled(page)
    links = page.locator("[data-testid='stSidebarNavLink']")
    links.nth(1).focus()
    page.keyboard.press("Shift+Tab")  # by the keyboard, so the focus is :focus-visible
    current = links.nth(0)
    expect(current).to_be_focused()
    assert current.evaluate("link => getComputedStyle(link).outlineStyle") == "solid"
