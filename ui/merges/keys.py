"""The Merges page's keyboard: ← → space Home End step the player from the moment it loads.

← and → are worked out in the browser (ui/components/merges_steps.js), which sends the step they
lead to (`take_steps`): as button shortcuts, presses faster than the page's runs were lost. The
player's fragment draws that helper (`step_keys`), so a press reruns only the player.

It also keeps the chosen chunk's chip in view, inside the row of chips, and, presenting, the
current step's row of the chunk's table in view inside the table's pane.

The keys themselves are the player's button shortcuts (``st.button(shortcut=…)``, in
ui/merges/player.py). Streamlit ignores shortcuts while focus is in a text box, which keeps the
caret keys for editing, or in a group of options (a setting, the chunk chips), whose arrows move
along it. This script-only component (ui/components/merges_keys.js) hands them back: Esc blurs
what has the focus, and a click on an option or a button leaves it unfocused.
"""

from collections.abc import Callable

import streamlit as st

from ui.components import component

_keys = component("merges_keys")
_steps = component("merges_steps")

STEPS_KEY = "merges.steps"
_HEARD = "merges.steps_heard"  # the (mount, seq) of the last target taken


def player_keys(chunk: int) -> None:
    """Put the keyboard helper on the page (it draws nothing); `chunk` is the chosen one."""
    _keys(key="merges.keys", data={"chunk": chunk})


def take_steps(go: Callable[[int], None]) -> None:
    """Go to the step the browser worked out from the ← → presses since the last run, if any.

    Read in the run itself, not only in a callback: Streamlit drops a callback whose run the
    next message interrupts, and the next run sees no change to call it for. It comes before
    the slider's value in this run, which may be one the browser sent before it heard of the
    steps taken since.
    """
    state = st.session_state.get(STEPS_KEY)
    value = state.get("target") if isinstance(state, dict) else None
    if not isinstance(value, dict):
        return
    mount, seq, step = value.get("mount"), value.get("seq"), value.get("step")
    fresh = (mount, seq) != st.session_state.get(_HEARD)
    if isinstance(mount, str) and isinstance(seq, int) and isinstance(step, int) and fresh:
        st.session_state[_HEARD] = (mount, seq)
        go(step)


def step_keys(step: int, stops: tuple[int, ...] | None, last: int) -> None:
    """Draw the ← → helper with what it steps from: the step shown, the stops (None: every
    step), the last step."""
    _steps(
        key=STEPS_KEY,
        data={"step": step, "stops": None if stops is None else list(stops), "last": last},
        on_target_change=lambda: None,
    )
