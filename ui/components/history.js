// One entry in the browser's history per view, not per keystroke (ui/common/history.py).
// Streamlit makes every change of the link a new entry. While someone types, each pause's run
// puts the text in the link: Back then walked back through the typing a few letters at a time.
// A new entry whose link differs from the current one only in one typed value (`data.typed`,
// the link names of texts) replaces the current entry instead, so that Back goes to the view
// before the typing, and Forward to where the typing ended.
//
// Streamlit also makes a page switch two entries: the new page's address without its link
// (Streamlit drops the old page's parameters), then the link the new page's first run writes.
// The second replaces the first, so that Back goes to the page left, not to a bare address.
let typed = new Set();
// From a push to another page until the new page's link replaces it, or the user acts first
// (then the new page's first run wrote no link: its view is all defaults, and stays an entry).
let switching = false;
const userActs = () => {
  switching = false;
};

function onlyTypedChanged(from, to) {
  const names = new Set([...from.keys(), ...to.keys()]);
  const changed = [...names].filter(
    (name) => JSON.stringify(from.getAll(name)) !== JSON.stringify(to.getAll(name)),
  );
  return changed.length === 1 && typed.has(changed[0]);
}

function pushState(state, unused, url) {
  if (url !== undefined && url !== null) {
    const next = new URL(url, window.location.href);
    const here = new URL(window.location.href);
    if (next.pathname !== here.pathname) {
      switching = true;
    } else if (switching || onlyTypedChanged(here.searchParams, next.searchParams)) {
      switching = false;
      return History.prototype.replaceState.call(this, state, unused, url);
    }
  }
  return History.prototype.pushState.call(this, state, unused, url);
}

// Installed for good, not undone when the component goes: a page switch clears the sidebar
// and draws it again, and the pushes of the switch come in between. Adding the same listener
// twice adds it once.
export default function ({ data }) {
  typed = new Set(data.typed);
  window.history.pushState = pushState;
  window.addEventListener("pointerdown", userActs, true);
  window.addEventListener("keydown", userActs, true);
}
