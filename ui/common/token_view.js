// Hover linking for the token view (ui/common/token_view.py): pointing at a token lights its id
// and the other way round, scrolls the partner into its pane, and shows the token's facts.
// The keyboard points too: the tokens pane is one tab stop, whose arrow keys walk the tokens.
// `bplWire(root, hooks)` wires one `.bpl` element and returns a function that unwires it;
// `hooks.pin(i)`, if given, is called when token `i` is clicked or gets Enter or Space (the
// live view pins it).
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

  // Light `el` (a token or an id) and its partners, and show the token's facts.
  const point = (el) => {
    if (lit.includes(el)) return;
    clear();
    lit = partners(el.dataset.i);
    for (const other of lit) {
      other.classList.add("hl");
      if (other !== el) reveal(other);
    }
    const token = lit.find((x) => x.classList.contains("tok"));
    info.textContent = token ? token.title : hint;
  };
  const onOver = (event) => {
    const el = event.target.closest(".bpl-panes [data-i]");
    if (el) point(el);
  };
  const onLeave = () => {
    clear();
    info.textContent = hint;
  };
  // The keys' place is kept on the pane (data-at), so a redraw (a pin reruns the page and
  // wires the view again) leaves the keys where they were; a click puts them on its token.
  const pane = root.querySelector(".bpl-text");
  const onClick = (event) => {
    const token = event.target.closest(".bpl-text .tok");
    if (!token) return;
    pane.dataset.at = token.dataset.i;
    if (hooks.pin) hooks.pin(Number(token.dataset.i));
  };
  const here = () => pane.querySelector(`.tok[data-i="${pane.dataset.at}"]`);
  const keyTo = (el) => {
    pane.dataset.at = el.dataset.i;
    point(el);
    reveal(el);
  };
  // Focus from the keyboard points at a token; a click's focus leaves the pane as it is (it
  // would scroll away from the token being clicked).
  const onFocus = () => {
    if (!pane.matches(":focus-visible")) return;
    const el = here() || pane.querySelector(".tok.pin") || pane.querySelector(".tok");
    if (el) keyTo(el);
  };
  const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const tokens = [...pane.querySelectorAll(".tok")];
    if (!tokens.length) return;
    const at = tokens.indexOf(here());
    let to;
    if (event.key in moves) to = Math.max(0, at + moves[event.key]);
    else if (event.key === "Home") to = 0;
    else if (event.key === "End") to = tokens.length - 1;
    else if ((event.key === "Enter" || event.key === " ") && hooks.pin && at >= 0) {
      event.preventDefault(); // Space would scroll the pane
      event.stopPropagation();
      hooks.pin(Number(tokens[at].dataset.i));
      return;
    } else return;
    // These keys are the view's: a page's shortcuts for them (the Train replay's ← → Home End
    // step buttons) listen further up, and must not hear them too.
    event.preventDefault();
    event.stopPropagation();
    keyTo(tokens[Math.min(to, tokens.length - 1)]);
  };
  root.addEventListener("mouseover", onOver);
  root.addEventListener("mouseleave", onLeave);
  root.addEventListener("click", onClick);
  pane.addEventListener("focus", onFocus);
  pane.addEventListener("blur", onLeave);
  pane.addEventListener("keydown", onKey);
  if (pane.matches(":focus")) onFocus();
  return () => {
    clear();
    root.removeEventListener("mouseover", onOver);
    root.removeEventListener("mouseleave", onLeave);
    root.removeEventListener("click", onClick);
    pane.removeEventListener("focus", onFocus);
    pane.removeEventListener("blur", onLeave);
    pane.removeEventListener("keydown", onKey);
  };
}
