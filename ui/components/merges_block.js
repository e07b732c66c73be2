// The merges page's whole text (ui/merges/block.py): HTML the server has already escaped,
// patched into the page instead of replaced. A merge step changes a few tokens of a text that
// may have thousands; st.html would sanitize, parse and lay out all of them again (most of a
// step's time on a 2,000-character text). Here only the nodes that differ are swapped in; the
// others at most get new position numbers (data-i), which no style depends on. The block comes
// without the token view's hover wiring (`pointing` off), which would point at replaced nodes.

// Two nodes show the same thing: same tag, classes, tooltip, text and, all the way down, the
// same elements (merging "e" and "n" leaves the text of the pane as it was, not its tokens).
// Position numbers (data-i) do not count: after a merge, every later token only moves down.
function same(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return a.textContent === b.textContent;
  if (
    a.tagName !== b.tagName ||
    a.className !== b.className ||
    a.title !== b.title ||
    a.childElementCount !== b.childElementCount ||
    a.textContent !== b.textContent
  ) {
    return false;
  }
  for (let x = a.firstElementChild, y = b.firstElementChild; x; x = x.nextElementSibling) {
    if (!same(x, y)) return false;
    y = y.nextElementSibling;
  }
  return true;
}

// An element's kind, for deciding to descend into it rather than replace it ("" for text and
// for styles, which are always replaced whole).
function shell(node) {
  if (node.nodeType !== Node.ELEMENT_NODE || node.tagName === "STYLE") return "";
  return `${node.tagName}.${node.className}`;
}

// Give `kept` (and its descendants) the position numbers of its counterpart in the new HTML.
function renumber(kept, fresh) {
  if (kept.nodeType !== Node.ELEMENT_NODE) return;
  if (fresh.dataset.i !== undefined) kept.dataset.i = fresh.dataset.i;
  const inner = kept.querySelectorAll("[data-i]");
  if (inner.length === 0) return;
  const freshInner = fresh.querySelectorAll("[data-i]");
  inner.forEach((node, k) => (node.dataset.i = freshInner[k].dataset.i));  // same() held
}

// Make `kept`'s own attributes those of `fresh` (same tag and classes, maybe another tooltip).
function copyAttributes(kept, fresh) {
  for (const { name } of Array.from(kept.attributes)) {
    if (!fresh.hasAttribute(name)) kept.removeAttribute(name);
  }
  for (const { name, value } of Array.from(fresh.attributes)) {
    if (kept.getAttribute(name) !== value) kept.setAttribute(name, value);
  }
}

// Where the two lists agree again after a difference at a[i] / b[j]: the nearest skips (di, dj)
// after which WINDOW nodes in a row are the same (one would not do: every ", " between two ids
// is the same as every other). A step merges pairs, so the skips are small; null if none.
const WINDOW = 3;
const MAX_SKIP = 16;
function resync(a, b, i, j) {
  for (let total = 2; total <= 2 * MAX_SKIP; total++) {
    for (let di = Math.max(1, total - MAX_SKIP); di <= Math.min(MAX_SKIP, total - 1); di++) {
      const dj = total - di;
      const restA = a.length - (i + di);
      const restB = b.length - (j + dj);
      if (restA < 0 || restB < 0) continue;
      const window = Math.min(WINDOW, restA, restB);
      if (window < WINDOW && restA !== restB) continue;
      let k = 0;
      while (k < window && same(a[i + di + k], b[j + dj + k])) k++;
      if (k === window) return [i + di, j + dj];
    }
  }
  return null;
}

// Make `old`'s children show what `fresh`'s do, touching as few nodes as possible: keep the
// nodes that agree, renumbering them, and swap in the new nodes only where they differ. Where
// the same containers hold new content (the panes of tokens and of ids), descend into them.
function patch(old, fresh) {
  const a = Array.from(old.childNodes);
  const b = Array.from(fresh.childNodes);
  if (a.length === b.length && a.length <= 4) {
    // A few parts (the block, its panes): keep, descend into, or swap each one.
    a.forEach((node, k) => {
      if (same(node, b[k])) {
        renumber(node, b[k]);
      } else if (shell(node) && shell(node) === shell(b[k])) {
        copyAttributes(node, b[k]);
        patch(node, b[k]);
      } else {
        node.replaceWith(b[k]);
      }
    });
    return;
  }
  const swaps = []; // [from, to) of a replaced by [from, to) of b
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (same(a[i], b[j])) {
      renumber(a[i++], b[j++]);
      continue;
    }
    const next = resync(a, b, i, j);
    if (next === null) break;
    swaps.push([i, next[0], j, next[1]]);
    [i, j] = next;
  }
  if (i < a.length || j < b.length) swaps.push([i, a.length, j, b.length]);
  for (const [fromA, toA, fromB, toB] of swaps.reverse()) {
    const before = a[toA] || null;
    for (let k = fromA; k < toA; k++) a[k].remove();
    for (let k = fromB; k < toB; k++) old.insertBefore(b[k], before);
  }
}

// Scroll `node` into view inside its pane (the panes scroll, not the page), if it is out of it.
function reveal(node) {
  const pane = node.closest(".bpl-pane");
  if (!pane) return;
  const top = node.offsetTop; // the pane is the offset parent (position: relative)
  if (top < pane.scrollTop || top + node.offsetHeight > pane.scrollTop + pane.clientHeight) {
    pane.scrollTop = Math.max(0, top - pane.clientHeight / 3);
  }
}

export default function ({ data, parentElement }) {
  let root = parentElement.querySelector(".mg-block");
  if (!root) {
    root = document.createElement("div");
    root.className = "mg-block";
    parentElement.appendChild(root);
  }
  // Unmark first: a token marked last step would otherwise differ from its new self.
  root.querySelectorAll(".mg-made").forEach((token) => token.classList.remove("mg-made"));
  if (root.dataset.digest !== data.digest) {
    root.dataset.digest = data.digest;
    const fresh = document.createElement("template");
    fresh.innerHTML = data.html;
    patch(root, fresh.content);
  }
  // The tokens this step made, and their ids, by position (data-i).
  const marked = (data.mark || []).filter(Number.isInteger);
  if (marked.length === 0) return;
  const selector = marked.map((i) => `.tok[data-i="${i}"], .tid[data-i="${i}"]`).join(", ");
  const made = Array.from(root.querySelectorAll(selector));
  made.forEach((node) => node.classList.add("mg-made"));
  const firstToken = made.find((node) => node.classList.contains("tok"));
  const firstId = made.find((node) => node.classList.contains("tid"));
  [firstToken, firstId].forEach((node) => node && reveal(node));
}
