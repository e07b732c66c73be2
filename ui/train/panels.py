"""The Train page's panels for one trained vocabulary: its replay and its vocabulary table.

Streamlit-aware drawing only; the data and charts come from the pure modules (`replay`,
`charts`, `table`); export and import are the shared panels of `ui.common.vocab_panel`. The
replay is a fragment, so moving its slider or playing it reruns only the replay, not the page.
"""

import pandas as pd
import streamlit as st

from tokenizer import Encoding
from tokenizer.train_record import TrainingRecord
from ui.common import cache, slow_pattern, state, vocab_files
from ui.common.capped import capped
from ui.common.grid import EMPTY_CELL
from ui.common.limits import MAX_REPLAY_SAMPLE_CHARS, RENDER_LIMIT
from ui.common.messages import SELECT_A_ROW, counted, download_label, inline_code
from ui.common.registry import vocab_key
from ui.common.steps import step_keys, take_steps
from ui.common.token_view import ViewOptions, render_tokens
from ui.common.tokens import tokenized_from_ids
from ui.train import table
from ui.train.charts import CURVES, curve_chart, race_bars, race_chart
from ui.train.replay import (
    TIE_RULE,
    SampleSteps,
    StepSummary,
    curve_frame,
    ending,
    headline,
    race_rows,
    step_summary,
    step_words,
    tie_sentence,
    tokens_at,
)
from ui.train.state import (
    PICKED_KEY,
    PLAYING_KEY,
    REPLAY_KEY,
    SAMPLE_DEFAULT,
    SAMPLE_KEY,
    SEARCH_KEY,
    SPEED_KEY,
    STEP,
    STEP_OF,
    STEPS_KEY,
    TABLE_OF_KEY,
)

PLAY_SECONDS = 0.8  # between two replay ticks while playing
SPEEDS = [1, 10, 100, 1000]  # merges per tick while playing
SPEED_BOX_PX = 150  # wide enough for "1,000 per tick"
_BYTES_PER_SAMPLE_CHAR = 2_000  # a sample's trace: every step of every chunk, roughly


# ---- replay ----------------------------------------------------------------------------------


def _step_to(step: int) -> None:
    """First / Last callback (and its key): show `step`."""
    STEP.set(step)


def _step_by(delta: int, total: int) -> None:
    """Back / Next callback: one step from the step shown now, which a press before this one
    may have changed since the button was drawn."""
    STEP.set(min(max(STEP.value + delta, 0), total))


def _toggle_play(total: int) -> None:
    playing = not st.session_state.get(PLAYING_KEY, False)
    if playing and STEP.value >= total:
        STEP.set(0)  # play from the start when at the end
    st.session_state[PLAYING_KEY] = playing


def replayable(enc: Encoding) -> bool:
    """Whether `enc` has a training with at least one merge to replay."""
    return isinstance(enc.training, TrainingRecord) and enc.training.n_merges > 0


def replay(enc: Encoding, sample: str, *, said: bool, presenting: bool = False) -> None:
    """The replay of `enc`'s training; plays by rerunning itself every `PLAY_SECONDS`.

    `sample` is the text the sample box starts with (the start of its corpus). `said`: the page
    already tells how this training ended (its outcome, just above), so a training without a
    merge does not explain itself a second time here. `presenting`: one screen for a projector
    (ui/train/presentation.css), with the race beside the sample and no curves.
    """
    record = enc.training
    if isinstance(record, TrainingRecord) and record.n_merges == 0:
        why = "" if said else f" {ending(enc)}"
        st.info(f"Nothing to replay: training made no merge.{why}")
        return
    if not isinstance(record, TrainingRecord):
        st.info(
            "This vocabulary has no training record to replay (GPT-2, Hugging Face and "
            ".tiktoken files do not keep one; the bundle does). Its table and merge trees are in "
            "the Vocabulary tab."
        )
        return
    if state.history_navigation():  # Back or Forward: show the entry's step, and stay there
        st.session_state[PLAYING_KEY] = False
    playing = st.session_state.get(PLAYING_KEY, False)
    with st.container(key=REPLAY_KEY):  # what the step keys step (`step_keys`)
        body = st.fragment(_replay_body, run_every=PLAY_SECONDS if playing else None)
        body(enc, sample, presenting)


