"""Train's presentation mode: a training's replay on one projector screen, in both themes, at a
laptop's and a projector's size, stepped from the keyboard, and shared as a link."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.harness import goto, keyed, new_page, rerun, screenshot, wait_idle, wait_settled
from tests.e2e.playground_page import assert_on_screen
from tests.e2e.test_train_page import train_a_slice

# Page height, as Streamlit scrolls inside its main block rather than the document.
_PAGE_HEIGHT_JS = "() => document.querySelector('[data-testid=stMain]').scrollHeight"
_FONT_PX_JS = "e => parseFloat(getComputedStyle(e).fontSize)"
# The replay's stepper (ui/components/steps.js) is drawn in the page as it is now, and listens.
_STEPPER_IN_JS = """() => {
  const sent = window.bplSteps?.['train.steps'];
  return sent?.drawn === true && sent.listening === true && sent.host?.isConnected === true;
}"""
# What the stepper knew, for a failure's message: a lost press says where it went.
_STEPPER_STATE_JS = """() => {
  const sent = window.bplSteps?.['train.steps'] ?? {};
  const area = sent.data?.area ? document.querySelector('.' + sent.data.area) : null;
  const box = area?.getBoundingClientRect();
  return {drawn: sent.drawn, connected: sent.host?.isConnected, target: sent.target,
          seq: sent.seq, shown: sent.shown, due: sent.due, area: sent.data?.area,
          areaTop: box?.top, areaHeight: box?.height, active: document.activeElement?.tagName};
}"""


def _fits_one_screen(page: Page, height: int) -> None:
    """The player, the step's headline, the race and the sample's first tokens and ids are all
    in the window, and the page does not scroll."""
    assert page.evaluate(_PAGE_HEIGHT_JS) <= height
    assert_on_screen(page, keyed(page, "train.play").get_by_role("button"), "Play")
    assert_on_screen(page, keyed(page, "train.step"), "the slider")
    assert_on_screen(page, keyed(page, "train_headline").locator("p").first, "the headline")
    race = keyed(page, "train_race")
    assert_on_screen(page, race.get_by_text("The race this merge won"), "the race's title")
    assert_on_screen(page, race.locator(".race-row").last, "the race's last bar")
    assert_on_screen(page, race.locator(".race-keys"), "the race's colour key")
    sample = keyed(page, "train_sample")
    assert_on_screen(page, sample.locator(".bpl-text .tok").first, "the sample's first token")
    assert_on_screen(page, sample.locator(".bpl-ids .tid").first, "the sample's first id")


def _scale(width: int, height: int) -> float:
    """How much larger a presenting page's type is than at 1280x720 (ui/common/presentation.css):
    a 1920x1080 projector shows that screen magnified 1.5 times; smaller windows keep it."""
    return max(1.0, min(width / 1280, height / 720))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1024, 768), (1920, 1080)])
def test_presenting_a_training_fits_one_screen_and_steps_from_the_keys(
    browser: Browser, app_url: str, width: int, height: int, scheme: str
) -> None:
    """Turned on after a training, the page is its replay on one screen: no sidebar, the race
    beside the sample in large type, which grows with a projector's screen, ← → Home End
    stepping it; Copy link copies the step's link, and without its step the link opens it
    presenting at step 0 in another browser, ready to play."""
    size = 300 + width // 32 + (scheme == "dark")  # a training of its own (`train_a_slice`)
    with new_page(browser, width=width, height=height, color_scheme=scheme) as page:
        train_a_slice(lambda path: goto(page, app_url + path), page, size)
        wait_idle(page)
        with rerun(page):
            keyed(page, "train.present").get_by_text("Presentation mode").click()
        wait_settled(page)
        expect(page.get_by_test_id("stSidebar")).to_be_hidden()
        assert "present=1" in page.url
        _fits_one_screen(page, height)
        scale = _scale(width, height)
        headline = keyed(page, "train_headline").locator("p").first
        assert headline.evaluate(_FONT_PX_JS) >= 20 * scale
        token = keyed(page, "train_sample").locator(".bpl-text .tok").first
        assert token.evaluate(_FONT_PX_JS) >= 24 * scale
        bar = keyed(page, "train_race").locator(".race-label").first
        assert bar.evaluate(_FONT_PX_JS) >= 16 * scale
        slider = keyed(page, "train.step").get_by_role("slider")
        wait_idle(page)
        page.wait_for_function(_STEPPER_IN_JS)  # a key before it would go to the old page's
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("Home")
        try:
            expect(slider).to_have_value("0")
        except AssertionError as lost:
            raise AssertionError(f"Home lost: {page.evaluate(_STEPPER_STATE_JS)}") from lost
        expect(headline).to_contain_text("Step 0 of")
        for _ in range(2):
            page.keyboard.press("ArrowRight")
        expect(slider).to_have_value("2")
        expect(headline).to_contain_text("Step 2 of")
        wait_settled(page)
        _fits_one_screen(page, height)  # a step with a merge: the race is drawn
        screenshot(page, f"train-present-{width}x{height}-{scheme}", whole=False)
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        keyed(page, "train.present_copy_link").get_by_role("button", name="Copy link").click()
        expect(page.get_by_role("button", name="Link copied ✓")).to_be_visible()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == page.url and "present=1" in copied and "step=2" in copied
        link = re.sub(r"&step=\d+|step=\d+&", "", page.url)
    with new_page(browser, width=width, height=height, color_scheme=scheme) as other:
        goto(other, link)
        wait_settled(other)
        expect(other.get_by_test_id("stSidebar")).to_be_hidden()
        expect(keyed(other, "train.step").get_by_role("slider")).to_have_value("0")
        assert other.evaluate(_PAGE_HEIGHT_JS) <= height
