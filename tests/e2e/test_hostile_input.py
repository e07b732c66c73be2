"""Hostile text in Chromium, on every page and through every door a user has.

The playground's text box and a compare sample's title are covered by their own pages' tests;
this file adds the other doors: URL parameters, the compare text box, upload names and contents
on Train and on the Languages & code tab, and a vocabulary name. Each test loads one page with
every payload at once (`XSS_TEXT`), then checks that nothing ran, nothing was injected, nothing
restyled the page, and the text is shown literally.
"""

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.harness import commit, go_to, keyed, rerun
from tests.e2e.playground_page import paste, query, shown_text, text_box
from tests.ui.payloads import XSS_PAYLOADS, XSS_TEXT, as_drawn
from ui.common.limits import MAX_CHAT_MESSAGE_CHARS, MAX_TEXT_CHARS

# What our payloads would create or set if any of them were parsed as HTML (shadow roots included:
# Playwright's CSS pierces them).
INJECTED = ", ".join(
    [
        "iframe[src*='example.com']",
        "form[action='/steal']",
        "img[src='x']",
        "svg[onload]",
        "a[href^='javascript:']",
        "[onerror]",
        "[onmouseover]",
        "[onfocus]",
    ]
)
RED = "rgb(255, 0, 0)"
JOINED_TOKENS_JS = """root => Array.from(
    root.querySelectorAll('.tok:not(.bytes), .grp-chars'), e => e.textContent).join('')"""
# Chromium sends a file name's `"` as %22.
SAFE_NAME = "img-src-x-onerror-22window.__p-1k"
# A file name cannot hold "/" : these payloads still open tags, handlers and quotes.
HOSTILE_FILE_NAME = "<img src=x onerror=\"window.__pwned=1\"> <svg onload='window.__pwned=1'>.txt"


def looks(page: Page) -> dict[str, str]:
    """Computed styles a `<style>` payload would change: backgrounds, the title's colour."""
    return page.evaluate(
        """() => ({
            body: getComputedStyle(document.body).backgroundColor,
            app: getComputedStyle(document.querySelector("[data-testid='stApp']")).backgroundColor,
            title: getComputedStyle(document.querySelector('h1, h2, h3')).color,
        })"""
    )


def assert_inert(page: Page, before: dict[str, str], dialogs: list[str]) -> None:
    """Nothing ran, nothing was injected, nothing was restyled (compared with `before`)."""
    page.mouse.move(300, 400)  # give onmouseover a chance
    assert page.evaluate("() => window.__pwned") is None
    assert dialogs == []
    assert page.locator(INJECTED).count() == 0
    assert looks(page) == before
    assert RED not in before.values()


def watch_dialogs(page: Page) -> list[str]:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    return dialogs


def test_url_parameters_on_the_playground(open_app, page: Page) -> None:
    dialogs = watch_dialogs(page)
    before = looks(open_app("/"))
    hostile = XSS_PAYLOADS[1]
    open_app(
        "/?" + urlencode({"text": XSS_TEXT, "enc": hostile, "mode": hostile, "color": hostile})
    )
    expect(text_box(page)).to_have_value(XSS_TEXT)
    assert shown_text(page) == as_drawn(XSS_TEXT)
    assert_inert(page, before, dialogs)


@pytest.mark.parametrize("path", ["/", "/compare", "/merges"])
def test_link_text_escaped_in_another_encoding_is_named_in_a_notice(
    open_app, page: Page, path: str
) -> None:
    """``caf%E9`` (Latin-1's é) and a link cut inside a character: Streamlit reads each as a
    U+FFFD, which the text showed with no word of why. The page now names it, and keeps the
    rest; a real U+FFFD, escaped as UTF-8, is text like any other."""
    open_app(path + "?text=caf%E9+cr%C3%A8me+%E2%82")
    expect(text_box(page)).to_have_value("caf\ufffd crème \ufffd")
    warning = page.locator("[data-testid='stAlertContentWarning']")
    expect(warning).to_contain_text("2 escaped byte sequences in it are not UTF-8")
    open_app(path + "?" + urlencode({"text": "caf\ufffd crème"}))
    expect(text_box(page)).to_have_value("caf\ufffd crème")
    expect(page.get_by_text("Some values in this link could not be used")).to_have_count(0)


def test_url_text_on_the_merges_page(open_app, page: Page) -> None:
    dialogs = watch_dialogs(page)
    before = looks(open_app("/"))
    open_app("/merges?" + urlencode({"text": XSS_TEXT, "chunk": XSS_PAYLOADS[0], "by": "'\""}))
    expect(text_box(page)).to_have_value(XSS_TEXT)
    expect(keyed(page, "merges.chunk")).to_contain_text("script")  # the chunk chips, as text
    assert_inert(page, before, dialogs)


def test_url_query_and_id_on_the_vocabulary_page(open_app, page: Page) -> None:
    dialogs = watch_dialogs(page)
    before = looks(open_app("/"))
    query = " ".join(XSS_PAYLOADS)
    open_app("/vocab?" + urlencode({"q": query, "id": XSS_PAYLOADS[2], "find": XSS_PAYLOADS[4]}))
    expect(keyed(page, "vocab.q").locator("input")).to_have_value(query)
    warning = page.locator("[data-testid='stAlertContentWarning']")
    expect(warning).to_contain_text(XSS_PAYLOADS[2][:23])  # quoted literally (and shortened)
    assert_inert(page, before, dialogs)


