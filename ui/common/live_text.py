"""A multi-line text box that updates the page while the user types.

`st.text_area` only sends its text on Ctrl+Enter or blur. This Custom Components v2 textarea sends
it after a short pause in typing and never rewrites the box under the caret.

The text lives in ``st.session_state[key]``. Read it there; change it with `set_live_text`, which
also tells the box to show the new text (the box otherwise keeps what the user typed).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

import streamlit as st

from ui.common import server_load, state, whole_page
from ui.common.glyphs import without_lone_surrogates
from ui.common.limits import DEBOUNCE_MS, MAX_TEXT_CHARS
from ui.common.messages import counted
from ui.components import component

_textarea = component("live_textarea")
_pace = component("live_pace")


def _version_key(key: str) -> str:
    return f"{key}_version"


def _box_key(key: str) -> str:
    return f"{key}_box"


def _repaired_key(key: str) -> str:
    return f"{key}_repaired"


def _heard_key(key: str) -> str:
    return f"{key}_heard"


def _cut_key(key: str) -> str:
    return f"{key}_cut"


def _told_cr_key(key: str) -> str:
    return f"{key}_told_cr"


def set_live_text(key: str, text: str) -> None:
    """Replace the text of the box `key` (call before the box is drawn in this run).

    What the box sent before is then old news: it must not come back as the page's text.
    """
    st.session_state[key] = text[:MAX_TEXT_CHARS]
    st.session_state[_version_key(key)] = st.session_state.get(_version_key(key), 0) + 1
    sent = _last_send(key)
    st.session_state[_heard_key(key)] = sent.stamp if sent else None


@dataclass(frozen=True)
class Send:
    """One send of the box: its text, and a stamp no other send of the page has.

    The stamp makes every send a change to Streamlit, which calls a widget's callback only
    for a changed value: "" sent again after an example had replaced an earlier "" is new.
    """

    text: str
    stamp: float
    cut: bool = False  # the browser cut a paste to the box's size


def _last_send(key: str) -> Send | None:
    """What the box last sent (None before it sends anything, or if it is not a send)."""
    state = st.session_state.get(_box_key(key))
    value = state.get("sent") if isinstance(state, dict) else None
    if not isinstance(value, dict):
        return None
    text, stamp = value.get("text"), value.get("stamp")
    if not isinstance(text, str) or not isinstance(stamp, int | float):
        return None
    return Send(text, stamp, value.get("cut") is True)


Taken = Literal["nothing new", "taken", "repaired", "cut"]


def _take_sent_text(key: str) -> Taken:
    """Make the text the box last sent the page's text, once per send.

    Lone surrogates (a paste can hold them) become U+FFFD before anything reads the text: the
    link, the tokens and the box itself, which a full run then redraws with the repaired text
    and a word to the user.
    """
    sent = _last_send(key)
    if sent is None or sent.stamp == st.session_state.get(_heard_key(key)):
        return "nothing new"
    repaired, count = without_lone_surrogates(sent.text[:MAX_TEXT_CHARS])
    if count:
        set_live_text(key, repaired)
        st.session_state[_repaired_key(key)] = count
        return "repaired"
    st.session_state[key] = repaired
    st.session_state[_heard_key(key)] = sent.stamp
    if sent.cut or len(sent.text) > MAX_TEXT_CHARS:
        st.session_state[_cut_key(key)] = True
        return "cut"  # a full run, which draws the box and its word
    return "taken"


def _take_typed_text(key: str, fragment: str | None) -> None:
    """Callback: the box sent new text, which becomes the page's text; with `fragment`, only
    that fragment reruns (the page draws everything that depends on the text in it), once the
    page is whole (a send during its first run stopped that run part-way)."""
    if _take_sent_text(key) == "taken" and fragment is not None and whole_page.is_whole():
        st.rerun(scope=fragment)


def live_textarea(
    key: str,
    *,
    label: str,
    placeholder: str = "",
    rows: int = 6,
    max_chars: int = MAX_TEXT_CHARS,
    instant_chars: int = 0,
    label_visibility: Literal["visible", "collapsed"] = "visible",
    rerun_fragment: str | None = None,
) -> str:
    """Draw the box and return its current text (also in ``st.session_state[key]``).

    By default the box sends its text `DEBOUNCE_MS` after the last keystroke. With
    `instant_chars` (`limits.INSTANT_CHARS`), texts up to that long go on every keystroke and
    longer ones after a pause that grows with them (a page that redraws fast asks for this).
    A collapsed label still names the box for screen readers. Its height is `rows` lines,
    unless the page sets the CSS variable ``--lt-height`` on an element around it.

    With `rerun_fragment` (the key of an `st.fragment`), typing reruns only that fragment, not
    the app: it must draw everything that depends on the text, reading it from
    ``st.session_state[key]``, and call `keep_pace` so the box hears the server's pace.

    Lone surrogates become U+FFFD, for every page, with a word to the user: a toast, which
    leaves with the moment (a box on the page would stay through the fragment's runs, over a
    text that no longer has any).
    """
    # Streamlit drops a callback when the next message lands while it runs (it takes the
    # interruption for the callback's own st.rerun), and the next run sees no change to call
    # it for: a megabyte paste under load could be lost so. A full run takes what was missed.
    _take_sent_text(key)
    st.session_state.setdefault(key, "")
    repaired, count = without_lone_surrogates(st.session_state[key])
    if count:
        set_live_text(key, repaired)
    count += st.session_state.pop(_repaired_key(key), 0)
    if count:
        st.toast(
            f"{counted(count, 'lone surrogate')} (half of a UTF-16 pair, "
            "not a character) became U+FFFD �, as the tokenizer reads them.",
            icon=":material/info:",
        )
    if st.session_state.pop(_cut_key(key), False):
        st.toast(
            f"This box holds at most {min(max_chars, MAX_TEXT_CHARS):,} characters: the end "
            "of the paste was left out.",
            icon=":material/content_cut:",
        )
    _tell_of_carriage_returns(key)
    _reserve_room(key, rows, shown=label_visibility == "visible")
    _textarea(
        key=_box_key(key),
        data={
            "value": st.session_state[key],
            "version": st.session_state.get(_version_key(key), 0),
            "label": label,
            "placeholder": placeholder,
            "rows": rows,
            "max_chars": max_chars,
            "debounce_ms": DEBOUNCE_MS,
            "instant_chars": instant_chars,
            "show_label": label_visibility == "visible",
            "pace_ms": _pace_ms(),
            "key": key,
        },
        on_sent_change=lambda: _take_typed_text(key, rerun_fragment),
    )
    return st.session_state[key]


def _tell_of_carriage_returns(key: str) -> None:
    """Say once per text that its carriage returns will not survive an edit in the box.

    A browser's text box holds no CR: it shows a link's ``a%0D%0Ab`` as two lines, and the
    text it sends after an edit has a line feed where the CR LF was. The tokens of the text as
    given are exact, but a teacher's CRLF example lost its point at the first keystroke.
    """
    text = st.session_state[key]
    if "\r" not in text or st.session_state.get(_told_cr_key(key)) == text:
        return
    st.session_state[_told_cr_key(key)] = text
    crs = text.count("\r")
    st.toast(
        f"This text holds {counted(crs, 'carriage return')} (CR, as in Windows "
        "line ends): its tokens are exact, but the box shows each as a line break, and an edit "
        "in the box turns them into line feeds (LF).",
        icon=":material/keyboard_return:",
    )


def _reserve_room(key: str, rows: int, *, shown: bool) -> None:
    """Give the box's place on the page the box's height before the box is in.

    Streamlit draws a component's place empty, then its HTML, then runs its script, each at a
    height of its own: everything under the box jumped while a page loaded (120 px on the
    Playground, 85 on Compare; a browser test measuring the tokens pane caught one mid-jump).
    The height is the box's (live_textarea.css: `rows` lines of 0.95 rem type at line-height
    1.5, 0.6 rem padding and a 1 px border each side, at least 6 rem), and the label's line
    and gap when shown. A page that sizes the box itself says so in ``--lt-reserve``; `:where`
    lets a page's own rule win; the box, once live, drops the reserve (a user may drag it
    shorter).
    """
    height = f"max(6rem, {rows} * 1.425rem + 1.2rem + 2px)"
    if shown:
        height += " + 1.8rem"
    place = "." + state.key_class(_box_key(key))
    st.html(  # style only: Streamlit gives it no room on the page
        f"<style>:where({place}:not([data-lt-live])) "
        f"{{ min-height: var(--lt-reserve, calc({height})); }}</style>"
    )


def _pace_ms() -> int:
    """The server's pace for this session's boxes (ui/common/server_load.py)."""
    return server_load.current_pace_ms(state.session_id())


def keep_pace(*keys: str) -> None:
    """Tell this page's live boxes the server's pace, and what it holds of boxes `keys`.

    A box learns the pace from its own data on every full run; a fragment that typing reruns
    without the box calls this, so a class typing at once slows its sends as soon as the server
    is busy. It also says how long each box's text is on the server (in UTF-16 units, as the
    browser counts): a box whose text differs once the user pauses sends it again, once, so a
    send lost between overlapping runs never leaves the tokens behind what was typed.
    """
    seen = {key: _length_in_box(st.session_state.get(key, "")) for key in keys}
    _pace(key="common.live_pace", data={"pace_ms": _pace_ms(), "seen": seen})


def _length_in_box(text: str) -> int:
    """The length of `text` as a browser's box holds it and counts it: in UTF-16 units, each
    CR LF or lone CR one line feed. Counted as given, a link's CR LF text differed from the
    box's at once, and the box sent its own, without the CRs, before any edit.

    >>> _length_in_box("a\\r\\nb\\r👋")
    6
    """
    held = text.replace("\r\n", "\n").replace("\r", "\n")
    return len(held.encode("utf-16-le")) // 2


def examples_menu(key: str, examples: Mapping[str, str], on_pick: Callable[[str], None]) -> None:
    """A collapsed "Load an example…" menu: `on_pick` gets the chosen name, then the menu resets.

    Resetting lets the same example be picked again after the user has edited its text.
    """

    def picked() -> None:
        name = st.session_state[key]
        if name:
            on_pick(name)
        st.session_state[key] = None

    st.selectbox(
        "Examples",
        list(examples),
        index=None,
        key=key,
        placeholder="Load an example…",
        on_change=picked,
        label_visibility="collapsed",
    )
