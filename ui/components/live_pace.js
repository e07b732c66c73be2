// The server's pace for live boxes (ui/common/server_load.py), and how long each box's text is
// on the server, from a fragment that a keystroke reruns without redrawing the box:
// live_textarea.js reads the pace before each send, and checks its text against `seen`.
export default function ({ data }) {
  document.documentElement.dataset.livePace = String(data.pace_ms);
  document.dispatchEvent(new CustomEvent("bpl-live-seen", { detail: data.seen || {} }));
}
