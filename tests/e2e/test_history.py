"""The browser's Back and Forward buttons walk through the views a session showed.

Every change a page makes to its link is an entry in the browser's history. Streamlit reruns the
app with the entry's link on Back and Forward; before `state.follow_history`, each page showed
its current state again and wrote it over the entry's link, so Back seemed to do nothing.
"""

import json
import re
from collections.abc import Callable
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.harness import (
    HISTORY_SCRIPT_IN,
    choose_option,
    commit,
    go_to,
    keyed,
    rerun,
    wait_idle,
    wait_settled,
)
from tests.e2e.playground_page import clear_and_type, paste, query, text_box, wait_for_ids
from tests.e2e.test_merges import button
from tests.e2e.test_train_page import train_through_the_ui
from tests.e2e.test_vocab import open_vocab

HELLO = [31373, 995]  # "hello world" in GPT-2
OTHER = [29214, 2420]  # "another text"
HELLO_CL100K = [15339, 1917]


def back(page: Page) -> None:
    """Press the browser's Back button; return once the run it starts has ended."""
    with rerun(page):
        page.go_back()
    wait_settled(page)


def colour(page: Page, name: str) -> Locator:
    """The Playground's colouring choice `name`."""
    return keyed(page, "playground.color").get_by_role("radio", name=name)


def forward(page: Page) -> None:
    with rerun(page):
        page.go_forward()
    wait_settled(page)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["1280x720", "1920x1080"])
