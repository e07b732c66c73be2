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
# Streamlit's own is 6) and the box's component is in its place, that place's height.
_RECORD_JS = """
window.__boxHeights = [];
const frame = () => {
  const main = document.querySelector("[data-testid=stMainBlockContainer]");
  const styled = main && getComputedStyle(main).paddingTop === "60px";
  const place = document.querySelector("$PLACE");
  if (styled && place && place.querySelector(".stBidiComponent")) {
    window.__boxHeights.push(Math.round(place.getBoundingClientRect().height));
  }
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
"""
_SLOWER = 4  # CPU throttling: each stage of the mount lasts frames, as on a busy machine


@pytest.mark.parametrize(
    ("path", "place", "width", "height"),
    [
        ("/?text=hello", ".st-key-playground-text_box", 1024, 768),  # stacked
        ("/?text=hello", ".st-key-playground-text_box", 1280, 720),  # beside the tokens
        ("/?mode=decode", ".st-key-playground-ids_box", 1024, 768),
        ("/?mode=decode", ".st-key-playground-ids_box", 1280, 720),
        ("/compare?text=hello", ".st-key-compare-text_box", 1280, 720),
        ("/merges?text=hello", ".st-key-merges-text_box", 1280, 720),
    ],
)
def test_the_text_box_holds_its_height_while_it_loads(
    browser: Browser, app_url: str, path: str, place: str, width: int, height: int
) -> None:
    with new_page(browser, width=width, height=height) as page:
        page.add_init_script(_RECORD_JS.replace("$PLACE", place))
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": _SLOWER})
        goto(page, app_url + path)
        expect(page.locator(f"{place} textarea[data-version]")).to_be_attached()
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done)))")
        recorded: list[int] = page.evaluate("window.__boxHeights")
        # The first frames may have the place before its reserve: Streamlit's `st.html` puts its
        # style in the page in an effect that runs after the frame is painted (CI saw one 0).
        heights = list(dropwhile(lambda height: height == 0, recorded))
        final = round(page.locator(place).bounding_box()["height"])
        assert heights and set(heights) == {final}, recorded
