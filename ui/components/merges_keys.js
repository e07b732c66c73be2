// The Merges page's keys (ui/merges/keys.py). The player's buttons carry Streamlit shortcuts
// (← → space Home End), which Streamlit ignores while focus is in a text box or a slider, so
// there the arrows still move the caret. Esc hands the keys back to the player: it blurs what
// has the focus (a Streamlit text area applies its text on blur), focus returns to the page,
// and the shortcuts listen again. A menu that Esc closes (a selectbox's) keeps its Esc:
// its handler marks the event, and the box is blurred only by the next Esc; a popover's Esc
// (Settings) closes it and hands the keys back at once.
const EDITABLE = "textarea, input, select, [contenteditable]:not([contenteditable='false'])";
const POPOVER = "[data-testid='stPopoverBody']";
const POPOVER_BUTTON = "[data-testid='stPopoverButton']";

// Space on a focused control (another player button, a help mark, an expander) is that
// control's own key: the browser activates it on key up. Stopped here, in the capture phase,
// it no longer also reaches the Play button's shortcut. Space with nothing focused still plays.
const OWN_SPACE =
  "button, summary, a[href], [role='button'], [role='tab'], [role='switch'], [role='radio']";

function onSpace(event) {
  if (event.key !== " ") return;
  const target = event.composedPath()[0];
  if (target instanceof Element && target.matches(OWN_SPACE)) event.stopImmediatePropagation();
}

function onKeyDown(event) {
  if (event.key !== "Escape" || event.defaultPrevented) return;
  // The box may sit in a component's shadow root: the path's first node is the box itself.
  const target = event.composedPath()[0];
  if (target instanceof HTMLElement && target !== document.body) target.blur();
}

// A popover's Esc (Settings) closes it, stops the event on its way, and gives the focus back to
// the popover's button, where Space opened it again. Seen first here (capture phase): once the
// focus has moved, the button lets go of it, and the keys are the player's with the one Esc.
function onPopoverEsc(event) {
  if (event.key !== "Escape" || document.querySelector(POPOVER) === null) return;
  setTimeout(() => {
    const button = document.activeElement;
    if (button instanceof HTMLElement && button.matches(POPOVER_BUTTON)) button.blur();
  }, 0);
}

// A control clicked keeps the focus, and a group of them (the chunk chips, a setting's options)
// takes the arrows to move along itself: the arrows stopped stepping after a click on a chip,
// the very click a teacher makes before stepping through its merges. A click with a pointer
// hands the keys back to the player; a control reached with Tab keeps them until Esc.
const GROUPED = "[role='radio'], [role='tab'], [role='switch'], button";

function onClick(event) {
  if (event.detail === 0) return; // from the keyboard (Enter or Space on the control)
  const target = event.composedPath()[0];
  const control = target instanceof Element ? target.closest(GROUPED) : null;
  // After the control's own handlers (seen here first: they stop the click from bubbling).
  if (control instanceof HTMLElement) setTimeout(() => control.blur(), 0);
}

// Bring the chosen chunk's chip into view within its row, never scrolling the page: presenting,
// the chips are one line scrolling sideways, and a link or a step may choose one far along it.
function reveal(row) {
  const chip = row.querySelector("button[aria-checked='true']");
  if (!chip) return null;
  const outer = row.getBoundingClientRect();
  const inner = chip.getBoundingClientRect();
  if (inner.left < outer.left || inner.right > outer.right) {
    row.scrollLeft += inner.left - outer.left - (outer.width - inner.width) / 2;
  }
  if (inner.top < outer.top || inner.bottom > outer.bottom) {
    row.scrollTop += inner.top - outer.top - (outer.height - inner.height) / 2;
  }
  return chip;
}

// Presenting, the chips are one line that scrolls sideways, and a chip cut by the window's edge
// did not say there were more: mark the sides with more chips beyond them (the style fades them).
function markEdges(row) {
  const more = [];
  if (row.scrollLeft > 1) more.push("left");
  if (row.scrollLeft + row.clientWidth < row.scrollWidth - 1) more.push("right");
  const value = more.join(" ");
  if (row.dataset.more !== value) row.dataset.more = value;
}

