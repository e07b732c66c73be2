"""The app-wide sidebar: one encoding picker that every page reads.

The picker's value lives in ``st.session_state["enc"]`` and in the URL (``?enc=cl100k_base``), so
it stays the same across pages and survives a shared link.
"""

import streamlit as st

from tokenizer import Encoding
from ui.encodings import available_encodings, encoding_label, get_encoding
from ui.share import publish, seed_choice

ENCODING_KEY = "enc"
DEFAULT_ENCODING = "gpt2"


def encoding_picker() -> None:
    """Draw the picker (from app.py, so it is the same widget on every page)."""
    names = available_encodings()
    seed_choice(ENCODING_KEY, names, DEFAULT_ENCODING)
    st.sidebar.selectbox(
        "Encoding",
        names,
        format_func=encoding_label,
        key=ENCODING_KEY,
        help="The vocabulary and pre-tokenizer pattern used on every page. "
        "Vocabularies you train on the Train page are added here.",
    )
    publish(ENCODING_KEY, DEFAULT_ENCODING)
    enc = current_encoding()
    st.sidebar.caption(
        f"{enc.n_vocab:,} token ids · {len(enc.special_tokens)} special "
        f"token{'s' if len(enc.special_tokens) != 1 else ''}"
    )


def current_encoding() -> Encoding:
    """The encoding picked in the sidebar (the default before the picker first runs)."""
    name = st.session_state.get(ENCODING_KEY) or DEFAULT_ENCODING
    if name not in available_encodings():
        name = DEFAULT_ENCODING  # e.g. a link naming a vocabulary trained in another session
    return get_encoding(name)
