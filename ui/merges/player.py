"""The Merges page's player: cached walkthroughs, the selection a link restores, the controls.

The player is a fragment: stepping, scrubbing and each tick of "Play" rerun only the player
(the tables and the whole text), never the page. Playing is the fragment's ``run_every``; as
that is fixed by the run that draws the fragment, Play, Pause and a speed change while playing
ask for one full rerun (`st.rerun()` from their callbacks). State: ui/merges/state.py.

One step counter everywhere: **step k = k merges applied** to the whole text, step 0 being
single bytes. The slider, the chunk table's rows and the whole text's line all count it.
"""

from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from tokenizer import Encoding
from ui.common import cache, state
from ui.common.copy_button import copy_link_button
from ui.common.messages import counted
from ui.common.registry import vocab_key
from ui.common.sidebar import picker_again
from ui.common.steps import step_keys, take_steps
from ui.merges.block import escaped_html_block
from ui.merges.chart import count_points, token_count_chart
from ui.merges.model import Walkthrough, build_walkthrough
from ui.merges.state import (
    ACTED,
    BY,
    BY_LABELS,
    CHUNK,
    PIECE_LABELS,
    PIECES,
    PLAYING,
    SEEN,
    SPEED,
    SPEEDS,
    STEP,
    STEPS,
)
from ui.merges.view import chunk_html, step_words, whole_text_html

# Bytes a walkthrough holds per character of its text, roughly (every step of every chunk).
_BYTES_PER_CHAR = 4_000
STEP_LABEL = "Step (merges applied)"
STEP_HELP = (
    "Step k: the first k merges applied to the whole text, lowest rank first; step 0 is "
    "single bytes. A merge's rank is its 0-based place in the merge list."
)


def walkthrough(enc: Encoding, text: str) -> Walkthrough:
    """The walkthrough of `text`, traced once per vocabulary and text for every session."""
    return cache.derived(
        ("walkthrough", vocab_key(enc), text),
        lambda: build_walkthrough(enc, text),
        lambda walk: _BYTES_PER_CHAR * max(len(walk.text), 1),
    )


def default_step(walk: Walkthrough, presenting: bool) -> int:
    """Where a view opens without ``?step=``: a presentation at the start, ready to play;
    otherwise every merge done, the tokens `encode` gives."""
    return 0 if presenting else walk.last


def sync_selection(walk: Walkthrough, enc: Encoding, presenting: bool) -> None:
    """Choose the chunk and the step before the widgets are drawn.

    The first time they come from the link, and after a visit to another page they are as
    they were left (`Param.seed`). A new text or a new encoding keeps the chunk when the text
    is cut into that chunk too (a word added to the text, a class comparing two vocabularies
    on one word), else takes the default chunk; either starts at the default step, as the
    steps are the new walkthrough's. Back and Forward show the entry's own chunk and step:
    resetting them there rewrote the entry without them.
    """
    ss = st.session_state
    seen = (enc.name, walk.text)
    before = ss.get(SEEN)
    if before is not None and before[:2] == seen and CHUNK.key in ss and STEP.key in ss:
        ss[SEEN] = (*seen, _chunk_text(walk, ss[CHUNK.key]))  # the user may pick another chunk
        return
    default_chunk = walk.default_chunk()
    if before is not None and before[:2] != seen and not state.history_navigation():
        default_chunk = _same_chunk(walk, ss.get(CHUNK.key, 0), before[2], default_chunk)
        CHUNK.reset()
        STEP.reset()
    CHUNK.seed(state.at_most(len(walk.chunks) - 1, "this text", "chunk"), default_chunk)
    STEP.seed(state.at_most(walk.last, "this text", "step"), default_step(walk, presenting))
    ss[PLAYING] = False
    ss[SEEN] = (*seen, _chunk_text(walk, CHUNK.value))


def _chunk_text(walk: Walkthrough, index: int) -> str | None:
    """The text of the chunk at `index`, if the walkthrough has one there."""
    return walk.chunks[index].text if 0 <= index < len(walk.chunks) else None


def _same_chunk(
    walk: Walkthrough, index: int, text: str | None, otherwise: int | None
) -> int | None:
    """The chunk of `walk` that is `text`, nearest to `index` (the text is cut elsewhere by
    another pattern), or `otherwise` if no chunk is."""
    found = [i for i, chunk in enumerate(walk.chunks) if chunk.text == text]
    return min(found, key=lambda i: abs(i - index)) if found else otherwise


