"""The playground in headless Chromium: live typing, exact ids, hover, decode, links, safety."""

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.harness import (
    CONTRAST_JS,
    choose_option,
    go_to,
    goto,
    keyed,
    metric,
    new_page,
    rerun,
    screenshot,
    wait_idle,
)
from tests.e2e.playground_page import (
    clear_and_type,
    paste,
    query,
    rendered_ids,
    shown_text,
    text_box,
    wait_for_ids,
)
from tests.oracles import oracle_ids
from tests.ui.payloads import XSS_TEXT, as_drawn
from ui.common.examples import EXAMPLES

HIGHLIGHTED = re.compile(r"\bhl\b")


def test_typed_text_shows_tiktokens_ids_live(open_app) -> None:
    page = open_app("/")
    text = "Hello world! 1234567 tokens\n    and naïve café, 你好 👋"
    clear_and_type(page, text)
    wait_for_ids(page, oracle_ids("gpt2", text))
    expect(metric(page, "Tokens")).to_have_text(str(len(oracle_ids("gpt2", text))))
    assert shown_text(page) == text


def test_typing_across_reruns_keeps_every_key_and_the_caret(open_app) -> None:
    page = open_app("/")
    clear_and_type(page, "world")
    wait_for_ids(page, oracle_ids("gpt2", "world"))
    page.keyboard.press("Home")
    # Slower than the debounce, so reruns land between keystrokes.
    page.keyboard.type("hello ", delay=260)
    wait_for_ids(page, oracle_ids("gpt2", "hello world"))
    page.keyboard.type("big ")
    wait_for_ids(page, oracle_ids("gpt2", "hello big world"))
    expect(text_box(page)).to_have_value("hello big world")


def test_an_example_replaces_the_text_and_typing_continues(open_app, page: Page) -> None:
    open_app("/")
    choose_option(page, page.get_by_role("combobox", name="Examples"), "Numbers")
    expect(text_box(page)).to_have_value(EXAMPLES["Numbers"])
    wait_for_ids(page, oracle_ids("gpt2", EXAMPLES["Numbers"]))
    text_box(page).press("ControlOrMeta+End")
    page.keyboard.type(" 42")
    wait_for_ids(page, oracle_ids("gpt2", EXAMPLES["Numbers"] + " 42"))


def test_emptying_the_box_again_after_an_example_empties_the_page(open_app, page: Page) -> None:
    """The box's last text before the example was "": sending "" again would be no change to
    Streamlit, so each send carries a stamp of its own (ui/components/live_textarea.js)."""
    open_app("/")
    clear_and_type(page, "")
    expect(metric(page, "Characters")).to_have_text("0")
    choose_option(page, page.get_by_role("combobox", name="Examples"), "Numbers")
    wait_for_ids(page, oracle_ids("gpt2", EXAMPLES["Numbers"]))
    clear_and_type(page, "")
    expect(metric(page, "Characters")).to_have_text("0")
    expect(page.locator(".bpl-text .tok")).to_have_count(0)


def test_a_links_carriage_returns_stay_until_the_text_is_edited(open_app) -> None:
    """A browser's box holds no CR, and the box counted its text shorter than the server's: it
    sent its own, without the CRs, on its own, and the link's CR LF example was gone at once.
    Now they stay, the page says an edit will turn them into line feeds, and an edit does."""
    page = open_app("/?text=line%20one%0D%0Aline%20two")
    expect(page.get_by_text("holds 1 carriage return")).to_be_visible()
    wait_for_ids(page, oracle_ids("gpt2", "line one\r\nline two"))
    page.wait_for_timeout(1_500)  # past the box's recheck (RECHECK_MS) after the run
    wait_idle(page)
    expect(metric(page, "Characters")).to_have_text("18")  # the CR counted
    assert "%0D%0A" in page.url
    area = text_box(page).first
    area.press("End")
    area.type("!")
    wait_for_ids(page, oracle_ids("gpt2", "line one\nline two!"))


def test_hovering_links_tokens_and_ids_both_ways(open_app) -> None:
    page = open_app("/?text=hello%20world%20again")
    tokens, ids = page.locator(".bpl-text .tok"), page.locator(".bpl-ids .tid")
    tokens.nth(1).hover()
    expect(ids.nth(1)).to_have_class(HIGHLIGHTED)
    expect(page.locator(".bpl-inspect")).to_contain_text("id 995 · merge rank 739")
    ids.nth(2).hover()
    expect(tokens.nth(2)).to_have_class(HIGHLIGHTED)
    expect(tokens.nth(1)).not_to_have_class(HIGHLIGHTED)
    expect(page.locator(".bpl-inspect")).to_contain_text(f"id {rendered_ids(page)[2]} ")


