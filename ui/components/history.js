// One entry in the browser's history per view, not per keystroke (ui/common/history.py).
// Streamlit makes every change of the link a new entry. While someone types, each pause's run
// puts the text in the link: Back then walked back through the typing a few letters at a time.
// Typing is one change: its first new link (one typed value changed, `data.typed` names them)
// is an entry, and the links that follow while the user goes on typing that value replace
// it. Back then goes to the view before the typing, and Forward to where the typing ended.
// Anything else the user does (a pointer press, a key outside a text box, Back or Forward)
// ends the typing: typing again is another change. A player's timer changing the step is
// the same (`data.played` names the step): a play is one entry.
//
// Streamlit also makes a page switch two entries: the new page's address without its link
// (Streamlit drops the old page's parameters), then the link the new page's first run writes.
// The second replaces the first, so that Back goes to the page left, not to a bare address.
// The values that change one at a time, as typing and as a player's timer change them (both
// are one entry), and those the timer changes (`data.played`).
let typed = new Set();
let played = new Set();
// The typed value whose typing made the current entry, while the user goes on typing it.
let typing = null;
// From a push to another page until the new page's link replaces it, or the user acts first
// (then the new page's first run wrote no link: its view is all defaults, and stays an entry).
let switching = false;
// The address of the page whose link the user followed, until Streamlit pushes it. Streamlit
// may send the new page's link before its address: pushed on the old address, that made an
// entry of the old page without its own settings, and Back went there (a Playground without
// its text). The push of the address carries the link too. A second link followed before the
// first page's pushes came: those pushes are on the way, and only the last page's link stays.
let leavingFor = null;
// The play the user's last action stopped, and when. A step the timer took before a press of
// Pause arrives after it (its run was under way): it belongs to the play, whose entry it
// replaces, not to a new entry of its own (Back then went to the step before it).
let stopped = null;
const LATE_MS = 1000;

// The address of another page of the app that the event is on a link to, or null.
function linkedPage(event) {
  const anchor = event.composedPath().find((node) => node instanceof HTMLAnchorElement);
  if (!anchor?.href) {
    return null;
  }
  const url = new URL(anchor.href, window.location.href);
  const elsewhere = url.pathname !== window.location.pathname;
  return url.origin === window.location.origin && elsewhere ? url.pathname : null;
}

// Whether the event follows a link in this tab: a plain primary click, or Enter.
function follows(event) {
  const modified = event.ctrlKey || event.metaKey || event.shiftKey || event.altKey;
  const press = event.type === "pointerdown" ? event.button === 0 : event.key === "Enter";
  return press && !modified;
}

const userActs = (event) => {
  const playing = typing !== null && played.has(typing) && event.type !== "popstate";
  stopped = playing ? { name: typing, at: performance.now() } : null;
  switching = false;
  typing = null;
  leavingFor = event.type !== "popstate" && follows(event) ? linkedPage(event) : null;
};

// Whether a key press goes to a box the user types into (the real target: a component may
// draw in a shadow root, whose events reach the window from its host).
function intoTextBox(event) {
  const target = event.composedPath()[0];
  if (target instanceof HTMLTextAreaElement || target?.isContentEditable) {
    return true;
  }
  const notText = ["checkbox", "radio", "range", "button", "submit", "reset", "file", "color"];
  return target instanceof HTMLInputElement && !notText.includes(target.type);
}

function onKey(event) {
  if (intoTextBox(event)) {
    switching = false;
    leavingFor = null;
  } else {
    userActs(event);
  }
}

// The one typed value that differs between two links, or null (nothing else may differ).
function typedChange(from, to) {
  const names = new Set([...from.keys(), ...to.keys()]);
  const changed = [...names].filter(
    (name) => JSON.stringify(from.getAll(name)) !== JSON.stringify(to.getAll(name)),
  );
  return changed.length === 1 && typed.has(changed[0]) ? changed[0] : null;
}

function pushState(state, unused, url) {
  if (url !== undefined && url !== null) {
    const next = new URL(url, window.location.href);
    const here = new URL(window.location.href);
    if (next.pathname !== here.pathname) {
      switching = true;
      typing = null;
      if (next.pathname === leavingFor) {
        leavingFor = null;
      }
    } else if (switching) {
      switching = false;
      return History.prototype.replaceState.call(this, state, unused, url);
    } else if (leavingFor !== null) {
      return undefined; // a page's link before its address
    } else {
      const change = typedChange(here.searchParams, next.searchParams);
      if (change !== null && change === stopped?.name && performance.now() - stopped.at < LATE_MS) {
        return History.prototype.replaceState.call(this, state, unused, url); // the play's step
      }
      const goingOn = change !== null && change === typing;
      typing = change;
      if (goingOn) {
        return History.prototype.replaceState.call(this, state, unused, url);
      }
    }
  }
  return History.prototype.pushState.call(this, state, unused, url);
}

// Installed for good, not undone when the component goes: a page switch clears the sidebar
// and draws it again, and the pushes of the switch come in between. Adding the same listener
// twice adds it once.
export default function ({ data }) {
  played = new Set(data.played);
  typed = new Set([...data.typed, ...played]);
  window.history.pushState = pushState;
  window.addEventListener("pointerdown", userActs, true);
  window.addEventListener("keydown", onKey, true);
  window.addEventListener("popstate", userActs, true);
}
