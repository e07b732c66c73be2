"""Trainings shared by every session: each distinct training runs once, in a background thread.

A class of 30 pressing "Train" on the same corpus with the same settings should cost one training,
not 30. `TrainingPool` keys each job by `TrainKey` (the corpus's SHA-256 plus the settings): the
first session to ask starts it, later ones join it and watch the same progress, and a finished
result stays in a small LRU for whoever asks next. All pool state is guarded by one lock, so ten
sessions submitting the same key at the same instant still get one job.

A job runs in its own thread so the page can draw progress and offer Cancel while it works; at most
`workers` jobs train at once (the others wait their turn), because pure-Python training shares one
interpreter lock with every session's page runs. Cancel is per session: a job stops only when no
session watches it any more, and then it keeps what it learned: the trainer stops after its current
merge and returns the smaller, valid vocabulary (``result``, state "cancelled"). A session that
cancels a job others still watch takes `prefix_vocabulary` of the finished result instead.

This module imports no Streamlit, so the tests drive it directly.
"""

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from tokenizer import Encoding
from tokenizer.train import train
from tokenizer.train_record import RIVALS, TrainingRecord, TrainStep

JobState = Literal["queued", "counting", "training", "done", "failed", "cancelled"]
TrainFn = Callable[..., Encoding]


@dataclass(frozen=True)
class TrainSettings:
    """Everything besides the corpus that decides a training's result.

    `pattern` is the regex source (an encoding's pattern resolved to its text, so picking "GPT-2"
    and pasting GPT-2's regex are the same training), or None to train on the text unsplit.
    """

    vocab_size: int
    pattern: str | None
    special_tokens: tuple[str, ...]

    @property
    def merges_wanted(self) -> int:
        """Merges the vocabulary size asks for: ids left after 256 bytes and the specials."""
        return self.vocab_size - 256 - len(self.special_tokens)


@dataclass(frozen=True)
class TrainKey:
    """Identifies a training by content: equal keys give equal vocabularies."""

    corpus_sha256: str
    settings: TrainSettings


MIN_RATE_SECONDS = 1.0  # of merging before the rate (and so a time left) means anything
MIN_RATE_MERGES = 10
MAX_ETA_SECONDS = 99 * 60  # beyond this, "over an hour and a half" says as much as a number


