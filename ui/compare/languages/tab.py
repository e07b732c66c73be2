"""The "Languages & code" tab of the Compare page: chart, table, and the user's own samples.

Streamlit-aware drawing; figures come from `data` and the chart from `chart`. Token counts are
a derived view (`ui.common.cache.derived`), keyed by the vocabulary's content and the texts.
"""

import time

import pandas as pd
import streamlit as st

from tokenizer import Encoding
from ui.common import cache, registry, state, uploads
from ui.common.capped import capped
from ui.common.grid import EMPTY_CELL
from ui.common.limits import (
    MAX_CUSTOM_SAMPLES,
    MAX_LANGUAGE_ENCODINGS,
    MAX_SAMPLE_BYTES,
    MAX_SAMPLE_TITLE_CHARS,
    MAX_SAMPLE_UPLOAD_MB,
)
from ui.common.messages import counted, inline_code, listed
from ui.common.registry import (
    OPENAI_GENERATIONS,
    available_encodings,
    get_encoding,
    trained_encodings,
    vocab_key,
)
from ui.common.samples import CORPUS_TITLE, Sample, corpus_sha256, load_samples
from ui.common.state import keep_known, known_only, seed_following
from ui.compare.languages.chart import languages_chart
from ui.compare.languages.data import (
    CUSTOM_KIND,
    GROUPS,
    METRICS,
    PREMIUM_COLUMN,
    custom_sample,
    groups_not_here,
    long_frame,
    panel_metric,
    sample_order,
    table_csv,
    wide_frame,
)
from ui.compare.state import (
    CUSTOM,
    LANG_ENCODINGS,
    METRIC,
    NEW_TEXT,
    NEW_TITLE,
    PROBLEM,
    SAMPLE_GROUPS,
    UPLOAD_VERSION,
)

# Bytes a list of counts takes, per sample.
_BYTES_PER_COUNT = 40


def token_counts(enc: Encoding, texts: tuple[str, ...]) -> list[int]:
    """Tokens of each text (as plain text: special-token text counts as ordinary text)."""
    return cache.derived(
        ("sample counts", vocab_key(enc), texts),
        lambda: [len(enc.encode_ordinary(text)) for text in texts],
        lambda counts: _BYTES_PER_COUNT * len(counts),
    )


def default_encodings() -> list[str]:
    """GPT-2, GPT-4, GPT-4o, Llama 3 and Qwen 3, plus the latest vocabulary trained here.

    o200k_harmony is left to the picker: its ordinary tokens are o200k_base's, so its counts are.
    """
    trained = list(trained_encodings())
    return [*OPENAI_GENERATIONS, "llama3", "qwen3", *trained[-1:]]


def custom_samples() -> list[Sample]:
    return st.session_state.setdefault(CUSTOM, [])


