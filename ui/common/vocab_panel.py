"""The export and import panels of the pages that hold vocabularies: Train, Compare, Vocabulary.

Export: a download per format the core writes (`tokenizer.SAVE_FORMATS`), or the core's reason
a format cannot hold this vocabulary, next to its button. The files are written once per
vocabulary (a derived view, shared) and handed over only when a button is pressed.

Import: upload the files, name the vocabulary, choose a pattern only for the formats that do not
hold one; the result (what was imported, any warning, or why not) sits next to the Import button
until the user dismisses it. An imported vocabulary goes to the server's store and this session's
list like a trained one (`ui.common.registry.add`), so every page and link offers it.

Widget keys take the page's prefix (``train.import``), so each page keeps its own panel state.
"""

from collections.abc import Callable
from pathlib import PurePath

import streamlit as st
from streamlit.typing import UploadedFile

import tokenizer as tk
from tokenizer import Encoding
from ui.common import cache, registry, uploads, vocab_files
from ui.common.capped import capped
from ui.common.limits import MAX_FILE_BYTES, MAX_NAME_CHARS, MAX_SESSION_VOCABS
from ui.common.messages import counted, inline_code
from ui.common.vocab_store import Stored

Picked = Callable[[str], None]  # what a page does with a new vocabulary's name (select it)

_GENERIC_STEMS = {"tokenizer", "vocab", "encoder", "merges"}


def export_panel(enc: Encoding, *, key: str) -> None:
    """One row per format: its download button(s), then what it holds or why it cannot."""
    if enc.normalizer is not None and (described := _normalizer(enc)):
        st.caption(
            f"This vocabulary normalises text before splitting it ({described}); only the "
            "Hugging Face file can say so."
        )
    with st.spinner("Writing the files…"):
        made = cache.derived(
            ("exports", registry.vocab_key(enc)),
            lambda: vocab_files.exports(enc),
            lambda found: sum(len(data) for item in found for _, data in item.files) + 1_000,
        )
    for item in made:
        # A wrapping row, not columns: at 1024 px a fixed share of the width cut the buttons'
        # names; here they keep their width and what the format holds goes beside or below.
        row = st.container(horizontal=True, vertical_alignment="center", gap="small")
        if item.problem is not None:
            row.button(item.label, disabled=True, key=f"{key}_{item.fmt}")
        for index, (file_name, data) in enumerate(item.files):
            row.download_button(
                file_name if len(item.files) > 1 else item.label,
                data=_later(data),
                file_name=file_name,
                mime="application/json" if file_name.endswith(".json") else "text/plain",
                icon=":material/download:",
                on_click="ignore",
                key=f"{key}_{item.fmt}_{index}",
            )
        row.caption(item.about if item.problem is None else f"Not available: {item.problem}")


def _later(data: bytes) -> Callable[[], bytes]:
    """The bytes handed to the browser only when the button is pressed (they may be megabytes)."""
    return lambda: data


def _normalizer(enc: Encoding) -> str:
    describe = getattr(enc.normalizer, "describe", None)
    return str(describe()) if describe else "custom"


# ---- import ------------------------------------------------------------------------------------


def import_panel(*, key: str, then: Picked | None = None) -> None:
    """Upload, name, (pattern,) Import; the result stays next to the button until dismissed.

    `then` runs with the new vocabulary's name after a successful import (the page selects it).
    """
    st.caption(vocab_files.HOW_TO_IMPORT)
    files = st.file_uploader(
        f"Vocabulary files (at most {uploads.size_label(MAX_FILE_BYTES)} each)",
        type=vocab_files.UPLOAD_TYPES,
        accept_multiple_files=True,
        key=f"{key}_files",
        max_upload_size=uploads.upload_mb(MAX_FILE_BYTES),
    )
    files = _not_imported_yet(key, files or [])
    named = [(f.name, f.size) for f in files]
    kind = vocab_files.kind_of([(f.name, f.getvalue()[:4096]) for f in files])
    # A wrapping row, not columns: in half a 1024 px page a third of it cut each box's value.
    row = st.container(horizontal=True, gap="small")
    row.text_input(
        "Name",
        key=f"{key}_name",
        placeholder="from the file",
        on_change=capped(f"{key}_name", MAX_NAME_CHARS),
    )
    takes_pattern = kind in vocab_files.TAKES_PATTERN
    row.selectbox(
        "Pattern",
        list(tk.PATTERNS),
        key=f"{key}_pattern",
        disabled=not takes_pattern,
        help="The split before the merges. Only GPT-2's files, vocab.json + merges.txt and "
        ".tiktoken files lack one; a bundle and a tokenizer.json bring their own.",
    )
    row.multiselect(
        "Special tokens",
        ["<|endoftext|>"],
        key=f"{key}_specials",
        accept_new_options=True,
        disabled=kind != vocab_files.KINDS["tiktoken"],
        help="For a .tiktoken file, which holds none: they get the ids after its last token.",
    )
    too_big = [(n, size) for n, size in named if size > MAX_FILE_BYTES]
    for file_name, size in too_big:
        st.error(
            f"{inline_code(file_name, 60)} is {uploads.size_label(size)}; a vocabulary file may "
            f"have at most {uploads.size_label(MAX_FILE_BYTES)}."
        )
    st.button(
        "Import",
        key=key,
        disabled=not files or bool(too_big),
        icon=":material/upload:",
        on_click=_import,
        args=(key, files, then),
        help=None if kind or not files else vocab_files.unreadable([n for n, _ in named]),
    )
    _result(key)


