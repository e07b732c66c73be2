// "Copy link" (ui/common/copy_button.py): copies the page address, which the app keeps in sync
// with its state, so the copied link reopens exactly this view; or, given `data.text`, that
// text. Nothing goes to the server.
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Plain-http deployments have no clipboard API; the old selection route still works there.
  const scratch = document.createElement("textarea");
  scratch.value = text;
  scratch.style.position = "fixed";
  scratch.style.opacity = "0";
  document.body.appendChild(scratch);
  scratch.select();
  const ok = document.execCommand("copy");
  scratch.remove();
  if (!ok) throw new Error("copy refused");
}

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