def test_a_token_that_is_only_an_accent_is_a_chip_one_can_see(open_app, page: Page) -> None:
    """cl100k_base cuts the accent of a decomposed "café" off its "e". The browser drew it on
    the token before, and the accent's own chip was 0 px wide."""
    text = "cafe\u0301 naive"
    open_app("/?" + urlencode({"enc": "cl100k_base", "text": text}))
    ids = oracle_ids("cl100k_base", text)
    wait_for_ids(page, ids)
    accent = page.locator(f".bpl-text .tok[data-token-id='{ids[2]}']")
    expect(accent).to_have_text("\u25cc\u0301")  # on a dotted circle
    box = accent.bounding_box()
    assert box is not None and box["width"] >= 8


def test_the_box_takes_the_direction_of_the_text_typed(open_app, page: Page) -> None:
    """Arabic was laid out left to right, left-aligned, with "(USD 66)!" at the wrong end."""
    open_app("/?" + urlencode({"text": "السعر 250 ريال (USD 66)!"}))
    area = text_box(page).first
    expect(area).to_have_value("السعر 250 ريال (USD 66)!")
    assert area.evaluate("a => a.matches(':dir(rtl)')")
    clear_and_type(page, "hello مرحبا")  # a Latin first letter: left to right
    assert area.evaluate("a => a.matches(':dir(ltr)')")


def test_decode_mode_decodes_ids_and_names_bad_ones(open_app) -> None:
    page = open_app("/")
    with rerun(page):  # the old box stays until the run ends
        page.get_by_role("radio", name="Ids → text").click()
    expect(text_box(page)).to_have_attribute("aria-label", "Token ids")
    clear_and_type(page, "31373, 995, 50257 oops")
    wait_for_ids(page, [31373, 995])
    alerts = page.locator("[data-testid='stAlert']")
    expect(alerts.filter(has_text="Not token ids")).to_contain_text("oops")
    expect(alerts.filter(has_text="Not ids of gpt2")).to_contain_text("50257")
    expect(page.locator("[data-testid='stCode']")).to_contain_text("hello world")
    assert query(page)["mode"] == "decode"


def test_a_long_decode_downloads_whole(open_app) -> None:
    """The box holds the first 100,000 characters; the download holds every one, byte for byte
    (emoji and a newline included), and its name says what it is."""
    page = open_app("/?mode=decode")
    text = "naïve 👋 tokens\n" * 12_000
    with rerun(page):
        paste(page, " ".join(map(str, oracle_ids("gpt2", text))))
    note = page.get_by_text(re.compile("^The box shows 100,000 of"))
    expect(note).to_have_text(f"The box shows 100,000 of {len(text):,} characters.")
    with page.expect_download() as download:
        keyed(page, "playground.decoded").get_by_role("button").click()
    assert download.value.suggested_filename == "decoded.txt"
    data = Path(download.value.path()).read_bytes()
    assert data.decode("utf-8") == text
    page.set_viewport_size({"width": 1280, "height": 720})  # the note and its button: one line
    button = keyed(page, "playground.decoded").get_by_role("button")
    expect(button).to_be_in_viewport()
    said, offered = note.bounding_box(), button.bounding_box()
    assert said and offered and offered["y"] < said["y"] + said["height"], (said, offered)


def test_decode_mode_opens_with_the_ids_of_the_text_typed_since(open_app) -> None:
    """The ids box follows the text while the user has not edited it: after a switch back to
    text, an edit and a switch to ids, the browser's box holds the new text's ids."""
    page = open_app("/?text=first")
    for text in ("first", "hello world"):
        with rerun(page):  # the old box stays until the run ends
            page.get_by_role("radio", name="Ids → text").click()
        ids = oracle_ids("gpt2", text)
        expect(text_box(page)).to_have_value(", ".join(map(str, ids)))
        wait_for_ids(page, ids)
        with rerun(page):
            page.get_by_role("radio", name="Text → tokens").click()
        clear_and_type(page, "hello world")
        wait_for_ids(page, [31373, 995])


