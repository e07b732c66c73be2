"""Export in every format the core writes and import back: exact round trips, warnings when
the chosen pattern or special tokens contradict the file, clear errors, no traces."""

import codecs
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from ui.common.vocab_files import KINDS, exports, file_stem, import_files, kind_of, round_trip_rate

CORPUS = "Byte pair encoding merges the most frequent pair, again and again. " * 20 + (
    "naïve café 你好世界 👋🏽 1234567 " * 10
)
PROBES = [CORPUS, "unseen words: zebra quixotic", "你好 👋🏽 <|endoftext|> done", ""]


@pytest.fixture(scope="module")
def enc() -> tk.Encoding:
    return tk.train(CORPUS, 500, name="demo vocab")


def downloads(enc: tk.Encoding) -> dict[str, bytes]:
    return {name: data for item in exports(enc) for name, data in item.files}


def test_every_format_the_core_writes_is_offered_for_a_trained_vocabulary(
    enc: tk.Encoding,
) -> None:
    files = exports(enc)
    assert [f.fmt for f in files] == ["hf", "gpt2", "tiktoken", "bundle"]
    assert set(tk.SAVE_FORMATS) == {f.fmt for f in files}
    assert all(f.files and f.problem is None for f in files)
    assert [name for f in files for name, _ in f.files] == [
        "demo-vocab-tokenizer.json",
        "demo-vocab-encoder.json",
        "demo-vocab-vocab.bpe",
        "demo-vocab.tiktoken",
        "demo-vocab.bpe-lens.json",
    ]


def test_the_bundle_restores_the_vocabulary_exactly(enc: tk.Encoding) -> None:
    data = downloads(enc)["demo-vocab.bpe-lens.json"]
    result = import_files([("demo-vocab.bpe-lens.json", data)], name="ignored", pattern=None)
    back = result.encoding
    assert result.kind == "bundle" and result.error is None and not result.warnings
    assert back.merges == enc.merges
    assert back.pattern == enc.pattern and back.special_tokens == enc.special_tokens
    assert list(back.training) == list(enc.training)
    assert back.training.tokens_before == enc.training.tokens_before
    for text in PROBES:
        assert back.encode(text, allowed_special="all") == enc.encode(text, allowed_special="all")


def test_a_hugging_face_file_restores_it_with_its_specials_read_in_text(enc: tk.Encoding) -> None:
    data = downloads(enc)["demo-vocab-tokenizer.json"]
    result = import_files([("demo-vocab-tokenizer.json", data)], name="hf", pattern="o200k_base")
    assert result.kind == KINDS["hf"] and result.specials_are_text and not result.warnings
    assert result.encoding.pattern == enc.pattern  # the file's own, whatever was chosen
    for text in PROBES:
        assert result.encoding.encode(text, allowed_special="all") == enc.encode(
            text, allowed_special="all"
        )


def test_gpt2_files_restore_every_encoding(enc: tk.Encoding) -> None:
    files = downloads(enc)
    result = import_files(
        [
            ("demo-vocab-encoder.json", files["demo-vocab-encoder.json"]),
            ("demo-vocab-vocab.bpe", files["demo-vocab-vocab.bpe"]),
        ],
        name="again",
        pattern="gpt2",
    )
    assert result.kind == "GPT-2 files" and result.encoding.name == "again"
    assert not result.warnings
    for text in PROBES:
        assert result.encoding.encode(text, allowed_special="all") == enc.encode(
            text, allowed_special="all"
        )


def test_tiktoken_file_restores_ordinary_encoding_and_takes_special_tokens(
    enc: tk.Encoding,
) -> None:
    data = downloads(enc)["demo-vocab.tiktoken"]
    result = import_files(
        [("x.tiktoken", data)], name="tt", pattern="gpt2", special_tokens=["<|endoftext|>"]
    )
    assert result.kind == ".tiktoken"
    for text in PROBES:
        assert result.encoding.encode_ordinary(text) == enc.encode_ordinary(text)
    assert result.encoding.special_tokens == {"<|endoftext|>": enc.n_vocab - 1}


