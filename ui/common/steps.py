"""← → Home End for a page that steps through something: Merges' player, Train's replay.

The browser works the presses out (ui/components/steps.js) and sends the step they lead to: as the
step buttons' shortcuts, presses faster than the page's runs were lost (a held key lost about half
of them, and a Home among arrows could be lost too). The buttons keep the same keys as shortcuts
for the moment before the script is in. Each page draws its stepper (`step_keys`) in the fragment
that shows the step, so a press reruns only that, and reads the target at the top of the same
fragment (`take_steps`).
"""

from collections.abc import Callable

import streamlit as st

from ui.common.state import key_class
from ui.components import component

_steps = component("steps")


def take_steps(key: str, go: Callable[[int], None]) -> None:
    """Go to the step the browser worked out from the key presses since the last run, if any.

    Read in the run itself, not only in a callback: Streamlit drops a callback whose run the
    next message interrupts, and the next run sees no change to call it for. It comes before
    the slider's value in this run, which may be one the browser sent before it heard of the
    steps taken since. `key` is the stepper's (`step_keys`).
    """
    state = st.session_state.get(key)
    value = state.get("target") if isinstance(state, dict) else None
    if not isinstance(value, dict):
        return
    mount, seq, step = value.get("mount"), value.get("seq"), value.get("step")
    heard = f"{key}.heard"  # the (mount, seq) of the last target taken
    fresh = (mount, seq) != st.session_state.get(heard)
    if isinstance(mount, str) and isinstance(seq, int) and isinstance(step, int) and fresh:
        st.session_state[heard] = (mount, seq)
        go(step)


def step_keys(
    key: str,
    step: int,
    last: int,
    words: str,
    stops: tuple[int, ...] | None = None,
    *,
    area: str | None = None,
) -> None:
    """Draw the stepper with what it steps from: the step shown, the last step, and the steps a
    press stops at (None: every step). It draws nothing to see, but says `words` (the step's
    headline, in plain text) to a screen reader when the step changes: the redrawn headline
    itself is not announced.

    `area`: the key of the container the keys step, on a page that is more than that. Scrolled
    out of sight, it leaves the keys to the page (End to its foot, Space a screen down): on
    Train they stepped, and played, a replay far below the settings being read.
    """
    _steps(
        key=key,
        data={
            "name": key,
            "step": step,
            "last": last,
            "stops": None if stops is None else list(stops),
            "words": words,
            "area": None if area is None else key_class(area),
        },
        on_target_change=lambda: None,
    )