@state.one_history_entry()  # a run of the fragment alone: one Back undoes it
def _replay_body(enc: Encoding, sample: str, presenting: bool) -> None:
    record = enc.training
    assert isinstance(record, TrainingRecord)  # `replay` draws this only for trained ones
    total = record.n_merges
    # Where a view without ``?step=`` opens: presenting, at the start, ready to play (as the
    # Merges page presents); otherwise at the end, the vocabulary as trained.
    opening = 0 if presenting else total
    ss = st.session_state
    if ss.get(STEP_OF) is not enc:  # another vocabulary: start at its opening (the link's, once)
        if STEP_OF in ss:
            STEP.set(opening)
        ss[STEP_OF] = enc
        ss[PLAYING_KEY] = False
    STEP.seed(state.at_most(total, "this vocabulary", "step"), default=opening)
    take_steps(STEPS_KEY, STEP.set)
    STEP.set(min(max(STEP.value, 0), total))
    playing = ss.get(PLAYING_KEY, False)
    if playing:
        ahead = STEP.value + ss.get(SPEED_KEY, 1)
        STEP.set(min(ahead, total))
        if ahead >= total:
            ss[PLAYING_KEY] = False
            st.rerun()  # a full run stops the timer

    step = _controls(record, playing, presenting)
    STEP.publish(default=opening)
    summary = step_summary(record, step) if step else None
    with st.container(key="train_headline"):
        _headline(record, summary)
    now = tokens_at(record, step)
    if presenting:
        st.caption(_figures(record, now, summary))
        stage = st.container(horizontal=True, key="train_stage")
        with stage.container(key="train_race"):
            _race(record, step, summary, presenting=True)
        with stage.container(key="train_sample"):
            _sample(enc, record, step, sample, presenting=True)
        return
    _metrics(record, now, summary)
    left, right = st.columns(2)
    with left:
        _race(record, step, summary)
    with right:
        _curves(record, step, now)
    _sample(enc, record, step, sample)


def _controls(record: TrainingRecord, playing: bool, presenting: bool) -> int:
    """The step buttons, the speed and the slider; return the step they show.

    A wrapping row, not columns: a narrow window cut "Play" in a fixed share of the width. The
    step buttons carry the Merges page's keys (Home ← → End, Space to play), for a class
    stepping through a training from the keyboard; Streamlit leaves them to a focused slider or
    text box, and the four step keys to the stepper once it is in (`step_keys`, which counts
    presses faster than the runs). At either end the buttons stay enabled, as on Merges (a
    press there changes nothing): disabled, the one that had the focus dropped it to the page.
    The slider has a line of its own (beside them it was squeezed to a fifth of the width),
    except when presenting, where the row has the window's width and the stage needs the room.
    """
    total = record.n_merges
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    at = STEP.value
    row.button("First", icon=":material/first_page:", shortcut="Home", key="train.step_first",
               on_click=_step_to, args=(0,), disabled=playing,
               help="Step 0: single bytes (Home)")  # fmt: skip
    row.button("Back", icon=":material/chevron_left:", shortcut="Left", key="train.step_back",
               on_click=_step_by, args=(-1, total), disabled=playing,
               help="One merge back (←)")  # fmt: skip
    if row.button(
        "Pause" if playing else "Play",
        icon=":material/pause:" if playing else ":material/play_arrow:",
        shortcut="Space",
        key="train.play",
        type="primary" if presenting else "secondary",
        help="Play or pause (space)",
    ):
        _toggle_play(total)
        st.rerun()  # the timer of a fragment is set by a full run
    row.button("Next", icon=":material/chevron_right:", shortcut="Right", key="train.step_next",
               on_click=_step_by, args=(1, total), disabled=playing,
               help="One merge forward (→)")  # fmt: skip
    row.button("Last", icon=":material/last_page:", shortcut="End", key="train.step_last",
               on_click=_step_to, args=(total,), disabled=playing,
               help="Every merge applied (End)")  # fmt: skip
    row.selectbox(
        "Merges per step",
        SPEEDS,
        key=SPEED_KEY,
        format_func=lambda n: f"{n:,} per tick",
        width=SPEED_BOX_PX,
    )
    step = (row if presenting else st).slider(
        "Step (merges applied)",
        0,
        total,
        key=STEP.key,
        disabled=playing,
        help="Step k: the first k merges applied; step 0 is single bytes. A merge's rank is "
        "its 0-based place in the merge list, so step k shows the merge of rank k − 1, which "
        "made id 256 + k − 1.",
    )
    if not playing:  # the step buttons are off while it plays, and so are their keys
        with row:  # at the row's end, where it adds no gap of its own
            step_keys(STEPS_KEY, at, total, step_words(record, at), area=REPLAY_KEY)
    return step


def _headline(record: TrainingRecord, summary: StepSummary | None) -> None:
    """What the step did (`summary`; None at step 0), and on equal counts why its pair won."""
    if summary is None:
        st.markdown(
            f"**Step 0 of {record.n_merges:,}** — single bytes, before any merge: every byte of "
            "the corpus is one token. Move to step 1 to see the first merge (rank 0, id 256)."
        )
        return
    st.markdown(headline(summary))
    tie = tie_sentence(record, summary)
    if tie:
        st.markdown(f":material/balance: {tie}")