def test_toggles_hidden_by_decode_mode_come_back_as_they_were(open_app) -> None:
    """Decode mode hides "Special tokens" and "Regex chunks"; back in encode mode they are on,
    and stay on through the next run (which sends back what the widgets show)."""
    page = open_app("/?chunks=1&special=1")
    chunks = page.get_by_role("switch", name="Regex chunks")
    expect(chunks).to_be_checked()
    with rerun(page):  # the old box stays until the run ends
        page.get_by_role("radio", name="Ids → text").click()
    expect(chunks).to_have_count(0)
    with rerun(page):  # the old box stays until the run ends
        page.get_by_role("radio", name="Text → tokens").click()
    expect(chunks).to_be_checked()
    clear_and_type(page, "hello world")  # another run, sending what the widgets show
    wait_for_ids(page, [31373, 995])
    expect(chunks).to_be_checked()
    expect(page.get_by_role("switch", name="Special tokens")).to_be_checked()
    assert query(page).get("chunks") == "1"


def test_a_pasted_lone_surrogate_becomes_u_fffd_everywhere(open_app) -> None:
    """A paste can hold half a UTF-16 pair: the box, the tokens and the link all get U+FFFD,
    and a toast says so (it goes away; the next text shows no stale notice)."""
    page = open_app("/")
    paste(page, "a\ud800b")
    wait_for_ids(page, oracle_ids("gpt2", "a\ufffdb"))
    expect(text_box(page)).to_have_value("a\ufffdb")
    expect(page.get_by_text("1 lone surrogate")).to_be_visible()
    assert query(page)["text"] == "a\ufffdb"
    paste(page, "hello world")
    wait_for_ids(page, [31373, 995])
    expect(page.get_by_text("1 lone surrogate")).to_have_count(0, timeout=10_000)
    assert page.locator("[data-testid='stException']").count() == 0


def test_url_round_trip(open_app, page: Page) -> None:
    open_app("/")
    picker = page.locator("[data-testid='stSidebar'] [data-testid='stSelectbox']")
    choose_option(page, picker, re.compile("^cl100k_base"))
    wait_idle(page)
    page.get_by_text("Show whitespace").click()
    page.get_by_role("radio", name="Colour by id").click()
    text = "Round trip: 42 ✓\n\tdone"
    text_box(page).fill(text)
    wait_for_ids(page, oracle_ids("cl100k_base", text))
    expect(page).to_have_url(re.compile(r"text="))
    assert query(page) == {"enc": "cl100k_base", "ws": "1", "color": "id", "text": text}

    goto(page, page.url)  # a fresh session from the link alone
    expect(text_box(page)).to_have_value(text)
    wait_for_ids(page, oracle_ids("cl100k_base", text))
    expect(page.locator(".bpl")).to_have_class(re.compile("bpl-by-id"))
    expect(page.locator(".bpl-text .ws").first).to_be_attached()


def test_hostile_text_renders_literally_and_runs_nothing(open_app, page: Page) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_app("/")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    text = XSS_TEXT
    text_box(page).fill(text)
    wait_for_ids(page, oracle_ids("gpt2", text))
    page.locator(".bpl-text .tok").first.hover()
    assert shown_text(page) == as_drawn(text)
    assert page.evaluate("window.__pwned") is None
    assert dialogs == []
    assert (
        page.locator(
            ".bpl :is(img, svg, iframe, form, input, a, b, style:not(:first-child))"
        ).count()
        == 0
    )
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == background
    expect(metric(page, "Tokens")).to_be_visible()
    expect(page.get_by_role("button", name="Copy link")).to_be_visible()


