"""The "Side by side" tab: one column of coloured tokens per tokenizer, a diff, every figure.

Below them, the vocabularies' files: export any of the tokenizers shown, import another one to
compare (ui/common/vocab_panel.py), each with its result next to its control.
"""

from pathlib import Path

import streamlit as st

from tokenizer import PatternTimeoutError, Tokenized
from ui.common import cache, registry, slow_pattern, tokens, vocab_panel
from ui.common.copy_button import link_leaves_out
from ui.common.grid import EMPTY_CELL
from ui.common.limits import MAX_COMPARE, RENDER_LIMIT
from ui.common.live_text import live_textarea, set_live_text
from ui.common.messages import inline_code, quote_some
from ui.common.samples import load_samples
from ui.common.state import publish_text, seed_following
from ui.common.stats import text_stats
from ui.common.token_view import ViewOptions, render_tokens
from ui.compare.state import ENCODINGS, EXPORT, SAMPLE, TEXT, WHITESPACE
from ui.compare.view import (
    Row,
    cheapest_sentence,
    column_html,
    compare_boundaries,
    figures_frame,
    ratio_caption,
)

_CSS = Path(__file__).with_suffix(".css").read_text(encoding="utf-8")

# What the tab says of special-token text in the text: every column counts it as text.
SPECIALS_HERE = (
    "every column counts {it} as the text it is (the Playground's **Special tokens** shows {it} "
    "as one id)."
)


def default_choice() -> list[str]:
    """GPT-2 against the latest vocabulary trained here, else GPT-2, GPT-4 and GPT-4o's."""
    trained = list(registry.trained_encodings())
    return ["gpt2", trained[-1]] if trained else list(registry.OPENAI_GENERATIONS)


def _load_sample() -> None:
    """Samples menu callback: put the sample in the box, then reset the menu."""
    chosen = st.session_state[SAMPLE]
    if chosen is not None:
        set_live_text(TEXT.key, chosen.text)
    st.session_state[SAMPLE] = None


def _columns(text: str, chosen: list[str], show_whitespace: bool) -> dict[str, Tokenized]:
    """One column per tokenizer: its name, counts and coloured tokens; returns the tokenizations
    (without those whose pattern is too slow on this text: their column says so)."""
    toks = {}
    holders = st.container(key="compare-columns").columns(len(chosen))
    for index, (name, holder) in enumerate(zip(chosen, holders, strict=True)):
        enc = registry.get_encoding(name)
        with holder.container(key=f"compare.col_{index}"):
            st.markdown(f"**{inline_code(name, 40)}**")
            try:
                tok = tokens.tokenize(enc, text, special=registry.specials_in_text(enc))
            except PatternTimeoutError as error:
                st.error(slow_pattern.too_slow(error), icon=":material/timer_off:")
                continue
            toks[name] = tok
            stats = text_stats(text, len(tok.ids))  # the typed text: one measure for all
            figures = st.container(
                horizontal=True,
                vertical_alignment="bottom",
                gap="small",
                key=f"compare-figures-{index}",
            )
            figures.metric("Tokens", f"{stats.tokens:,}")
            figures.caption(ratio_caption(stats))
            if tok.ids:
                view = ViewOptions(
                    show_whitespace=show_whitespace, limit=RENDER_LIMIT, owner=name, ids=False
                )
                st.html(column_html(render_tokens(tok, enc, view)), unsafe_allow_javascript=True)
            if len(tok.ids) > RENDER_LIMIT:
                st.caption(f"The first {RENDER_LIMIT:,} tokens are drawn; the counts cover all.")
    return toks


def _boundaries(
    text: str, toks: dict[str, Tokenized], chosen: list[str], show_whitespace: bool
) -> None:
    st.header("Where they cut differently")
    # A vocabulary that normalises its text (NFC) cuts another text: only those that read the
    # text as typed are laid side by side, the others named and left out.
    composers = [name for name in chosen if toks[name].text != text]
    if composers:
        notes = [
            note
            for name in composers
            if (note := tokens.normalised_note(registry.get_encoding(name), text, toks[name].text))
        ]
        chosen = [name for name in chosen if name not in composers]
        left_out = (
            "So the cuts below are of the others, which read the text as typed; the columns "
            f"above show the tokens of {quote_some(composers)}."
            if len(chosen) >= 2
            else "So the cuts are of different texts and cannot be laid side by side; the "
            "columns above show each one's tokens."
        )
        # The note says the counts are of the composed text; the ratios are not (one measure).
        st.info(
            f"{' '.join(notes)} {left_out} Their characters and bytes per token divide the text "
            f"as typed ({len(text):,} characters), one measure for all."
        )
        if len(chosen) < 2:
            return
    picked = [toks[name] for name in chosen]
    keys = tuple(registry.vocab_key(registry.get_encoding(name)) for name in chosen)
    summary, html = cache.derived(
        ("boundary diff", keys, picked[0].text, show_whitespace),
        lambda: compare_boundaries(picked, chosen, show_whitespace=show_whitespace),
        lambda made: len(made[1]) + len(made[0]),
    )
    st.markdown(summary)
    st.html(html)