def test_a_pattern_that_contradicts_the_file_warns_and_names_a_better_one() -> None:
    # GPT-2's pattern keeps " 12345" whole; cl100k_base's cuts digits in threes, without the space.
    numbers = tk.train("year 12345 and 67890, 12345 or 67890. " * 30, 300, name="numbers")
    files = list(tk.dump(numbers, "gpt2").items())
    right = import_files(files, name="n", pattern="gpt2")
    assert right.warnings == () and round_trip_rate(right.encoding) == 1.0
    wrong = import_files(files, name="n", pattern="cl100k_base")
    (warning,) = wrong.warnings
    assert "do not encode back to their ids" in warning and "With `gpt2`, 0.0% do not" in warning


def test_a_special_token_that_is_already_an_ordinary_token_warns() -> None:
    enc = tk.train("hello\n" * 50, 300, special_tokens=())
    assert len(enc.encode_ordinary("hello")) == 1  # the trainer learned it as one token
    data = tk.dump(enc, "tiktoken")
    (name,) = data
    result = import_files(
        [(name, data[name])], name="t", pattern=enc.pattern, special_tokens=["hello"]
    )
    (warning,) = result.warnings
    assert "already has" in warning and "`hello` (ordinary" in warning


def test_a_format_that_cannot_hold_a_vocabulary_says_why(enc: tk.Encoding) -> None:
    ranks_only = tk.load_files(tk.dump(enc, "tiktoken"), pattern="gpt2")  # no merge list now
    files = {f.fmt: f for f in exports(ranks_only)}
    for fmt in ("bundle", "gpt2"):
        assert not files[fmt].files and files[fmt].problem  # the core's reason
    assert files["tiktoken"].files and files["hf"].files


def test_kinds_are_told_by_names_and_a_lone_json_by_its_content(enc: tk.Encoding) -> None:
    files = downloads(enc)
    assert kind_of([("t.json", files["demo-vocab-tokenizer.json"])]) == KINDS["hf"]
    assert kind_of([("b.json", files["demo-vocab.bpe-lens.json"])]) == KINDS["bundle"]
    assert kind_of([("vocab.json", b"{}"), ("merges.txt", b"")]) == KINDS["vocab_merges"]
    assert kind_of([("a.tiktoken", b"")]) == KINDS["tiktoken"]
    assert kind_of([("a.txt", b"")]) is None
    assert kind_of([("vocab.json", b"{}")]) is None  # half of a pair, not a tokenizer.json


@pytest.mark.parametrize(
    ("given", "missing"),
    [
        ("vocab.json", "merges.txt"),
        ("merges.txt", "vocab.json"),
        ("encoder.json", "vocab.bpe"),
        ("vocab.bpe", "encoder.json"),
        ("demo-vocab-encoder.json", "demo-vocab-vocab.bpe"),  # this app's download, alone
    ],
)
def test_half_of_a_pair_names_the_other_half(enc: tk.Encoding, given: str, missing: str) -> None:
    files = downloads(enc)
    data = files["demo-vocab-encoder.json" if given.endswith(".json") else "demo-vocab-vocab.bpe"]
    result = import_files([(given, data)], name="x", pattern="gpt2")
    assert result.error == f"`{given}` needs its `{missing}`: upload both together."


@pytest.mark.parametrize("fmt", ["hf", "gpt2", "tiktoken", "bundle"])
def test_a_byte_order_mark_before_a_file_is_dropped(enc: tk.Encoding, fmt: str) -> None:
    """Editors on Windows start UTF-8 files with one: such files import as they are."""
    (files,) = [item.files for item in exports(enc) if item.fmt == fmt]
    marked = [(name, codecs.BOM_UTF8 + data) for name, data in files]
    result = import_files(marked, name="bom", pattern=enc.pattern)
    assert result.error is None
    for text in PROBES:
        assert result.encoding.encode_ordinary(text) == enc.encode_ordinary(text)


