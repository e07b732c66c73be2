"""The live token view: the token view (`ui.common.token_view`) as a small Custom Component.

`st.html` runs every redraw through the browser's HTML sanitizer and rebuilds the block, which
costs a 1 KB text about a tenth of a second per keystroke. This component receives the view in
units (`token_view.ViewParts`: a token, a group, a chunk; an id) and replaces only the units
after the longest unchanged prefix, so a keystroke at the end of a text lays out and paints a
few spans, and the panes keep their scroll. Nothing sanitizes it, so everything it is given
must be built from escaped text, as every part of `token_view` is.

It also adds what a live view offers: click a token to pin it (the page draws the pinned
token's panel, `PinPanel`), Esc or a second click to unpin, "Copy ids" (comma or space
separated), and the pinned token's link to the Vocabulary page, followed in this session.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from ui.common.limits import MAX_IDS
from ui.common.token_view import ViewParts, view_css, view_js
from ui.components import component, script

_HERE = Path(__file__).resolve().parents[1] / "components"
HINT = (
    "Hover a token or id, or Tab in and use the arrows: its id, merge rank and bytes show here."
    " Click or Enter pins it."
)
_pane = component(
    "token_pane",
    css=view_css() + (_HERE / "token_pane.css").read_text(encoding="utf-8"),
    js=view_js() + script("clipboard") + script("token_pane"),
    isolate_styles=False,  # in the page's DOM: `.tok[data-token-id]` as every view has it
)


@dataclass(frozen=True)
class PinPanel:
    """The pinned token's panel, in two places (escaped HTML). Its facts stand in for the hover
    line above the panes, whose height they keep; its link and button sit beside the tokens'
    name. Under the facts, they made the line a third taller, and pinning a token moved the
    panes 19 px down, away from the pointer that had just clicked it."""

    facts: str
    actions: str


@dataclass(frozen=True)
class PaneEvents:
    """What the user did in the view during this run."""

    open_vocab: int | None  # the pinned token's "Open in Vocabulary" link, clicked


def ids_text(ids: Sequence[int]) -> str:
    """Every id (up to `MAX_IDS`, what decode mode reads back) as ``"1,2,3"``; the buttons
    join them with ", " or " "."""
    return ",".join(map(str, ids[:MAX_IDS]))


def copy_labels(count: int) -> tuple[str, str]:
    """What "Copy ids" copies, for its tooltip, and what its button says once it has: a text of
    more than `MAX_IDS` tokens gives the first `MAX_IDS` (the page offers all of them as a
    download), which the tooltip said was "every id".

    >>> copy_labels(3)
    ('every id', 'Copied ✓')
    >>> copy_labels(300_000)
    ('the first 200,000 of 300,000 ids, as many as Ids → text reads', 'Copied 200,000 ✓')
    """
    if count <= MAX_IDS:
        return "every id", "Copied ✓"
    return (
        f"the first {MAX_IDS:,} of {count:,} ids, as many as Ids → text reads",
        f"Copied {MAX_IDS:,} ✓",
    )


def live_token_view(
    key: str,
    parts: ViewParts,
    *,
    ids: Sequence[int],
    pinned: int | None,
    pin: PinPanel | None,
    on_pin: Callable[[int | None], None],
) -> PaneEvents:
    """Draw the view; `on_pin` gets the token index the user pinned (None: unpinned).

    `pinned` is the index pinned now and `pin` its panel, None for none.
    """
    state_key = f"{key}_view"

    def pin_changed() -> None:
        value = st.session_state[state_key]["pin"]
        wanted = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        on_pin(value if wanted else None)

    result = _pane(
        key=state_key,
        data={
            "classes": parts.classes,
            "tokens_label": parts.tokens_label,
            "token_units": parts.token_units,
            "id_units": parts.id_units,
            "hint": HINT,
            "pinned": pinned,
            "pin": "" if pin is None else pin.facts,
            "pin_actions": "" if pin is None else pin.actions,
            "ids_text": ids_text(ids),
            "copy_labels": copy_labels(len(ids)),
        },
        on_pin_change=pin_changed,
        on_open_vocab_change=lambda: None,
    )
    opened = result.get("open_vocab") if result is not None else None
    return PaneEvents(opened if isinstance(opened, int) else None)
