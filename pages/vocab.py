"""Vocabulary (url "/vocab"): search any vocabulary, see how each token was built and used.

The index comes from tokenizer/vocab.py (built once per vocabulary, ui/vocab_data.py), the
widgets from ui/vocab_widgets.py, the token card and merge tree from ui/vocab_view.py.
"""

import streamlit as st

from ui.copy_link import copy_link_button
from ui.encodings import encoding_label
from ui.frame import ensure_app_frame
from ui.sidebar import current_encoding
from ui.vocab_data import vocabulary
from ui.vocab_widgets import find_panel, results_table, selected_token, token_panel

ensure_app_frame()

SOURCES = {
    "merges": "read from its merge list",
    "ranks": "recovered by running BPE on each token's bytes with only the earlier ranks, "
    "as this vocabulary ships ranks, not merges",
}

enc = current_encoding()
vocab = vocabulary(enc)
st.title("Vocabulary")
st.caption(
    f"Every token of **{encoding_label(enc.name)}**, the two tokens it was merged from "
    f"({SOURCES[vocab.source]}), and the tokens it is part of."
)
listing = find_panel(vocab)
if listing is not None:
    results_table(vocab, listing)
token_panel(vocab, selected_token(vocab))
copy_link_button("vocab_copy_link")
