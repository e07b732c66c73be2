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
let switching = false; // since a push to another page, until the run that made it has ended

// Calls `then` when the app's current script run has ended (the state Streamlit's frontend marks).
function afterThisRun(then) {
  const app = document.querySelector("[data-testid='stApp']");
  if (app === null) return then();
  const watch = new MutationObserver(() => {
    if (app.dataset.testScriptState === "notRunning") {
      watch.disconnect();
      then();
    }
  });
  watch.observe(app, { attributes: true, attributeFilter: ["data-test-script-state"] });
}

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
      afterThisRun(() => {
        switching = false;
      });
    } else if (switching || onlyTypedChanged(here.searchParams, next.searchParams)) {
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
