// A textarea that reports its text while the user types (ui/live_input.py).
// Streamlit calls this function on mount and again whenever the Python side sends new data.
export default function ({ data, parentElement, setStateValue }) {
  const area = parentElement.querySelector("textarea");
  parentElement.querySelector(".lt-label").textContent = data.label;
  area.setAttribute("aria-label", data.label);
  area.placeholder = data.placeholder;
  area.maxLength = data.max_chars;
  area.rows = data.rows;

  // Take the server's text only when the server says it is new (a fresh mount, an example, a
  // link). Otherwise the user is typing, the box is newer than the server's copy, and leaving
  // it alone is what keeps the caret and the characters typed since the last send.
  const version = String(data.version);
  if (area.dataset.version !== version) {
    area.value = data.value;
    area.dataset.version = version;
  }

  let timer = null;
  const send = () => {
    timer = null;
    setStateValue("value", area.value);
  };
  const onInput = () => {
    clearTimeout(timer);
    timer = setTimeout(send, data.debounce_ms);
  };
  area.addEventListener("input", onInput);

  return () => {
    area.removeEventListener("input", onInput);
    if (timer !== null) {
      clearTimeout(timer);
      send(); // never drop a pending edit when new data arrives mid-pause
    }
  };
}
