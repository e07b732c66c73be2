"""Training corpora: built here deterministically, hashed once; uploads decoded honestly."""

import hashlib
from pathlib import Path

import pytest

from ui.common import uploads
from ui.common.uploads import decode_upload, size_label
from ui.train import corpora
from ui.train.corpora import Corpus


def test_a_corpus_carries_the_sha256_of_its_utf8_bytes() -> None:
    corpus = Corpus.of("x", "X", "", "naïve 👋")
    data = "naïve 👋".encode()
    assert corpus.sha256 == hashlib.sha256(data).hexdigest()
    assert corpus.n_bytes == len(data)


def test_lone_surrogates_hash_as_the_trainer_reads_them() -> None:
    assert Corpus.of("x", "X", "", "a\ud800b").sha256 == Corpus.of("x", "X", "", "a?b").sha256


@pytest.mark.parametrize(
    ("n", "label"),
    [(0, "0 bytes"), (1, "1 byte"), (999, "999 bytes"), (2048, "2 KB"), (2_560, "2.6 KB")],
)
def test_size_labels(n: int, label: str) -> None:
    assert size_label(n) == label


def _fake_stdlib(root: Path) -> None:
    (root / "pkg").mkdir()
    (root / "test").mkdir()
    doc = "Return the frobnicated value of x, which must be a positive number of widgets today."
    (root / "a.py").write_text(f'"""{doc} (module a)"""\ndef f():\n    """{doc}"""\n')
    (root / "pkg" / "b.py").write_text(f'class B:\n    """{doc} (class B)"""\n')
    (root / "test" / "t.py").write_text(f'"""{doc} (a test: left out)"""\n')
    (root / "broken.py").write_text("def (:\n")


def test_docs_corpus_is_distinct_docstrings_in_file_order(tmp_path: Path) -> None:
    _fake_stdlib(tmp_path)
    files = corpora.stdlib_files(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in files] == ["a.py", "broken.py", "pkg/b.py"]
    text = corpora.python_docs_text(10**6, files)
    parts = text.split("\n\n")
    assert [p[-10:] for p in parts] == ["(module a)", "ets today.", " (class B)"]
    assert corpora.python_docs_text(10**6, files) == text  # deterministic


def test_corpora_stop_at_a_whole_part_once_big_enough(tmp_path: Path) -> None:
    _fake_stdlib(tmp_path)
    files = corpora.stdlib_files(tmp_path)
    assert corpora.python_docs_text(10, files).count("\n\n") == 0  # one whole docstring
    code = corpora.python_code_text(10, files)
    assert code == (tmp_path / "a.py").read_text()


def test_the_big_bundled_corpus_is_over_a_megabyte_of_real_python() -> None:
    corpus = corpora.bundled_corpus("python-code")
    assert corpus.n_bytes >= 4 * uploads.MIB
    assert "def " in corpus.text and "import " in corpus.text
    assert corpus.sha256 == corpora.bundled_corpus("python-code").sha256


def test_the_samples_corpus_holds_every_sample() -> None:
    corpus = corpora.bundled_corpus("samples")
    assert "빵집" in corpus.text and "def " in corpus.text
    assert set(corpora.BUNDLED) == {"samples", "python-docs", "python-code"}


@pytest.mark.parametrize(
    ("data", "text", "encoding", "replaced"),
    [
        ("héllo".encode(), "héllo", "UTF-8", 0),
        (b"\xef\xbb\xbfhi", "hi", "UTF-8 with BOM", 0),
        ("hé".encode("utf-16"), "hé", "UTF-16", 0),
        (b"caf\xe9 cr\xe8me \x80", "café crème €", "Windows-1252", 3),
        (b"\x81 \x9d ok", "\x81 \x9d ok", "Windows-1252", 2),  # undefined there: Latin-1
        (b"\xff\xfeh\x00\x00\xd8", "h\ufffd", "UTF-16", 1),
    ],
)
def test_uploads_decode_as_utf8_else_windows_1252_and_say_so(
    data: bytes, text: str, encoding: str, replaced: int
) -> None:
    decoded = decode_upload(data)
    assert (decoded.text, decoded.encoding, decoded.replaced) == (text, encoding, replaced)
    if encoding == "Windows-1252":
        assert f"{replaced:,} byte sequences could not be read as UTF-8" in decoded.notice
        assert f"its {decoded.reread:,} non-ASCII bytes became characters" in decoded.notice
        assert ("as Latin-1" in decoded.notice) == bool(decoded.latin1)
    elif replaced:
        assert f"{replaced:,} byte sequence" in decoded.notice
    elif encoding == "UTF-8":
        assert decoded.notice is None
    else:
        assert encoding in decoded.notice
