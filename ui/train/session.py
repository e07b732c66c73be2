"""Streamlit glue for training: the shared pool and corpora, and this session's pending training.

A session that presses Train remembers only *which* job it waits for (`Pending`); the job itself
lives in the server-wide `TrainingPool`. So the session can leave the page and come back, and a
finished job is collected (renamed to the user's name, put in the server's vocabulary store and
added to every picker) whenever any page runs next (`ui.common.registry.await_vocabulary`).

Cancel keeps what was learned: the job stops after its current merge and the session collects
the smaller vocabulary, named ``<name>-partial``. If another session watches the same job, it
goes on for them, and this session takes the first merges of the finished result, as many as it
had seen when it cancelled (`jobs.prefix_vocabulary`: the same vocabulary a stopped run makes).
"""

from dataclasses import dataclass, field, replace
from typing import Literal, TypeVar

import streamlit as st

import tokenizer as tk
from tokenizer.train_record import TrainingRecord
from ui.common import cache, registry
from ui.common.limits import (
    MAX_NAME_CHARS,
    MAX_PARALLEL_TRAININGS,
    MAX_SESSION_VOCABS,
    MAX_SHARED_TRAININGS,
)
from ui.common.messages import inline_code
from ui.common.state import session_id
from ui.common.vocab_store import Stored
from ui.train import corpora
from ui.train.jobs import (
    Progress,
    TrainingPool,
    TrainJob,
    TrainKey,
    TrainSettings,
    duration,
    prefix_vocabulary,
)
from ui.train.replay import default_sample, ending
from ui.train.settings import describe_pattern
from ui.train.state import LAST_KEY, NOTICE_KEY, PENDING_KEY, RESUME_KEY, SELECTED
from ui.train.worker import run_in_child, train_in_process

NoticeKind = Literal["success", "info", "warning", "error"]
T = TypeVar("T")


@st.cache_resource(show_spinner=False)
def training_pool() -> TrainingPool:
    """The one pool of trainings of this server process, shared by every session."""
    return TrainingPool(
        workers=MAX_PARALLEL_TRAININGS, keep=MAX_SHARED_TRAININGS, train_fn=train_in_process
    )


@cache.resource(spinner="Building the corpus from this server's Python (once)…")
def bundled_corpus(name: str) -> corpora.Corpus:
    """A bundled corpus, built once per server process (deterministic, so never stale).

    Built in a child process: seconds of parsing in the server would stall every session.
    """
    return run_in_child(corpora.bundled_corpus, name)


@dataclass(frozen=True)
class Pending:
    """The training this session waits for, and what to call and say about its result."""

    key: TrainKey
    name: str
    corpus_title: str
    shared: bool  # the pool already had this training (done or running) when we asked
    reused: bool  # ... and it was done: its result is taken, nothing runs
    about: str  # how it is made, kept with the vocabulary ("trained on …, GPT-2 pattern")
    sample: str  # the start of the corpus, for the replay
    job: TrainJob = field(compare=False, repr=False)
    cancelled_at: int | None = None  # merges made when this session pressed Cancel
    resumed: bool = False  # running when the page opened, not started by a click here


def _named(name: str) -> str:
    """A vocabulary's name in a message, whole: past `inline_code`'s 24 characters a cancel
    said "Kept as `python-code-29000-parti…`" of what the picker calls `…-partial`."""
    return inline_code(name, MAX_NAME_CHARS + len("-partial-99"))


def notify(kind: NoticeKind, text: str) -> None:
    """Leave a message for the next run of the page (e.g. after a callback)."""
    st.session_state[NOTICE_KEY] = (kind, text)


@dataclass(frozen=True)
class Outcome:
    """How the last training of this session ended, kept on the page until the next one."""

    kind: NoticeKind
    text: str
    progress: Progress | None = None  # drawn as a finished bar when training succeeded
    vocabulary: str | None = None  # the name its vocabulary was kept under, if it made one