def languages_tab() -> None:
    """The whole tab."""
    default = default_encodings()
    seed_following(LANG_ENCODINGS, default, available_encodings(), MAX_LANGUAGE_ENCODINGS)
    chosen = st.multiselect(
        "Encodings",
        available_encodings(),
        default=LANG_ENCODINGS.value,  # also its default: see ui/common/state.py, step 2
        key=LANG_ENCODINGS.key,
        max_selections=MAX_LANGUAGE_ENCODINGS,
        help=f"Up to {MAX_LANGUAGE_ENCODINGS}, one shape each. Vocabularies you train on the "
        "Train page can be added here too.",
    )
    LANG_ENCODINGS.publish(default)
    present = ["language", "code", "tricky", *([CUSTOM_KIND] if custom_samples() else [])]
    # One row while both fit (1280 px wide), the samples below the metrics when they do not:
    # side by side in columns, a narrow window cut both (Streamlit scrolls them sideways there).
    controls = st.container(horizontal=True, gap="medium", key="compare-lang-controls")
    held = METRIC.seed()
    with controls:
        st.segmented_control(
            "Show",
            list(METRICS),
            default=held,
            format_func=lambda m: METRICS[m].label,
            key=METRIC.key,
            required=True,
        )
    METRIC.publish()
    metric = METRIC.value
    first = SAMPLE_GROUPS.key not in st.session_state
    picked = SAMPLE_GROUPS.seed(known_only(present, groups_not_here), default=present)
    SAMPLE_GROUPS.set(keep_known(SAMPLE_GROUPS, picked, present, first, groups_not_here))
    with controls:
        groups = st.pills(
            "Samples",
            present,
            selection_mode="multi",
            default=SAMPLE_GROUPS.value,
            format_func=GROUPS.__getitem__,
            key=SAMPLE_GROUPS.key,
        )
    SAMPLE_GROUPS.publish(present)
    if not chosen:
        st.info("Pick at least one encoding.")
        return

    loaded = {name: get_encoding(name) for name in chosen}  # a vocabulary loads once per server
    started = time.perf_counter()
    samples = [*load_samples(), *custom_samples()]
    texts = tuple(s.text for s in samples)
    counts = {name: token_counts(enc, texts) for name, enc in loaded.items()}
    frame = long_frame(samples, counts)
    shown = frame[frame["group"].isin([GROUPS[g] for g in groups])]
    if shown.empty:
        st.info("Pick at least one group of samples.")
        return
    st.caption(
        f"{METRICS[metric].explain} A row per sample, most expensive at the top (by "
        f"{chosen[0]}); a dot per encoding, a bar from the cheapest to the dearest."
    )
    if seen := trained_on_samples(chosen):
        names = listed([inline_code(name, 40) for name in seen])
        st.caption(
            f":material/info: {names} learned from these very samples (the Train page's "
            f"{CORPUS_TITLE}), so the figures here flatter {'it' if len(seen) == 1 else 'them'}: "
            "text not seen in training costs more tokens."
        )
    _charts(shown, metric, chosen, [g for g in present if g in groups])
    wide = wide_frame(shown)
    st.dataframe(
        wide,
        key="compare.lang_table",
        hide_index=True,
        placeholder=EMPTY_CELL,
        column_config={
            column: st.column_config.NumberColumn(format="%.2f")
            for column in wide.columns
            if column.endswith((PREMIUM_COLUMN, "/token"))
        },
    )
    row = st.container(horizontal=True, vertical_alignment="center", key="compare-lang-csv-row")
    row.download_button(
        "Download CSV",
        data=table_csv(wide),
        file_name="bpe-lens-languages.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
        key="compare.lang_csv",
    )
    elapsed = time.perf_counter() - started
    row.caption(
        f"{len(samples)} samples × {len(chosen)} encodings: counted by the pure-Python core "
        f"and charted in {elapsed * 1000:,.0f} ms (counts are cached by content). The premium "
        "is blank for samples that are not translations of the English paragraph."
    )
    # Open while there is no sample of one's own. The key keeps the panel as the user left it
    # once `expanded` changes: without it, the first sample added closed the panel over the
    # sample's notice (its file's encoding) and its Remove button.
    with st.expander(
        "Add your own sample", expanded=not custom_samples(), key="compare.lang_add_panel"
    ):
        add_sample_form()


def trained_on_samples(chosen: list[str]) -> list[str]:
    """The chosen vocabularies trained here on the samples these charts are of: a vocabulary
    scored on its own training text looks better than it is."""
    return [
        name
        for name in chosen
        if (held := registry.stored(name)) is not None and held.corpus_sha256 == corpus_sha256()
    ]


def _charts(frame: pd.DataFrame, metric: str, chosen: list[str], groups: list[str]) -> None:
    """One dot plot per group: the translations on the left, code and the rest on the right."""
    panels = []
    for group in groups:
        label = GROUPS[group]
        part = frame[frame["group"] == label]
        shows = panel_metric(metric, label)
        title = f"{label} · {METRICS[shows].title}"
        order = sample_order(part, shows, chosen[0])
        spec = languages_chart(part, shows, order, chosen, title)
        # A screen reader names the chart by this, not by its first tick labels.
        alt = f"Dot plot: {title}, a row per sample, a dot per encoding ({', '.join(chosen)})."
        panels.append((group, spec, alt))
    left = [(spec, alt) for group, spec, alt in panels if group == "language"]
    right = [(spec, alt) for group, spec, alt in panels if group != "language"]
    sides = [side for side in (left, right) if side]
    for where, charts in zip(st.columns(len(sides)), sides, strict=True):
        with where:
            for spec, alt in charts:
                st.vega_lite_chart(spec, width="stretch", alt=alt)


