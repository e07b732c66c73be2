"""A page holds still while it loads: the live text box takes its room before it is in.

Streamlit draws a component's place empty, then its HTML, then runs its script; the box's
place took three heights on the way, and everything under it jumped (a browser test measuring
the Playground's tokens pane caught it mid-jump on a loaded CI machine).

Held from the moment the page wears its styles and the place its reserve: `st.html` draws
them a moment after the first elements on some loads (until then the whole page is Streamlit's
own layout), and puts each style in the page only after the frame it arrived in is painted.
"""

from itertools import dropwhile

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.harness import goto, new_page

# Every frame from the moment the page is styled (frame.css: 3.75 rem above the main block,
# Streamlit's own is 6), the box's component is in its place and what the run draws right after
# it is in too ($AFTER), that place's height. Beside the tokens the box fills its column down to
# the settings under it: on a loaded CI machine they once came a few frames after the box, which
# was 69 px taller until then. That is the page being drawn top down, not the box loading.
_RECORD_JS = """
window.__boxHeights = [];
const frame = () => {
  const main = document.querySelector("[data-testid=stMainBlockContainer]");
  const styled = main && getComputedStyle(main).paddingTop === "60px";
  const place = document.querySelector("$PLACE");
  const after = document.querySelector("$AFTER");
  if (styled && place && after && place.querySelector(".stBidiComponent")) {
    window.__boxHeights.push(Math.round(place.getBoundingClientRect().height));
  }
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
"""
_SLOWER = 4  # CPU throttling: each stage of the mount lasts frames, as on a busy machine


_SETTINGS = ".st-key-playground-settings [data-testid=stButtonGroup]"  # their last widget


@pytest.mark.parametrize(
    ("path", "place", "after", "width", "height"),
    [
        ("/?text=hello", ".st-key-playground-text_box", _SETTINGS, 1024, 768),  # stacked
        ("/?text=hello", ".st-key-playground-text_box", _SETTINGS, 1280, 720),  # beside
        ("/?mode=decode", ".st-key-playground-ids_box", _SETTINGS, 1024, 768),
        ("/?mode=decode", ".st-key-playground-ids_box", _SETTINGS, 1280, 720),
        ("/compare?text=hello", ".st-key-compare-text_box", ".st-key-compare-side-row", 1280, 720),
        ("/merges?text=hello", ".st-key-merges-text_box", ".st-key-merges_chips", 1280, 720),
    ],
    ids=["text-1024", "text-1280", "ids-1024", "ids-1280", "compare-1280", "merges-1280"],
)
def test_the_text_box_holds_its_height_while_it_loads(
    browser: Browser, app_url: str, path: str, place: str, after: str, width: int, height: int
) -> None:
    with new_page(browser, width=width, height=height) as page:
        page.add_init_script(_RECORD_JS.replace("$PLACE", place).replace("$AFTER", after))
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": _SLOWER})
        goto(page, app_url + path)
        expect(page.locator(f"{place} textarea[data-version]")).to_be_attached()
        # The box can be live before the run has drawn what follows it or the page wears its
        # styles (CI saw nothing recorded yet): wait for a frame with all of them.
        expect(page.locator(after).first).to_be_attached()
        page.wait_for_function("window.__boxHeights.length > 0")
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done)))")
        recorded: list[int] = page.evaluate("window.__boxHeights")
        # The first frames may have the place before its reserve: Streamlit's `st.html` puts its
        # style in the page in an effect that runs after the frame is painted (CI saw one 0).
        heights = list(dropwhile(lambda height: height == 0, recorded))
        final = round(page.locator(place).bounding_box()["height"])
        assert heights and set(heights) == {final}, recorded