def show_notice() -> None:
    """The last training's outcome, then (once) the message left by `notify`."""
    last: Outcome | None = st.session_state.get(LAST_KEY)
    if last is not None:
        if last.progress is not None:
            done = last.progress
            st.progress(1.0, text=f"Finished: {done.done:,} merges in {duration(done.elapsed)}")
        getattr(st, last.kind)(last.text)
    notice = st.session_state.pop(NOTICE_KEY, None)
    if notice is not None:
        kind, text = notice
        getattr(st, kind)(text)


def said_how_it_ended(name: str) -> bool:
    """Whether the outcome on show tells how the training of vocabulary `name` ended, so the
    panels below need not say it a second time."""
    last: Outcome | None = st.session_state.get(LAST_KEY)
    return last is not None and last.vocabulary == name


def pending() -> Pending | None:
    return st.session_state.get(PENDING_KEY)


def pending_job() -> TrainJob | None:
    """The job this session waits for."""
    wait = pending()
    return None if wait is None else wait.job


RESUME_SECONDS = 60
"""How long after a training ends a page opened on its corpus and settings still takes it: a
reload's own length, with room to spare."""


def resume(corpus: corpora.Corpus, settings: TrainSettings, name: str) -> None:
    """Once a session: wait for the training of exactly this corpus and these settings if the
    server is running it, or take it if it has just finished and the link did not bring it.

    A link keeps the page's corpus and settings but not its training, so a reload during a
    training showed none: it ran on unseen, and Train joined it as someone else's. One that
    ended during the reload itself was lost without a word.
    """
    if st.session_state.get(RESUME_KEY):
        return
    st.session_state[RESUME_KEY] = True
    job = training_pool().get(TrainKey(corpus.sha256, settings))
    if job is None or job.cancelled:
        return
    if not job.over or (
        job.state == "done"
        and job.ended_within(RESUME_SECONDS)
        and (job.result is None or registry.holder_of(job.result) is None)
    ):
        start(corpus, settings, name, resumed=True)


def start(
    corpus: corpora.Corpus, settings: TrainSettings, name: str, *, resumed: bool = False
) -> None:
    """Ask the pool for this training (joining an identical one if it exists) and wait for it.

    The previous training's outcome and notices leave the page: they were about that one.
    """
    st.session_state.pop(LAST_KEY, None)
    st.session_state.pop(NOTICE_KEY, None)
    key = TrainKey(corpus.sha256, settings)
    pool = training_pool()
    existing = pool.get(key)
    shared = existing is not None and existing.state not in ("failed", "cancelled")
    reused = shared and existing is not None and existing.state == "done"
    job = pool.submit(key, corpus.text, session_id())
    about = f"trained on {corpus.title} with {describe_pattern(settings)}"
    sample = default_sample(corpus.text)
    st.session_state[PENDING_KEY] = Pending(
        key, name, corpus.title, shared, reused, about, sample, job, resumed=resumed
    )
    registry.await_vocabulary(lambda: pending() is None or collect())


def cancel() -> None:
    """Button callback: stop, keeping the merges learned so far as a partial vocabulary.

    Alone on the job, the session waits the moment it takes the trainer to stop (the progress
    says so). If other sessions watch the same job it goes on for them, and this session's
    partial vocabulary comes from the finished result: the session is free meanwhile.
    """
    wait = pending()
    if wait is None or wait.cancelled_at is not None:
        return
    training_pool().leave(wait.key, session_id())
    stopped = replace(wait, cancelled_at=wait.job.done)
    if wait.job.cancelled or wait.job.over:
        st.session_state[PENDING_KEY] = stopped  # the progress shows it stopping
        return
    del st.session_state[PENDING_KEY]
    registry.await_vocabulary(lambda: _finish(stopped))
    notify(
        "info",
        f"Stopped waiting for {_named(wait.name)}. Another session on this server is "
        "training exactly the same, so the trainer goes on for them; the "
        f"{stopped.cancelled_at:,} merges you saw joins your vocabularies as "
        f"{_named(wait.name + '-partial')} when it ends.",
    )


