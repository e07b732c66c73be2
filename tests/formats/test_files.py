"""`load` / `save`: every format round trips, files are found by name, and refusals say why."""

import ast
import codecs
from functools import cache
from pathlib import Path

import pytest

import tokenizer as tk
from tests.core.texts import corpus_texts, stdlib_code
from tests.formats.hf_oracle import TEST_TEXT, hf_json
from tokenizer import chat, files, formats, hf, normalize, onig
from tokenizer.encoding import Encoding
from tokenizer.formats import FormatError

TAYLOR = corpus_texts()["taylorswift.txt"]
SAMPLE = TEST_TEXT + stdlib_code()[:5_000]


@cache
def trained() -> Encoding:
    return tk.train(TAYLOR[:30_000], 800, special_tokens=("<|endoftext|>", "<|sep|>"))


@cache
def imported(kind: str) -> Encoding:
    return tk.load_files({"tokenizer.json": hf_json(kind)}, name=kind)


def assert_same(loaded: Encoding, original: Encoding) -> None:
    text = SAMPLE + "".join(original.special_tokens)
    assert loaded.encode(text, allowed_special="all") == original.encode(
        text, allowed_special="all"
    )
    assert loaded.special_tokens == original.special_tokens
    assert loaded.n_vocab == original.n_vocab
    assert loaded.normalizer == original.normalizer


def options(enc: Encoding, form: str) -> dict[str, object]:
    """What a format does not hold, passed back when loading it."""
    if form == "tiktoken":
        return {"pattern": enc.pattern, "special_tokens": enc.special_tokens}
    if form == "gpt2":
        return {"pattern": enc.pattern}
    return {}


CASES = [
    *[("trained", form) for form in tk.SAVE_FORMATS],
    # GPT-2's real files in the older formats: tests/train/test_formats.py
    pytest.param("gpt2", "hf", marks=pytest.mark.slow),  # 50,000 tokens out and back: 2 s
    *[(kind, "hf") for kind in ("bytelevel", "prefix", "llama3_nfc")],
]


def encoding(which: str) -> Encoding:
    if which == "trained":
        return trained()
    if which == "gpt2":
        return tk.get_encoding("gpt2")
    return imported(which)


@pytest.mark.parametrize(("which", "form"), CASES)
def test_every_format_round_trips_through_bytes(which: str, form: str) -> None:
    enc = encoding(which)
    dumped = tk.dump(enc, form)
    assert_same(tk.load_files(dumped, **options(enc, form)), enc)


@pytest.mark.parametrize("form", tk.SAVE_FORMATS)
def test_save_and_load_paths(form: str, tmp_path: Path) -> None:
    enc = trained()
    names = {"hf": "tokenizer.json", "tiktoken": "out.tiktoken", "bundle": "out.bpe-lens.json"}
    target = tmp_path / names.get(form, "folder")
    written = tk.save(enc, target, form)
    assert all(path.is_file() for path in written)
    assert_same(tk.load(target, **options(enc, form)), enc)
    if form == "gpt2":  # one file of a pair finds its partner; a pair of paths works too
        assert_same(tk.load(target / "vocab.bpe", pattern=enc.pattern), enc)
        assert_same(tk.load(written, pattern=enc.pattern), enc)


def test_a_folder_prefers_tokenizer_json(tmp_path: Path) -> None:
    tk.save(trained(), tmp_path, "gpt2")
    assert tk.load(tmp_path).special_tokens == trained().special_tokens  # encoder.json + vocab.bpe
    (tmp_path / "tokenizer.json").write_bytes(hf_json("bytelevel"))
    loaded = tk.load(tmp_path)
    assert loaded.name == tmp_path.name
    assert loaded.special_tokens == {"<|endoftext|>": 0, "<pad>": 1}


def test_tiktoken_named_after_a_bundled_encoding_needs_no_pattern() -> None:
    (data,) = tk.dump(trained(), "tiktoken").values()  # trained with GPT-2's pattern
    loaded = tk.load_files({"gpt2.tiktoken": data})
    assert loaded.encode_ordinary(SAMPLE) == trained().encode_ordinary(SAMPLE)
    with pytest.raises(FormatError, match="holds no splitting pattern: pass pattern="):
        tk.load_files({"mine.tiktoken": data})


def test_formats_that_cannot_hold_an_encoding_say_so() -> None:
    for form in ("tiktoken", "gpt2", "bundle"):
        with pytest.raises(FormatError, match=r'normalises text .* save it as "hf"'):
            tk.dump(imported("prefix"), form)
    with pytest.raises(FormatError, match=r"no ordinary token with id 0.*tokenizer\.json"):
        tk.dump(imported("bytelevel"), "tiktoken")
    with pytest.raises(ValueError, match="unknown format 'pickle'"):
        tk.dump(trained(), "pickle")  # type: ignore[arg-type]


