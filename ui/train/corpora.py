"""Training corpora: the bundled ones (built on this machine), pasted text and uploaded files.

Nothing published is copied into the project. The two big corpora are built at run time from the
Python standard library installed here, deterministically (files in sorted order, cut at a whole
docstring or file), so everyone on one install trains on the same bytes:

- ``python-docs``: English prose, the docstrings of the standard library (≥ 1 MiB);
- ``python-code``: the standard library's own source files (≥ 4 MiB: enough text for a vocabulary
  of 16,384 tokens, where 1 MB runs out of pairs that occur twice near 10,000);
- ``samples``: every sample of assets/samples (many languages and scripts, code, tricky cases).

A `Corpus` carries its SHA-256, computed once when it is made, so a training can be keyed by content
without hashing a megabyte on every rerun. This module imports no Streamlit: the page caches.
"""

import ast
import sysconfig
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ui.common.samples import CORPUS_TITLE, corpus_text, text_sha256
from ui.common.uploads import MIB, size_label

# Standard-library folders that are tests, vendored code or tools rather than the library itself.
_SKIPPED_PARTS = frozenset(
    {"test", "tests", "idle_test", "idlelib", "lib2to3", "site-packages", "ensurepip", "turtledemo"}
)
# Docstrings shorter than this are mostly one-liners ("Return self.") that say little about prose.
_MIN_DOCSTRING_CHARS = 80


@dataclass(frozen=True)
class Corpus:
    """A training text and what to call it; `sha256` identifies its content (UTF-8 bytes)."""

    name: str
    title: str
    description: str
    text: str = field(repr=False)
    sha256: str
    n_bytes: int

    @classmethod
    def of(cls, name: str, title: str, description: str, text: str) -> "Corpus":
        """Make a corpus, hashing its text once (lone surrogates count as U+FFFD, as in training).

        >>> Corpus.of("x", "X", "", "hi").sha256[:12], Corpus.of("x", "X", "", "hi").n_bytes
        ('8f434346648f', 2)
        """
        size = len(text.encode("utf-8", "replace"))
        return cls(name, title, description, text, text_sha256(text), size)

    @property
    def size_label(self) -> str:
        """``"1 MB"``, ``"31.8 KB"`` or ``"12 bytes"``: for pickers and captions."""
        return size_label(self.n_bytes)


# ---- bundled corpora -------------------------------------------------------------------------


def stdlib_files(root: Path | None = None) -> list[Path]:
    """The standard library's .py files in sorted order, tests and tools left out."""
    root = Path(sysconfig.get_paths()["stdlib"]) if root is None else root
    return sorted(
        path
        for path in root.rglob("*.py")
        if not _SKIPPED_PARTS.intersection(path.relative_to(root).parts)
    )


def _docstrings(files: list[Path]) -> Iterator[str]:
    """Distinct docstrings of modules, classes and functions, file by file, in source order."""
    seen: set[str] = set()
    for path in files:
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue  # a file this Python cannot parse is not worth failing over
        nodes = (
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        )
        for node in nodes:
            doc = ast.get_docstring(node, clean=True)
            if doc and len(doc) >= _MIN_DOCSTRING_CHARS and doc not in seen:
                seen.add(doc)
                yield doc


def _join_until(parts: Iterator[str], min_bytes: int, separator: str) -> str:
    """Join whole parts until the text reaches `min_bytes` of UTF-8 (or the parts run out)."""
    taken: list[str] = []
    total = 0
    for part in parts:
        taken.append(part)
        total += len(part.encode("utf-8", "replace")) + len(separator)
        if total >= min_bytes:
            break
    return separator.join(taken)


def python_docs_text(min_bytes: int = MIB, files: list[Path] | None = None) -> str:
    """English prose: standard-library docstrings, joined by blank lines, at least `min_bytes`."""
    return _join_until(_docstrings(stdlib_files() if files is None else files), min_bytes, "\n\n")


def python_code_text(min_bytes: int = MIB, files: list[Path] | None = None) -> str:
    """Python source: whole standard-library files in sorted order, at least `min_bytes`."""
    files = stdlib_files() if files is None else files
    sources = (path.read_text(encoding="utf-8", errors="replace") for path in files)
    return _join_until(sources, min_bytes, "\n")


@dataclass(frozen=True)
class BundledCorpus:
    """How to build one bundled corpus, and how the picker describes it."""

    title: str
    description: str
    build: Callable[[], str]


BUNDLED: dict[str, BundledCorpus] = {
    "samples": BundledCorpus(
        CORPUS_TITLE,
        "The app's own samples: one paragraph in dozens of languages and scripts, one small "
        "program in a dozen programming languages, and tricky cases (numbers, emoji, URLs…).",
        corpus_text,
    ),
    "python-docs": BundledCorpus(
        "Python docs prose",
        "English prose: the docstrings of the Python standard library installed on this "
        "server, gathered file by file (built here, at least 1 MB).",
        python_docs_text,
    ),
    "python-code": BundledCorpus(
        "Python source code",
        "Python code: whole source files of the standard library installed on this server, "
        "in file order (built here, at least 4 MB: enough for 16,384 tokens).",
        lambda: python_code_text(4 * MIB),
    ),
}


def bundled_corpus(name: str) -> Corpus:
    """Build the bundled corpus `name` (uncached: the page keeps one copy per process)."""
    spec = BUNDLED[name]
    return Corpus.of(name, spec.title, spec.description, spec.build())


# ---- the user's own text ---------------------------------------------------------------------