def collect() -> bool:
    """If the awaited training is over, keep its vocabulary (or its error) and stop waiting.

    Returns whether it did. App.py calls it on every page through
    `ui.common.registry.collect_awaited`, before the sidebar, so the picker offers the result.
    """
    wait = pending()
    if wait is None or not wait.job.over:
        return False
    del st.session_state[PENDING_KEY]
    return _finish(wait)


def _finish(wait: Pending) -> bool:
    """Keep the finished job's vocabulary under the user's name (``-partial`` if cancelled)."""
    job = wait.job
    if not job.over:
        return False
    enc = job.result
    partial = job.state == "cancelled"
    if job.state == "done" and wait.cancelled_at is not None and not job.cancelled:
        # Others kept the job going, or it ended before the cancel reached it: take the merges
        # this session had seen when it cancelled; all of them is no partial vocabulary.
        record = enc.training if enc is not None else None
        complete = isinstance(record, TrainingRecord) and wait.cancelled_at >= record.n_merges
        partial = not complete
        if partial:
            enc = prefix_vocabulary(enc, wait.cancelled_at) if enc and wait.cancelled_at else None
    if enc is None:
        if partial:
            text = f"Training of {_named(wait.name)} cancelled before its first merge."
            st.session_state[LAST_KEY] = Outcome("info", text + " There was nothing to keep.")
        else:
            failure = f"Training failed: {inline_code(job.error or 'no result', 400)}"
            st.session_state[LAST_KEY] = Outcome("error", failure)
        return True
    told = ending(enc)
    # Train pressed again adds no copy; another name typed for it asks for one under that name.
    # The corpus must be the same too: an edited one can give the same merges, but its replay
    # (its counts, its sample) is another, and was lost behind "exactly this training".
    holder = None if partial else registry.holder_of(enc)
    held = registry.stored(wait.name) if holder == wait.name else None
    if held is not None and held.corpus_sha256 == wait.key.corpus_sha256:
        SELECTED.set(wait.name)
        text = (
            f"{_named(wait.name)} already holds exactly this training (the same corpus and "
            "settings): it is selected, and no copy was added."
        )
        st.session_state[LAST_KEY] = Outcome("info", text, vocabulary=wait.name)
        return True
    name = f"{wait.name}-partial" if partial else wait.name
    taken = [*tk.list_encodings(), *registry.trained_encodings()]
    enc = registry.renamed(enc, registry.unique_name(name, taken))
    about = wait.about + (f" · partial: {told}" if partial else "")
    dropped = keep(Stored(enc, about, wait.sample, corpus_sha256=wait.key.corpus_sha256))
    if partial:
        text = (
            f"{told} Kept as {_named(enc.name)}: a smaller vocabulary that works like any "
            "other (replay, compare, export)."
        )
        outcome = Outcome("info", text + dropped_note(dropped), vocabulary=enc.name)
        st.session_state[LAST_KEY] = outcome
        return True
    text = f"Trained {_named(enc.name)} on {wait.corpus_title}. {told}"
    if wait.reused:
        text += (
            " (This server had already trained exactly this, for this page before a reload or "
            "for someone else: its result is used again.)"
        )
    elif wait.shared:
        text += (
            " (This server was already training exactly this, for this page before a reload "
            "or for someone else: it ran once, for both.)"
        )
    st.session_state[LAST_KEY] = Outcome(
        "success", text + dropped_note(dropped), job.progress(), vocabulary=enc.name
    )
    return True


def keep(entry: Stored) -> list[str]:
    """Store `entry`, offer it in every picker and select it here; return the names dropped."""
    dropped = registry.add(entry)
    SELECTED.set(entry.enc.name)
    return dropped


def dropped_note(dropped: list[str]) -> str:
    """A sentence about vocabularies removed to make room, or nothing."""
    if not dropped:
        return ""
    names = ", ".join(_named(name) for name in dropped)
    return f" ({names} left your list: a session lists at most {MAX_SESSION_VOCABS} vocabularies.)"


def forget(name: str) -> None:
    """Button callback: drop one of this session's vocabularies."""
    registry.remove(name)
    notify("info", f"Removed {_named(name)} from your vocabularies.")