def test_back_and_forward_walk_the_playgrounds_views(
    open_app: Callable[[str], Page], page: Page, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_app("/?text=hello+world")
    wait_for_ids(page, HELLO)
    with rerun(page):
        keyed(page, "playground.color").get_by_text("Colour by id").click()
    clear_and_type(page, "another text")  # a run, and a new link, every few letters
    wait_for_ids(page, OTHER)
    assert query(page) == {"text": "another text", "color": "id"}

    back(page)  # the typing was one change: Back goes to the view before it
    wait_for_ids(page, HELLO)
    expect(text_box(page)).to_have_value("hello world")
    assert query(page) == {"text": "hello world", "color": "id"}
    back(page)
    assert query(page) == {"text": "hello world"}
    expect(colour(page, "Colour by position")).to_be_checked()

    forward(page)
    expect(colour(page, "Colour by id")).to_be_checked()
    forward(page)
    wait_for_ids(page, OTHER)
    expect(text_box(page)).to_have_value("another text")
    assert query(page) == {"text": "another text", "color": "id"}
    expect(colour(page, "Colour by id")).to_be_checked()


def test_typing_is_an_entry_of_its_own_and_typing_again_is_another(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """The view a page opened with stays an entry (typing once replaced it, and Back left the
    app); typing after Back is a new change, not a rewrite of the entry Back went to."""
    open_app("/?text=hello+world")
    wait_for_ids(page, HELLO)
    clear_and_type(page, "another text")
    wait_for_ids(page, OTHER)
    back(page)
    wait_for_ids(page, HELLO)
    assert query(page) == {"text": "hello world"}
    text_box(page).press("End")
    page.keyboard.type("!", delay=15)
    wait_for_ids(page, [*HELLO, 0])
    back(page)
    wait_for_ids(page, HELLO)
    assert query(page) == {"text": "hello world"}


def test_back_keeps_a_text_too_long_for_the_link(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """A link leaves out a text too long for it: going Back to such a link keeps the text."""
    long_text = "word " * 1_000
    open_app("/")
    paste(page, long_text)
    expect(page.get_by_text("too long for a link")).to_be_visible()
    wait_idle(page)  # the paste's run has ended: the next run to end is the toggle's
    with rerun(page):
        keyed(page, "playground.ws").locator("label").first.click()
    assert query(page) == {"ws": "1"}
    back(page)
    assert "ws" not in query(page)
    expect(text_box(page)).to_have_value(long_text)


def test_back_steps_the_merges_player_back(open_app: Callable[[str], Page], page: Page) -> None:
    open_app("/merges?step=3")
    wait_settled(page)
    with rerun(page):
        button(page, "Next").click()
    assert query(page)["step"] == "4"
    back(page)
    assert query(page)["step"] == "3"
    expect(page.get_by_test_id("stMain").get_by_text("Step 3", exact=False).first).to_be_visible()
    forward(page)
    assert query(page)["step"] == "4"


def test_a_play_is_one_entry_and_back_returns_to_where_it_started(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """Each step the timer played was an entry: after a demo, Back walked through every one of
    them (QA round 15). A press of Next after it is an entry of its own, as ever."""
    open_app("/merges?by=text&step=2&speed=4")
    wait_settled(page)
    entries = page.evaluate("() => history.length")
    with rerun(page):
        button(page, "Play").click()
    page.wait_for_function("() => Number(new URLSearchParams(location.search).get('step')) >= 6")
    with rerun(page):
        button(page, "Pause").click()
    wait_settled(page)
    played = int(query(page)["step"])
    assert page.evaluate("() => history.length") == entries + 1
    with rerun(page):
        button(page, "Next").click()
    assert query(page)["step"] == str(played + 1)
    back(page)
    assert query(page)["step"] == str(played)
    back(page)
    assert query(page)["step"] == "2"
    expect(
        page.get_by_test_id("stMain").get_by_text("Step 2 of 18", exact=False).first
    ).to_be_visible()


def test_a_step_the_timer_took_before_pause_belongs_to_the_play(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """A press of Pause while a tick's run was under way: its step came after the press, and made
    an entry of its own (the play test above failed so, one run in three). Here the late step
    is written right after the press, as Streamlit writes it, with no tick in between."""
    open_app("/merges?by=text&step=2&speed=4")
    wait_settled(page)
    with rerun(page):
        button(page, "Play").click()
    page.wait_for_function("() => Number(new URLSearchParams(location.search).get('step')) >= 4")
    entries, late = page.evaluate(
        """pause => {
          const entries = history.length;
          pause.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true, button: 0 }));
          const url = new URL(location.href);
          url.searchParams.set("step", Number(url.searchParams.get("step")) + 1);
          history.pushState(history.state, "", url.href);
          return [entries, history.length];
        }""",
        button(page, "Pause").element_handle(),
    )
    assert late == entries


def test_back_after_an_encoding_change_on_merges_shows_the_chunk_and_step_again(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """The run Back started took the link's chunk and step for the encoding picked after them,
    reset both, and rewrote the entry without them."""
    open_app("/merges?chunk=3&step=2")
    wait_settled(page)
    choose_option(page, keyed(page, "common.enc"), re.compile("^cl100k_base"))
    wait_settled(page)
    assert query(page) == {"chunk": "3", "enc": "cl100k_base"}  # the same chunk: " created"
    back(page)
    assert query(page) == {"chunk": "3", "step": "2"}
    expect(
        page.get_by_test_id("stMain").get_by_text("Step 2 of 18", exact=False).first
    ).to_be_visible()


def test_back_returns_to_the_page_left_as_it_was(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """A page switch is one entry, though Streamlit first pushes the new page's bare address
    (its link comes with the new page's first run)."""
    linked = {"enc": "cl100k_base", "text": "hello world", "color": "id"}
    open_app("/?" + urlencode(linked))
    wait_for_ids(page, HELLO_CL100K)
    go_to(page, "Merges")
    assert query(page) == {"enc": "cl100k_base"}
    back(page)
    assert query(page) == linked
    expect(colour(page, "Colour by id")).to_be_checked()
    wait_for_ids(page, HELLO_CL100K)


def test_a_new_pages_link_sent_before_its_address_makes_no_entry(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """Streamlit may send the next page's link before the page's address. Pushed on the old
    address, it made an entry of the page left without its settings: in one CI run, Back from
    Merges showed the Playground without its text. The two pushes are made here in that order,
    after a press on the page link, as Streamlit made them."""
    linked = {"enc": "cl100k_base", "text": "hello world", "color": "id"}
    open_app("/?" + urlencode(linked))
    wait_for_ids(page, HELLO_CL100K)
    entries = page.evaluate("() => history.length")
    nav = page.locator("[data-testid='stSidebarNav']")
    nav.get_by_role("link", name="Merges").dispatch_event("pointerdown", {"button": 0})
    page.evaluate("() => history.pushState({}, '', '/?enc=cl100k_base')")
    assert query(page) == linked
    page.evaluate("() => history.pushState({}, '', '/merges?enc=cl100k_base')")
    assert page.evaluate("() => history.length") == entries + 1


def test_a_page_passed_through_quickly_is_one_entry_as_it_was(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """Compare, then Merges, clicked before Compare's pushes came: Compare's entry also got
    the link Merges' first run wrote, the Playground's text, and Back showed Compare with a
    text it never had (QA round 14). The pushes are made here in the order Streamlit made them."""
    open_app("/?" + urlencode({"enc": "cl100k_base", "text": "hello world"}))
    wait_for_ids(page, HELLO_CL100K)
    entries = page.evaluate("() => history.length")
    nav = page.locator("[data-testid='stSidebarNav']")
    for name in ["Compare", "Merges"]:
        nav.get_by_role("link", name=name).dispatch_event("pointerdown", {"button": 0})
    for url in ["/compare", "/compare?enc=cl100k_base", "/compare?enc=cl100k_base&text=hello+world",
                "/merges?enc=cl100k_base&text=hello+world"]:  # fmt: skip
        page.evaluate("url => history.pushState({}, '', url)", url)
    assert page.evaluate("() => history.length") == entries + 2  # Compare as it was, Merges


def test_back_reopens_the_token_and_the_search_of_the_entry(
    open_app: Callable[[str], Page],
) -> None:
    page = open_vocab(open_app, "/vocab?id=43453")  # gpt2, the default
    expect(page.get_by_role("heading", name="Token 43453")).to_be_visible()
    with rerun(page):
        page.get_by_role("button", name="GoldMagikarp #42202").click()
    expect(page.get_by_role("heading", name="Token 42202")).to_be_visible()
    commit(keyed(page, "vocab.q").locator("input"), "Magikarp")
    assert query(page)["q"] == "Magikarp"

    back(page)
    assert query(page) == {"id": "42202"}  # one Back undoes the search
    expect(keyed(page, "vocab.q").locator("input")).to_have_value("")
    back(page)
    assert query(page) == {"id": "43453"}
    expect(page.get_by_role("heading", name="Token 43453")).to_be_visible()


def test_back_undoes_a_setting_on_compare_and_train(
    open_app: Callable[[str], Page], page: Page
) -> None:
    open_app("/compare?encs=gpt2,llama3")
    wait_settled(page)
    with rerun(page):
        keyed(page, "compare.ws").locator("label").first.click()
    assert query(page)["ws"] == "1"
    back(page)
    assert "ws" not in query(page)
    expect(keyed(page, "compare.ws").locator("input")).not_to_be_checked()

    open_app("/train?size=300")
    wait_settled(page)
    commit(keyed(page, "train.vocab").locator("input"), "400")
    assert query(page)["size"] == "400"
    back(page)
    assert query(page)["size"] == "300"
    expect(keyed(page, "train.vocab").locator("input")).to_have_value("300")


def test_the_first_change_on_a_page_opened_with_defaults_is_an_entry_of_its_own(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """A page switch whose first run writes no link (everything at its defaults) stays an
    entry: the user's first change there is a new entry, and Back comes back to the defaults."""
    open_app("/")
    go_to(page, "Merges")
    wait_settled(page)
    assert query(page) == {}
    with rerun(page):
        button(page, "First").click()  # the page opens at the last step
    assert query(page) == {"step": "0"}
    back(page)
    assert page.url.endswith("/merges")
    expect(page.get_by_role("heading", name="Merges", exact=True)).to_be_visible()


def test_back_shows_the_vocabulary_shown_before_on_train(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """Picking another vocabulary is a view of its own, not a typed text (whose entry is
    replaced as it changes): Back goes through the vocabularies picked, one by one."""
    open_app("/train")
    train_through_the_ui(page, "first-1k")
    commit(keyed(page, "train.vocab").locator("input"), "500")
    commit(keyed(page, "train.name").locator("input"), "second")
    keyed(page, "train.train").locator("button").click()
    expect(page.get_by_text("Trained second on your text")).to_be_visible(timeout=60_000)
    wait_settled(page)
    assert "show" not in query(page)  # the latest is the default
    picker = keyed(page, "train.selected").get_by_role("combobox")
    choose_option(page, picker, "first-1k")
    assert query(page)["show"] == "first-1k"
    choose_option(page, picker, "second")
    assert "show" not in query(page)
    back(page)
    assert query(page)["show"] == "first-1k"
    expect(picker).to_have_value("first-1k")
    back(page)
    assert "show" not in query(page)
    expect(picker).to_have_value("second")


def test_back_walks_through_a_conversations_edits(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """Removing a message is a change of its own (the conversation is also typed into), and
    Back after it shows the entry's messages, not the widgets' leftovers."""
    start = [["system", "S1"], ["user", "Q"], ["assistant", "Four."]]
    open_app("/?" + urlencode({"mode": "chat", "enc": "o200k_base", "chat": json.dumps(start)}))
    wait_settled(page)
    with rerun(page):
        page.get_by_role("button", name="Remove message 1").click()
    assert json.loads(query(page)["chat"]) == start[1:]
    choose_option(page, keyed(page, "playground.chat.template").get_by_role("combobox"), "harmony")
    assert query(page)["template"] == "harmony"

    back(page)
    assert json.loads(query(page)["chat"]) == start[1:]
    assert "template" not in query(page)
    contents = page.locator("[class*='st-key-playground-chat-content-'] textarea")
    expect(contents).to_have_count(2)
    expect(contents.nth(0)).to_have_value("Q")
    expect(contents.nth(1)).to_have_value("Four.")
    back(page)
    assert json.loads(query(page)["chat"]) == start
    expect(contents).to_have_count(3)


def test_the_pinned_tokens_vocabulary_link_is_one_entry_and_back_returns(
    open_app: Callable[[str], Page], page: Page
) -> None:
    """The pin's "Open in Vocabulary" link switches page from Python (`st.switch_page`), not
    through the sidebar: a press on it also names the page left for, so the new page's link,
    were it sent before its address, makes no entry of the Playground. Back returns to the
    Playground with its text and its pin."""
    linked = {"enc": "cl100k_base", "text": "hello world"}
    open_app("/?" + urlencode(linked))
    wait_for_ids(page, HELLO_CL100K)
    with rerun(page):
        page.locator(".bpl-text .tok").nth(1).click()
    link = page.locator(".bpl-pin-actions").get_by_role("link", name="Open #1917 in Vocabulary")
    entries = page.evaluate("() => history.length")
    link.dispatch_event("pointerdown", {"button": 0})
    page.evaluate("() => history.pushState({}, '', '/?enc=cl100k_base&id=1917')")
    assert query(page) == linked
    page.evaluate("() => history.pushState({}, '', '/vocab?enc=cl100k_base&id=1917')")
    assert page.evaluate("() => history.length") == entries + 1
    # And for real: the link, the page, Back.
    open_app("/?" + urlencode(linked))
    wait_for_ids(page, HELLO_CL100K)
    with rerun(page):
        page.locator(".bpl-text .tok").nth(1).click()
    link.click()
    expect(page.get_by_role("heading", name="Token 1917")).to_be_visible(timeout=60_000)
    wait_idle(page)
    back(page)
    assert query(page) == linked
    wait_for_ids(page, HELLO_CL100K)
    expect(page.locator(".bpl-pin")).to_contain_text("1917")


@pytest.mark.parametrize("link", ["/?enc=gpt2", "/?text=abc&mode=encode", "/merges?speed=1"])
def test_a_link_that_spells_out_a_default_is_one_entry(
    open_app: Callable[[str], Page], page: Page, link: str
) -> None:
    """A hand-written class link with a default in it (`enc=gpt2`): the first run took the
    default out of the address as a new entry, before the history script was there to fold it
    in, and Back went to the link itself, where the run took it out again: two presses of Back
    to leave. The link is left as written now."""
    open_app("/merges?" + urlencode({"text": "hello world", "step": "3"}))
    left = page.url
    entries = page.evaluate("() => history.length")
    open_app(link)
    wait_settled(page)
    assert page.url.endswith(link)
    assert page.evaluate("() => history.length") == entries + 1
    page.go_back()  # to another document (both were loaded), so no run of this one to await
    page.wait_for_url(left)
    page.wait_for_function(HISTORY_SCRIPT_IN)  # the Merges page running again, link unchanged
    expect(
        page.get_by_test_id("stMain").get_by_text("Step 3 of", exact=False).first
    ).to_be_visible()
    assert page.url == left
