"""The Merges page's keyboard: ← → space Home End step the player from the moment it loads.

← → Home End are the shared stepper's (ui/common/steps.py), which the player's fragment draws
and reads, so a press reruns only the player.

It also keeps the chosen chunk's chip in view, inside the row of chips, and, presenting, the
current step's row of the chunk's table in view inside the table's pane.

Space, and the step keys until the stepper is in, are the player's button shortcuts
(``st.button(shortcut=…)``, in ui/merges/player.py). Streamlit ignores shortcuts while focus is in
a text box, which keeps the caret keys for editing, or in a group of options (a setting, the chunk
chips), whose arrows move along it. This script-only component (ui/components/merges_keys.js) hands
them back: Esc blurs what has the focus, and a click on an option or a button leaves it unfocused.
"""

from ui.components import component

_keys = component("merges_keys")


def player_keys(chunk: int) -> None:
    """Put the keyboard helper on the page (it draws nothing); `chunk` is the chosen one."""
    _keys(key="merges.keys", data={"chunk": chunk})
