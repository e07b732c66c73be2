// "Copy link" (ui/common/copy_button.py): copies the page address, which the app keeps in sync
// with its state, so the copied link reopens exactly this view; or, given `data.text`, that
// text. Nothing goes to the server. `copyText` (clipboard.js) comes first.

const SETTLE_MS = 3000; // longest a copy waits for the server to take the last keystrokes
const NO_RUN_MS = 1000; // a send that no run follows within this changed nothing

// Note when each script run starts (once per document): Streamlit marks the app element.
function watchRuns(app) {
  if (app.bplRunStarted !== undefined) return;
  app.bplRunStarted = -Infinity;
  new MutationObserver(() => {
    if (app.dataset.testScriptState === "running") app.bplRunStarted = performance.now();
  }).observe(app, { attributes: true, attributeFilter: ["data-test-script-state"] });
}

// Resolves once the server has the text boxes' last edits (live_textarea.js) and no run is
// going: the address then holds the page's state, where a click right after typing used to
// copy the link without the last characters. An edit still pausing is sent at once. After
// SETTLE_MS it resolves anyway.
function settled(app) {
  const ask = { sentAt: -Infinity };
  document.dispatchEvent(new CustomEvent("bpl-live-flush", { detail: ask }));
  const until = performance.now() + SETTLE_MS;
  const done = () => {
    const now = performance.now();
    const taken = app.bplRunStarted >= ask.sentAt || now - ask.sentAt > NO_RUN_MS;
    return (taken && app.dataset.testScriptState !== "running") || now > until;
  };
  return new Promise((resolve) => {
    const poll = () => (done() ? resolve() : setTimeout(poll, 50));
    poll();
  });
}

// What the page's link leaves out as too long for it ("text"), or "": the page's caption that
// says so carries it (ui/common/copy_button.py, `link_leaves_out`).
function leftOut() {
  return document.querySelector("[data-link-leaves-out]")?.dataset.linkLeavesOut ?? "";
}

export default function ({ data, parentElement }) {
  const button = parentElement.querySelector("button");
  const app = document.querySelector("[data-testid='stApp']");
  // A link copy names what the link leaves out, kept up to date as the page redraws (a
  // fragment may add or remove the caption without this button's run).
  const isLink = data.text === undefined;
  const without = () => (isLink && leftOut() ? ` without the ${leftOut()}` : "");
  let busy = false; // "Copying…" or a result is showing
  const label = () => {
    const text = data.label + without();
    // Only a change is written: writing is itself a change the watcher below would hear.
    if (!busy && button.textContent !== text) button.textContent = text;
  };
  label();
  let frame = null; // one look per frame, however many changes a redraw makes
  const watcher = new MutationObserver(() => {
    frame ??= requestAnimationFrame(() => {
      frame = null;
      label();
    });
  });
  if (app && isLink) {
    watchRuns(app);
    watcher.observe(app, { childList: true, subtree: true });
  }
  let reset = null;
  const onClick = async () => {
    busy = true;
    try {
      if (isLink && app) {
        button.textContent = "Copying…";
        await settled(app);
      }
      await copyText(data.text ?? window.location.href);
      const shown = without();
      button.textContent = shown ? `Link${shown} copied ✓` : data.done_label;
    } catch {
      button.textContent = data.failed_label;
    }
    clearTimeout(reset);
    reset = setTimeout(() => {
      busy = false;
      label();
    }, 2000);
  };
  button.addEventListener("click", onClick);
  return () => {
    clearTimeout(reset);
    cancelAnimationFrame(frame);
    watcher.disconnect();
    button.removeEventListener("click", onClick);
  };
}
