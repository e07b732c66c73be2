"""The shared training pool: one job per key, progress, cancel per watcher, a bounded cache."""

import threading
import time
from collections.abc import Callable

import pytest

import tokenizer as tk
from tokenizer.train_record import TrainStep
from ui.train.jobs import (
    Progress,
    TrainingPool,
    TrainKey,
    TrainSettings,
    mmss,
    prefix_vocabulary,
)

TEXT = "the cat sat on the mat; the cat ate the rat. " * 40
SETTINGS = TrainSettings(300, tk.PATTERNS["gpt2"], ("<|endoftext|>",))
KEY = TrainKey("sha-of-text", SETTINGS)


def counting_train(calls: list[str], gate: threading.Event | None = None) -> Callable:
    """The real trainer, counting its calls and optionally held until `gate` opens."""

    def fn(text: str, vocab_size: int, **kwargs: object) -> tk.Encoding:
        calls.append(text)
        if gate is not None:
            assert gate.wait(10)
        return tk.train(text, vocab_size, **kwargs)

    return fn


def slow_train(delay: float) -> Callable:
    """The real trainer with a pause after every merge, so a test can cancel it midway."""

    def fn(text: str, vocab_size: int, *, on_step: Callable[[TrainStep], object], **kw: object):
        def step(s: TrainStep) -> object:
            time.sleep(delay)
            return on_step(s)

        return tk.train(text, vocab_size, on_step=step, **kw)

    return fn


def wait(job, timeout: float = 20) -> None:
    assert job.finished.wait(timeout), job.progress()


def test_a_job_trains_and_reports_every_merge() -> None:
    pool = TrainingPool(workers=1, keep=4)
    job = pool.submit(KEY, TEXT, "s1")
    wait(job)
    assert job.state == "done" and job.error is None
    assert job.result.merges == tk.train(TEXT, 300).merges
    progress = job.progress()
    assert progress.done == job.result.training.n_merges
    assert progress.fraction == 1.0 and progress.eta is None
    assert job.watchers == {"s1"}