def _metrics(record: TrainingRecord, now: int, summary: StepSummary | None) -> None:
    """The step's counts as four metrics (`now`: the corpus's tokens after the step)."""
    cells = st.columns(4)
    cells[0].metric("Pair count", "–" if summary is None else f"{summary.count:,}")
    runner_up = None if summary is None else summary.runner_up
    cells[1].metric("Runner-up count", "–" if runner_up is None else f"{runner_up:,}")
    saved = None if summary is None else f"-{summary.saved:,}"
    cells[2].metric("Corpus tokens", f"{now:,}", saved, delta_color="inverse")
    cells[3].metric("Bytes per token", f"{record.tokens_before / now:.3f}")


def _curves(record: TrainingRecord, step: int, now: int) -> None:
    """The compression curves, each with its red mark at `step`."""
    st.markdown("**Compression so far** (the red mark is this step)")
    points = cache.memo("train.curve", (record,), lambda: _curve_points(record))
    for column in CURVES:
        value = now if column == "tokens" else record.tokens_before / now
        shown = f"{value:,.0f}" if column == "tokens" else f"{value:.2f}"
        st.vega_lite_chart(
            curve_chart(points, column, step, value),
            width="stretch",
            alt=f"Line chart: {CURVES[column].lower()} after each step; {shown} at step "
            f"{step:,} (the red mark).",
        )


def _figures(record: TrainingRecord, now: int, summary: StepSummary | None) -> str:
    """The metrics' figures as one line, for a screen with no room for four metrics."""
    saved = "" if summary is None else f" ({summary.saved:,} fewer than the step before)"
    runner_up = (
        ""
        if summary is None or summary.runner_up is None
        else (f" · runner-up {summary.runner_up:,} times")
    )
    return (
        f"Corpus: {counted(now, 'token')}{saved} · "
        f"{record.tokens_before / now:.3f} bytes per token{runner_up}"
    )


def _race(
    record: TrainingRecord, step: int, summary: StepSummary | None, *, presenting: bool = False
) -> None:
    """The pairs step `step` chose among, by count: the winner first."""
    if summary is None:
        st.markdown("**The race**")
        st.caption("No merge yet: the race of step 1 is the first.")
        return
    st.markdown("**The race this merge won** (its top rivals at that moment)")
    if presenting:  # in the page's type, which grows with a projector's screen
        st.html(race_bars(race_rows(record, step)))
        return  # the tie's sentence above says where it decided
    st.vega_lite_chart(
        race_chart(race_rows(record, step)),
        width="stretch",
        alt=f"Bar chart: the pairs of step {step:,} by count in the corpus; "
        f"{summary.pair_text} won with {summary.count:,}.",
    )
    st.caption(f"The most frequent pair wins; on {TIE_RULE}.")


def _curve_points(record: TrainingRecord) -> list[dict[str, float]]:
    frame = curve_frame(record)
    return [dict(zip(frame.columns, row, strict=True)) for row in frame.itertuples(index=False)]


def _sample(
    enc: Encoding, record: TrainingRecord, step: int, default: str, *, presenting: bool = False
) -> None:
    """The sample box (it follows its default, the corpus's start, until edited) and its tokens;
    presenting, the box is two lines and the tokens take the rest of the stage."""
    ss = st.session_state
    if SAMPLE_KEY not in ss or ss[SAMPLE_KEY] == ss.get(SAMPLE_DEFAULT):
        ss[SAMPLE_KEY] = default
    ss[SAMPLE_DEFAULT] = default
    merges = (
        "single bytes (no merge yet)"
        if step == 0
        else "the first merge"
        if step == 1
        else f"the first {step:,} merges"
    )
    st.markdown(f"**A sample, tokenized with {merges}**")
    text = st.text_area(
        "Sample text",
        key=SAMPLE_KEY,
        height=68 if presenting else 90,  # 68: Streamlit's least
        on_change=capped(SAMPLE_KEY, MAX_REPLAY_SAMPLE_CHARS),
        label_visibility="collapsed",
        help="It starts as the beginning of the corpus; type any text, up to "
        f"{MAX_REPLAY_SAMPLE_CHARS:,} characters.",
    )
    if not text:
        st.caption("Type a sample above to see how it was tokenized at this step.")
        return
    with slow_pattern.reported(enc.name):  # a custom pattern may be too slow on this sample
        steps = cache.derived(
            ("replay sample", vocab_key(enc), text),
            lambda: SampleSteps.of(enc, text),
            lambda s: _BYTES_PER_SAMPLE_CHAR * len(s.text),
        )
        ids = steps.ids_at(step)
        counts = f"{counted(len(ids), 'token')} for {counted(len(text), 'character')}"
        st.caption(
            f"{counts} after step {step:,} "
            f"(with all {record.n_merges:,} merges: {len(steps.ids_at(record.n_merges)):,})."
        )
        tok = tokenized_from_ids(enc, ids)
        st.html(
            render_tokens(tok, enc, ViewOptions(limit=RENDER_LIMIT)), unsafe_allow_javascript=True
        )


