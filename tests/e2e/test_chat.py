"""The Playground's Chat view in headless Chromium: the template's special tokens as single
tokens, counts equal to the core's, editing, copying, hostile content, and the one-screen
layout at a laptop's and a big screen's size in both themes."""

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

import tokenizer as tk
from tests.e2e.harness import goto, keyed, metric, new_page, rerun, screenshot, wait_settled
from tests.e2e.playground_page import assert_on_screen, box
from tests.ui.payloads import XSS_TEXT
from ui.playground.conversation import DEFAULT_CONVERSATION, Message, for_template, to_link

SIZES = [(1280, 720), (1920, 1080)]


def chat_url(enc: str = "cl100k_base", messages: tuple[Message, ...] | None = None) -> str:
    query = {"mode": "chat", "enc": enc}
    if messages is not None:
        query["chat"] = to_link(messages)
    return "/?" + urlencode(query)


def core_total(messages: tuple[Message, ...] | list[Message], enc: str = "cl100k_base") -> str:
    return f"{tk.count_chat(for_template(messages, 'chatml'), 'chatml', enc).total:,}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_special_tokens_counts_and_layout(
    browser: Browser, app_url: str, size: tuple[int, int], scheme: str
) -> None:
    width, height = size
    with new_page(browser, width=width, height=height, color_scheme=scheme) as page:
        goto(page, app_url + chat_url())
        wait_settled(page)
        starts = page.locator('.bpl-text .tok[data-token-id="100264"]')
        expect(starts).to_have_count(len(DEFAULT_CONVERSATION) + 1)  # and the prompt's
        expect(starts.first).to_have_text("<|im_start|>")
        expect(page.locator(".bpl-text .tok").first).to_have_attribute("data-token-id", "100264")
        expect(metric(page, "Tokens")).to_have_text(core_total(DEFAULT_CONVERSATION))

        first_card = keyed(page, "playground-chat-message-0")
        assert_on_screen(page, first_card, "the first message")
        assert_on_screen(page, keyed(page, "playground-chat-add"), "the add buttons")
        assert_on_screen(page, starts.first, "the first token")
        assert_on_screen(page, page.locator(".bpl-ids .tid").first, "the first id")
        assert_on_screen(page, metric(page, "Tokens"), "the total")
        cards, tokens = box(keyed(page, "playground-input")), box(page.locator(".bpl-text"))
        assert cards["x"] + cards["width"] <= tokens["x"]  # side by side
        assert page.evaluate("window.scrollY") == 0
        screenshot(page, f"chat-{width}x{height}-{scheme}", whole=False)


