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
// An area shown by fewer pixels than this (or than its own height) is out of sight.
const SIGHT_PX = 80;
const PATIENCE_MS = 2000; // a target the page has not shown by then is given up
const LEAVE_MS = 1000; // a stepper taken down and not drawn again by then has left the page
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

export default function ({ data, parentElement, setStateValue }) {
  // On the window, so the count goes on across this script's runs (one per step drawn); one
  // count per stepper, as the pages of the app share the window.
  const steppers = (window.bplSteps ??= {});
  const sent = (steppers[data.name] ??= {
    mount: `${Date.now()}-${Math.random()}`,
    seq: 0,
    target: null,
    at: 0,
  });
  clearTimeout(sent.leaving);
  sent.data = data;
  sent.host = parentElement;
  // Through the setter of the latest draw, also for a press heard before it (below).
  sent.send = () => setStateValue("target", { mount: sent.mount, seq: sent.seq, step: sent.target });
  sent.drawn = true;
  if (sent.target === data.step) sent.target = null; // the page caught up
  // Said when the step changes, not when the page first opens on one (its headline is read).
  if (sent.shown !== undefined && sent.shown !== data.step) liveRegion().textContent = data.words;
  sent.shown = data.step;
  if (sent.due) {
    sent.due = false;
    if (sent.target !== null) sent.send();
  }
  if (!sent.listening) listen(sent);
  // Until this script is in, the buttons' shortcuts step: browser tests wait for it.
  document.body.dataset.steps = "on";
  return () => {
    // Streamlit takes the stepper down and draws it again with each run's data, a moment
    // apart; a press in between, with no listener, was lost (1 or 2 of a burst of 20, in CI).
    // The listener stays: the press is counted and sent once the stepper is back. One not
    // back by LEAVE_MS has left with its page, and stops listening. A draw that has already
    // taken over (a page redrawn elsewhere mounts the new stepper before the old one goes)
    // is left alone: marking it taken down stopped its listener and lost the next press.
    if (sent.host !== parentElement) return;
    sent.drawn = false;
    sent.leaving = setTimeout(() => stop(sent), LEAVE_MS);
  };
}

function listen(sent) {
  sent.onKey = (event) => press(sent, event);
  // A click or a drag (a button, the slider) moves the step otherwise: count from the page's.
  sent.onPointer = () => (sent.target = null);
  document.addEventListener("keydown", sent.onKey, true);
  window.addEventListener("pointerdown", sent.onPointer, true);
  sent.listening = true;
}

function stop(sent) {
  document.removeEventListener("keydown", sent.onKey, true);
  window.removeEventListener("pointerdown", sent.onPointer, true);
  sent.listening = false;
  sent.due = false;
  if (!Object.values(window.bplSteps).some((other) => other.listening)) {
    delete document.body.dataset.steps;
  }
}

// The stop a press in `direction` leads to from `step`.
function nextStop(data, step, direction) {
  const stops = data.stops; // null: every step is a stop
  if (stops === null) return Math.min(Math.max(step + direction, 0), data.last);
  if (direction > 0) return stops.find((stop) => stop > step) ?? data.last;
  return stops.findLast((stop) => stop < step) ?? 0;
}

// Whether the element of class `area` (null: the whole page) shows too little to be what the
// keys are for.
function outOfSight(area) {
  const element = area === null ? null : document.querySelector(`.${area}`);
  if (element === null) return false;
  const box = element.getBoundingClientRect();
  const shown = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
  return box.height > 0 && shown < Math.min(SIGHT_PX, box.height);
}

function press(sent, event) {
  const move = Object.hasOwn(MOVES, event.key) ? MOVES[event.key] : null;
  const modified = event.ctrlKey || event.metaKey || event.altKey || event.shiftKey;
  if ((!move && event.key !== " ") || modified || event.defaultPrevented) return;
  const target = event.composedPath()[0];
  if (target instanceof Element && target.closest(`${EDITABLE}, ${OWN_ARROWS}`)) return;
  // Taken down and out of the page: the stepper has left with its page, the key is not ours.
  if (!sent.drawn && !sent.host.isConnected) return;
  // Scrolled away from what it steps (Train's replay, under the settings), the keys are the
  // page's own again: End goes to its foot, Space a screen down. Stopped here, the buttons'
  // shortcuts do not hear them either; the browser still does what they do on a page.
  if (outOfSight(sent.data.area)) {
    event.stopPropagation();
    return;
  }
  if (!move) return; // Space in sight: the Play button's shortcut
  // The buttons' shortcuts listen on the document as the key comes back up: stopped on its
  // way down, the press moves once, here. Other listeners on the way down still hear it.
  event.preventDefault();
  event.stopPropagation();
  const data = sent.data;
  const waiting = sent.target !== null && Date.now() - sent.at < PATIENCE_MS;
  const from = waiting ? sent.target : sent.shown;
  sent.target = move(from, (step, direction) => nextStop(data, step, direction), data.last);
  sent.at = Date.now();
  sent.seq += 1;
  if (sent.drawn) sent.send();
  else sent.due = true;
}