def test_compare_text_and_a_sample_uploaded_under_a_hostile_name(open_app, page: Page) -> None:
    dialogs = watch_dialogs(open_app("/"))
    go_to(page, "Compare")
    before = looks(page)
    with rerun(page):  # once the box's debounce has sent the text
        paste(page, XSS_TEXT)
    columns = page.locator(".bpl-text")
    expect(columns).to_have_count(3)
    for index in range(3):
        assert columns.nth(index).evaluate(JOINED_TOKENS_JS) == as_drawn(XSS_TEXT)
    assert_inert(page, before, dialogs)

    with rerun(page):
        page.get_by_role("tab", name="Languages & code").click()
    upload = page.locator("[class*='st-key-compare-lang_new_file_'] input[type=file]")
    with rerun(page):
        upload.set_input_files(
            {"name": HOSTILE_FILE_NAME, "mimeType": "text/plain", "buffer": XSS_TEXT.encode()}
        )
    with rerun(page):
        keyed(page, "compare.lang_add").locator("button").click()
    expect(
        page.get_by_text("<img src=x onerror=").first
    ).to_be_attached()  # the sample list, literally
    assert_inert(page, before, dialogs)


def test_train_upload_name_and_content_and_a_hostile_vocabulary_name(open_app, page: Page) -> None:
    dialogs = watch_dialogs(open_app("/"))
    go_to(page, "Train")
    before = looks(page)
    with rerun(page):
        keyed(page, "train.source").get_by_text("Upload a .txt").click()
    with rerun(page):
        keyed(page, "train.upload").locator("input[type=file]").set_input_files(
            {"name": HOSTILE_FILE_NAME, "mimeType": "text/plain", "buffer": XSS_TEXT.encode()}
        )
    # The name, literally (Streamlit shortens it in the middle).
    expect(keyed(page, "train.upload")).to_contain_text("<img sr...ed=1'>.txt")
    # The suggested vocabulary name is made of the file name's safe characters only.
    expect(keyed(page, "train.name").locator("input")).to_have_attribute("placeholder", SAFE_NAME)
    expect(page.get_by_text("Use letters, digits")).to_have_count(0)
    page.get_by_text("Preview the corpus").click()
    expect(page.locator("[data-testid='stCode'] code").first).to_have_text(XSS_TEXT)
    commit(keyed(page, "train.name").locator("input"), XSS_PAYLOADS[1])
    expect(page.get_by_text("Use letters, digits")).to_be_visible()
    expect(keyed(page, "train.train").locator("button")).to_be_disabled()
    assert_inert(page, before, dialogs)


# Sets a box's text as a paste does (React reads the event, not the keys) and commits nothing.
_PASTE_JS = """(box, text) => {
    const proto = box instanceof HTMLTextAreaElement ? HTMLTextAreaElement : HTMLInputElement;
    Object.getOwnPropertyDescriptor(proto.prototype, "value").set.call(box, text);
    box.dispatchEvent(new Event("input", {bubbles: true}));
}"""

BROKEN = "half \ud83d of an emoji"  # a lone surrogate: a broken copy of "half 👋 of…"
REPAIRED = "half \ufffd of an emoji"


@pytest.mark.parametrize(
    ("path", "box", "commit_key", "param"),
    [
        ("/train?source=paste", ".st-key-train-paste textarea", "ControlOrMeta+Enter", "text"),
        ("/vocab", "[data-testid='stTextInput'] input", "Enter", "q"),
    ],
)
def test_a_lone_surrogate_in_a_streamlit_box_arrives_as_u_fffd(
    open_app, page: Page, path: str, box: str, commit_key: str, param: str
) -> None:
    """Streamlit could not send such text (the connection dropped and the text was lost): the
    box now holds U+FFFD in its place, and the page and its link get that text."""
    socket_errors: list[str] = []
    page.on("console", lambda m: socket_errors.append(m.text) if "WebSocket" in m.text else None)
    open_app(path)
    field = page.locator(box).first
    field.click()
    field.evaluate(_PASTE_JS, BROKEN)
    expect(field).to_have_value(REPAIRED)
    with rerun(page):
        field.press(commit_key)
    assert query(page)[param] == REPAIRED
    assert socket_errors == []


@pytest.mark.parametrize(
    ("path", "key", "limit"),
    [
        ("/train?source=paste", "train.paste", MAX_TEXT_CHARS),
        ("/?mode=chat", "playground.chat.content.1", MAX_CHAT_MESSAGE_CHARS),
    ],
)
def test_a_real_paste_past_a_boxs_limit_keeps_its_start(
    open_app, page: Page, path: str, key: str, limit: int
) -> None:
    """Ctrl+V with the clipboard holding more than the box takes: Streamlit's `max_chars`
    refused it whole, and the box kept its old text with nothing said."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_app(path)
    pasted = "word " * (limit // 5) + "and the end"
    page.evaluate("text => navigator.clipboard.writeText(text)", pasted)
    field = keyed(page, key).locator("textarea")
    field.click()
    field.press("ControlOrMeta+a")
    field.press("ControlOrMeta+v")
    with rerun(page):
        field.press("ControlOrMeta+Enter")
    expect(field).to_have_value(pasted[:limit])
    toast = page.get_by_test_id("stToast").filter(has_text=f"at most {limit:,} characters")
    expect(toast).to_contain_text(f"the first {limit:,} of the {len(pasted):,} given are kept")
