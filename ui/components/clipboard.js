// copyText(text): put `text` on the clipboard, or throw. Shared by the components that copy
// (copy_link.js, token_pane.js): ui.components.script("clipboard") goes in front of their own.
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