def _every_encoding(text: str) -> None:
    st.header("Every loaded encoding")
    rows, too_slow = [], []
    for name in registry.available_encodings():
        enc = registry.get_encoding(name)
        try:
            tok = tokens.tokenize(enc, text, special=registry.specials_in_text(enc))
        except PatternTimeoutError:
            too_slow.append(name)
            continue
        rows.append(Row(name, text_stats(text, len(tok.ids))))  # as typed, for every row
    st.markdown(cheapest_sentence([Row(inline_code(r.name), r.stats) for r in rows]))
    st.dataframe(
        figures_frame(rows),
        key="compare.table",
        hide_index=True,
        placeholder=EMPTY_CELL,
        column_config={
            "Tokens": st.column_config.NumberColumn(format="localized"),  # 38,001 as above
            "Chars / token": st.column_config.NumberColumn(format="%.2f"),
            "Bytes / token": st.column_config.NumberColumn(format="%.2f"),
        },
    )
    if too_slow:
        st.caption(
            f"Left out: {quote_some(too_slow)}, whose pattern is too slow on this text (it "
            "backtracks; choose it above to read why)."
        )


def side_by_side() -> None:
    """The whole tab."""
    if TEXT.key not in st.session_state:
        set_live_text(TEXT.key, TEXT.seed())
    st.html(f"<style>{_CSS}</style>")
    default = default_choice()
    seed_following(ENCODINGS, default, registry.available_encodings(), MAX_COMPARE)
    whitespace = WHITESPACE.seed()
    st.selectbox(
        "Samples",
        load_samples(),
        index=None,
        key=SAMPLE,
        format_func=lambda s: f"{s.title} ({s.kind})",
        placeholder="Load a sample text…",
        on_change=_load_sample,
        label_visibility="collapsed",
    )
    text = live_textarea(
        TEXT.key,
        label="Text",
        placeholder="Type or paste text to compare…",
        rows=4,  # with the columns' first tokens on a 720 px screen
        label_visibility="collapsed",
    )
    if not publish_text(TEXT, text):
        link_leaves_out("text")
    # A row, not columns: the toggle keeps its label whole and the menu takes what is left.
    row = st.container(horizontal=True, vertical_alignment="bottom", key="compare-side-row")
    chosen: list[str] = row.multiselect(
        "Tokenizers",
        registry.available_encodings(),
        default=ENCODINGS.value,  # also its default: see ui/common/state.py, step 2
        key=ENCODINGS.key,
        max_selections=MAX_COMPARE,
        help=f"Up to {MAX_COMPARE} side by side, so each column keeps room for its tokens; "
        "**Every loaded encoding** below counts them all. Vocabularies you train or import on "
        "the Train page are offered here too.",
    )
    ENCODINGS.publish(default)
    show_whitespace = row.toggle("Show whitespace", whitespace, key=WHITESPACE.key)
    WHITESPACE.publish()
    if len(chosen) < 2:
        st.info("Pick at least two tokenizers to compare.")
        return
    as_text = [
        enc for enc in map(registry.get_encoding, chosen) if not registry.specials_in_text(enc)
    ]
    if note := tokens.specials_as_text(as_text, text, SPECIALS_HERE):
        st.caption(note)
    toks = _columns(text, chosen, show_whitespace)
    if text and len(toks) == len(chosen):  # else a column says which pattern is too slow
        _boundaries(text, toks, chosen, show_whitespace)
    _every_encoding(text)
    _files(chosen)


def _add_to_comparison(name: str) -> None:
    """Import callback: the new vocabulary joins the tokenizers compared (last one out if full)."""
    picked = [n for n in st.session_state.get(ENCODINGS.key, []) if n != name]
    ENCODINGS.set([*picked[: MAX_COMPARE - 1], name])


def _files(chosen: list[str]) -> None:
    """Export one of the tokenizers shown; import another one to compare."""
    files = st.expander(
        "Vocabulary files: export or import", key="compare.files", on_change="rerun"
    )
    if not files.open:
        return
    with files:
        left, right = st.columns(2, gap="large")
        with left:
            st.markdown("**Export**")
            if st.session_state.get(EXPORT) not in chosen:
                st.session_state[EXPORT] = chosen[0]
            name = st.selectbox("Tokenizer", chosen, key=EXPORT)
            vocab_panel.export_panel(registry.get_encoding(name), key="compare.export")
        with right:
            st.markdown("**Import a vocabulary to compare**")
            vocab_panel.import_panel(key="compare.import", then=_add_to_comparison)
