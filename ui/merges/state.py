"""The Merges page's state: in the session under ``merges.*``, and in the link.

``?text=…&chunk=5&step=12&by=chunk&pieces=hex&speed=2&present=1`` restores a view exactly;
the chunk and the step are checked against the text they belong to when the page seeds them.
"""

from ui.common import state
from ui.common.examples import EXAMPLES
from ui.common.limits import MAX_URL_TEXT_CHARS

DEFAULT_TEXT = "GPT2 was created by OpenAI"
# Tracing stays interactive, and a text of this length fits in a link unless it is mostly
# non-Latin (`state.fits_in_link`: then the page says the link leaves it out).
MAX_CHARS = MAX_URL_TEXT_CHARS
EXAMPLE_TEXTS = {
    "GPT2 was created by OpenAI": DEFAULT_TEXT,
    "Repeated letters": "aaaa aaaaa hmmmmmm zzzzzzzz",
    "aaabdaaabac (minbpe)": "aaabdaaabac",
    **EXAMPLES,
}
BY_LABELS = {"chunk": "Selected chunk", "text": "Every merge"}
PIECE_LABELS = {"text": "Text ·", "symbols": "GPT-2 Ġ", "hex": "Hex bytes"}
SPEEDS = {"0.5": 2.0, "1": 1.0, "2": 0.5, "4": 0.25}  # label -> seconds per step

TEXT = state.text("merges.text", "text", DEFAULT_TEXT)
PRESENT = state.flag("merges.present", "present")
CHUNK = state.number("merges.chunk", "chunk", 0)
STEP = state.number("merges.step", "step", 0)
BY = state.choice("merges.by", "by", list(BY_LABELS), "chunk")
PIECES = state.choice("merges.pieces", "pieces", list(PIECE_LABELS), "text")
SPEED = state.choice("merges.speed", "speed", list(SPEEDS), "1")  # a lesson's link keeps its pace

# Not in links: the player's own state.
PLAYING = "merges.playing"
ACTED = "merges.acted"  # this run was asked for by the user, not by the play timer
SEEN = "merges.seen"  # (encoding, text, chunk's text) the chunk and step were chosen for
EXAMPLE = "merges.example"
LINE = "merges.text_line"  # presenting: the one-line box, applied to TEXT when committed
STEPS = "merges.steps"  # the ← → Home End stepper (ui/common/steps.py)

# What the page says of special-token text in its text (the "Special tokens" example has some).
SPECIALS_HERE = (
    "special tokens are added whole, never merged (the Playground's **Special tokens** shows "
    "{it} as one id)."
)
