"""Training in a child process gives the same vocabulary as training in place, and can stop."""

import runpy
import sys
import threading
from pathlib import Path

import pytest

import tokenizer as tk
from tests.core.texts import corpus_texts, stdlib_code
from ui.common import navigation
from ui.train.worker import TrainingProcessError, run_in_child, train_in_process

ROOT = Path(__file__).resolve().parents[3]

TEXT = corpus_texts()["the-verdict.txt"]


def test_same_result_as_training_here() -> None:
    seen: list[int] = []
    enc = train_in_process(
        TEXT,
        600,
        pattern="gpt2",
        special_tokens=("<|endoftext|>",),
        on_step=lambda step: seen.append(step.index),
    )
    here = tk.train(TEXT, 600, pattern="gpt2", special_tokens=("<|endoftext|>",))
    assert enc.merges == here.merges
    assert enc.special_tokens == here.special_tokens
    assert enc.encode(TEXT[:2000]) == here.encode(TEXT[:2000])
    assert enc.training.n_merges == here.training.n_merges
    assert enc.training.step(-1) == here.training.step(-1)
    assert seen  # progress reached this process
    assert seen == sorted(seen)
    assert seen[-1] == enc.training.n_merges - 1  # the last step is always reported


def test_stopping_gives_a_smaller_vocabulary() -> None:
    """Stop at the first step reported. 2 MB of code takes over half a second of merging after
    that step, while the request reaches the child in milliseconds, so this cannot race."""
    enc = train_in_process(
        stdlib_code(2_000_000), 20_000, pattern="gpt2", special_tokens=(), on_step=lambda _s: False
    )
    assert enc.training.stop == "cancelled"
    assert 1 <= enc.training.n_merges < 1000


def test_refused_settings_keep_the_trainer_message() -> None:
    with pytest.raises(ValueError, match="vocab_size"):
        train_in_process(TEXT, 10, pattern="gpt2", special_tokens=(), on_step=lambda _step: None)


def test_run_in_child_returns_the_value() -> None:
    assert run_in_child(sorted, [3, 1, 2]) == [1, 2, 3]


@pytest.mark.parametrize(("run_name", "draws"), [("__mp_main__", False), ("__main__", True)])
def test_the_training_process_does_not_draw_the_app(
    monkeypatch: pytest.MonkeyPatch, run_name: str, draws: bool
) -> None:
    """Under Streamlit, app.py is the main module, which "spawn" runs again in the child as
    ``__mp_main__``: that must not draw the app (a second per training, and log noise)."""
    calls: list[None] = []
    monkeypatch.setattr(navigation, "frame", lambda: calls.append(None))
    runpy.run_path(str(ROOT / "app.py"), run_name=run_name)
    assert bool(calls) == draws


def test_a_training_process_that_dies_at_start_is_an_error_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Here "spawn" cannot start the child (the main module it runs again is gone); the parent
    still holds the pipe's other end for it, so only the child's exit tells it is over."""
    main = sys.modules["__main__"]
    monkeypatch.setattr(main, "__spec__", None)
    monkeypatch.setattr(main, "__file__", str(tmp_path / "gone.py"), raising=False)
    outcome: list[BaseException] = []

    def attempt() -> None:
        try:
            train_in_process(TEXT, 300, pattern="gpt2", special_tokens=(), on_step=print)
        except BaseException as exc:  # the test reads which one
            outcome.append(exc)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "still waiting for a dead training process"
    (error,) = outcome
    assert isinstance(error, TrainingProcessError)
    assert "ended unexpectedly" in str(error)
