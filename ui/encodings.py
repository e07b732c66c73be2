"""Which encodings the app offers, and loading them once per process.

Bundled vocabularies are big and read-only, so they are shared by every session through
`st.cache_resource`. Vocabularies a user trains belong to that user's session: the trainer page
stores them with `add_trained_encoding`, and every picker that lists `available_encodings()`
offers them from then on.
"""

from collections.abc import Callable
from typing import Literal, TypeVar

import streamlit as st

import tokenizer as tk
from tokenizer import Encoding, Tokenized
from ui.limits import SHARED_CACHE_MAX_CHARS
from ui.memory import keep_for_good

T = TypeVar("T")

# st.session_state[TRAINED_KEY]: dict[str, Encoding], the session's trained vocabularies by name.
TRAINED_KEY = "trained_encodings"


@st.cache_resource(show_spinner="Loading the vocabulary…")
def bundled_encoding(name: str) -> Encoding:
    """A bundled vocabulary, loaded once per server process and shared by all sessions."""
    return keep_for_good(tk.get_encoding(name))


def trained_encodings() -> dict[str, Encoding]:
    """This session's trained vocabularies (empty until the trainer adds one)."""
    return st.session_state.setdefault(TRAINED_KEY, {})


def add_trained_encoding(enc: Encoding) -> None:
    """Offer `enc` in every encoding picker of this session, under ``enc.name``."""
    if enc.name in tk.list_encodings():
        raise ValueError(f"{enc.name!r} is a bundled encoding; give the trained one another name")
    trained_encodings()[enc.name] = enc


def available_encodings() -> list[str]:
    """Bundled names first, in their usual order, then this session's trained ones."""
    return [*tk.list_encodings(), *trained_encodings()]


def encoding_label(name: str) -> str:
    """``"o200k_base · GPT-4o, o1, o3 and later"``; trained ones say so."""
    if name in tk.MODELS:
        return f"{name} · {tk.MODELS[name]}"
    return f"{name} · trained here"


def get_encoding(name: str) -> Encoding:
    """A bundled or trained encoding by name; ValueError names the choices if it is neither."""
    if name in trained_encodings():
        return trained_encodings()[name]
    if name not in tk.list_encodings():
        raise ValueError(f"unknown encoding {name!r}; choose one of {available_encodings()}")
    return bundled_encoding(name)


def _is_bundled(enc: Encoding) -> bool:
    return enc.name in tk.list_encodings() and enc is bundled_encoding(enc.name)


def _session_memo(kind: str, key: tuple, compute: Callable[[], T]) -> T:
    """This session's last result of one `kind`, so a toggle that keeps the text keeps the work.

    One entry per kind bounds memory to one big text per session.
    """
    memo = st.session_state.setdefault("_memo", {})
    held = memo.get(kind)
    # Tuples compare item by item; an Encoding compares by identity, a text by content.
    if held is None or held[0] != key:
        memo[kind] = held = (key, compute())
    return held[1]


def _allowed(special: bool) -> Literal["all"] | tuple[()]:
    return "all" if special else ()


@st.cache_resource(max_entries=32, ttl=3600, show_spinner=False)
def _tokenize_shared(name: str, text: str, special: bool) -> Tokenized:
    """Shared across sessions: a class pasting the same example tokenizes it once."""
    return bundled_encoding(name).tokenize(text, _allowed(special))


@st.cache_resource(max_entries=32, ttl=3600, show_spinner=False)
def _split_shared(name: str, text: str, special: bool) -> tuple[str, ...]:
    return tuple(bundled_encoding(name).split(text, _allowed(special)))


def tokenize(enc: Encoding, text: str, *, special: bool) -> Tokenized:
    """Tokenize with special tokens recognised (`special`) or read as plain text.

    Short texts with a bundled encoding are cached for everyone; a big text's result (tens of
    MB for a 1 MB paste) is only remembered for its own session. Trained encodings are never
    shared: two users may train different vocabularies under one name.
    """
    if _is_bundled(enc) and len(text) <= SHARED_CACHE_MAX_CHARS:
        return _tokenize_shared(enc.name, text, special)
    return _session_memo(
        "tokenize", (enc, text, special), lambda: enc.tokenize(text, _allowed(special))
    )


def split(enc: Encoding, text: str, *, special: bool) -> tuple[str, ...]:
    """The pre-tokenizer's chunks, cached like `tokenize`."""
    if _is_bundled(enc) and len(text) <= SHARED_CACHE_MAX_CHARS:
        return _split_shared(enc.name, text, special)
    return _session_memo(
        "split", (enc, text, special), lambda: tuple(enc.split(text, _allowed(special)))
    )
