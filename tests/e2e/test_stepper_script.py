"""The stepper's script (ui/components/steps.js) on a blank page, drawn and taken down by hand.

Streamlit takes the stepper down and draws it again with every run's data, a moment apart: a
press in that moment found no listener and was lost (1 or 2 of a burst of 20 arrows, in CI's
Merges and Train key tests). These tests put a press exactly there, which the tests through
the app can only hit by chance.
"""

from pathlib import Path

import pytest
from playwright.sync_api import Page

SCRIPT = Path(__file__).parents[2] / "ui" / "components" / "steps.js"

# Loads the script as the module it is, and keeps what each draw sends in window.sent[draw].
SETUP_JS = """async (source) => {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    const stepper = (await import(url)).default;
    window.host = document.body.appendChild(document.createElement("div"));
    window.sent = [];
    window.draws = [];
    window.draw = (step) => {
        const mine = [];
        window.sent.push(mine);
        const data = { name: "t", step, last: 10, stops: null, words: `Step ${step}` };
        const setStateValue = (key, value) => mine.push({ key, ...value });
        window.draws.push(stepper({ data, parentElement: window.host, setStateValue }));
    };
    window.takeDown = () => window.draws.at(-1)();
    window.prevented = [];
    // Read once the key has been through every listener (the stepper stops it on its way).
    window.addEventListener(
        "keydown",
        (event) => setTimeout(() => window.prevented.push(event.defaultPrevented)),
        true,
    );
}"""


@pytest.fixture
def stepper(page: Page) -> Page:
    page.set_content("<!doctype html><body></body>")
    page.evaluate(SETUP_JS, SCRIPT.read_text())
    return page


def sent(page: Page) -> list[list[tuple[int, int]]]:
    """(seq, step) of what each draw's setter was sent, draw by draw."""
    return page.evaluate("window.sent.map(s => s.map(v => [v.seq, v.step]))")


def prevented(page: Page, presses: int) -> list[bool]:
    """Whether each of the first `presses` key presses was taken from the page's own use."""
    page.wait_for_function(f"window.prevented.length >= {presses}")
    return page.evaluate("window.prevented")


def test_presses_while_drawn_each_send_a_target_from_the_last(stepper: Page) -> None:
    stepper.evaluate("window.draw(0)")
    for _ in range(3):
        stepper.keyboard.press("ArrowRight")
    stepper.keyboard.press("ArrowLeft")
    assert sent(stepper) == [[[1, 1], [2, 2], [3, 3], [4, 2]]]


def test_a_press_between_a_take_down_and_the_next_draw_is_sent_by_that_draw(
    stepper: Page,
) -> None:
    stepper.evaluate("window.draw(0)")
    stepper.keyboard.press("ArrowRight")
    stepper.evaluate("window.takeDown()")
    stepper.keyboard.press("ArrowRight")  # between two runs' draws
    assert sent(stepper) == [[[1, 1]]]
    stepper.evaluate("window.draw(1)")
    assert sent(stepper) == [[[1, 1]], [[2, 2]]]
    assert prevented(stepper, 2) == [True, True]  # not left to the buttons


def test_a_stepper_gone_with_its_page_leaves_the_keys_alone(stepper: Page) -> None:
    stepper.evaluate("window.draw(0)")
    stepper.evaluate("window.takeDown(); window.host.remove()")
    stepper.keyboard.press("ArrowRight")
    assert prevented(stepper, 1) == [False]  # the page's own, a scroll
    # Once it is clear the stepper is not drawn again, it stops listening altogether.
    stepper.wait_for_function("document.body.dataset.steps === undefined")
    stepper.evaluate("window.host = document.body.appendChild(document.createElement('div'))")
    stepper.evaluate("window.draw(0)")
    stepper.keyboard.press("ArrowRight")
    assert sent(stepper) == [[], [[1, 1]]]
