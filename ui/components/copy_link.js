// "Copy link" (ui/common/copy_button.py): copies the page address, which the app keeps in sync
// with its state, so the copied link reopens exactly this view; or, given `data.text`, that
// text. Nothing goes to the server. `copyText` (clipboard.js) comes first.

export default function ({ data, parentElement }) {
  const button = parentElement.querySelector("button");
  button.textContent = data.label;
  let reset = null;
  const onClick = async () => {
    try {
      await copyText(data.text ?? window.location.href);
      button.textContent = data.done_label;
    } catch {
      button.textContent = data.failed_label;
    }
    clearTimeout(reset);
    reset = setTimeout(() => (button.textContent = data.label), 2000);
  };
  button.addEventListener("click", onClick);
  return () => {
    clearTimeout(reset);
    button.removeEventListener("click", onClick);
  };
}
