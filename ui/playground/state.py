"""The Playground's state: every setting in the session under ``playground.*`` and in the link."""

from tokenizer import TEMPLATES
from ui.common import state
from ui.common.examples import DEFAULT_TEXT
from ui.playground.conversation import DEFAULT_CONVERSATION, Message, from_link, to_link

MODES = {"encode": "Text → tokens", "decode": "Ids → text", "chat": "Chat"}
COLOURS = {"position": "Colour by position", "id": "Colour by id"}

TEXT = state.text("playground.text", "text", DEFAULT_TEXT)
IDS = state.text("playground.ids", "ids")
MODE = state.choice("playground.mode", "mode", list(MODES), "encode")
COLOUR = state.choice("playground.color", "color", list(COLOURS), "position")
WHITESPACE = state.flag("playground.ws", "ws")
SPECIAL = state.flag("playground.special", "special")
CHUNKS = state.flag("playground.chunks", "chunks")

# The Chat view: the conversation (a tuple of `Message`s), its template (default: the
# encoding's own) and whether the rendered text ends with the assistant's prompt.
CHAT = state.Param[tuple[Message, ...]](
    "playground.chat", "chat", DEFAULT_CONVERSATION, from_link, to_link, unlinked_stays=True
)
TEMPLATE = state.choice("playground.chat.template", "template", TEMPLATES, "chatml")
PROMPT = state.flag("playground.chat.prompt", "prompt", default=True)

# Not in links: how many tokens are drawn ("Show more"), the pinned token, the examples menu,
# the chat message to focus.
LIMIT = "playground.limit"
PIN = "playground.pin"  # (index, id) of the pinned token, or absent
EXAMPLE = "playground.example"
CHAT_FOCUS = "playground.chat.focus"  # a CSS selector: the element to focus after a run
