// ← → Home End on a page that steps through something (Merges' player, Train's replay), worked
// out in the browser (ui/common/steps.py, `take_steps`). As the step buttons' shortcuts, presses
// that came faster than the page's runs were lost: a burst of 20 moved 2 steps, a held key about
// half of its presses. Streamlit folds the clicks that wait for a run into one, and the slider,
// not yet told of the last step, sent its old value back with the next press. Here each press
// moves a target from the step the page last showed (or from the target still on its way) to the
// next stop, and the page is sent the target itself: the latest holds every press before it,
// whatever the slider says.
const EDITABLE = "textarea, input, select, [contenteditable]:not([contenteditable='false'])";
// Controls whose arrows (and Home, End) are their own: the slider, groups of options (chips, a
// setting's choices), as for the shortcuts, which Streamlit leaves to them; a table's cells; and
// a view that says so (the tokens of ui/common/token_view.py, pointed at one by one).
const OWN_ARROWS = [
  "[role='slider']",
  "[role='radio']",
  "[role='tab']",
  "[role='option']",
  "[role='menuitem']",
  "[data-testid='stDataFrame']",
  "[data-own-arrows]",
].join(", ");
// Where each key goes from a step: the next or the previous stop, the first or the last step.
// Home and End are here too, not left to the buttons: a Home folded into the runs of the arrows
// around it was lost, and the arrows after it went on from the target before it.
const MOVES = {
  ArrowRight: (step, next) => next(step, 1),
  ArrowLeft: (step, next) => next(step, -1),
  Home: () => 0,
  End: (step, next, last) => last,
};
const PATIENCE_MS = 2000; // a target the page has not shown by then is given up
const RETRY_MS = 700; // after the last press, when a target not shown yet is sent once more
const SAID = "bpl-steps-said";

// The page's one live region, kept across runs and pages: a screen reader reads a region's
// changes, not a region put in with its text, and Streamlit redraws the step's headline new.
function liveRegion() {
  let region = document.getElementById(SAID);
  if (region === null) {
    region = document.createElement("div");
    region.id = SAID;
    region.setAttribute("role", "status");
    region.setAttribute("aria-atomic", "true");
    // Seen by screen readers only: the headline on the page already says it to the eye.
    region.style.cssText =
      "position: absolute; width: 1px; height: 1px; overflow: hidden; " +
      "clip-path: inset(50%); white-space: nowrap;";
    document.body.append(region);
  }
  return region;
}

export default function ({ data, setStateValue }) {
  // On the window, so the count goes on across this script's runs (one per step drawn); one
  // count per stepper, as the pages of the app share the window.
  const steppers = (window.bplSteps ??= {});
  const sent = (steppers[data.name] ??= {
    mount: `${Date.now()}-${Math.random()}`,
    seq: 0,
    target: null,
    at: 0,
  });
  // Every send goes through the latest mount's setter: a press heard by a listener of a mount
  // the page has since redrawn would go to a setter nobody reads any more.
  sent.send = () => setStateValue("target", { mount: sent.mount, seq: sent.seq, step: sent.target });
  if (sent.target === data.step) sent.target = null; // the page caught up
  // The page took the latest target yet shows another step: under load, a run that took it was
  // cut short and the next, with the slider's older value, undid it (one press of 20 lost, in
  // CI). Sent again, as a new press would be, while it is recent.
  const taken = data.heard !== null && data.heard[0] === sent.mount && data.heard[1] === sent.seq;
  if (sent.target !== null && taken && Date.now() - sent.at < PATIENCE_MS) resend();
  // Said when the step changes, not when the page first opens on one (its headline is read).
  if (sent.shown !== undefined && sent.shown !== data.step) liveRegion().textContent = data.words;
  sent.shown = data.step;
  const stops = data.stops; // null: every step is a stop
  const next = (step, direction) => {
    if (stops === null) return Math.min(Math.max(step + direction, 0), data.last);
    if (direction > 0) return stops.find((stop) => stop > step) ?? data.last;
    return stops.findLast((stop) => stop < step) ?? 0;
  };
  const onKey = (event) => {
    const move = Object.hasOwn(MOVES, event.key) ? MOVES[event.key] : null;
    const modified = event.ctrlKey || event.metaKey || event.altKey || event.shiftKey;
    if (!move || modified || event.defaultPrevented) return;
    const target = event.composedPath()[0];
    if (target instanceof Element && target.closest(`${EDITABLE}, ${OWN_ARROWS}`)) return;
    // The buttons' shortcuts listen on the document as the key comes back up: stopped on its
    // way down, the press moves once, here. Other listeners on the way down still hear it.
    event.preventDefault();
    event.stopPropagation();
    const waiting = sent.target !== null && Date.now() - sent.at < PATIENCE_MS;
    sent.target = move(waiting ? sent.target : sent.shown, next, data.last);
    sent.at = Date.now();
    sent.seq += 1;
    sent.send();
    // Should the page still not show it a moment later (a message lost under load), once more.
    clearTimeout(sent.retry);
    sent.retry = setTimeout(() => {
      if (sent.target !== null && sent.shown !== sent.target) resend();
    }, RETRY_MS);
  };
  function resend() {
    sent.seq += 1;
    sent.send();
  }
  // A click or a drag (a button, the slider) moves the step otherwise: count from the page's.
  const onPointer = () => (sent.target = null);
  document.addEventListener("keydown", onKey, true);
  window.addEventListener("pointerdown", onPointer, true);
  // Until this script is in, the buttons' shortcuts step: browser tests wait for it.
  document.body.dataset.steps = "on";
  return () => {
    delete document.body.dataset.steps;
    document.removeEventListener("keydown", onKey, true);
    window.removeEventListener("pointerdown", onPointer, true);
  };
}