// Presenting, the chunk's table scrolls in a pane of its own, and each step draws it anew with
// one more row: the current one (.mg-now), last. Bring that row into view in the pane, never
// scrolling the page: its bottom at the pane's bottom, so the rows before it show above it. The
// table's heading sticks to the pane's top, so what the rows have starts below it: a row too
// tall for the rest went under the heading, half its merge hidden.
function revealStep(pane, row) {
  const edge = pane.getBoundingClientRect().top + pane.clientTop; // of what the pane shows
  const bottom = edge + pane.clientHeight; // above a sideways scrollbar, if any
  const heading = pane.querySelector("thead th");
  const top = heading ? Math.max(edge, heading.getBoundingClientRect().bottom) : edge;
  const inner = row.getBoundingClientRect();
  if (inner.top >= top && inner.bottom <= bottom) return;
  const fits = inner.height <= bottom - top;
  pane.scrollTop += Math.ceil(fits ? inner.bottom - bottom : inner.top - top);
}

// What a user does to scroll the row themselves; from then on the row stays where they put it.
const HANDS = ["wheel", "pointerdown", "touchstart", "keydown"];

export default function ({ data }) {
  // On load the page takes the keyboard if nothing in it has focus yet, so the keys work at
  // once, without a first click (a window opened in the background would otherwise not).
  const active = document.activeElement;
  if (!document.hasFocus() && (active === null || active === document.body)) window.focus();
  window.addEventListener("keydown", onKeyDown);
  window.addEventListener("keydown", onPopoverEsc, true);
  window.addEventListener("keydown", onSpace, true);
  window.addEventListener("click", onClick, true);
  // Says the keys listen (the script comes a moment after the page): browser tests wait for it.
  document.body.dataset.mergesKeys = "on";
  // `data.chunk` changed (this runs again). The chips may be drawn, or chosen, a little later
  // than this, and their row may change its shape after they are (the presentation style can
  // arrive after them, lifting five wrapped lines into one; the window may be resized): so
  // reveal the chosen chip whenever it or the row's box changes, until the user scrolls the row.
  let row = null;
  let shown = null;
  let handled = false;
  const show = () => {
    if (!handled && row) shown = reveal(row);
    if (row) markEdges(row);
  };
  const onScroll = () => markEdges(row);
  const resized = new ResizeObserver(show);
  const onHand = (event) => {
    if (row?.contains(event.target)) handled = true;
  };
  const look = () => {
    const found = document.querySelector(".st-key-merges_chips");
    if (found && found !== row) {
      if (row) {
        resized.unobserve(row);
        row.removeEventListener("scroll", onScroll);
      }
      row = found;
      resized.observe(row);
      row.addEventListener("scroll", onScroll, { passive: true });
    }
    if (row?.querySelector("button[aria-checked='true']") !== shown) show();
  };
  HANDS.forEach((name) => window.addEventListener(name, onHand, true));
  // Each new current row is revealed once; between steps the pane stays where the user puts it.
  let step = null;
  const follow = () => {
    const pane = document.querySelector(".st-key-merges_table");
    const row = pane?.querySelector(".mg-now");
    if (row && row !== step) revealStep(pane, row);
    step = row;
  };
  const steps = new MutationObserver(follow);
  steps.observe(document.body, { childList: true, subtree: true });
  follow();
  const watch = setInterval(look, 150);
  const stop = setTimeout(() => clearInterval(watch), 3000);
  look();
  return () => {
    delete document.body.dataset.mergesKeys;
    resized.disconnect();
    row?.removeEventListener("scroll", onScroll);
    steps.disconnect();
    HANDS.forEach((name) => window.removeEventListener(name, onHand, true));
    clearInterval(watch);
    clearTimeout(stop);
    window.removeEventListener("keydown", onKeyDown);
    window.removeEventListener("keydown", onSpace, true);
    window.removeEventListener("keydown", onPopoverEsc, true);
    window.removeEventListener("click", onClick, true);
  };
}
