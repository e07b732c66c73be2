"""The note that Qwen's NFC changed the text: read from the two texts, not by normalising again."""

from collections.abc import Callable

import pytest

import tokenizer as tk
from ui.common.tokens import normalised_brief, normalised_note

DECOMPOSED = "cafe\u0301 " * 3  # "e" + a combining accent: NFC makes each one "é"


class CountingNormalizer:
    """Qwen's normaliser, counting how often it is asked."""

    def __init__(self, inner: tk.Normalizer) -> None:
        self.inner, self.calls = inner, 0

    def __call__(self, text: str) -> str:
        self.calls += 1
        return self.inner(text)

    def describe(self) -> str:
        return self.inner.describe()


@pytest.fixture
def counted() -> tuple[tk.Encoding, CountingNormalizer]:
    qwen = tk.get_encoding("qwen3")
    assert qwen.normalizer is not None
    normalizer = CountingNormalizer(qwen.normalizer)
    copy = object.__new__(tk.Encoding)
    copy.__dict__.update(qwen.__dict__)
    copy.normalizer = normalizer  # type: ignore[assignment]
    return copy, normalizer


@pytest.mark.parametrize("note", [normalised_note, normalised_brief])
def test_a_note_costs_no_pass_over_the_text(
    counted: tuple[tk.Encoding, CountingNormalizer], note: Callable[..., str | None]
) -> None:
    enc, normalizer = counted
    shown = enc.tokenize(DECOMPOSED).text
    normalizer.calls = 0
    assert note(enc, DECOMPOSED, shown) is not None
    assert note(enc, shown, shown) is None
    assert normalizer.calls == 0


def test_the_note_counts_the_characters_before_and_after() -> None:
    qwen = tk.get_encoding("qwen3")
    shown = qwen.tokenize(DECOMPOSED).text
    assert len(shown) == len(DECOMPOSED) - 3
    assert normalised_brief(qwen, DECOMPOSED, shown) == (
        f"`qwen3` normalises text (NFC) first: {len(DECOMPOSED)} characters became {len(shown)}."
    )


def test_no_note_for_an_encoding_without_a_normaliser() -> None:
    gpt2 = tk.get_encoding("gpt2")
    assert normalised_note(gpt2, DECOMPOSED, DECOMPOSED.upper()) is None
