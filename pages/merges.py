"""Merges (url "/merges"): every BPE merge of a text, step by step, with every pair's rank.

Stage 1 (the regex chunks) is drawn here; stages 2 and 3 are the player, a fragment, so that
stepping redraws only them (ui/merges_player.py). The HTML comes from ui/merges_view.py.
"""

import streamlit as st

from ui import encodings
from ui.copy_link import copy_link_button
from ui.examples import EXAMPLES
from ui.frame import ensure_app_frame
from ui.limits import MAX_CHIPS, MAX_URL_TEXT_CHARS
from ui.live_input import examples_menu, live_textarea, set_live_text
from ui.merges_player import CHUNK, player, settings, sync_selection, walkthrough
from ui.merges_view import alternatives_html, chip_label, presentation_css
from ui.share import initial_text, publish, publish_text, seed_flag
from ui.sidebar import current_encoding

ensure_app_frame()

TEXT = "mg_text"
DEFAULT_TEXT = "GPT2 was created by OpenAI"
# Every view of the page fits in a link, and tracing stays interactive.
MAX_CHARS = MAX_URL_TEXT_CHARS
MERGES_EXAMPLES = {
    "GPT2 was created by OpenAI": DEFAULT_TEXT,
    "Repeated letters": "aaaa aaaaa hmmmmmm zzzzzzzz",
    "aaabdaaabac (minbpe)": "aaabdaaabac",
    **EXAMPLES,
}


def load_example(name: str) -> None:
    """Examples menu callback: put the example in the box."""
    set_live_text(TEXT, MERGES_EXAMPLES[name][:MAX_CHARS])


def text_box() -> str:
    """The examples menu and the live text box (pre-filled from ``?text=``)."""
    if TEXT not in st.session_state:
        set_live_text(TEXT, initial_text("text", DEFAULT_TEXT))
    examples_menu("mg_example", MERGES_EXAMPLES, load_example)
    typed = live_textarea(TEXT, label="Text", rows=2, max_chars=MAX_CHARS)
    if len(typed) >= MAX_CHARS:  # the box stops at the cap without a word: say why
        st.info(f"The Merges page traces at most {MAX_CHARS:,} characters; the rest is left out.")
    text = typed[:MAX_CHARS]
    publish_text("text", text, default=DEFAULT_TEXT)
    return text


enc = current_encoding()
seed_flag("present")
presenting = st.session_state.present
if presenting:
    st.html(presentation_css(dark=st.context.theme.type == "dark"))

head = st.columns([4, 1], vertical_alignment="bottom")
head[0].title("Merges", anchor=False)
head[1].toggle("Presentation mode", key="present", help="Large type, no sidebar, high contrast.")
publish("present", False)
st.caption(
    f"How **{encodings.encoding_label(enc.name)}** merges bytes into tokens: the pattern cuts "
    "the text into chunks, then each chunk merges its lowest-ranked pair, again and again."
)
text = text_box()
walk = walkthrough(enc, text)
if not walk.chunks:
    st.info("Type some text above to see it merge.")
    st.stop()
sync_selection(walk, enc)

st.subheader("1 · Pre-tokenization: the pattern cuts the text into chunks", anchor=False)
st.caption(
    "The pattern is a list of alternatives separated by `|`. At each position the regex engine "
    "tries them left to right and keeps the first that matches: that match is a chunk. Merges "
    "never cross a chunk's edge. Click a chunk to follow its merges."
)
shown = list(range(min(len(walk.chunks), MAX_CHIPS)))
if st.session_state[CHUNK] not in shown:
    shown.append(st.session_state[CHUNK])  # a link may select a chunk past the chips drawn


def chunk_chip(index: int) -> str:
    chunk = walk.chunks[index]
    kind = "other" if chunk.alternative is None else walk.alternatives[chunk.alternative].kind
    return chip_label(chunk.text, kind)


with st.container(height=220 if len(shown) > 60 else "content", border=False):
    st.pills("Chunks", shown, format_func=chunk_chip, key=CHUNK, required=True,
             label_visibility="collapsed")  # fmt: skip
if len(walk.chunks) > MAX_CHIPS:
    st.caption(f"The first {MAX_CHIPS:,} of {len(walk.chunks):,} chunks are shown as chips.")
with st.expander(f"The pattern of {enc.name}, alternative by alternative"):
    st.html(alternatives_html(walk))

settings()
player(walk, enc)
copy_link_button("mg_copy_link")
