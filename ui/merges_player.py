"""Streamlit glue of the merges page: cached walkthroughs, the state a link restores, the player.

The player is a fragment: stepping, scrubbing and each tick of "Play" rerun only the player
(the tables and the whole text), never the page. Playing is the fragment's ``run_every``; as
that is fixed by the run that draws the fragment, Play, Pause and a speed change while playing
ask for one full rerun (`st.rerun()` from their callbacks).

State lives in ``st.session_state`` under the URL parameter names, so `ui.share.publish` keeps
the address bar a permalink: ``?chunk=5&step=12&by=chunk&pieces=hex&present=1``.
"""

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

import tokenizer as tk
from tokenizer import Encoding
from ui import encodings
from ui.merges_block import escaped_html_block
from ui.merges_chart import token_count_chart
from ui.merges_model import Walkthrough, build_walkthrough
from ui.merges_view import PieceStyle, chunk_html, made_token, whole_text_html
from ui.share import publish, seed_choice

CHUNK, STEP, BY, PIECES = "chunk", "step", "by", "pieces"  # session keys = URL parameters
PLAYING, SPEED, ACTED, SEEN = "mg_playing", "mg_speed", "mg_acted", "mg_seen"

BY_LABELS = {"chunk": "Selected chunk", "text": "Every merge"}
PIECE_LABELS: dict[PieceStyle, str] = {"text": "Text ·", "symbols": "GPT-2 Ġ", "hex": "Hex bytes"}
SPEEDS = {"0.5": 2.0, "1": 1.0, "2": 0.5, "4": 0.25}  # label -> seconds per step
DEFAULTS = {BY: "chunk", PIECES: "text", SPEED: "1"}


@st.cache_resource(max_entries=32, ttl=3600, show_spinner="Tracing every merge…")
def _shared_walkthrough(name: str, text: str) -> Walkthrough:
    """Shared across sessions: a class opening the same link traces it once."""
    return build_walkthrough(encodings.bundled_encoding(name), text)


def walkthrough(enc: Encoding, text: str) -> Walkthrough:
    """The walkthrough of `text`: shared for bundled encodings, per session for trained ones."""
    if enc.name in tk.list_encodings() and enc is encodings.bundled_encoding(enc.name):
        return _shared_walkthrough(enc.name, text)
    held = st.session_state.get("mg_trained_walk")
    if held is None or held[0] is not enc or held[1] != text:
        held = (enc, text, build_walkthrough(enc, text))
        st.session_state["mg_trained_walk"] = held
    return held[2]


def _url_int(param: str, upper: int) -> int | None:
    """``?param=N`` as an int in ``0..upper``, or None if absent or not such a number."""
    raw = st.query_params.get(param, "")
    return int(raw) if raw.isdigit() and int(raw) <= upper else None


def sync_selection(walk: Walkthrough, enc: Encoding) -> None:
    """Choose the chunk and the step before the widgets are drawn.

    The first time (or when another page let the widgets go) they come from the link; a new
    text or encoding starts over at the chunk with the most merges, every merge done.
    """
    ss = st.session_state
    seen = (enc.name, walk.text)
    if ss.get(SEEN) == seen and CHUNK in ss and STEP in ss:
        return
    from_link = SEEN not in ss or CHUNK not in ss
    chunk = _url_int(CHUNK, len(walk.chunks) - 1) if from_link else None
    step = _url_int(STEP, walk.last) if from_link else None
    ss[CHUNK] = walk.default_chunk() if chunk is None else chunk
    ss[STEP] = walk.last if step is None else step
    ss[PLAYING] = False
    ss[SEEN] = seen


def publish_selection(walk: Walkthrough) -> None:
    """Write the chunk and the step to the URL (left out when they are the defaults)."""
    publish(CHUNK, walk.default_chunk())
    publish(STEP, walk.last)


# ---- player callbacks: each marks the run as the user's, so it is not taken for a tick ----


