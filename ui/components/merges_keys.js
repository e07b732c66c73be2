// The Merges page's keys (ui/merges/keys.py). The player's buttons carry Streamlit shortcuts
// (← → space Home End), which Streamlit ignores while focus is in a text box or a slider, so
// there the arrows still move the caret. Esc in such a box hands the keys back to the player:
// it blurs the box (a Streamlit text area applies its text on blur), focus returns to the
// page, and the shortcuts listen again. A menu that Esc closes (a selectbox's) keeps its Esc:
// its handler marks the event, and the box is blurred only by the next Esc.
const EDITABLE = "textarea, input, select, [contenteditable]:not([contenteditable='false'])";

function onKeyDown(event) {
  if (event.key !== "Escape" || event.defaultPrevented) return;
  // The box may sit in a component's shadow root: the path's first node is the box itself.
  const target = event.composedPath()[0];
  if (target instanceof Element && target.matches(EDITABLE)) target.blur();
}

export default function () {
  // On load the page takes the keyboard if nothing in it has focus yet, so the keys work at
  // once, without a first click (a window opened in the background would otherwise not).
  const active = document.activeElement;
  if (!document.hasFocus() && (active === null || active === document.body)) window.focus();
  window.addEventListener("keydown", onKeyDown);
  return () => window.removeEventListener("keydown", onKeyDown);
}