def test_files_it_cannot_place_are_refused(tmp_path: Path) -> None:
    gpt2 = tk.dump(trained(), "gpt2")
    cases = {
        "needs vocab.bpe too": {"encoder.json": gpt2["encoder.json"]},
        "merges.txt needs vocab.json too": {"merges.txt": b"#version: 0.2\n"},
        "cannot tell the format of notes.md": {"notes.md": b"hello"},
        "two files of the same kind": {"a.json": b"{}", "b.json": b"{}"},
        "no file given": {},
        r"tokenizer\.json is empty \(0 bytes\)": {"tokenizer.json": b""},
        r"merges\.txt is empty": {"vocab.json": gpt2["encoder.json"], "merges.txt": b""},
        r"cl100k_base\.tiktoken is empty": {"cl100k_base.tiktoken": b""},
    }
    for message, given in cases.items():
        with pytest.raises(FormatError, match=message):
            tk.load_files(given)
    with pytest.raises(FormatError, match=r"special_tokens can be given for a \.tiktoken file"):
        tk.load_files({"tokenizer.json": hf_json("bytelevel")}, special_tokens={"<x>": 9})
    with pytest.raises(FormatError, match=r"holds no tokenizer\.json"):
        tk.load(tmp_path)
    (tmp_path / "vocab.json").write_bytes(b"{}")
    with pytest.raises(FormatError, match=r"vocab\.json needs merges\.txt beside it"):
        tk.load(tmp_path / "vocab.json")
    with pytest.raises(FormatError, match="holds its own pattern"):
        tk.load_files({"tokenizer.json": hf_json("bytelevel")}, pattern="gpt2")


def text_files(form: str) -> dict[str, bytes]:
    """The files of a format a user can upload, as this app writes them."""
    if form == "vocab.json + merges.txt":  # the same contents as GPT-2's two files
        gpt2 = tk.dump(trained(), "gpt2")
        return {"vocab.json": gpt2["encoder.json"], "merges.txt": gpt2["vocab.bpe"]}
    return tk.dump(trained(), form)  # type: ignore[arg-type]


@pytest.mark.parametrize("form", [*tk.SAVE_FORMATS, "vocab.json + merges.txt"])
def test_a_byte_order_mark_before_a_file_changes_nothing(form: str) -> None:
    """Editors on Windows start UTF-8 files with one; it is no part of the vocabulary."""
    files = text_files(form)
    marked = {name: codecs.BOM_UTF8 + data for name, data in files.items()}
    given = options(trained(), form)
    assert_same(tk.load_files(marked, **given), tk.load_files(files, **given))


def test_text_that_is_not_utf8_is_named() -> None:
    with pytest.raises(FormatError, match=r"tokenizer\.json is UTF-16 text; save it as UTF-8"):
        tk.load_files({"tokenizer.json": "{}".encode("utf-16")})
    with pytest.raises(
        FormatError, match=r"not UTF-8 text \(byte 0xFF at offset 4\)"
    ):  # counted in the file
        tk.load_files({"tokenizer.json": codecs.BOM_UTF8 + b"{\xff}"})


def test_halves_of_a_pair_are_told_by_how_their_names_end(tmp_path: Path) -> None:
    """This app's downloads (demo-encoder.json) and Megatron's (gpt2-vocab.json) are prefixed."""
    gpt2 = tk.dump(trained(), "gpt2")
    with pytest.raises(FormatError, match=r"demo-encoder\.json needs demo-vocab\.bpe too"):
        tk.load_files({"demo-encoder.json": gpt2["encoder.json"]})
    with pytest.raises(FormatError, match=r"gpt2-merges\.txt needs gpt2-vocab\.json too"):
        tk.load_files({"gpt2-merges.txt": gpt2["vocab.bpe"]})
    (tmp_path / "gpt2-vocab.json").write_bytes(gpt2["encoder.json"])
    (tmp_path / "gpt2-merges.txt").write_bytes(gpt2["vocab.bpe"])
    loaded = tk.load(tmp_path / "gpt2-vocab.json")
    assert loaded.encode_ordinary(SAMPLE) == trained().encode_ordinary(SAMPLE)


def test_oversized_files_are_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(formats, "MAX_FILE_BYTES", 1_000)
    big = tmp_path / "tokenizer.json"
    big.write_bytes(b" " * 1_001)
    opened = []
    monkeypatch.setattr(Path, "open", lambda *args, **_: opened.append(args))
    with pytest.raises(FormatError, match=r"tokenizer\.json has 1,001 bytes; the limit is 1,000"):
        tk.load(big)
    assert not opened
    with pytest.raises(FormatError, match=r"t\.json has 1,001 bytes"):
        tk.load_files({"t.json": b" " * 1_001})


def test_no_pickle_no_eval() -> None:
    for module in (files, formats, hf, onig, chat, normalize):
        tree = ast.parse(Path(module.__file__).read_text())
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        modules |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not modules & {"pickle", "marshal", "shelve"}
        assert not names & {"eval", "exec", "__import__"}


@pytest.mark.slow  # 128k-201k tokens out, then read by Hugging Face: a few seconds each
@pytest.mark.parametrize("name", ["o200k_harmony", "llama3", "qwen3"])
def test_open_models_export_to_hugging_face_with_the_same_ids(name: str, tmp_path: Path) -> None:
    """Hugging Face reads our tokenizer.json of each and gives our ids, specials included.

    A tokenizer.json holds one token per id: o200k_harmony's id 200,018, which has two names, is
    written under the one it decodes to, so the other name is the one thing that does not travel.
    """
    from tokenizers import Tokenizer

    enc = tk.get_encoding(name)
    path = tmp_path / "tokenizer.json"
    tk.save(enc, path, "hf")
    theirs = Tokenizer.from_file(str(path))
    specials = [enc.decode([i]) for i in sorted(set(enc.special_tokens.values()))[:30]]
    text = SAMPLE + "cafe\u0301 \u1100\u1161" + " x".join(specials)
    ids = enc.encode(text, allowed_special="all")
    assert theirs.encode(text, add_special_tokens=False).ids == ids
    back = tk.load(path)
    assert back.encode(text, allowed_special="all") == ids
    lost = set(enc.special_tokens) - set(back.special_tokens)
    assert lost == ({"<|reserved_200018|>"} if name == "o200k_harmony" else set())