def test_editing_updates_the_tokens_and_the_link(open_app, page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(chat_url())
    with rerun(page):
        keyed(page, "playground.chat.add.assistant").get_by_role("button").click()
    answer = keyed(page, "playground.chat.content.2").locator("textarea")
    answer.fill("A token is a <b>piece</b> of text.")
    with rerun(page):
        answer.press("ControlOrMeta+Enter")
    messages = (*DEFAULT_CONVERSATION, Message("assistant", "A token is a <b>piece</b> of text."))
    expect(metric(page, "Tokens")).to_have_text(core_total(messages))
    with rerun(page):
        keyed(page, "playground.chat.up.2").get_by_role("button").click()
    reordered = (messages[0], messages[2], messages[1])
    expect(metric(page, "Tokens")).to_have_text(core_total(reordered))
    expect(page).to_have_url(re.compile(r"chat="))
    with rerun(page):
        keyed(page, "playground.chat.remove.0").get_by_role("button").click()
    expect(metric(page, "Tokens")).to_have_text(core_total(reordered[1:]))
    expect(keyed(page, "playground.chat.content.2").locator("textarea")).to_have_value(
        "A token is a <b>piece</b> of text."
    )
    goto(page, page.url)  # a fresh session from the link alone
    expect(metric(page, "Tokens")).to_have_text(core_total(reordered[1:]))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_add_buttons_focus_ring_shows_whole(
    browser: Browser, app_url: str, scheme: str
) -> None:
    """The messages scroll in their own box, which cut off the left of "Add system"'s focus
    ring: room for the ring's spread is kept between the button and the box's edge."""
    with new_page(browser, width=1280, height=720, color_scheme=scheme) as page:
        goto(page, app_url + chat_url())
        add = keyed(page, "playground.chat.add.system").get_by_role("button")
        add.focus()
        page.keyboard.press("Shift+Tab")  # focused from the keyboard: the ring shows
        page.keyboard.press("Tab")
        expect(add).to_be_focused()
        room = add.evaluate(
            """button => {
                const ring = parseFloat(getComputedStyle(button).boxShadow.split(" ").at(-1));
                const box = button.closest(".st-key-playground-chat-messages");
                return button.getBoundingClientRect().left - box.getBoundingClientRect().left
                    - ring;
            }"""
        )
        screenshot(page, f"chat-add-focus-{scheme}", whole=False)
        assert room >= 0


def test_moving_or_removing_a_message_from_the_keyboard_keeps_the_focus_there(
    open_app, page: Page
) -> None:
    """After "Move message 2 up" the focus fell to the page's body: the next Tab started over
    at the top (QA round 49)."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(chat_url())
    cards = page.locator("[class*='st-key-playground-chat-message-'] textarea")

    def press(key: str, then: str) -> None:
        """Press Enter on the button keyed `key`; the button keyed `then` has the focus after."""
        keyed(page, f"playground.chat.{key}").get_by_role("button").focus()
        with rerun(page):
            page.keyboard.press("Enter")
        expect(keyed(page, f"playground.chat.{then}").get_by_role("button")).to_be_focused()

    first, second = (m.content for m in DEFAULT_CONVERSATION)
    press("up.1", then="down.1")  # at the top now, where its "up" is disabled
    expect(cards.first).to_have_value(second)
    press("down.1", then="up.1")
    expect(cards.first).to_have_value(first)
    press("remove.1", then="remove.0")  # the last one gone: the one before it
    expect(cards).to_have_count(1)
    press("remove.0", then="add.system")  # none left: the first add button
    expect(cards).to_have_count(0)
    page.keyboard.press("Enter")  # and the keyboard goes on from there
    expect(cards).to_have_count(1)


def test_a_message_added_from_the_keyboard_takes_what_is_typed_next(open_app, page: Page) -> None:
    """Focus stayed on "+ user": the text typed next went nowhere, and each space in it added
    another message (three empty ones for "Say <|im_end|> please"; QA round 18)."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(chat_url())
    add = keyed(page, "playground.chat.add.user").get_by_role("button")
    add.focus()
    with rerun(page):
        page.keyboard.press("Enter")
    added = keyed(page, "playground.chat.content.2").locator("textarea")
    expect(added).to_be_focused()
    page.keyboard.type("Say hi please")
    expect(added).to_have_value("Say hi please")
    with rerun(page):
        page.keyboard.press("ControlOrMeta+Enter")
    expect(page.locator("[class*='st-key-playground-chat-message-']")).to_have_count(3)
    messages = (*DEFAULT_CONVERSATION, Message("user", "Say hi please"))
    expect(metric(page, "Tokens")).to_have_text(core_total(messages))


def test_move_and_remove_buttons_say_what_they_do(open_app, page: Page) -> None:
    """Icon buttons named for a screen reader by what they do ("Move message 2 up"), not by
    their icon's name ("arrow_upward"), and still drawn as icons alone."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(chat_url())
    card = keyed(page, "playground-chat-message-1")
    for name in ("Move message 2 up", "Move message 2 down", "Remove message 2"):
        button = card.get_by_role("button", name=name, exact=True)
        expect(button).to_be_visible()
        # The page's style (which may arrive a moment after the buttons) takes the label out of
        # the flow: the icon alone is drawn.
        expect(button.locator("p")).to_have_css("position", "absolute")
        assert box(button)["width"] <= 40, name
    with rerun(page):
        card.get_by_role("button", name="Remove message 2", exact=True).click()
    expect(keyed(page, "playground-chat-message-1")).to_have_count(0)


def test_copy_gives_the_rendered_text(open_app, page: Page) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_app(chat_url())
    page.get_by_role("button", name="Copy rendered text").click()
    expect(page.get_by_role("button", name="Copied ✓")).to_be_visible()
    chat = for_template(DEFAULT_CONVERSATION, "chatml")
    assert page.evaluate("navigator.clipboard.readText()") == tk.render_chat(chat, "chatml")


@pytest.mark.parametrize("color_scheme", ["dark"], indirect=True)
def test_hostile_content_runs_nothing(open_app, page: Page) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.set_viewport_size({"width": 1280, "height": 720})
    messages = (Message("system", XSS_TEXT), Message("user", "<|im_end|>" + XSS_TEXT))
    open_app(chat_url(messages=messages))
    expect(metric(page, "Tokens")).to_have_text(core_total(messages))
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.locator(".bpl-text .tok").nth(5).hover()
    assert page.evaluate("window.__pwned") is None
    assert dialogs == []
    assert page.locator(".bpl :is(img, svg, iframe, form, input, a, b)").count() == 0
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == background
    screenshot(page, "chat-hostile-dark", whole=False)


def test_an_encoding_without_the_tokens_says_what_to_do(open_app, page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_app(chat_url("gpt2"))
    alert = page.locator("[data-testid='stAlert']")
    expect(alert).to_contain_text("gpt2 has no ids for the chatml template's special tokens")
    expect(alert).to_contain_text("Next: pick cl100k_base or o200k_base in the sidebar")
    expect(page.locator("[data-testid='stCode']")).to_contain_text("<|im_start|>system")
    screenshot(page, "chat-gpt2-light", whole=False)


def test_an_edit_survives_leaving_the_view_at_once(open_app, page: Page) -> None:
    open_app(chat_url())
    content = keyed(page, "playground.chat.content.1").locator("textarea")
    content.fill("Typed, then straight to another mode.")
    page.get_by_role("radio", name="Text → tokens").click()  # the box's blur sends it on the way
    expect(page.locator("textarea.lt-area")).to_be_visible()
    with rerun(page):
        page.get_by_role("radio", name="Chat").click()
    expect(content).to_have_value("Typed, then straight to another mode.")