def _go(step: int) -> None:
    st.session_state[STEP] = step
    st.session_state[ACTED] = True


def _acted() -> None:
    st.session_state[ACTED] = True


def _neighbour(walk: Walkthrough, direction: int) -> int:
    """The next (+1) or previous (-1) stop from the current step, in the chosen stepping."""
    ss = st.session_state
    stops = walk.stops(ss[CHUNK] if ss[BY] == "chunk" else None)
    step = ss[STEP]
    if direction > 0:
        return next((s for s in stops if s > step), walk.last)
    return next((s for s in reversed(stops) if s < step), 0)


def _toggle_play(walk: Walkthrough) -> None:
    """Play from here (from the start if at the end) or pause; redraw the fragment's timer."""
    ss = st.session_state
    ss[PLAYING] = not ss.get(PLAYING, False)
    if ss[PLAYING] and ss[STEP] >= walk.last:
        ss[STEP] = 0
    ss[ACTED] = True
    st.rerun()  # run_every changes only with a full run


def settings() -> None:
    """How to step, how to show pieces, how fast to play.

    Drawn outside the player: changing them is rare, and a new speed needs a full run anyway.
    """
    seed_choice(BY, list(BY_LABELS), DEFAULTS[BY])
    seed_choice(PIECES, list(PIECE_LABELS), DEFAULTS[PIECES])
    st.session_state.setdefault(SPEED, DEFAULTS[SPEED])
    row = st.container(horizontal=True, gap="medium")
    row.segmented_control("Step through", list(BY_LABELS), format_func=BY_LABELS.get, key=BY,
                          required=True, on_change=_acted,
                          help="Stop only where the selected chunk merges, or at every merge "
                          "of the whole text.")  # fmt: skip
    row.segmented_control("Pieces as", list(PIECE_LABELS), format_func=PIECE_LABELS.get,
                          key=PIECES, required=True, on_change=_acted,
                          help="Text with visible whitespace, GPT-2's byte symbols (Ġ is a "
                          "space), or the raw bytes in hex.")  # fmt: skip
    row.segmented_control("Speed", list(SPEEDS), format_func=lambda s: f"{s}×", key=SPEED,
                          required=True, on_change=_acted,
                          help="Steps per second while playing.")  # fmt: skip
    for key in (BY, PIECES):
        publish(key, DEFAULTS[key])


def _controls(walk: Walkthrough) -> None:
    """Play / pause, step, first / last (keys Space ← → Home End) and the scrub slider."""
    playing = st.session_state.get(PLAYING, False)
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    row.button("First", icon=":material/first_page:", shortcut="Home", key="mg_first",
               on_click=_go, args=(0,), help="Back to single bytes (Home)")  # fmt: skip
    row.button("Back", icon=":material/chevron_left:", shortcut="Left", key="mg_back",
               on_click=lambda: _go(_neighbour(walk, -1)), help="One step back (←)")  # fmt: skip
    row.button(
        "Pause" if playing else "Play",
        icon=":material/pause:" if playing else ":material/play_arrow:",
        type="primary",
        shortcut="Space",
        key="mg_play",
        on_click=_toggle_play,
        args=(walk,),
        help="Play or pause (space)",
    )
    row.button("Next", icon=":material/chevron_right:", shortcut="Right", key="mg_next",
               on_click=lambda: _go(_neighbour(walk, 1)), help="One step forward (→)")  # fmt: skip
    row.button("Last", icon=":material/last_page:", shortcut="End", key="mg_last",
               on_click=_go, args=(walk.last,), help="Every merge done (End)")  # fmt: skip
    st.slider("Merge step", 0, walk.last, key=STEP, on_change=_acted,
              help="Drag to any step of the whole text: 0 is single bytes.")  # fmt: skip


