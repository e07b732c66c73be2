// Focus the element a run names (its `selector`), after a chat button (ui/playground/chat.py):
// the text box of a message just added, so that what is typed next goes into it (left on the
// "+ user" button, each Space typed added another message); the button of a message moved or
// removed, so the next Tab goes on from there, not from the top of the page.
//
// The page draws this for one run only (ui/common/focus.py). For a second the element is looked
// for on each frame and focused again if the focus has fallen to the page's body: the run may
// draw it after this script runs, a moved message's button may still be its old, disabled self
// (which takes no focus), and Streamlit may replace it once more. Once the element has had the
// focus, focus the user has put anywhere else is left alone.
const WAIT_MS = 1000;

export default function ({ data }) {
  const until = Date.now() + WAIT_MS;
  let frame = 0;
  let held = false; // the element had the focus once: from then on, only the body is taken back
  const look = () => {
    const found = document.querySelector(data.selector);
    const active = document.activeElement;
    const free = !held || active === null || active === document.body;
    if (found instanceof HTMLElement && found !== active && free) found.focus();
    held ||= found !== null && found === document.activeElement;
    if (Date.now() < until) frame = requestAnimationFrame(look);
  };
  look();
  return () => cancelAnimationFrame(frame);
}
