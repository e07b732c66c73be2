// The Playground's live token view (ui/common/token_pane.py). Python sends the view in parts;
// each goes in only when it changed, so a keystroke costs one innerHTML of the tokens and one of
// the ids, the panes keep their scroll, and nothing runs through a sanitizer: every part was
// built from escaped text (ui/common/token_view.py). `bplWire` (token_view.js) and `copyText`
// (clipboard.js) come first.

// Each unit (a token, a group, a chunk; an id) is followed by an empty comment: the marks where
// one unit ends, so that a new list of units replaces only what follows the longest common
// prefix. Typing at the end of a text then re-lays out and repaints a few spans, not the pane.
const END = "<!---->";

function patch(el, units) {
  const held = el.__units;
  let same = 0;
  if (held) {
    const most = Math.min(held.length, units.length);
    while (same < most && held[same] === units[same]) same++;
    if (same === held.length && same === units.length) return;
  }
  const marks = held ? el.__marks.slice(0, same) : [];
  const cut = document.createRange();
  cut.selectNodeContents(el);
  if (marks.length) cut.setStartAfter(marks[marks.length - 1]);
  cut.deleteContents();
  const fresh = document.createElement("template");
  fresh.innerHTML = units.slice(same).join(END) + (units.length > same ? END : "");
  for (const node of fresh.content.childNodes) {
    if (node.nodeType === Node.COMMENT_NODE) marks.push(node);
  }
  el.append(fresh.content);
  el.__units = units;
  el.__marks = marks;
}

export default function ({ data, parentElement, setTriggerValue }) {
  const root = parentElement.querySelector(".bpl");
  // A page may give the view a height (the Playground: what its column leaves): the boxes
  // between the component's element and the view pass it on.
  for (let box = root.parentElement; box && box !== parentElement; box = box.parentElement) {
    box.style.height = "100%";
  }
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
  patch(root.querySelector(".bpl-text"), data.token_units);
  patch(root.querySelector(".bpl-ids"), data.id_units);
  const [copies, copied] = data.copy_labels;
  for (const button of root.querySelectorAll(".bpl-copy")) {
    const separated = button.dataset.sep === " " ? "space" : "comma";
    button.title = `Copy ${copies}, ${separated}-separated`;
  }
  put(".bpl-pin", data.pin);
  put(".bpl-pin-actions", data.pin_actions);
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
      button.textContent = copied;
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
