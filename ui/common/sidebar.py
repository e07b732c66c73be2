"""The app-wide sidebar: one encoding picker that every page reads.

The picker's value lives in ``st.session_state["common.enc"]`` and in the link (``?enc=…``), so it
stays the same across pages and survives a shared link.

The picker shows names only (``cl100k_base``), which always fit the sidebar; the models of the
chosen one are written in full under it, where a line can wrap (a full label such as
``o200k_base · GPT-4o, o1, o3 and later`` was cut off in the box).
"""

import streamlit as st

import tokenizer as tk
from tokenizer import Encoding
from ui.common import registry, state
from ui.common.registry import available_encodings, get_encoding

DEFAULT_ENCODING = "gpt2"


def _param() -> state.Param[str]:
    """The picker's state; its choices grow as the session trains or imports vocabularies."""
    return state.choice("common.enc", "enc", available_encodings(), DEFAULT_ENCODING)


def encoding_picker() -> None:
    """Draw the picker (from app.py, so it is the same widget on every page)."""
    linked = registry.sync_link()  # the link's own vocabularies (?vocabs=, ?vocab=) first
    param = _param()
    if linked is not None:
        param.set(linked)
    param.seed()
    if param.value not in available_encodings():  # a vocabulary this session removed
        param.set(DEFAULT_ENCODING)
    st.sidebar.selectbox(
        "Encoding",
        available_encodings(),
        key=param.key,
        help="The vocabulary and pre-tokenizer pattern used on every page: "
        + "; ".join(f"**{name}** for {models}" for name, models in tk.MODELS.items())
        + ". Vocabularies you train on the Train page are added here.",
    )
    param.publish()
    enc = current_encoding()
    models = tk.MODELS.get(enc.name, "A vocabulary trained here")
    specials = len(enc.special_tokens)
    st.sidebar.caption(
        f"{models}  \n{enc.n_vocab:,} token ids · "
        f"{specials} special token{'s' if specials != 1 else ''}"
    )


def current_encoding() -> Encoding:
    """The encoding picked in the sidebar (the default before the picker first runs)."""
    name = _param().value
    return get_encoding(name if name in available_encodings() else DEFAULT_ENCODING)


def choose_encoding(name: str) -> None:
    """Make `name` the picked encoding (before the picker is drawn: from a callback)."""
    _param().set(name)
