// The Playground's live token view (ui/common/token_pane.py). Python sends the view in parts;
// each goes in only when it changed, so a keystroke costs one innerHTML of the tokens and one of
// the ids, the panes keep their scroll, and nothing runs through a sanitizer: every part was
// built from escaped text (ui/common/token_view.py). `bplWire` (token_view.js) comes first.
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const scratch = document.createElement("textarea"); // plain http: the selection route
  scratch.value = text;
  scratch.style.position = "fixed";
  scratch.style.opacity = "0";
  document.body.appendChild(scratch);
  scratch.select();
  const ok = document.execCommand("copy");
  scratch.remove();
  if (!ok) throw new Error("copy refused");
}

export default function ({ data, parentElement, setTriggerValue }) {
  const root = parentElement.querySelector(".bpl");
  const put = (selector, html) => {
    const el = root.querySelector(selector);
    if (el.__html !== html) {
      el.innerHTML = html;
      el.__html = html;
    }
  };
  root.className = `bpl bpl-live ${data.classes}${data.pinned === null ? "" : " bpl-pinned"}`;
  root.querySelector(".bpl-text-label").textContent = data.tokens_label;
  root.querySelector(".bpl-hover").textContent = data.hint;
  put(".bpl-text", data.tokens);
  put(".bpl-ids", data.ids);
  put(".bpl-pin", data.pin);
  for (const el of root.querySelectorAll(".bpl-text .tok.pin")) el.classList.remove("pin");
  if (data.pinned !== null) {
    root.querySelector(`.bpl-text .tok[data-i="${data.pinned}"]`)?.classList.add("pin");
  }

  // Click a token to pin it, again to unpin; Esc unpins.
  // Triggers, not state: the page may drop a pin (new text) without this view knowing.
  const pin = (i) => setTriggerValue("pin", i === data.pinned ? -1 : i);
  const unwire = bplWire(root, { pin });
  const onKey = (event) => {
    if (event.key === "Escape" && data.pinned !== null) setTriggerValue("pin", -1);
  };
  document.addEventListener("keydown", onKey);

  let reset = null;
  const onClick = async (event) => {
    const link = event.target.closest("a[data-vocab]");
    if (link && event.button === 0 && !(event.ctrlKey || event.metaKey || event.shiftKey)) {
      event.preventDefault(); // stay in this session: Python switches page (trained vocabularies)
      setTriggerValue("open_vocab", Number(link.dataset.vocab));
      return;
    }
    if (event.target.closest(".bpl-unpin")) {
      setTriggerValue("pin", -1);
      return;
    }
    const button = event.target.closest(".bpl-copy");
    if (!button) return;
    const label = button.dataset.label || (button.dataset.label = button.textContent);
    try {
      await copyText(data.ids_text.split(",").join(button.dataset.sep));
      button.textContent = "Copied ✓";
    } catch {
      button.textContent = "Copy failed";
    }
    clearTimeout(reset);
    reset = setTimeout(() => (button.textContent = label), 1500);
  };
  root.addEventListener("click", onClick);

  return () => {
    unwire();
    clearTimeout(reset);
    for (const button of root.querySelectorAll(".bpl-copy[data-label]")) {
      button.textContent = button.dataset.label;
    }
    document.removeEventListener("keydown", onKey);
    root.removeEventListener("click", onClick);
  };
}