# ---- vocabulary table ------------------------------------------------------------------------


def _listed(shown: int, total: int, query: str) -> str:
    """The caption over the table: how many tokens it lists, or why none ("0 of 300 tokens.
    Select a row…" was all a search for an id past the last one said).

    >>> _listed(0, 300, "999")
    'No token matches `999`: the ids run from 0 to 299.'
    """
    if shown:
        return f"{shown:,} of {total:,} tokens. {SELECT_A_ROW}"
    ids = f": the ids run from 0 to {total - 1:,}" if query.strip().isdigit() else ""
    return f"No token matches {inline_code(query, 40)}{ids}."


def vocabulary(enc: Encoding) -> None:
    """The searchable table of every token; selecting a row shows its merge tree."""
    frame = cache.memo("vocab-frame", (enc,), lambda: table.vocab_frame(enc))
    row = st.container(horizontal=True, vertical_alignment="bottom")  # as the replay's row
    query = row.text_input(
        "Search tokens",
        st.session_state.get(SEARCH_KEY, ""),  # its default too: ui/common/state.py, step 2
        key=SEARCH_KEY,
        live=True,
        persist_state="session",  # kept while another tab or page is shown
        # Short enough for the box beside the download button at 1024 px ("…an id, or h").
        placeholder="Text, an id, or hex bytes like 20 74",
        help="Text inside a token (a space matches ·), an id such as 258, or hex bytes such as "
        "20 74.",
    )
    shown = table.search(frame, query)
    row.download_button(
        download_label(len(shown)),
        data=lambda: table.vocab_csv(shown),  # made when pressed
        file_name=f"{vocab_files.file_stem(enc.name)}-vocabulary.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
        key="train.csv",
        disabled=shown.empty,
        help="The tokens listed (those the search finds), with the table's columns.",
    )
    st.caption(_listed(len(shown), len(frame), query))
    vocab = vocab_key(enc)
    picked = _row_of_picked(shown, vocab)
    headers = table.HEADERS
    event = st.dataframe(
        shown,
        key=_table_key(vocab, query),
        on_select="rerun",
        selection_mode="single-row",
        selection_default=None if picked is None else {"selection": {"rows": [picked]}},
        hide_index=True,
        placeholder=EMPTY_CELL,
        column_config={
            "id": st.column_config.NumberColumn(headers["id"], format="%d"),
            "token": st.column_config.TextColumn(
                headers["token"], help="· space, ↵ newline, → tab"
            ),
            "bytes": st.column_config.TextColumn(headers["bytes"]),
            "length": st.column_config.NumberColumn(headers["length"], format="%d"),
            "kind": st.column_config.TextColumn(headers["kind"]),
            "left": st.column_config.NumberColumn(headers["left"], format="%d"),
            "right": st.column_config.NumberColumn(headers["right"], format="%d"),
            "parents": st.column_config.TextColumn(headers["parents"]),
            "count": st.column_config.NumberColumn(headers["count"], format="localized"),
        },
    )
    rows = event.selection.rows
    token_id = int(shown.iloc[rows[0]]["id"]) if rows else None
    if rows or picked is not None:  # a pick this listing lacks stays for one that lists it
        st.session_state[PICKED_KEY] = (vocab, token_id)
    if token_id is not None:
        st.markdown(f"**Merge tree of token {token_id:,}**, down to its bytes")
        st.html(table.merge_tree_html(enc, token_id))


def _table_key(vocab: str, query: str) -> str:
    """The table's key, a new one whenever its listing (vocabulary or search) changes.

    A selection is a row's position: in another listing that row is another token. So each
    listing is a table of its own, which starts with the token picked before selected if it
    lists it (`_row_of_picked`), else with none. A number, not the listing itself: a search
    typed again is a new table too, never one holding an old selection.
    """
    listing = (vocab, query)
    held = st.session_state.get(TABLE_OF_KEY)
    if held is None or held[0] != listing:
        held = st.session_state[TABLE_OF_KEY] = (listing, 0 if held is None else held[1] + 1)
    return f"train.table_{held[1]}"


def _row_of_picked(shown: pd.DataFrame, vocab: str) -> int | None:
    """The position in `shown` of the token last selected in vocabulary `vocab`'s table, if
    `shown` lists it."""
    held = st.session_state.get(PICKED_KEY)
    if held is None or held[0] != vocab or held[1] is None:
        return None
    (found,) = (shown["id"].to_numpy() == held[1]).nonzero()
    return int(found[0]) if len(found) else None