def _not_imported_yet(key: str, files: list[UploadedFile]) -> list[UploadedFile]:
    """The uploaded files not imported yet; says which ones were.

    The uploader keeps every file until the user removes it, so after an import a new file
    would join the old ones and the pair would read as one ambiguous set ("tokenizer.json,
    tokenizer.json"). Files already imported are left out, by their upload's id.
    """
    done = st.session_state.get(f"{key}_imported", frozenset())
    old = [f for f in files if f.file_id in done]
    if old:
        names = ", ".join(inline_code(f.name, 40) for f in old)
        st.caption(f"Already imported, so left out: {names}. Add other files to import more.")
    return [f for f in files if f.file_id not in done]


def name_from_file(file_name: str) -> str:
    """The name an imported file suggests: its stem, less the fixed file name this app's exports
    put after a vocabulary's name (an export of ``cats`` came back as ``cats-tokenizer``, its
    .tiktoken as ``cats``); "imported" for a fixed name alone.

    >>> name_from_file("cats-tokenizer.json"), name_from_file("cats.tiktoken")
    ('cats', 'cats')
    >>> name_from_file("cats-vocab.bpe"), name_from_file("vocab.json")
    ('cats', 'imported')
    """
    stem = PurePath(file_name).stem.split(".")[0]
    if stem.lower() in _GENERIC_STEMS:
        return "imported"
    head, _, tail = stem.rpartition("-")
    return vocab_files.file_stem(head if head and tail.lower() in _GENERIC_STEMS else stem)


def _import(key: str, files: list[UploadedFile], then: Picked | None) -> None:
    """Import button callback (it may select the new vocabulary, so it runs before the widgets)."""
    ss = st.session_state
    read = [(f.name, f.getvalue()) for f in files]
    wanted = ss.get(f"{key}_name", "").strip()
    fallback = name_from_file(read[0][0])
    reserved = tk.list_encodings()
    problem = registry.check_name(wanted, reserved) if wanted else None
    if problem is not None:
        ss[f"{key}_result"] = ("error", problem)
        return
    taken = [*reserved, *registry.trained_encodings()]
    base = wanted or fallback[:MAX_NAME_CHARS]
    if registry.check_name(base, reserved) is not None:
        base = "imported"
    with st.spinner("Reading the files and checking them…"):
        result = vocab_files.import_files(
            read,
            name=registry.unique_name(base, taken),
            pattern=ss.get(f"{key}_pattern"),
            special_tokens=ss.get(f"{key}_specials", []),
        )
    if result.encoding is None:
        ss[f"{key}_result"] = ("error", result.error or "Nothing was imported.")
        return
    enc = result.encoding
    # The same file again adds no copy; a name typed for it asks for one under that name.
    if not wanted and (holder := registry.holder_of(enc)) is not None:
        named = ", ".join(inline_code(n, 40) for n, _ in read)
        ss[f"{key}_result"] = (
            "info",
            f"{named} is already in your list, as {inline_code(holder)}: nothing was added.",
        )
        if then is not None:
            then(holder)
        return
    own = wanted or enc.name
    if registry.check_name(own, reserved) is not None:  # a bundle's own name may not fit here
        own = vocab_files.file_stem(own)[:MAX_NAME_CHARS] or "imported"
    enc = registry.renamed(enc, registry.unique_name(own, taken))
    described = ", ".join(f"{inline_code(n, 40)}" for n, _ in read)
    about = f"imported from {described} ({result.kind})"
    dropped = registry.add(Stored(enc, about, specials_in_text=result.specials_are_text))
    lines = [
        f"Imported {inline_code(enc.name)} ({result.kind}, {enc.n_vocab:,} ids): it is in every "
        "encoding picker now."
    ]
    if result.specials_are_text and enc.special_tokens:
        n = len(enc.special_tokens)
        are = "is a special token" if n == 1 else "are special tokens"
        lines.append(
            f"Its {counted(n, 'added token')} {are}, as in Hugging Face: Compare reads "
            f"{'it' if n == 1 else 'them'} in text as single tokens "
            '(`allowed_special="all"`), and so does the Playground with **Special tokens** on.'
        )
    if enc.normalizer is not None and (described := _normalizer(enc)):
        lines.append(f"It normalises text before splitting it: {described}.")
    if dropped:
        names = ", ".join(inline_code(n) for n in dropped)
        lines.append(
            f"{names} left your list: a session lists at most {MAX_SESSION_VOCABS} vocabularies."
        )
    kind = "warning" if result.warnings else "success"
    ss[f"{key}_result"] = (kind, "\n\n".join([*lines, *result.warnings]))
    ss[f"{key}_imported"] = ss.get(f"{key}_imported", frozenset()) | {f.file_id for f in files}
    if then is not None:
        then(enc.name)


def _result(key: str) -> None:
    """The last import's message, under the button, until the user dismisses it."""
    held = st.session_state.get(f"{key}_result")
    if held is None:
        return
    kind, text = held
    with st.container(border=True, key=f"{key}_result_box"):
        getattr(st, kind)(text)
        st.button(
            "Dismiss",
            key=f"{key}_dismiss",
            type="tertiary",
            on_click=st.session_state.pop,
            args=(f"{key}_result", None),
        )
