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

export default function ({ data, parentElement }) {
  const button = parentElement.querySelector("button");
  button.textContent = data.label;
  const app = document.querySelector("[data-testid='stApp']");
  if (app) watchRuns(app);
  let reset = null;
  const onClick = async () => {
    try {
      if (data.text === undefined && app) {
        button.textContent = "Copying…";
        await settled(app);
      }
      await copyText(data.text ?? window.location.href);
      button.textContent = data.done_label;
    } catch {
      button.textContent = data.failed_label;
    }
    clearTimeout(reset);
    reset = setTimeout(() => (button.textContent = data.label), 2000);
  };
  button.addEventListener("click", onClick);
  return () => {
    clearTimeout(reset);
    button.removeEventListener("click", onClick);
  };
}
