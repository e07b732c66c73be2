// A tab chosen with the keyboard keeps the focus (ui/common/tab_focus.py puts this on every page).
// Tabs that rerun the page when one opens (`st.tabs(on_change="rerun")`: Compare's, Train's) are
// drawn again as the page changes, and the focus, which the arrow key had moved to the new tab,
// fell to the page's body: the next arrow did nothing until Tab found the way back. After an
// arrow, Home or End on a tab, the focus is put back on the open tab of that list each time it
// falls to the body, until the user acts elsewhere or a few seconds have passed.
const KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End"]);
const WATCH_MS = 4000;

let watch = null; // { list: index of the tab list in the page, until: time, frame: id }

function lists() {
  return [...document.querySelectorAll("[role='tablist']")];
}

function stop() {
  if (watch !== null) cancelAnimationFrame(watch.frame);
  watch = null;
}

function keep() {
  if (watch === null) return;
  const active = document.activeElement;
  if (active === null || active === document.body) {
    lists()[watch.list]?.querySelector("[role='tab'][aria-selected='true']")?.focus();
  } else if (active.closest("[role='tablist']") === null) {
    stop(); // the user has gone on to something else
    return;
  }
  if (Date.now() < watch.until) watch.frame = requestAnimationFrame(keep);
  else watch = null;
}

function onKey(event) {
  const tab = event.composedPath()[0];
  if (!KEYS.has(event.key) || !(tab instanceof Element) || tab.getAttribute("role") !== "tab") {
    return;
  }
  const list = lists().indexOf(tab.closest("[role='tablist']"));
  if (list < 0) return;
  stop();
  watch = { list, until: Date.now() + WATCH_MS, frame: requestAnimationFrame(keep) };
}

export default function () {
  window.addEventListener("keydown", onKey, true);
  window.addEventListener("pointerdown", stop, true);
  return () => {
    stop();
    window.removeEventListener("keydown", onKey, true);
    window.removeEventListener("pointerdown", stop, true);
  };
}
