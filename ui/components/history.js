// One entry in the browser's history per view, not per keystroke (ui/common/history.py).
// Streamlit makes every change of the link a new entry. While someone types, each pause's run
// puts the text in the link: Back then walked back through the typing a few letters at a time.
// A new entry whose link differs from the current one only in one typed value (`data.typed`,
// the link names of texts) replaces the current entry instead, so that Back goes to the view
// before the typing, and Forward to where the typing ended.
let typed = new Set();

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
    if (next.pathname === here.pathname && onlyTypedChanged(here.searchParams, next.searchParams)) {
      return History.prototype.replaceState.call(this, state, unused, url);
    }
  }
  return History.prototype.pushState.call(this, state, unused, url);
}

export default function ({ data }) {
  typed = new Set(data.typed);
  window.history.pushState = pushState;
  return () => {
    delete window.history.pushState; // the prototype's again, until the next run puts it back
  };
}
