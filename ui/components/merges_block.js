// The merges page's whole text (ui/merges_block.py): HTML the server has already escaped,
// patched into the page instead of replaced. A merge step changes a few tokens of a text that
// may have thousands; st.html would sanitize, parse and lay out all of them again (most of a
// step's time on a 2,000-character text). Here only the changed run of nodes is swapped in, and
// the tokens after it only get their new position numbers (data-i), which no style depends on.
// The block's scripts are dropped: the token view's hover wiring would point at replaced nodes.

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

// Make `old`'s children show what `fresh`'s do, touching as few nodes as possible: keep the
// common head and tail, and replace the middle, or descend into it when it is the same
// containers with new content (the panes of tokens and of ids inside the block).
function patch(old, fresh) {
  const a = Array.from(old.childNodes);
  const b = Array.from(fresh.childNodes);
  let head = 0;
  while (head < a.length && head < b.length && same(a[head], b[head])) head++;
  let endA = a.length;
  let endB = b.length;
  while (endA > head && endB > head && same(a[endA - 1], b[endB - 1])) {
    endA--;
    endB--;
  }
  for (let k = 0; k < head; k++) renumber(a[k], b[k]);
  for (let k = 0; k < a.length - endA; k++) renumber(a[endA + k], b[endB + k]);
  // The middle is the same containers, each with changed content (the two panes): descend.
  const middle = endA - head;
  if (middle > 0 && middle === endB - head &&
      a.slice(head, endA).every((node, k) => shell(node) && shell(node) === shell(b[head + k]))) {
    for (let k = head; k < endA; k++) {
      copyAttributes(a[k], b[k]);
      patch(a[k], b[k]);
    }
    return;
  }
  const before = a[endA] || null;
  for (let k = head; k < endA; k++) a[k].remove();
  for (let k = head; k < endB; k++) old.insertBefore(b[k], before);
}

export default function ({ data, parentElement }) {
  let root = parentElement.querySelector(".mg-block");
  if (!root) {
    root = document.createElement("div");
    root.className = "mg-block";
    parentElement.appendChild(root);
  }
  if (root.dataset.digest !== data.digest) {
    root.dataset.digest = data.digest;
    const fresh = document.createElement("template");
    fresh.innerHTML = data.html;
    fresh.content.querySelectorAll("script").forEach((script) => script.remove());
    patch(root, fresh.content);
  }
  root.querySelectorAll(".tok.mg-made").forEach((token) => token.classList.remove("mg-made"));
  if (Number.isInteger(data.mark)) {
    root.querySelectorAll(`.tok[data-token-id="${data.mark}"]`)
      .forEach((token) => token.classList.add("mg-made"));
  }
}
