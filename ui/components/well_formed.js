// Text typed or pasted into Streamlit's own boxes, made well-formed before Streamlit reads it
// (ui/common/navigation.py puts this on every page). A lone surrogate (half of an emoji, from a
// broken copy) cannot be sent: Streamlit's message to the server fails to decode there, the
// connection drops and the box's text never arrives. This listener runs first (the window, in
// the capture phase) and puts U+FFFD in its place, as tiktoken does; the length stays the same,
// so the caret does too. The value is set through the prototype's setter, which React's own
// change tracking does not see, so React still reads the event as a change. Boxes inside a
// component (the live text box) are left to it: it repairs the text on the server, and says so.
const SETTERS = new Map([
  [HTMLTextAreaElement, Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set],
  [HTMLInputElement, Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set],
]);

function onInput(event) {
  const box = event.target;
  if (event.composedPath()[0] !== box) return; // inside a component's shadow root
  const setter = SETTERS.get(box.constructor);
  if (setter === undefined || box.value.isWellFormed()) return;
  const [start, end] = [box.selectionStart, box.selectionEnd];
  setter.call(box, box.value.toWellFormed());
  if (start !== null) box.setSelectionRange(start, end);
}

export default function () {
  window.addEventListener("input", onInput, true);
  return () => window.removeEventListener("input", onInput, true);
}
