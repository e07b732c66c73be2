// A textarea that reports its text while the user types (ui/common/live_text.py).
// Streamlit calls this function on mount and again whenever the Python side sends new data.
export default function ({ data, parentElement, setStateValue }) {
  const area = parentElement.querySelector("textarea");
  const label = parentElement.querySelector(".lt-label");
  label.textContent = data.label;
  label.hidden = !data.show_label;
  area.setAttribute("aria-label", data.label);
  area.placeholder = data.placeholder;
  area.maxLength = data.max_chars;
  area.rows = data.rows;
  // Let a page size the box (--lt-height, e.g. 100% of a column): every box between the
  // shadow root and the textarea takes the height it is given.
  for (let box = label.parentElement; box; box = box.parentElement) {
    box.style.height = "100%";
  }
  // The page held the box's room until now (live_text.py); from here the box sizes itself.
  const place = parentElement.getRootNode().host?.closest(".stElementContainer");
  place?.setAttribute("data-lt-live", "");

  // Take the server's text only when the server says it is new (a fresh mount, an example, a
  // link). Otherwise the user is typing, the box is newer than the server's copy, and leaving
  // it alone is what keeps the caret and the characters typed since the last send.
  // Streamlit draws the box a moment before this script has loaded (more under load): text
  // typed or pasted into it then is the user's, newer than the server's, and goes to it now.
  const version = String(data.version);
  const typedEarly = area.dataset.version === undefined && area.value !== "";
  if (typedEarly) {
    area.value = area.value.slice(0, data.max_chars);
  } else if (area.dataset.version !== version) {
    area.value = data.value;
  }
  area.dataset.version = version;

  // How long to wait after a keystroke: nothing for short texts when the page asks for it
  // (`instant_chars`), else a pause that grows with the text, up to `debounce_ms`.
  const pause = (length) => {
    if (!data.instant_chars) return data.debounce_ms;
    if (length <= data.instant_chars) return 0;
    return Math.min(data.debounce_ms, Math.round(length / (data.instant_chars / 8)));
  };

  // A busy server asks for a pace: at least that long between two sends (0 when idle). Its
  // latest word is on the document: from this box's data, or from the live_pace signal that a
  // fragment redraws while this box is not (live_pace.js).
  document.documentElement.dataset.livePace = String(data.pace_ms);
  const pace = () => Number(document.documentElement.dataset.livePace) || 0;

  // A paste longer than the room left in the box is cut by the browser without a word: the
  // next send says so, and the page tells the user.
  let cut = false;
  const onPaste = (event) => {
    const pasted = event.clipboardData?.getData("text/plain") ?? "";
    const kept = area.value.length - (area.selectionEnd - area.selectionStart);
    cut = cut || kept + pasted.length > area.maxLength;
  };
  area.addEventListener("paste", onPaste);

  const RECHECK_MS = 600; // after the last keystroke or run, before a lost send is sent again
  let timer = null;
  let sentLength = area.value.length;
  let sentAt = -Infinity;
  const send = () => {
    timer = null;
    sentLength = area.value.length;
    sentAt = performance.now();
    // A stamp of its own makes each send a change to Streamlit, which calls the server's
    // callback only for a changed value ("" again, after an example had replaced "", is new).
    // The clock's resolution is coarse: two sends in one tick still get two stamps.
    const last = Number(area.dataset.stamp || 0);
    const stamp = Math.max(performance.timeOrigin + sentAt, last + 0.001);
    area.dataset.stamp = String(stamp);
    setStateValue("sent", { text: area.value, stamp, cut });
    cut = false;
  };
  const onInput = (event) => {
    clearTimeout(timer);
    timer = null;
    const length = area.value.length;
    // A paste (or a cut, or a drop) changes the text in one go: the user is not typing on.
    const pasted = event.inputType === "insertFromPaste" || Math.abs(length - sentLength) > 1000;
    const own = data.instant_chars && pasted ? 0 : pause(length);
    const wait = Math.max(own, sentAt + pace() - performance.now());
    if (wait <= 0) send();
    else timer = setTimeout(send, wait);
    clearTimeout(check); // once the user pauses, see whether the server has the last text
    check = setTimeout(recheck, Math.max(wait, 0) + RECHECK_MS);
  };
  area.addEventListener("input", onInput);
  if (typedEarly) send();

  // After a run, the server says how long it holds this box's text (live_pace.js). If the user
  // has paused and it differs, a send was lost between overlapping runs: send it again, once.
  let seenLength = null;
  let check = null;
  let resent = null;
  const recheck = () => {
    check = null;
    const stale = seenLength !== null && seenLength !== area.value.length;
    if (stale && timer === null && resent !== area.value) {
      resent = area.value;
      send();
    }
  };
  const onSeen = (event) => {
    const length = event.detail[data.key];
    if (typeof length !== "number") return;
    seenLength = length;
    clearTimeout(check);
    check = setTimeout(recheck, RECHECK_MS);
  };
  document.addEventListener("bpl-live-seen", onSeen);

  // "Copy link" asks before it copies the address (copy_link.js): an edit still pausing goes
  // now, and the box says when it last sent its text.
  const onFlush = (event) => {
    if (timer !== null) {
      clearTimeout(timer);
      send();
    }
    event.detail.sentAt = Math.max(event.detail.sentAt, sentAt);
  };
  document.addEventListener("bpl-live-flush", onFlush);

  return () => {
    document.removeEventListener("bpl-live-flush", onFlush);
    document.removeEventListener("bpl-live-seen", onSeen);
    area.removeEventListener("paste", onPaste);
    clearTimeout(check);
    area.removeEventListener("input", onInput);
    if (timer !== null) {
      clearTimeout(timer);
      send(); // never drop a pending edit when new data arrives mid-pause
    }
  };
}
