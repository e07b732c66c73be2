"""Playground (url "/"): type text or paste ids, see every token live.

Widgets in, one core call, one HTML block out; the rendering lives in ui/token_view.py.
"""

import streamlit as st

from tokenizer import Encoding, Tokenized
from ui import encodings
from ui.copy_link import copy_link_button
from ui.examples import DEFAULT_TEXT, EXAMPLES
from ui.frame import ensure_app_frame
from ui.ids_input import parse_ids, tokenized_from_ids, unknown_ids
from ui.limits import MAX_IDS, RENDER_LIMIT
from ui.live_input import examples_menu, live_textarea, set_live_text
from ui.messages import inline_code, quote_some
from ui.share import forget, initial_text, publish, publish_text, seed_choice, seed_flag
from ui.sidebar import current_encoding
from ui.stats import format_ratio, text_stats
from ui.token_view import ViewOptions, render_tokens
from ui.vocab_links import token_lookup

ensure_app_frame()

TEXT, IDS = "pg_text", "pg_ids"  # session keys of the two text boxes
MODES = {"encode": "Text → tokens", "decode": "Ids → text"}
COLOURS = {"position": "Position", "id": "Token id"}
# Settings kept in the URL, with the values left out of it.
SETTING_DEFAULTS = {
    "mode": "encode",
    "color": "position",
    "ws": False,
    "special": False,
    "chunks": False,
}


def load_example(name: str) -> None:
    """Examples menu callback: put the example in the box."""
    set_live_text(TEXT, EXAMPLES[name])
    if "<|" in EXAMPLES[name]:
        st.session_state.special = True  # the example is about special tokens


def text_box() -> str:
    """Encode mode's input: an examples menu and the live text box (pre-filled from ?text=)."""
    if TEXT not in st.session_state:
        set_live_text(TEXT, initial_text("text", DEFAULT_TEXT))
    examples_menu("pg_example", EXAMPLES, load_example)
    text = live_textarea(TEXT, label="Text", placeholder="Type or paste text…")
    if not publish_text("text", text, default=DEFAULT_TEXT):
        st.caption("This text is too long for a link; the link keeps the other settings.")
    forget("ids")
    return text


def ids_box() -> str:
    """Decode mode's input: the live box for ids (pre-filled from ?ids=)."""
    if IDS not in st.session_state:
        set_live_text(IDS, initial_text("ids", ""))
    raw = live_textarea(
        IDS, label="Token ids", placeholder="31373, 995   or   31373 995   or   [31373, 995]"
    )
    publish_text("ids", raw, default="")
    forget("text")
    return raw


def decode_ids(enc: Encoding, raw: str) -> Tokenized:
    """Parse pasted ids, name the ones that cannot be used, and decode the rest."""
    parsed = parse_ids(raw)
    if parsed.malformed:
        st.error(
            f"Not token ids: {quote_some(parsed.malformed)}. Separate ids with spaces or "
            "commas, or paste a JSON list such as `[31373, 995]`."
        )
    ids = parsed.ids[:MAX_IDS]
    if len(parsed.ids) > MAX_IDS:
        st.warning(f"Only the first {MAX_IDS:,} ids are decoded.")
    unknown = unknown_ids(enc, ids)
    if unknown:
        st.error(
            f"Not ids of {inline_code(enc.name)} (0 to {enc.n_vocab - 1:,}, a few unused): "
            f"{quote_some(unknown)}. They are left out below."
        )
    return tokenized_from_ids(enc, [i for i in ids if enc.is_valid_id(i)])


def show_counts(tok: Tokenized) -> None:
    """The six counts, exact however long the text (only the drawing is capped)."""
    stats = text_stats(tok.text, len(tok.ids))
    cells = st.columns(6)
    cells[0].metric("Tokens", f"{stats.tokens:,}")
    cells[1].metric("Characters", f"{stats.chars:,}")
    cells[2].metric("UTF-8 bytes", f"{stats.utf8_bytes:,}")
    cells[3].metric("Words", f"{stats.words:,}")
    cells[4].metric("Chars / token", format_ratio(stats.chars_per_token))
    cells[5].metric("Bytes / token", format_ratio(stats.bytes_per_token))


def visible_limit(text_hash: int) -> int:
    """Tokens to draw: grows with "Show more", back to one page when the text changes."""
    held_hash, limit = st.session_state.get("pg_limit", (None, RENDER_LIMIT))
    return limit if held_hash == text_hash else RENDER_LIMIT


def show_more(text_hash: int) -> None:
    """Callback of "Show more": draw another page of tokens of this same text."""
    st.session_state.pg_limit = (text_hash, visible_limit(text_hash) + RENDER_LIMIT)


enc = current_encoding()
st.title("Playground")
# A trained vocabulary's name is user input: quote it, never let it format the caption.
st.caption(f"How {inline_code(encodings.encoding_label(enc.name), 80)} cuts text into tokens.")

seed_choice("mode", list(MODES), SETTING_DEFAULTS["mode"])
mode = st.segmented_control(
    "Mode",
    list(MODES),
    format_func=MODES.get,
    key="mode",
    required=True,
    label_visibility="collapsed",
)
raw = ids_box() if mode == "decode" else text_box()

for flag in ("special", "ws", "chunks"):
    seed_flag(flag, SETTING_DEFAULTS[flag])
seed_choice("color", list(COLOURS), SETTING_DEFAULTS["color"])
row = st.columns([1, 1, 1, 1.4], vertical_alignment="bottom")
special = mode == "encode" and row[0].toggle(
    "Special tokens",
    key="special",
    help="Read `<|endoftext|>` and its kind as single special tokens, not as text.",
)
show_whitespace = row[1].toggle(
    "Show whitespace",
    key="ws",
    help="Space ·, tab →, newline ↵, and invisible characters by their code point.",
)
show_chunks = mode == "encode" and row[2].toggle(
    "Regex chunks",
    key="chunks",
    help="How the pre-tokenizer's pattern cuts the text before any merge.",
)
colour_by = row[3].segmented_control(
    "Colour by", list(COLOURS), format_func=COLOURS.get, key="color", required=True
)
for setting in ("mode", "color", "ws", *(("special", "chunks") if mode == "encode" else ())):
    publish(setting, SETTING_DEFAULTS[setting])

if mode == "decode":
    tok, chunks = decode_ids(enc, raw), None
else:
    tok = encodings.tokenize(enc, raw, special=special)
    chunks = encodings.split(enc, raw, special=special) if show_chunks else None

show_counts(tok)
text_hash = hash(tok.text)
limit = visible_limit(text_hash)
if tok.ids:
    view = ViewOptions(color_by=colour_by, show_whitespace=show_whitespace, limit=limit)
    st.html(render_tokens(tok, enc, view, chunks), unsafe_allow_javascript=True)
    token_lookup(enc, tok.ids[:limit], key="pg_lookup")
else:
    st.caption("No tokens yet: type above.")
if len(tok.ids) > limit:
    st.info(f"Showing the first {limit:,} of {len(tok.ids):,} tokens; the counts cover all.")
    st.button(f"Show {RENDER_LIMIT:,} more", on_click=show_more, args=(text_hash,))
if mode == "decode" and tok.ids:
    st.code(tok.text[:100_000], language=None, wrap_lines=True)
copy_link_button("pg_copy_link")
