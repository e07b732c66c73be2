"""`train`'s contract: validation, early stop, on_step, the step record and the trained Encoding."""

import sys
from array import array
from collections import Counter
from collections.abc import Callable

import pytest
import regex

import tokenizer as tk
from tests.core.test_long_chunks import seconds
from tests.core.texts import corpus_texts
from tests.train.corpora import script_text
from tokenizer.train import MAX_UNSPLIT_BYTES, MAX_VOCAB_SIZE, count_chunks, train
from tokenizer.train_record import RIVALS, TrainStep

VERDICT = corpus_texts()["the-verdict.txt"]


def test_exported_as_tk_train() -> None:
    assert tk.train is train


@pytest.mark.parametrize("vocab_size", [300.0, "300", True, None])
def test_vocab_size_must_be_an_int(vocab_size: object) -> None:
    with pytest.raises(TypeError, match="vocab_size must be an int"):
        train("abc", vocab_size)


def test_vocab_size_bounds() -> None:
    with pytest.raises(ValueError, match=r"at least 257 \(256 byte tokens \+ 1 special\), got 256"):
        train("abc", 256)
    with pytest.raises(ValueError, match="at least 259"):
        train("abc", 258, special_tokens=("<a>", "<b>", "<c>"))
    with pytest.raises(ValueError, match="absurdly large"):
        train("abc", MAX_VOCAB_SIZE + 1)
    assert train("abc", 256, special_tokens=()).n_vocab == 256


@pytest.mark.parametrize(
    ("specials", "error", "message"),
    [
        ("<|endoftext|>", TypeError, "not a str"),
        (("",), TypeError, "non-empty strings"),
        ((1,), TypeError, "non-empty strings"),
        (("<a>", "<a>"), ValueError, "distinct"),
    ],
)
def test_special_tokens_are_checked(specials: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        train("abc", 300, special_tokens=specials)


def test_text_and_pattern_are_checked() -> None:
    with pytest.raises(TypeError, match="text must be a str"):
        train(b"abc", 300)
    with pytest.raises(ValueError, match=r"pattern '\(\?P<' does not compile: "):
        train("abc", 300, pattern="(?P<")
    with pytest.raises(TypeError, match="pattern must be a str or None"):
        train("abc", 300, pattern=3)
    with pytest.raises(ValueError, match="up to 100,000 bytes; this text has 100,001"):
        train("é" * 50_000 + "a", 300, pattern=None)
    assert train("a" * MAX_UNSPLIT_BYTES, 300, pattern=None).training.n_merges == 16


def test_a_special_token_holding_another_is_cut_whole() -> None:
    counts = count_chunks("x<a>by<a>z", regex.compile(".").findall, ["<a>", "<a>b"])
    assert counts == Counter({"x": 1, "y": 1, "z": 1})


def test_early_stop_says_how_many_merges() -> None:
    enc = train("abcabc xyz", 1000)
    record = enc.training
    assert record.stop == "exhausted"
    assert record.n_merges == len(enc.merges) == 2
    assert record.message == (
        "Stopped early after 2 merges of 743: no pair of tokens occurs at least twice in the "
        "corpus any more."
    )
    assert enc.special_tokens == {"<|endoftext|>": 258}
    assert enc.n_vocab == 259
    assert train("", 1000).training.n_merges == 0
    # No pair ever occurred twice: not "any more".
    assert train("abcdef", 300, special_tokens=()).training.message == (
        "Stopped before the first merge (of 44): no pair of bytes occurs twice within the "
        "corpus's chunks."
    )


def test_on_step_sees_every_step_and_can_stop() -> None:
    seen: list[TrainStep] = []
    full = train(VERDICT, 400)
    assert full.training.message == "Made all 143 merges."
    stopped = train(VERDICT, 400, on_step=lambda step: seen.append(step) or step.index < 9)
    assert [s.index for s in seen] == list(range(10))
    assert seen == [full.training.step(i) for i in range(10)]
    assert stopped.training.stop == "cancelled"
    assert stopped.training.message.startswith("Cancelled after 10 merges of 143")
    # A stopped training is the full one cut short, and a working Encoding.
    assert stopped.merges == full.merges[:10]
    assert stopped.special_tokens == {"<|endoftext|>": 266}
    assert stopped.decode(stopped.encode(VERDICT)) == VERDICT


def test_on_step_errors_propagate() -> None:
    class StopError(Exception):
        pass

    def fail(step: TrainStep) -> None:
        raise StopError

    with pytest.raises(StopError):
        train(VERDICT, 300, on_step=fail)


def test_step_record_contents() -> None:
    text = script_text("cyrillic") + "<|endoftext|>" + VERDICT
    enc = train(text, 600)
    record = enc.training
    assert len(record) == record.n_merges == len(enc.merges) == 343
    # Unpacked by the time train returns, for those that read the arrays (files, prefixes).
    assert len(record.rival_lefts) == len(record.rival_counts) == RIVALS * record.n_merges
    assert record.tokens_before == len(text.encode()) - len("<|endoftext|>")
    for step in record:
        assert step.new_id == 256 + step.index
        assert step.pair == enc.merges[step.index]
        assert step.piece == enc.token_bytes(step.new_id)
        assert len(step.rivals) == RIVALS
        assert [c for _, c in step.rivals] == sorted((c for _, c in step.rivals), reverse=True)
        assert step.count >= step.rivals[0][1]
    # The compression curve ends where encoding the training text with the result does.
    assert list(record.tokens_after) == sorted(record.tokens_after, reverse=True)
    specials_in_text = 1
    assert (
        record.tokens_after[-1] == len(enc.encode(text, allowed_special="all")) - specials_in_text
    )
    assert record.step(-1) == record.step(record.n_merges - 1)


def test_step_record_is_compact() -> None:
    record = train(
        VERDICT * 3 + script_text("cjk", words=20_000), 2_256, special_tokens=()
    ).training
    assert record.n_merges == 2_000
    arrays = sum(sys.getsizeof(v) for v in vars(record).values() if isinstance(v, array))
    assert arrays / record.n_merges < 200  # bytes per step; 8,000 steps stay under 1.6 MB


def test_trained_encoding_does_what_bundled_ones_do() -> None:
    text = VERDICT + script_text("emoji", words=500)
    enc = train(text, 700, pattern="o200k_base")
    sample = "I had always thought 🎉 Jack Gisburn<|endoftext|> 👍🏽!"
    ids = enc.encode(sample, allowed_special="all")
    assert enc.decode(ids) == sample
    assert enc.eot_token in ids
    assert enc.decode_bytes(enc.encode_ordinary(sample)) == sample.encode()
    assert [enc.merge_rank(i) for i in range(256, 260)] == [0, 1, 2, 3]
    assert enc.merge_rank(97) is None
    assert enc.merge_rank(enc.eot_token) is None
    traced = [i for chunk in enc.trace(sample, allowed_special="all") for i in chunk.ids]
    assert traced == ids
    tokenized = enc.tokenize(sample, allowed_special="all")
    assert b"".join(tokenized.pieces) == sample.encode()


def test_long_single_chunk_is_not_quadratic() -> None:
    """Training on one huge chunk and encoding it: 8x the text must cost far less than 64x."""

    def train_and_encode(size: int) -> Callable[[], object]:
        def run() -> object:
            enc = train("a" * size, 300, special_tokens=())
            assert enc.training.stop == "exhausted"
            assert enc.decode(enc.encode("a" * size)) == "a" * size
            return enc

        return run

    assert seconds(train_and_encode(200_000)) / seconds(train_and_encode(25_000)) < 20
