// The server's pace for live boxes (ui/common/server_load.py), from a fragment that a keystroke
// reruns without redrawing the box: live_textarea.js reads it before each send.
export default function ({ data }) {
  document.documentElement.dataset.livePace = String(data.pace_ms);
}