def test_the_same_training_asked_at_once_by_ten_sessions_runs_once() -> None:
    calls: list[str] = []
    gate = threading.Event()
    pool = TrainingPool(workers=2, keep=4, train_fn=counting_train(calls, gate))
    jobs: list = []
    start = threading.Barrier(10)

    def session(n: int) -> None:
        start.wait()
        jobs.append(pool.submit(KEY, TEXT, f"session-{n}"))

    threads = [threading.Thread(target=session, args=(n,)) for n in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    gate.set()
    wait(jobs[0])
    assert len({id(job) for job in jobs}) == 1
    assert len(calls) == 1
    assert len(jobs[0].watchers) == 10


def test_a_finished_training_is_reused_without_training_again() -> None:
    calls: list[str] = []
    pool = TrainingPool(workers=1, keep=4, train_fn=counting_train(calls))
    wait(pool.submit(KEY, TEXT, "s1"))
    again = pool.submit(KEY, TEXT, "s2")
    assert again.over and len(calls) == 1


def test_different_settings_are_different_trainings() -> None:
    calls: list[str] = []
    pool = TrainingPool(workers=1, keep=4, train_fn=counting_train(calls))
    other = TrainKey(KEY.corpus_sha256, TrainSettings(280, None, ()))
    wait(pool.submit(KEY, TEXT, "s1"))
    wait(pool.submit(other, TEXT, "s1"))
    assert len(calls) == 2


def test_cancel_stops_the_job_only_when_nobody_watches_it_and_keeps_what_it_learned() -> None:
    pool = TrainingPool(workers=1, keep=4, train_fn=slow_train(0.01))
    job = pool.submit(KEY, TEXT, "s1")
    pool.submit(KEY, TEXT, "s2")
    pool.leave(KEY, "s1")
    assert not job.over and not job.cancelled  # s2 still watches
    while job.done < 3:  # let it learn a few merges first
        time.sleep(0.01)
    pool.leave(KEY, "s2")
    wait(job)
    assert job.state == "cancelled"
    partial = job.result
    record = partial.training
    assert record.stop == "cancelled" and 3 <= record.n_merges < SETTINGS.merges_wanted
    full = tk.train(TEXT, 300)
    assert partial.merges == full.merges[: record.n_merges]  # a usable, smaller vocabulary
    assert partial.special_tokens == {"<|endoftext|>": 256 + record.n_merges}
    assert partial.decode(partial.encode(TEXT)) == TEXT
    fresh = pool.submit(KEY, TEXT, "s3")  # asking again starts over
    assert fresh is not job


def test_a_cancel_after_the_last_merge_leaves_a_complete_training_done() -> None:
    # The trainer has made every merge and is building the vocabulary when the cancel comes:
    # nothing was stopped, so the job is done and its vocabulary is not called partial.
    finished, gate = threading.Event(), threading.Event()

    def fn(text: str, vocab_size: int, **kwargs: object) -> tk.Encoding:
        enc = tk.train(text, vocab_size, **kwargs)
        finished.set()
        assert gate.wait(10)
        return enc

    pool = TrainingPool(workers=1, keep=4, train_fn=fn)
    job = pool.submit(KEY, TEXT, "s1")
    assert finished.wait(20)
    pool.leave(KEY, "s1")
    assert job.cancelled and not job.over
    gate.set()
    wait(job)
    assert job.state == "done"
    assert job.result.training.stop != "cancelled"  # "exhausted": this text runs out of pairs
    assert job.result.merges == tk.train(TEXT, 300).merges


def test_a_prefix_of_a_finished_vocabulary_is_what_a_stopped_run_makes() -> None:
    full = tk.train(TEXT, 300)
    stopped = tk.train(TEXT, 300, on_step=lambda step: step.index < 9)  # stops after 10
    prefix = prefix_vocabulary(full, 10)
    assert prefix.merges == stopped.merges
    assert prefix.special_tokens == stopped.special_tokens
    assert list(prefix.training) == list(stopped.training)
    assert prefix.training.stop == "cancelled" and prefix.training.message.startswith("Cancelled")
    assert prefix.encode(TEXT, allowed_special="all") == stopped.encode(TEXT, allowed_special="all")
    assert prefix_vocabulary(full, 10_000) is full


def test_leaving_a_finished_job_keeps_it_for_others() -> None:
    pool = TrainingPool(workers=1, keep=4)
    job = pool.submit(KEY, TEXT, "s1")
    wait(job)
    pool.leave(KEY, "s1")
    assert pool.get(KEY) is job and job.state == "done"


def test_a_job_waits_for_a_free_slot_and_says_so() -> None:
    gate = threading.Event()
    calls: list[str] = []
    pool = TrainingPool(workers=1, keep=4, train_fn=counting_train(calls, gate))
    first = pool.submit(KEY, TEXT, "s1")
    second = pool.submit(TrainKey("other", SETTINGS), TEXT, "s1")
    deadline = time.monotonic() + 10
    while not calls and time.monotonic() < deadline:  # the first holds the only trainer
        time.sleep(0.005)
    assert calls
    assert second.progress().state == "queued"
    assert "Waiting" in second.progress().describe()
    gate.set()
    wait(first)
    wait(second)
    assert second.state == "done"


def test_a_refused_setting_fails_with_the_trainers_reason() -> None:
    pool = TrainingPool(workers=1, keep=4)
    key = TrainKey("x", TrainSettings(300, "(", ()))
    job = pool.submit(key, TEXT, "s1")
    wait(job)
    assert job.state == "failed" and "does not compile" in job.error
    assert pool.submit(key, TEXT, "s1") is not job  # a failed job is retried on request


def test_an_unexpected_error_in_the_thread_still_ends_the_job() -> None:
    def broken(*args: object, **kwargs: object) -> tk.Encoding:
        raise RuntimeError("boom")

    pool = TrainingPool(workers=1, keep=4, train_fn=broken)
    job = pool.submit(KEY, TEXT, "s1")
    wait(job)
    assert job.state == "failed" and "RuntimeError: boom" in job.error


def test_only_the_most_recent_finished_jobs_are_kept() -> None:
    pool = TrainingPool(workers=1, keep=2)
    keys = [TrainKey(f"k{n}", TrainSettings(260, None, ())) for n in range(4)]
    for key in keys:
        wait(pool.submit(key, "abababab", "s1"))
    pool.submit(TrainKey("last", TrainSettings(260, None, ())), "abab", "s1")
    kept = [key for key in keys if pool.get(key) is not None]
    assert kept == keys[-2:]


def test_the_finished_record_is_filled_before_sessions_share_it() -> None:
    pool = TrainingPool(workers=1, keep=4)
    job = pool.submit(KEY, TEXT, "s1")
    wait(job)
    record = job.result.training
    assert len(record._pieces) == 256 + record.n_merges


@pytest.mark.parametrize(
    ("progress", "text"),
    [
        (
            Progress("counting", 0, 100, 0.5),
            "Splitting the corpus into chunks and counting them… 0:00",
        ),
        (Progress("training", 25, 100, 1.0, 0.5), "25 of up to 100 merges · 0:01"),
        (
            Progress("training", 25, 100, 6.0, 4.8),
            "25 of up to 100 merges · 0:06 · about 0:15 left",
        ),
        (Progress("done", 90, 100, 2.0), "90 of up to 100 merges · 0:02"),
    ],
)
def test_progress_reads_well(progress: Progress, text: str) -> None:
    assert progress.describe() == text


def test_progress_fraction_and_eta() -> None:
    assert Progress("training", 25, 100, 1.0).fraction == 0.25
    # A rate only from merging (not the counting before it), after a second and ten merges.
    assert Progress("training", 25, 100, 30.0, 2.4).eta == pytest.approx(7.5)
    assert Progress("training", 25, 100, 30.0, 0.5).eta is None  # not a second of merging yet
    assert Progress("training", 5, 100, 30.0, 5.0).eta is None  # too few merges for a rate
    assert Progress("training", 0, 100, 1.0).eta is None
    assert Progress("cancelled", 3, 100, 1.0).fraction == 1.0


def test_a_newcomers_absurd_eta_does_not_come_back() -> None:
    """28710.7 s came from counting time divided by one merge; now it is m:ss, or words."""
    slow_start = Progress("training", 1, 30_000, 9.5, 0.0)
    assert slow_start.eta is None and "left" not in slow_start.describe()
    crawling = Progress("training", 20, 30_000, 120.0, 110.0)
    assert crawling.describe().endswith("over an hour and a half left")


def test_mmss() -> None:
    assert [mmss(s) for s in (0, 4.4, 59.6, 61, 754, 6000)] == [
        "0:00",
        "0:04",
        "1:00",
        "1:01",
        "12:34",
        "100:00",
    ]
