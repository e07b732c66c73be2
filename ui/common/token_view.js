// Hover linking for the token view (ui/common/token_view.py): pointing at a token lights its id
// and the other way round, scrolls the partner into its pane, and shows the token's facts.
// `bplWire(root, hooks)` wires one `.bpl` element and returns a function that unwires it;
// `hooks.pin(i)`, if given, is called when token `i` is clicked (the live view pins it).
// All user text in the view is already escaped text; this only moves classes and text around.
function bplWire(root, hooks = {}) {
  if (!root) return () => {};
  const info = root.querySelector(".bpl-hover") || root.querySelector(".bpl-inspect");
  const hint = info.textContent;
  let byIndex = null; // built on the first hover: a keystroke's redraw never pays for it
  let lit = [];

  const partners = (i) => {
    if (byIndex === null) {
      byIndex = new Map();
      for (const el of root.querySelectorAll(".bpl-panes [data-i]")) {
        const group = byIndex.get(el.dataset.i);
        if (group) group.push(el);
        else byIndex.set(el.dataset.i, [el]);
      }
    }
    return byIndex.get(i) || [];
  };

  const clear = () => {
    for (const el of lit) el.classList.remove("hl");
    lit = [];
  };

  // Scroll only the pane that holds `el`, never the page under the pointer.
  const reveal = (el) => {
    const pane = el.closest(".bpl-pane");
    if (!pane) return;
    const top = el.offsetTop;
    if (top < pane.scrollTop || top + el.offsetHeight > pane.scrollTop + pane.clientHeight) {
      pane.scrollTop = top - pane.clientHeight / 2;
    }
  };

  const onOver = (event) => {
    const el = event.target.closest(".bpl-panes [data-i]");
    if (!el || lit.includes(el)) return;
    clear();
    lit = partners(el.dataset.i);
    for (const other of lit) {
      other.classList.add("hl");
      if (other !== el) reveal(other);
    }
    const token = lit.find((x) => x.classList.contains("tok"));
    info.textContent = token ? token.title : hint;
  };
  const onLeave = () => {
    clear();
    info.textContent = hint;
  };
  const onClick = (event) => {
    const token = event.target.closest(".bpl-text .tok");
    if (token && hooks.pin) hooks.pin(Number(token.dataset.i));
  };
  root.addEventListener("mouseover", onOver);
  root.addEventListener("mouseleave", onLeave);
  root.addEventListener("click", onClick);
  return () => {
    clear();
    root.removeEventListener("mouseover", onOver);
    root.removeEventListener("mouseleave", onLeave);
    root.removeEventListener("click", onClick);
  };
}