def test_a_pairs_error_names_the_upload_it_means() -> None:
    """ "merges.txt is not UTF-8 text (byte 0)" named no file the user had given."""
    result = import_files(
        [("binary.txt", b"\x89PNG"), ("fake.json", b"{}")], name="x", pattern=None
    )
    assert result.error == (
        "Could not import `binary.txt` + `fake.json` as vocab.json + merges.txt (`binary.txt` read "
        "as merges.txt, `fake.json` read as vocab.json): `merges.txt is not UTF-8 text (byte 0x89 "
        "at offset 0)`"
    )


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ([], "Cannot tell which format nothing is"),
        ([("a.txt", b"x")], "Cannot tell which format"),
        # Two files where one is meant: often one left in the box by an import that failed.
        ([("a.json", b"{}"), ("b.json", b"{}")], "are 2 files, and only a pair makes one"),
        ([("a.json", b"{not json")], "Could not import"),
        ([("a.json", b"[" * 100_000 + b"]" * 100_000)], "Could not import"),
        ([("a.json", b"\xff\xfe")], "Could not import"),
        ([("e.json", b"{}"), ("m.bpe", b"#version\n")], "lacks 256 single-byte tokens"),
        ([("x.tiktoken", b"AA== notanumber\n")], "line 1"),
    ],
)
def test_bad_files_get_a_clear_message(files: list, message: str) -> None:
    result = import_files(files, name="x", pattern="gpt2")
    assert result.encoding is None
    assert message in result.error


def test_messages_quote_file_names_literally() -> None:
    result = import_files([("**bold** `x`.json", b"{")], name="x", pattern="gpt2")
    assert "`` **bold** `x`.json ``" in result.error


@given(
    st.sampled_from(["v.json", "v.tiktoken"]),
    st.binary(max_size=300) | st.text(max_size=300).map(str.encode),
)
def test_random_uploads_never_raise(name: str, data: bytes) -> None:
    result = import_files([(name, data)], name="x", pattern="gpt2")
    assert (result.encoding is None) == (result.error is not None)


def test_a_bundle_with_a_hostile_record_is_refused(enc: tk.Encoding) -> None:
    bundle = json.loads(downloads(enc)["demo-vocab.bpe-lens.json"])
    bundle["training"]["counts"] = bundle["training"]["counts"][:-1]
    result = import_files([("b.json", json.dumps(bundle).encode())], name="x", pattern=None)
    assert "training.counts" in result.error


def test_file_stems_are_safe() -> None:
    assert file_stem("my vocab/../1") == "my-vocab-..-1"
    assert file_stem("<>") == "vocabulary"


def test_a_long_file_name_is_named_whole_in_the_error() -> None:
    """The error cut it at 24 characters, and the uploader cuts it in the middle: the file's name
    was nowhere whole."""
    name = "hf_addedid_collide-tokenizer.json"
    result = import_files([(name, b"{not json")], name="x", pattern="gpt2")
    assert result.error is not None and name in result.error


def test_a_clash_of_special_and_ordinary_tokens_gives_both_ids_whole() -> None:
    """ "in (ordinary 261, speci…": the quote was shortened, the ids with it."""
    enc = tk.train("in the inn, in the tin " * 50, 300, special_tokens=())
    (files,) = [item.files for item in exports(enc) if item.fmt == "tiktoken"]
    result = import_files(files, name="x", pattern=enc.pattern, special_tokens=["in"])
    (ordinary,) = enc.encode_ordinary("in")
    assert result.encoding is not None
    assert f"`in` (ordinary {ordinary}, special {enc.n_vocab})" in " ".join(result.warnings)


@pytest.mark.parametrize(("pattern", "keeps"), [("", "it keeps nothing"), ("a*", "only `aa`")])
def test_a_bundle_whose_pattern_drops_text_is_refused(pattern: str, keeps: str) -> None:
    """It imported, and then gave no tokens for any text, or only its a's (QA round 14)."""
    enc = tk.train("banana " * 40, 260, pattern=pattern, special_tokens=())
    (files,) = [item.files for item in exports(enc) if item.fmt == "bundle"]
    result = import_files(files, name="x", pattern=None)
    assert result.encoding is None
    assert result.error is not None
    assert "leaves text out of its chunks" in result.error and keeps in result.error
