"""The Playground's state: every setting in the session under ``playground.*`` and in the link."""

from ui.common import state
from ui.common.examples import DEFAULT_TEXT

MODES = {"encode": "Text → tokens", "decode": "Ids → text"}
COLOURS = {"position": "Colour by position", "id": "Colour by id"}

TEXT = state.text("playground.text", "text", DEFAULT_TEXT)
IDS = state.text("playground.ids", "ids")
MODE = state.choice("playground.mode", "mode", list(MODES), "encode")
COLOUR = state.choice("playground.color", "color", list(COLOURS), "position")
WHITESPACE = state.flag("playground.ws", "ws")
SPECIAL = state.flag("playground.special", "special")
CHUNKS = state.flag("playground.chunks", "chunks")

# Not in links: how many tokens are drawn ("Show more"), the pinned token, the examples menu.
LIMIT = "playground.limit"
PIN = "playground.pin"  # (index, id) of the pinned token, or absent
EXAMPLE = "playground.example"
