// Focus the element a run names (its `selector`): the text box of a chat message just added
// (ui/playground/chat.py), so that what is typed next goes into it; left on the "+ user" button,
// each Space typed added another message. The page draws this for one run only. The element may
// be drawn after this script runs, so it is looked for on the next frames, for a second at most.
const WAIT_MS = 1000;

export default function ({ data }) {
  const until = Date.now() + WAIT_MS;
  let frame = 0;
  const look = () => {
    const found = document.querySelector(data.selector);
    if (found instanceof HTMLElement) found.focus();
    else if (Date.now() < until) frame = requestAnimationFrame(look);
  };
  look();
  return () => cancelAnimationFrame(frame);
}