def unused_selection(reason: str) -> None:
    """No text, nothing to select: a link's chunk and step leave the address bar."""
    CHUNK.unused(reason)
    STEP.unused(reason)


def publish_selection(walk: Walkthrough, presenting: bool) -> None:
    """Write the chunk and the step to the URL (left out when they are the defaults)."""
    CHUNK.publish(walk.default_chunk())
    STEP.publish(default_step(walk, presenting))


# ---- player callbacks: each marks the run as the user's, so it is not taken for a tick ----


def _go(step: int) -> None:
    st.session_state[STEP.key] = step
    st.session_state[ACTED] = True


def _acted() -> None:
    st.session_state[ACTED] = True


def _followed() -> int | None:
    """The chunk whose merges the player stops at, or None when it stops at every step."""
    ss = st.session_state
    return ss[CHUNK.key] if ss[BY.key] == "chunk" else None


def _neighbour(walk: Walkthrough, direction: int) -> int:
    """The next (+1) or previous (-1) stop from the current step, in the chosen stepping."""
    stops = walk.stops(_followed())
    step = st.session_state[STEP.key]
    if direction > 0:
        return next((s for s in stops if s > step), walk.last)
    return next((s for s in reversed(stops) if s < step), 0)


def _toggle_play(walk: Walkthrough) -> None:
    """Play from here (from the start if at the end) or pause; redraw the fragment's timer."""
    ss = st.session_state
    ss[PLAYING] = not ss.get(PLAYING, False)
    if ss[PLAYING] and ss[STEP.key] >= walk.last:
        ss[STEP.key] = 0
    ss[ACTED] = True
    st.rerun()  # run_every changes only with a full run


def settings() -> None:
    """How to step, how to show pieces, how fast to play.

    Drawn outside the player: changing them is rare, and a new speed needs a full run anyway.
    The page's widgets keep their values while an empty text hides them (``persist_state``):
    otherwise they come back showing nothing, and the next run reads None. `Param.seed` alone
    hands a value back to the session, but not to a widget that is drawn again; each also has
    what it holds as its default (see ui/common/state.py, step 2).
    """
    by, pieces, speed = BY.seed(), PIECES.seed(), SPEED.seed()
    row = st.container(horizontal=True, gap="medium")
    row.segmented_control("Step through", list(BY_LABELS), default=by,
                          format_func=BY_LABELS.__getitem__, key=BY.key, required=True,
                          on_change=_acted, persist_state="session",
                          help="Stop only where the selected chunk merges, or at every merge "
                          "of the whole text.")  # fmt: skip
    row.segmented_control("Pieces as", list(PIECE_LABELS), default=pieces,
                          format_func=PIECE_LABELS.__getitem__, key=PIECES.key, required=True,
                          on_change=_acted, persist_state="session",
                          help="Text with visible whitespace, GPT-2's byte symbols (Ġ is a "
                          "space), or the raw bytes in hex.")  # fmt: skip
    row.segmented_control("Speed", list(SPEEDS), default=speed, format_func=lambda s: f"{s}×",
                          key=SPEED.key, required=True, on_change=_acted,
                          persist_state="session",
                          help="Steps per second while playing.")  # fmt: skip
    BY.publish()
    PIECES.publish()
    SPEED.publish()


def _controls(walk: Walkthrough, presenting: bool) -> None:
    """Play / pause, step, first / last (keys Space ← → Home End) and the scrub slider.

    Presenting, the slider sits beside the buttons, to keep the whole player on one screen.
    """
    playing = st.session_state.get(PLAYING, False)
    # Following one chunk, a press jumps to that chunk's next merge: from step 0 to step 22,
    # say, which "One step forward" did not prepare a class for.
    back, forward = (
        ("The selected chunk's merge before (←)", "The selected chunk's next merge (→)")
        if _followed() is not None
        else ("One step back (←)", "One step forward (→)")
    )
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    row.button("First", icon=":material/first_page:", shortcut="Home", key="merges.first",
               on_click=_go, args=(0,), help="Back to single bytes, step 0 (Home)")  # fmt: skip
    row.button("Back", icon=":material/chevron_left:", shortcut="Left", key="merges.back",
               on_click=lambda: _go(_neighbour(walk, -1)), help=back)  # fmt: skip
    row.button(
        "Pause" if playing else "Play",
        icon=":material/pause:" if playing else ":material/play_arrow:",
        type="primary",
        shortcut="Space",
        key="merges.play",
        on_click=_toggle_play,
        args=(walk,),
        help="Play or pause (space)",
    )
    row.button("Next", icon=":material/chevron_right:", shortcut="Right", key="merges.next",
               on_click=lambda: _go(_neighbour(walk, 1)), help=forward)  # fmt: skip
    row.button("Last", icon=":material/last_page:", shortcut="End", key="merges.last",
               on_click=_go, args=(walk.last,), help="Every merge done (End)")  # fmt: skip
    (row if presenting else st).slider(
        STEP_LABEL,
        0,
        walk.last,
        st.session_state[STEP.key],
        key=STEP.key,
        on_change=_acted,
        help=STEP_HELP,
        persist_state="session",
    )