def mmss(seconds: float) -> str:
    """Seconds as m:ss: ``mmss(4.2) == "0:04"``, ``mmss(754) == "12:34"``."""
    whole = max(0, round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def duration(seconds: float) -> str:
    """A short duration: ``"2.1 s"`` under ten seconds, else m:ss (``"1:05"``)."""
    return f"{seconds:.1f} s" if seconds < 10 else mmss(seconds)


@dataclass(frozen=True)
class Progress:
    """A snapshot of a job for the progress bar."""

    state: JobState
    done: int  # merges made so far
    total: int  # merges asked for (training may stop earlier: nothing left to merge)
    elapsed: float  # seconds since the job started (0 while queued): counting, then merging
    merging: float = 0.0  # seconds since the first merge was reported (0 before it)

    @property
    def fraction(self) -> float:
        """Of the bar, from 0 to 1 (1 once the job is over, however it ended)."""
        if self.state in ("done", "failed", "cancelled"):
            return 1.0
        return min(self.done / self.total, 1.0) if self.total else 0.0

    @property
    def eta(self) -> float | None:
        """Seconds left at the merging rate so far, or None before there is a rate to go by.

        The rate counts merges only (not the chunk counting before the first one), and only
        after `MIN_RATE_SECONDS` and `MIN_RATE_MERGES`: a rate from one merge is noise. Later
        merges are usually quicker, so this errs long.
        """
        if self.state != "training" or self.merging < MIN_RATE_SECONDS:
            return None
        if self.done <= MIN_RATE_MERGES:
            return None
        return self.merging / (self.done - 1) * max(self.total - self.done, 0)

    def describe(self) -> str:
        """``"1,200 of up to 3,840 merges · 0:02 · about 0:05 left"`` and the like: "up to",
        as training stops early once no pair occurs twice, which nothing tells in advance."""
        if self.state == "queued":
            return "Waiting for a free trainer: other trainings are running on this server…"
        if self.state == "counting":
            return f"Splitting the corpus into chunks and counting them… {mmss(self.elapsed)}"
        text = f"{self.done:,} of up to {self.total:,} merges · {mmss(self.elapsed)}"
        eta = self.eta
        if eta is not None:
            text += (
                " · over an hour and a half left"
                if eta > MAX_ETA_SECONDS
                else (f" · about {mmss(eta)} left")
            )
        return text


class TrainJob:
    """One training, shared by the sessions watching it; read it through `progress()`."""

    def __init__(self, key: TrainKey, text: str, watcher: str, clock: Callable[[], float]) -> None:
        self.key = key
        self.state: JobState = "queued"
        self.done = 0
        self.result: Encoding | None = None
        self.error: str | None = None
        self.watchers = {watcher}
        self._text: str | None = text  # dropped once trained, so the pool does not keep corpora
        self._clock = clock
        self._started: float | None = None
        self._first_merge: float | None = None
        self._ended: float | None = None
        self._cancel = threading.Event()
        self.finished = threading.Event()

    @property
    def over(self) -> bool:
        """Whether the job has ended (trained, failed or cancelled)."""
        return self.finished.is_set()

    @property
    def cancelled(self) -> bool:
        """Whether the job was asked to stop (it may still be finishing its current merge)."""
        return self._cancel.is_set()

    def ended_within(self, seconds: float) -> bool:
        """Whether the job ended, at most `seconds` ago."""
        return self._ended is not None and self._clock() - self._ended <= seconds

    def progress(self) -> Progress:
        """The job's state now (safe to call from any thread)."""
        now = self._ended if self._ended is not None else self._clock()
        elapsed = 0.0 if self._started is None else now - self._started
        merging = 0.0 if self._first_merge is None else now - self._first_merge
        return Progress(self.state, self.done, self.key.settings.merges_wanted, elapsed, merging)

    def run(self, train_fn: TrainFn, slots: threading.Semaphore) -> None:
        """Train (in the job's own thread), waiting for a free slot first."""
        with slots:
            if self._cancel.is_set():
                self._end("cancelled")
                return
            self._started = self._clock()
            self.state = "counting"
            settings = self.key.settings
            try:
                enc = train_fn(
                    self._text,
                    settings.vocab_size,
                    pattern=settings.pattern,
                    special_tokens=settings.special_tokens,
                    on_step=self._on_step,
                )
            except ValueError as exc:  # settings the trainer refuses, with its reason
                self.error = str(exc)
                self._end("failed")
                return
            except Exception as exc:  # the thread's top: report anything else to the watchers
                self.error = f"Training failed unexpectedly ({type(exc).__name__}: {exc})."
                self._end("failed")
                return
            _fill_pieces(enc)
            record = enc.training
            if isinstance(record, TrainingRecord) and record.stop == "cancelled":
                # Stopped early: keep what it learned, if anything. A cancel that came after
                # the last merge stopped nothing: that training is done, and complete.
                self.result = enc if record.n_merges else None
                self._end("cancelled")
                return
            self.result = enc
            self._end("done")

    def _on_step(self, step: TrainStep) -> bool:
        if self._first_merge is None:
            self._first_merge = self._clock()
        self.state = "training"
        self.done = step.index + 1
        return not self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def _end(self, state: JobState) -> None:
        self._ended = self._clock()
        self._text = None
        self.state = state
        self.finished.set()


def prefix_vocabulary(enc: Encoding, n_merges: int) -> Encoding:
    """`enc` as if its training had been cancelled after `n_merges` merges.

    Training is deterministic, so the first merges of a finished run are exactly what a run
    stopped there would have made; the special tokens move down to follow the merges, as the
    trainer numbers them, and the record keeps the first `n_merges` steps.
    """
    record = enc.training
    if not isinstance(record, TrainingRecord) or n_merges >= record.n_merges:
        return enc
    k, width = n_merges, n_merges * RIVALS
    cut = replace(
        record,
        stop="cancelled",
        lefts=record.lefts[:k],
        rights=record.rights[:k],
        counts=record.counts[:k],
        tokens_after=record.tokens_after[:k],
        rival_lefts=record.rival_lefts[:width],
        rival_rights=record.rival_rights[:width],
        rival_counts=record.rival_counts[:width],
    )
    specials = sorted(enc.special_tokens, key=enc.special_tokens.__getitem__)
    prefix = Encoding.from_merges(
        name=enc.name,
        pattern=enc.pattern,
        merges=record.merges[:k],
        special_tokens={text: 256 + k + i for i, text in enumerate(specials)},
        training=cut,
        unicode=enc.unicode,
        normalizer=enc.normalizer,
    )
    _fill_pieces(prefix)
    return prefix


def _fill_pieces(enc: Encoding) -> None:
    """Derive every token's bytes in the record now, while one thread owns it.

    Subtle: `TrainingRecord.piece` extends a cache list on first use; two sessions replaying the
    shared record at once could both append the same entries. Filled here, it is only ever read.
    """
    record = enc.training
    if isinstance(record, TrainingRecord) and record.n_merges:
        record.piece(255 + record.n_merges)


class TrainingPool:
    """The server-wide set of trainings: running ones, and the `keep` most recent finished ones."""

    def __init__(
        self,
        *,
        workers: int,
        keep: int,
        train_fn: TrainFn = train,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._jobs: OrderedDict[TrainKey, TrainJob] = OrderedDict()
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(workers)
        self._keep = keep
        self._train_fn = train_fn
        self._clock = clock

    def submit(self, key: TrainKey, text: str, watcher: str) -> TrainJob:
        """The job for `key`: a finished or running one if there is one, else a new one.

        `watcher` (a session id) joins the job, so the job runs on while anyone watches it.
        """
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.state not in ("failed", "cancelled") and not job.cancelled:
                job.watchers.add(watcher)
                self._jobs.move_to_end(key)
                return job
            job = TrainJob(key, text, watcher, self._clock)
            self._jobs[key] = job
            self._evict()
        threading.Thread(
            target=job.run, args=(self._train_fn, self._slots), name="bpe-lens-train", daemon=True
        ).start()
        return job

    def get(self, key: TrainKey) -> TrainJob | None:
        """The job for `key` if the pool still has it (finished ones may have been evicted)."""
        with self._lock:
            return self._jobs.get(key)

    def leave(self, key: TrainKey, watcher: str) -> TrainJob | None:
        """`watcher` stops watching; a job nobody watches any more is cancelled.

        A cancelled job finishes its current merge and ends with what it learned; asking for
        the same training again starts a new job. Returns the job left, if the pool had it.
        """
        with self._lock:
            job = self._jobs.get(key)
            if job is None or job.over:
                return job
            job.watchers.discard(watcher)
            if not job.watchers:
                job.cancel()
            return job

    def _evict(self) -> None:
        """Drop the oldest finished jobs beyond `keep` (running ones are never dropped)."""
        finished = [key for key, job in self._jobs.items() if job.over]
        for key in finished[: max(0, len(finished) - self._keep)]:
            del self._jobs[key]