def test_a_one_megabyte_paste_counts_everything_and_stays_live(open_app, page: Page) -> None:
    open_app("/")
    unit = EXAMPLES["Code indentation"] + EXAMPLES["Non-English text"] + "\n"
    big = (unit * (1_000_000 // len(unit) + 1))[:1_000_000]
    paste(page, big)
    tokens = f"{len(oracle_ids('gpt2', big)):,}"
    expect(metric(page, "Tokens")).to_have_text(tokens, timeout=60_000)
    expect(metric(page, "Characters")).to_have_text("1,000,000")
    expect(page.locator(".bpl-text .tok")).to_have_count(5_000)
    expect(page.get_by_text("Showing the first 5,000 of")).to_be_visible()
    text_box(page).press("ControlOrMeta+End")
    page.keyboard.press("Backspace")  # the box is full: the next key must still work
    expect(metric(page, "Characters")).to_have_text("999,999", timeout=60_000)


def test_a_paste_longer_than_the_box_is_cut_with_a_word(open_app, page: Page) -> None:
    """The box's limit cut a 1.5 MB paste of ids without a word, the last id in half (40778
    decoded as 4077, another token). Now a toast says what happened."""
    open_app("/?mode=decode")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ids = " ".join(["40778"] * 250_000)  # 1,499,999 characters
    page.evaluate("text => navigator.clipboard.writeText(text)", ids)
    box = text_box(page)
    box.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("ControlOrMeta+v")
    expect(page.get_by_text("at most 1,000,000 characters")).to_be_visible(timeout=60_000)
    assert len(box.input_value()) == 1_000_000
    paste(page, "40778 995")  # within the limit: no word
    wait_for_ids(page, [40778, 995])
    expect(page.get_by_text("at most 1,000,000 characters")).to_have_count(0, timeout=10_000)


# Types into the live box the moment Streamlit draws it, before the box's script has loaded
# (Streamlit imports it afterwards); says on the window whether the script had run.
_TYPE_AS_THE_BOX_APPEARS_JS = """text => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    new MutationObserver((_, observer) => {
      const area = root.querySelector("textarea.lt-area");
      if (!area || window.typedEarly !== undefined) return;
      observer.disconnect();
      window.typedEarly = { beforeScript: area.dataset.version === undefined };
      area.value = text;
      area.dispatchEvent(new Event("input"));
    }).observe(root, { childList: true, subtree: true });
    return root;
  };
}"""


def test_text_typed_before_the_box_is_live_is_kept(page: Page, app_url: str) -> None:
    """Under load the box shows a while before its script runs: a paste then used to vanish,
    the box showing the server's text again. Its send may also stop the page's first run
    part-way (seen with a cold server): a fragment run then left the page without the rest, the
    history script among it, and goto, which waits for that script, timed out."""
    typed = "typed before the script ran"
    page.add_init_script(f"({_TYPE_AS_THE_BOX_APPEARS_JS})({json.dumps(typed)})")
    goto(page, app_url + "/")
    page.wait_for_function("window.typedEarly !== undefined")
    assert page.evaluate("window.typedEarly") == {"beforeScript": True}
    expect(text_box(page)).to_have_value(typed)
    wait_for_ids(page, oracle_ids("gpt2", typed))
    expect(metric(page, "Characters")).to_have_text(str(len(typed)))


def test_copy_link_copies_the_current_url(open_app, page: Page) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_app("/?text=copy%20me&ws=1")
    page.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("button", name="Link copied ✓")).to_be_visible()
    expect(page.get_by_role("button", name="Link copied ✓")).to_have_attribute(
        "aria-live", "polite"
    )
    assert page.evaluate("navigator.clipboard.readText()") == page.url


@pytest.mark.parametrize("page_name", ["Playground", "Merges", "Compare"])
def test_a_link_copied_right_after_typing_holds_every_keystroke(
    open_app, page: Page, page_name: str
) -> None:
    """The click comes while the last keystrokes are still on their way to the server (within
    the box's pause): the copy waits for them, as the address bar does."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_app("/")
    if page_name != "Playground":
        go_to(page, page_name)
    box = text_box(page)
    box.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    wait_idle(page)
    page.keyboard.type("the quick brown fox jumps", delay=20)
    page.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("button", name="Link copied ✓")).to_be_visible()
    expect(page.get_by_role("button", name="Link copied ✓")).to_have_attribute(
        "aria-live", "polite"
    )
    copied = page.evaluate("navigator.clipboard.readText()")
    assert parse_qs(urlsplit(copied).query)["text"] == ["the quick brown fox jumps"]


@pytest.mark.parametrize("page_name", ["Playground", "Compare"])
def test_copy_link_says_when_the_link_leaves_the_text_out(
    open_app, page: Page, page_name: str
) -> None:
    """A text too long for a link: the button said "Link copied ✓" for a link that opened on
    the default text (QA round 19). It now says what the link leaves out, before and after."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_app("/")
    if page_name != "Playground":
        go_to(page, page_name)
    wait_idle(page)
    paste(page, "word " * 10_000)
    expect(page.get_by_text("too long for a link")).to_be_visible()
    page.get_by_role("button", name="Copy link without the text").click()
    expect(page.get_by_role("button", name="Link without the text copied ✓")).to_be_visible()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "text" not in parse_qs(urlsplit(copied).query)
    paste(page, "short again")  # a text that fits: the button is plain again
    expect(page.get_by_role("button", name="Copy link", exact=True)).to_be_visible()


def test_after_typing_one_key_moves_one_token(open_app, page: Page) -> None:
    """Streamlit runs a component's script again on each new data without its cleanup; the
    components undo their previous run themselves. Their handlers used to pile up, one set a
    run: after a pin and an unpin, an arrow key moved the pointed token three places."""
    open_app("/?text=one%20two%20three%20four")
    box = text_box(page)
    box.click()
    box.press("End")
    for character in " world":
        page.keyboard.type(character)
        wait_for_ids(page, oracle_ids("gpt2", box.input_value()))
    page.locator(".bpl-text").focus()
    for _ in range(2):  # pin, then unpin: two runs with new data for the view
        with rerun(page):
            page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    lit = page.locator(".bpl-text .tok.hl")
    expect(lit).to_have_count(1)
    expect(lit).to_have_attribute("data-i", "1")


@pytest.mark.parametrize("color_scheme", ["light", "dark"], indirect=True)
def test_screenshots(open_app, page: Page, color_scheme: str) -> None:
    """Views for the README, in the theme the system asks for, with a token hovered."""
    page.set_viewport_size({"width": 1400, "height": 1250})
    if color_scheme == "light":
        open_app("/")
        page.locator(".bpl-text .tok").nth(3).hover()
    else:
        example = EXAMPLES["Emoji"] + "\n" + EXAMPLES["Code indentation"]
        open_app("/?ws=1&chunks=1&color=id")
        paste(page, example)
        wait_for_ids(page, oracle_ids("gpt2", example))
        text_box(page).evaluate("box => box.scrollTo(0, 0)")
        page.locator(".bpl-text .grp .tok").first.hover()
    stage = page.evaluate("getComputedStyle(document.querySelector('.stApp')).backgroundColor")
    darkness = sum(int(c) for c in re.findall(r"\d+", stage)[:3])
    assert (darkness < 200) == (color_scheme == "dark"), stage
    screenshot(page, f"playground-{color_scheme}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_whitespace_marks_read_at_4_5_to_1_on_every_tint(
    browser, app_url: str, scheme: str
) -> None:
    """A token's leading space is a · that a reader must see: faded to half, it read at 2.3:1
    on some tints. Every mark, on every colour by id (24 tints) and by position, reads at 4.5:1."""
    words = " ".join(f"w{n}" for n in range(60))
    for colour in ("id", "position"):
        query = urlencode({"text": words, "ws": "1", "color": colour})
        with new_page(browser, width=1400, height=1000, color_scheme=scheme) as page:
            goto(page, f"{app_url}/?{query}")
            marks = page.locator(".bpl-text .ws")
            expect(marks.first).to_be_attached()
            worst = min(marks.evaluate_all(f"ms => ms.map({CONTRAST_JS})"))
            assert worst >= 4.5, (colour, worst)


# Each drawn name's border width and its type size as a share of its token's.
_BOXES_JS = """names => names.map(name => {
  const own = getComputedStyle(name), token = getComputedStyle(name.parentElement);
  return [own.borderTopWidth, parseFloat(own.fontSize) / parseFloat(token.fontSize)];
})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_control_and_invisible_characters_are_named_in_boxes(
    browser, app_url: str, scheme: str
) -> None:
    """Control pictures (␛) drew as empty boxes: no standard Debian font has them. A control
    character (C0, DEL, C1), and an invisible one with glyphs on, is its name in a small box."""
    text = "a\x1bb\x7fc\x85d\u200be"
    with new_page(browser, width=1280, height=720, color_scheme=scheme) as page:
        goto(page, f"{app_url}/?{urlencode({'text': text, 'ws': '1'})}")
        wait_for_ids(page, oracle_ids("gpt2", text))
        names = page.locator(".bpl-text .ctl")
        expect(names).to_have_text(["ESC", "DEL", "U+0085", "U+200B"])
        # The pane's style can land a few frames after its text (once, on a busy machine:
        # ('0px', 1)): wait for it on the last name, then read every name.
        expect(names.last).to_have_css("border-top-width", "1px")
        for border, share in names.evaluate_all(_BOXES_JS):
            assert border == "1px" and share < 0.8, (border, share)
        assert min(names.evaluate_all(f"ms => ms.map({CONTRAST_JS})")) >= 4.5
        screenshot(page, f"playground-controls-{scheme}")