def _tick(walk: Walkthrough) -> None:
    """While playing, a rerun nobody asked for is the timer: move to the next stop."""
    ss = st.session_state
    if ss.pop(ACTED, False) or not ss.get(PLAYING):
        return
    ss[STEP.key] = _neighbour(walk, 1)
    if ss[STEP.key] >= walk.last:
        ss[PLAYING] = False
        st.rerun()  # the end: a full run stops the timer


@dataclass(frozen=True)
class Slots:
    """Where one frame of the player draws: containers laid out around it by the page."""

    controls: DeltaGenerator
    caption: DeltaGenerator
    table: DeltaGenerator
    text: DeltaGenerator
    chart: DeltaGenerator | None  # None: presenting, which has no room for it


@state.one_history_entry()  # a run of the fragment alone: one Back undoes it
def _player_body(walk: Walkthrough, enc: Encoding, slots: Slots, presenting: bool) -> None:
    """One frame: the controls, the selected chunk's table and the whole text at this step.

    It writes only what changes into the page's containers; the headings and explanations
    around them stay put, so a step redraws as little as possible.
    """
    take_steps(STEPS, lambda step: _go(min(max(step, 0), walk.last)))
    _tick(walk)
    ss = st.session_state
    with slots.controls:
        if walk.last:
            _controls(walk, presenting)
        else:
            st.info("Nothing in this text merges: no adjacent pair of any chunk is a merge.")
    step, style = ss[STEP.key], ss[PIECES.key]
    chunk = walk.chunks[ss[CHUNK.key]]
    local = chunk.local_step(step)
    slots.caption.caption(chunk_caption(walk, ss[CHUNK.key], step))
    with slots.table:
        st.html(chunk_html(chunk, local, style))
    with slots.text:
        escaped_html_block(
            whole_text_html(walk, step, enc, style),
            key="merges.whole_text",
            mark=walk.made_positions(step),
        )
    if slots.chart is not None:
        with slots.chart:
            _count_chart(walk, step)
    publish_selection(walk, presenting)
    followed = _followed()
    with slots.controls:  # in the fragment's own container, it would add a row's gap below
        stops = None if followed is None else walk.stops(followed)
        step_keys(STEPS, step, walk.last, step_words(walk, step), stops)


def _count_chart(walk: Walkthrough, step: int) -> None:
    """The token count's fall with this step marked, named by what it shows."""
    counts, points = cache.memo(
        "merges.curve", (walk,), lambda: (walk.token_counts, count_points(walk.token_counts))
    )
    st.vega_lite_chart(
        token_count_chart(points, counts, step),
        width="stretch",
        alt=f"Line chart: tokens in the whole text after each merge step, from {counts[0]:,} at "
        f"step 0 to {counts[-1]:,} at step {walk.last:,}; {counts[step]:,} at step {step:,} "
        "(the red mark).",
    )


def chunk_caption(walk: Walkthrough, index: int, step: int) -> str:
    """The chunk's facts and where it stands at global `step` (Markdown-safe: no user text)."""
    chunk = walk.chunks[index]
    local = chunk.local_step(step)
    alt = None if chunk.alternative is None else walk.alternatives[chunk.alternative]
    matched = "" if alt is None else f" · pattern alternative {alt.index + 1} ({alt.kind})"
    size = len(chunk.text.encode("utf-8"))
    since = chunk.global_step(local)
    unchanged = f", unchanged since step {since:,}" if since != step else ""
    ends = len(chunk.trace.ids)
    done = (  # "0 of its 0 merges done" said nothing about a chunk nothing merges in
        f"{local} of its {counted(chunk.merges, 'merge')} done{unchanged}"
        if chunk.merges
        else "no pair in it merges"
    )
    return (
        f"Chunk {index + 1} of {len(walk.chunks):,}{matched} · {counted(size, 'byte')} · "
        f"at step {step:,}: {done} · {counted(ends, 'token')} at the end"
    )


