"""Compare (url "/compare"): tokenizers side by side on one text, and across languages and code.

Two tabs, each only computed when open: "Side by side" (coloured tokens per column, counts, a
boundary diff, every encoding's figures) and "Languages & code" (ui/languages_panel.py).
"""

import streamlit as st

import tokenizer as tk
from ui import encodings, train_session
from ui.compare_view import (
    Row,
    cheapest_sentence,
    column_html,
    diff_html,
    diff_summary,
    figures_frame,
    ratio_caption,
)
from ui.examples import DEFAULT_TEXT
from ui.frame import ensure_app_frame
from ui.languages_panel import languages_tab
from ui.limits import MAX_COMPARE, RENDER_LIMIT
from ui.live_input import live_textarea, set_live_text
from ui.messages import inline_code
from ui.samples import load_samples
from ui.stats import text_stats
from ui.token_view import ViewOptions, render_tokens

ensure_app_frame()

TEXT, PICKED = "cmp_text", "cmp_encs"
TABS = ["Side by side", "Languages & code"]


def default_choice() -> list[str]:
    """GPT-2 against the latest vocabulary trained here, else the three bundled encodings."""
    trained = list(encodings.trained_encodings())
    return ["gpt2", trained[-1]] if trained else tk.list_encodings()


def seed_choice() -> None:
    """Keep the picker valid; follow the default (e.g. a new training) until the user edits it."""
    names = encodings.available_encodings()
    current = st.session_state.get(PICKED)
    if current is None or current == st.session_state.get("cmp_default"):
        current = default_choice()
    st.session_state["cmp_default"] = default_choice()
    st.session_state[PICKED] = [n for n in current if n in names][:MAX_COMPARE]


def load_sample() -> None:
    """Samples menu callback: put the sample in the box, then reset the menu."""
    chosen = st.session_state.cmp_sample
    if chosen is not None:
        set_live_text(TEXT, chosen.text)
    st.session_state.cmp_sample = None


def columns(text: str, chosen: list[str], show_whitespace: bool) -> dict:
    """One column per tokenizer: its name, counts and coloured tokens; returns the tokenizations."""
    toks = {}
    for index, (name, holder) in enumerate(zip(chosen, st.columns(len(chosen)), strict=True)):
        enc = encodings.get_encoding(name)
        tok = encodings.tokenize(enc, text, special=False)
        toks[name] = tok
        stats = text_stats(tok.text, len(tok.ids))
        with holder.container(key=f"cmp_col_{index}"):
            st.markdown(f"**{inline_code(name, 40)}**")
            st.metric("Tokens", f"{stats.tokens:,}")
            st.caption(ratio_caption(stats))
            if tok.ids:
                view = ViewOptions(show_whitespace=show_whitespace, limit=RENDER_LIMIT)
                st.html(column_html(render_tokens(tok, enc, view)), unsafe_allow_javascript=True)
            if len(tok.ids) > RENDER_LIMIT:
                st.caption(f"The first {RENDER_LIMIT:,} tokens are drawn; the counts cover all.")
    return toks


def boundary_section(toks: dict, chosen: list[str], show_whitespace: bool) -> None:
    st.subheader("Where they split differently")
    row = st.columns(2)
    a = row[0].selectbox("A", chosen, index=0, key="cmp_a")
    b = row[1].selectbox("B", chosen, index=min(1, len(chosen) - 1), key="cmp_b")
    if a == b:
        st.info("Pick two different tokenizers for A and B.")
        return
    st.markdown(diff_summary(toks[a], toks[b], inline_code(a), inline_code(b)))
    st.html(diff_html(toks[a], toks[b], a, b, show_whitespace=show_whitespace))


def every_encoding(text: str) -> None:
    st.subheader("Every loaded encoding")
    rows = []
    for name in encodings.available_encodings():
        tok = encodings.tokenize(encodings.get_encoding(name), text, special=False)
        rows.append(Row(name, text_stats(tok.text, len(tok.ids))))
    st.markdown(cheapest_sentence([Row(inline_code(r.name), r.stats) for r in rows]))
    st.dataframe(
        figures_frame(rows),
        key="cmp_table",
        hide_index=True,
        column_config={
            "Chars / token": st.column_config.NumberColumn(format="%.2f"),
            "Bytes / token": st.column_config.NumberColumn(format="%.2f"),
        },
    )


def side_by_side() -> None:
    if TEXT not in st.session_state:
        set_live_text(TEXT, DEFAULT_TEXT)
    seed_choice()
    st.selectbox(
        "Samples",
        load_samples(),
        index=None,
        key="cmp_sample",
        format_func=lambda s: f"{s.title} ({s.kind})",
        placeholder="Load a sample text…",
        on_change=load_sample,
        label_visibility="collapsed",
    )
    text = live_textarea(TEXT, label="Text", placeholder="Type or paste text to compare…")
    row = st.columns([4, 1], vertical_alignment="bottom")
    chosen = row[0].multiselect(
        "Tokenizers",
        encodings.available_encodings(),
        key=PICKED,
        max_selections=MAX_COMPARE,
        help="Vocabularies you train or import on the Train page are offered here too.",
    )
    show_whitespace = row[1].toggle("Show whitespace", key="cmp_ws")
    if len(chosen) < 2:
        st.info("Pick at least two tokenizers to compare.")
        return
    toks = columns(text, chosen, show_whitespace)
    if text:
        boundary_section(toks, chosen, show_whitespace)
    every_encoding(text)


st.title("Compare")
st.caption(
    "The same text through several tokenizers, and what the same content costs across languages "
    "and code."
)
if train_session.collect():  # a training that finished while this session was elsewhere
    st.rerun()  # the sidebar, drawn before this page, must offer it too
tabs = st.tabs(TABS, key="cmp_view", bind="query-params")
with tabs[0]:
    if tabs[0].open:
        side_by_side()
with tabs[1]:
    if tabs[1].open:
        languages_tab()