def _tick(walk: Walkthrough) -> None:
    """While playing, a rerun nobody asked for is the timer: move to the next stop."""
    ss = st.session_state
    if ss.pop(ACTED, False) or not ss.get(PLAYING):
        return
    ss[STEP] = _neighbour(walk, 1)
    if ss[STEP] >= walk.last:
        ss[PLAYING] = False
        st.rerun()  # the end: a full run stops the timer


def _player_body(
    walk: Walkthrough,
    enc: Encoding,
    controls: DeltaGenerator,
    table: DeltaGenerator,
    text: DeltaGenerator,
) -> None:
    """One frame: the controls, the selected chunk's table and the whole text at this step.

    It writes only what changes into the page's containers; the headings and explanations
    around them stay put, so a step redraws as little as possible.
    """
    _tick(walk)
    ss = st.session_state
    with controls:
        if walk.last:
            _controls(walk)
        else:
            st.info("Nothing in this text merges: no adjacent pair of any chunk is a merge.")
    step, style = ss[STEP], ss[PIECES]
    chunk = walk.chunks[ss[CHUNK]]
    local = chunk.local_step(step)
    table.caption(_chunk_caption(walk, ss[CHUNK], local))
    with table:
        st.html(chunk_html(chunk, local, style))
    with text:
        escaped_html_block(
            whole_text_html(walk, step, enc, style),
            key="mg_whole_text",
            mark_token=made_token(walk, step),
        )
    publish_selection(walk)


def _chunk_caption(walk: Walkthrough, index: int, local: int) -> str:
    chunk = walk.chunks[index]
    alt = None if chunk.alternative is None else walk.alternatives[chunk.alternative]
    matched = "" if alt is None else f" · pattern alternative {alt.index + 1} ({alt.kind})"
    size = len(chunk.text.encode("utf-8"))
    return (
        f"Chunk {index + 1} of {len(walk.chunks):,}{matched} · {size} byte"
        f"{'s' if size != 1 else ''} · merge {local} of {chunk.merges} · "
        f"{len(chunk.trace.ids)} token{'s' if len(chunk.trace.ids) != 1 else ''} at the end"
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
        "**Rank** is a merge's position in the merge list, counting from 0: the order in which "
        "training learned the merges, most frequent pairs first. At each step the adjacent pair "
        "with the lowest rank merges; a pair marked — is in no merge, so it never merges. "
        f"The token a merge of rank *r* makes has id *r* + 256 (ids 0–255 are the bytes). {source}"
        "\n\n**Why every occurrence at once?** A step applies one merge *rule*: every "
        "non-overlapping occurrence of the chosen pair, scanning left to right, merges in the "
        "same step, as in GPT-2's `encoder.py`. So `aaaa` with the rule `a` + `a` becomes "
        "`aa` `aa` in one step (shown as × 2), and the table has one row per rule."
    )


def player(walk: Walkthrough, enc: Encoding) -> None:
    """Stages 2 and 3 with their controls, as one fragment that ticks while playing.

    The fragment draws into containers laid out here, between headings and explanations that
    do not change with the step. The token-count chart is outside it too: its line is the same
    at every step, and redrawing a chart would double the time a step takes.
    """
    controls = st.container()
    st.subheader("2 · Merges of one chunk", anchor=False)
    table = st.container()
    with st.expander("What is a rank? Why does a pair merge everywhere at once?"):
        st.markdown(rank_explanation(enc))
    st.subheader("3 · The whole text, rule by rule", anchor=False)
    st.caption(
        "The same merges applied to every chunk at once, lowest rank first: the rules in the "
        "order they were learned. Tokens are coloured by id; the ones this step made are outlined."
    )
    text = st.container()
    interval = SPEEDS[st.session_state[SPEED]]
    playing = st.session_state.get(PLAYING, False)
    frame = st.fragment(_player_body, run_every=interval if playing else None)
    frame(walk, enc, controls, table, text)
    st.altair_chart(token_count_chart(walk.token_counts), width="stretch")