def rank_explanation(enc: Encoding) -> str:
    """What a rank is, for this encoding, and why one step merges a pair everywhere."""
    if enc.name == "gpt2":
        source = (
            "For GPT-2 the merge list is the file `vocab.bpe`: line 1 is a version header, so "
            "rank *r* is line *r* + 2 (rank 12, `e n`, is line 14). Some published walkthroughs "
            "count merges from 1, so their numbers are one higher than these."
        )
    elif enc.merges is None:
        source = (
            f"`{enc.name}` ships its tokens in rank order rather than a merge list; the rank of "
            "a pair is the rank of the token it makes, minus the 256 single bytes."
        )
    else:
        source = "For a vocabulary trained here, rank *r* is the *r*-th merge training chose."
    return (
        "**Step** *k* means *k* merges applied to the whole text, lowest rank first; step 0 is "
        "single bytes. The table has a row for each step that merged in the chunk: the merge "
        "that led to it, then the pieces after it.\n\n"
        "**Rank** is a merge's position in the merge list, counting from 0: the order in which "
        "training learned the merges, most frequent pairs first. At each step the adjacent pair "
        "with the lowest rank merges (it is lit); a pair marked — is in no merge, so it never "
        "merges. The token a merge of rank *r* makes has id *r* + 256 (ids 0–255 are the "
        f"bytes). {source}"
        "\n\n**Why every occurrence at once?** A step applies one merge *rule*: every "
        "non-overlapping occurrence of the chosen pair, scanning left to right, merges in the "
        "same step, as in GPT-2's `encoder.py`. So `aaaa` with the rule `a` + `a` becomes "
        "`aa` `aa` in one step (shown as × 2), and the table has one row per rule."
    )


def _run(walk: Walkthrough, enc: Encoding, slots: Slots, presenting: bool) -> None:
    """Run the fragment: ticking while playing, at the chosen speed."""
    interval = SPEEDS[SPEED.seed()]
    playing = st.session_state.get(PLAYING, False)
    frame = st.fragment(_player_body, run_every=interval if playing else None)
    frame(walk, enc, slots, presenting)


def player(walk: Walkthrough, enc: Encoding) -> None:
    """Stages 2 and 3 with their controls, as one fragment that ticks while playing.

    The fragment draws into containers laid out here, between headings and explanations that
    do not change with the step.
    """
    settings()
    controls = st.container()
    st.header("2 · Merges of one chunk", anchor=False)
    caption = st.container()
    table = st.container()
    with st.expander("What is a step, what is a rank? Why does a pair merge everywhere at once?"):
        st.markdown(rank_explanation(enc))
    st.header("3 · The whole text, rule by rule", anchor=False)
    st.caption(
        "The same merges applied to every chunk at once, lowest rank first: the rules in the "
        "order they were learned. Tokens are coloured by id; the ones this step made are outlined."
    )
    text = st.container()
    chart = st.container()
    _run(walk, enc, Slots(controls, caption, table, text, chart), presenting=False)


def presentation_player(walk: Walkthrough, enc: Encoding) -> None:
    """The player on one screen: controls (settings in a popover), the table, the whole text.

    No headings, explanations or chart: the page's presentation style sheet gives what is
    left the room of the window (the table and the whole text scroll inside it, never the page).
    """
    row = st.container(horizontal=True, vertical_alignment="bottom", key="merges_controls")
    controls = row.container(width="stretch")
    with row.popover("Settings", icon=":material/tune:"):
        picker_again("merges.present_enc")
        settings()
        copy_link_button("merges.copy_link")  # the page's own is not drawn while presenting
    stage = st.container(key="merges_stage", gap="small")
    caption = stage.container()
    table = stage.container(key="merges_table")
    text = stage.container(key="merges_text")
    _run(walk, enc, Slots(controls, caption, table, text, None), presenting=True)
