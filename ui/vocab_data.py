"""The explorer's index of each vocabulary, built once, and its searches, run once per query.

A bundled vocabulary's index (about 2 s for o200k_base, mostly recovering parents) is shared by
every session through `st.cache_resource`, keyed by the encoding's name. A trained vocabulary
belongs to one session, so its index lives in that session: two users may train different
vocabularies under one name.
"""

from dataclasses import dataclass

import streamlit as st

from tokenizer import Encoding
from tokenizer.vocab import SearchMode, SearchResult, Vocabulary, build_vocabulary, search
from ui.encodings import bundled_encoding, trained_encodings
from ui.memory import keep_for_good

_INDEXING = "Indexing the vocabulary: every token's parents and children…"
_TRAINED_KEY = "_vocab_trained"  # session: {name: Vocabulary} of this session's trained ones
_SEARCH_KEY = "_vocab_search"  # session: (Query, SearchResult) of the last search


@dataclass(frozen=True)
class Query:
    """One search as the page asked for it (the vocabulary compares by identity)."""

    vocab: Vocabulary
    mode: SearchMode
    text: str
    ignore_case: bool


@st.cache_resource(show_spinner=_INDEXING)
def _bundled_vocabulary(name: str) -> Vocabulary:
    return keep_for_good(build_vocabulary(bundled_encoding(name)))


def vocabulary(enc: Encoding) -> Vocabulary:
    """The explorer's index of `enc`, built on first use."""
    if trained_encodings().get(enc.name) is not enc:
        return _bundled_vocabulary(enc.name)
    held: dict[str, Vocabulary] = st.session_state.setdefault(_TRAINED_KEY, {})
    if enc.name not in held or held[enc.name].enc is not enc:
        with st.spinner(_INDEXING):
            held[enc.name] = build_vocabulary(enc)
    return held[enc.name]


def run_search(query: Query) -> SearchResult:
    """`tokenizer.vocab.search`, remembered for the session's last query.

    Selecting a row or turning a page reruns the page with the same query; this makes those
    reruns free. `SearchError` propagates for the page to show.
    """
    held = st.session_state.get(_SEARCH_KEY)
    if held is None or held[0] != query:
        result = search(query.vocab, query.mode, query.text, ignore_case=query.ignore_case)
        st.session_state[_SEARCH_KEY] = held = (query, result)
    return held[1]