def _add_sample() -> None:
    """Button callback: turn the pasted or uploaded text into a sample and clear the boxes."""
    title = st.session_state.get(NEW_TITLE, "").strip()
    text = st.session_state.get(NEW_TEXT, "")
    upload = st.session_state.get(_upload_key())
    note = None
    if upload is not None:
        data = upload.getvalue()
        if uploads.is_binary(data):  # a picture named .txt read as 1252 made a chart of noise
            st.session_state[PROBLEM] = (
                f"The file {inline_code(upload.name, 60)} {uploads.NOT_TEXT}: upload a plain-text "
                "file."
            )
            return
        decoded = uploads.decode_upload(data)
        text, note = decoded.text, decoded.notice
        title = title or upload.name.rsplit(".", 1)[0]
    size = len(text.encode("utf-8", "replace"))
    if not text.strip():
        if upload is not None:
            problem = f"The file {inline_code(upload.name, 60)} " + (
                "is only whitespace: a sample needs something to read."
                if text
                else "is empty: nothing to add."
            )
        elif text:
            problem = "The pasted text is only whitespace: a sample needs something to read."
        else:
            problem = "Paste some text or upload a .txt file first."
        st.session_state[PROBLEM] = problem
        return
    if size > MAX_SAMPLE_BYTES:
        # Counted as the UTF-8 text it is read as; a file that was not UTF-8 says so, or 20 KB
        # of bytes said "That sample is 31.3 KB" without a word on why.
        too_big = (
            f"That sample is {uploads.size_label(size)} as UTF-8 text; a sample may have at most "
            f"{uploads.size_label(MAX_SAMPLE_BYTES)} (every sample is tokenized live "
            "for every encoding)."
        )
        st.session_state[PROBLEM] = too_big if note is None else f"{too_big}\n\n{note}"
        return
    held = custom_samples()
    if len(held) >= MAX_CUSTOM_SAMPLES:
        st.session_state[PROBLEM] = f"At most {MAX_CUSTOM_SAMPLES} samples of your own."
        return
    index = max((int(s.id.split("-")[1]) for s in held), default=0) + 1
    held.append(custom_sample(index, title[:MAX_SAMPLE_TITLE_CHARS], text))
    groups = st.session_state.get(SAMPLE_GROUPS.key)
    if groups is not None and CUSTOM_KIND not in groups:
        SAMPLE_GROUPS.set([*groups, CUSTOM_KIND])
    st.session_state[NEW_TITLE] = ""
    st.session_state[NEW_TEXT] = ""
    st.session_state[UPLOAD_VERSION] = st.session_state.get(UPLOAD_VERSION, 0) + 1
    st.session_state[PROBLEM] = note


def _upload_key() -> str:
    """The uploader's key: a new one after each added sample empties the uploader."""
    return f"compare.lang_new_file_{st.session_state.get(UPLOAD_VERSION, 0)}"


def _remove_sample(sample_id: str) -> None:
    st.session_state[CUSTOM] = [s for s in custom_samples() if s.id != sample_id]


def add_sample_form() -> None:
    """Title + text (or a .txt upload) -> one more sample in the chart and the table."""
    state.keep_across_pages(NEW_TITLE, NEW_TEXT)
    st.text_input(
        "Title",
        key=NEW_TITLE,
        on_change=capped(NEW_TITLE, MAX_SAMPLE_TITLE_CHARS),
        placeholder=f"e.g. My README (at most {MAX_SAMPLE_TITLE_CHARS} characters)",
    )
    st.text_area(
        "Text",
        key=NEW_TEXT,
        height=120,
        placeholder="Paste any text or code; it joins the chart and the table.",
    )
    st.file_uploader(
        # The uploader's own note says "1MB per file" (it counts whole megabytes): the limit
        # that holds is the sample's, so the label says it.
        f"…or upload a .txt file (a sample holds at most {uploads.size_label(MAX_SAMPLE_BYTES)})",
        type=["txt"],
        key=_upload_key(),
        max_upload_size=MAX_SAMPLE_UPLOAD_MB,
    )
    st.button("Add sample", key="compare.lang_add", on_click=_add_sample, icon=":material/add:")
    problem = st.session_state.pop(PROBLEM, None)
    if problem:
        st.warning(problem)
    for sample in custom_samples():
        row = st.columns([5, 1], vertical_alignment="center")
        title = inline_code(sample.title, MAX_SAMPLE_TITLE_CHARS)
        row[0].markdown(f"{title} · {counted(len(sample.text), 'character')}")
        row[1].button(
            "Remove",
            key=f"compare.lang_remove_{sample.id}",
            on_click=_remove_sample,
            args=(sample.id,),
            width="stretch",
        )
    if custom_samples():  # "Copy link" gave them to nobody, without a word
        st.caption(
            "Your samples stay in this session: a link leaves them out, and keeps every other "
            "setting."
        )
