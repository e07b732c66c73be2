"""The Train page's sections: the corpus, the settings and Train button, your vocabularies; or,
presenting, the replay of one of them alone.

Every setting is bound to the link through ui/train/state.py; the training itself runs in the
server-wide pool (ui/train/session.py) and the vocabulary panels are ui/train/panels.py.
"""

from pathlib import Path

import streamlit as st

import tokenizer as tk
from ui.common import cache, presentation, registry, state, uploads, vocab_files, vocab_panel
from ui.common.capped import capped
from ui.common.copy_button import copy_link_button, link_leaves_out
from ui.common.examples import DEFAULT_TEXT
from ui.common.heading import page_head
from ui.common.limits import (
    MAX_CORPUS_BYTES,
    MAX_SPECIAL_TOKENS,
    MAX_TEXT_CHARS,
    MAX_TRAIN_VOCAB,
    MAX_UNSPLIT_BYTES,
)
from ui.common.messages import counted, inline_code, quote_some
from ui.common.sidebar import current_encoding
from ui.common.state import publish_text, segmented
from ui.common.token_text import plain
from ui.train import corpora, panels, session, table
from ui.train.jobs import TrainSettings
from ui.train.replay import default_sample
from ui.train.settings import (
    CUSTOM,
    NO_SPLIT,
    PATTERN_CHOICES,
    check_pattern,
    check_specials,
    default_name,
    ordinary_specials,
    settings_for,
    specials_in_link,
    trial_split,
)
from ui.train.state import (
    CORPUS,
    DEFAULT_SPECIALS,
    IMPORT_PANEL_KEY,
    NAME,
    PASTE,
    PATTERN,
    PRESENT,
    REGEX,
    SELECTED,
    SOURCE,
    SOURCES,
    SPECIALS,
    STEP,
    TAB,
    TABS,
    VOCAB_SIZE,
    vocab_size_problem,
)

POLL_SECONDS = 0.25
_PRESENTATION_CSS = Path(__file__).with_name("presentation.css").read_text(encoding="utf-8")
STEM_CHARS = 30  # of an uploaded file's name in the suggested vocabulary name (at most 40)


def bundled_box() -> corpora.Corpus:
    CORPUS.seed()
    name = st.selectbox(
        "Corpus",
        list(corpora.BUNDLED),
        format_func=lambda n: corpora.BUNDLED[n].title,
        key=CORPUS.key,
    )
    CORPUS.publish()
    st.caption(corpora.BUNDLED[name].description)
    return session.bundled_corpus(name)


def paste_box() -> corpora.Corpus | None:
    text = st.text_area(
        "Your corpus",
        PASTE.seed(),  # what it holds, also as its default (see `settings_section`)
        key=PASTE.key,
        height=180,
        on_change=capped(PASTE.key, MAX_TEXT_CHARS),
        placeholder="Paste the text to train on (press Ctrl+Enter or click outside to use it)…",
        help=f"At most {MAX_TEXT_CHARS:,} characters; a longer paste keeps its start.",
    )
    if not publish_text(PASTE, text):
        link_leaves_out("corpus")
    if not text:
        return None
    # Hashed once per edit, not per rerun (see ui.common.cache.memo).
    return cache.memo("paste", (text,), lambda: corpora.Corpus.of("my-text", "your text", "", text))


def upload_box() -> corpora.Corpus | None:
    """One or more .txt files, read and joined (a blank line between two files)."""
    limit = uploads.size_label(MAX_CORPUS_BYTES)
    files = st.file_uploader(
        f"Plain-text files (at most {limit} in all)",
        type=["txt"],
        accept_multiple_files=True,
        key="train.upload",
        max_upload_size=uploads.upload_mb(MAX_CORPUS_BYTES),
        help="Several files are one corpus, in the order shown, a blank line between two.",
    )
    if not files:
        return None
    total = sum(f.size for f in files)
    if total > MAX_CORPUS_BYTES:
        what = "This file is" if len(files) == 1 else f"These {len(files)} files are"
        st.error(
            f"{what} {uploads.size_label(total)}{' together' if len(files) > 1 else ''}; the "
            f"limit is {limit} for a training corpus, all its files together (it keeps "
            "trainings on this shared server to minutes)."
        )
        return None

    def read() -> tuple[corpora.Corpus, list[str]]:
        notices, texts, used = [], [], []
        for upload in files:
            data, named = upload.getvalue(), inline_code(upload.name, 60)
            if uploads.is_binary(data):  # a picture renamed .txt trained merges of its bytes
                notices.append(f"{named} {uploads.NOT_TEXT}: nothing from it.")
                continue
            decoded = uploads.decode_upload(data)
            if not decoded.text:
                notices.append(f"{named} is empty: nothing from it.")
                continue
            texts.append(decoded.text)
            used.append(upload)
            if decoded.notice:
                notices.append(f"{named}: {decoded.notice}")
        # Named after the files it holds ("on 3 files" counted one left out as empty), or, with
        # none, those given. The stem suggests the vocabulary's name: characters a name may have.
        named_after = used or files
        stem = vocab_files.file_stem(named_after[0].name.rsplit(".", 1)[0])[:STEM_CHARS]
        if len(named_after) == 1:
            title = f"the file {inline_code(named_after[0].name, 60)}"
        else:
            stem = f"{stem[: STEM_CHARS - 6]}-and-{len(named_after) - 1}"
            title = f"{len(named_after)} files ({inline_code(named_after[0].name, 40)} and more)"
        return corpora.Corpus.of(stem, title, "", "\n\n".join(texts)), notices

    corpus, notices = cache.memo("upload", tuple(f.file_id for f in files), read)
    for notice in notices:
        st.warning(notice)
    return corpus


def corpus_section() -> corpora.Corpus | None:
    st.header("1 · Corpus")
    source = segmented(SOURCE, "Source", SOURCES)
    for shown, param in (("bundled", CORPUS), ("paste", PASTE)):
        if source != shown:
            param.forget()  # the link keeps only what the chosen source uses
    corpus = {"bundled": bundled_box, "paste": paste_box, "upload": upload_box}[source]()
    if corpus is None or not corpus.text:  # an empty file; `train_section` names it
        return corpus
    st.caption(
        f"{counted(len(corpus.text), 'character')} · {corpus.size_label} of UTF-8 · "
        f"SHA-256 `{corpus.sha256[:12]}…` (identical trainings on this server are shared)"
    )
    with st.expander("Preview the corpus"):
        st.code(corpus.text[:3_000] + ("\n…" if len(corpus.text) > 3_000 else ""), language=None)
    return corpus


def pattern_box() -> tuple[str, str, list[str]]:
    """The pattern picker and, for a custom regex, its live check; returns choice, regex, errors."""
    choices = list(PATTERN_CHOICES)
    st.selectbox(
        "Pre-tokenizer pattern",
        choices,
        index=choices.index(PATTERN.seed()),  # what it holds, also as its default (see below)
        format_func=PATTERN_CHOICES.__getitem__,
        key=PATTERN.key,
        help="The regex that cuts text into chunks before any merge; merges never cross chunks.",
    )
    PATTERN.publish()
    choice = PATTERN.value
    if choice != CUSTOM:
        REGEX.forget()
        return choice, "", []
    custom = st.text_input(
        "Custom regex (Python `regex` syntax)", REGEX.seed(), key=REGEX.key, live=True
    )
    publish_text(REGEX, custom)
    check = check_pattern(custom)
    if check.error:
        st.error(check.error)
        return choice, custom, ["Fix the custom regex above to train."]  # said in full there
    chips = " ".join(inline_code(plain(chunk.encode()), 20) for chunk in check.chunks[:40])
    said = f"Splits the test line into {counted(len(check.chunks), 'chunk')}"
    st.caption(f"{said}: {chips}" if chips else f"{said}.")
    if check.dropped:
        count = len(check.dropped)
        which = quote_some([plain(char.encode()) for char in dict.fromkeys(check.dropped)], 6)
        st.warning(
            f"{counted(count, 'character')} of the test line "
            f"match{'es' if count == 1 else ''} nothing ({which}): the pre-tokenizer drops text "
            r"that no alternative matches. End the regex with `|[\s\S]` (any character, "
            "newlines too) to keep it all."
        )
    return choice, custom, []


def settings_section(corpus: corpora.Corpus | None) -> tuple[TrainSettings, str, list[str]]:
    """The settings' widgets, each given what it holds as its default as well: the browser draws
    a widget anew now and then (seen when the corpus box changed above it), and one drawn anew
    without a stored value sends its default with the next rerun; a training once got no
    special tokens and size 256 that way. Streamlit warns of a default beside a value in the
    session (once, in the log, not the page), which is meant here."""
    st.header("2 · Settings")
    # The special tokens' column is the widest: at 1024 px a third of the row cut "<|endoftext|>".
    left, middle, right = st.columns([1, 1, 1.4])
    with left:
        vocab_size = st.number_input(
            "Vocabulary size",
            value=VOCAB_SIZE.seed(vocab_size_problem),
            step=256,  # no min_value or max_value: the browser would keep a size out of bounds
            # to itself (a red box) and the training run with the old one; checked below instead
            key=VOCAB_SIZE.key,
            help=f"256 byte tokens + the merges + the special tokens; at most {MAX_TRAIN_VOCAB:,}.",
        )
        VOCAB_SIZE.publish()
    with middle:
        choice, custom, problems = pattern_box()
    with right:
        offered = [*DEFAULT_SPECIALS, "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"]
        wanted = SPECIALS.seed(specials_in_link, DEFAULT_SPECIALS)
        specials = st.multiselect(
            "Special tokens",
            [*offered, *(s for s in wanted if s not in offered)],  # a link's own ones too
            key=SPECIALS.key,
            default=wanted,
            accept_new_options=True,
            help="Never merged into; their text in the corpus is a boundary. Type to add your own.",
        )
        SPECIALS.publish(DEFAULT_SPECIALS)
    if corpus is not None:
        _warn_of_ordinary_specials(specials, corpus)
    if problem := check_specials(specials):
        problems.append(problem)
    smallest = 256 + len(specials)
    if vocab_size > MAX_TRAIN_VOCAB:
        problems.append(f"The vocabulary size is at most {MAX_TRAIN_VOCAB:,} (GPT-2's).")
    elif vocab_size < smallest and len(specials) <= MAX_SPECIAL_TOKENS:  # else too many anyway
        problems.append(
            f"With {counted(len(specials), 'special token')} the size must be at least "
            f"{smallest:,}."
        )
    if choice == NO_SPLIT and corpus is not None and corpus.n_bytes > MAX_UNSPLIT_BYTES:
        problems.append(
            f"Without a pattern the whole corpus is one chunk, which is only practical up to "
            f"{uploads.size_label(MAX_UNSPLIT_BYTES)}; this one is {corpus.size_label}. "
            "Pick a pattern or a smaller corpus."
        )
    if choice == CUSTOM and not problems and corpus is not None:
        slow = cache.memo("regex-trial", (custom, corpus.sha256), lambda: _trial(custom, corpus))
        problems += [slow] if slow else []
    suggested = default_name(corpus.name if corpus else "vocab", int(vocab_size))
    typed = st.text_input("Name", NAME.seed(), key=NAME.key, placeholder=suggested)
    name = typed.strip() or suggested
    publish_text(NAME, st.session_state[NAME.key])
    if problem := registry.check_name(name, tk.list_encodings()):
        problems.append(problem)
    return settings_for(int(vocab_size), choice, custom, specials), name, problems


def _warn_of_ordinary_specials(specials: list[str], corpus: corpora.Corpus) -> None:
    """Say so when a special token is an ordinary word of the corpus (`ordinary_specials`):
    training is still allowed, since the user may mean it."""
    key = (tuple(specials), corpus.sha256)
    said = cache.memo("ordinary-specials", key, lambda: ordinary_specials(specials, corpus.text))
    if said:
        st.warning(said, icon=":material/warning:")


def _trial(custom: str, corpus: corpora.Corpus) -> str | None:
    """`trial_split`, saying it is under way: up to a second, during which the verdict on the
    previous regex still stood beside the new regex's preview."""
    with st.spinner("Trying the regex on the corpus…"):
        return trial_split(custom, corpus)


@st.fragment(run_every=POLL_SECONDS)
@state.one_history_entry()  # a run of the fragment alone sends its changes to the link
def progress_panel() -> None:
    """Redrawn every `POLL_SECONDS` while a training runs; a full rerun once it is over."""
    wait = session.pending()
    if wait is None or wait.job.over:
        session.collect()
        st.rerun()  # a full run: the new vocabulary joins the sidebar and the panels below
    with st.container(border=True):
        st.markdown(f"**Training {inline_code(wait.name)}** on {wait.corpus_title}")
        row = st.container(horizontal=True, vertical_alignment="center")  # Cancel stays whole
        progress = wait.job.progress()
        if wait.cancelled_at is not None:
            text = (
                f"Stopping after merge {progress.done:,}: keeping what it learned as "
                f"{wait.name}-partial…"
            )
            row.progress(progress.fraction, text=text)
            return
        row.progress(progress.fraction, text=progress.describe())
        if wait.resumed:
            st.caption(
                "It was running on this server when the page opened (a reload, or someone "
                "else asked for the same), so it shows here again."
            )
        row.button(
            "Cancel",
            key="train.cancel",
            on_click=session.cancel,
            help="Stop after the current merge and keep the merges learned so far as a "
            "smaller vocabulary, named …-partial.",
        )


def _no_corpus_yet() -> str:
    """What to do first; for uploads, the limit too: the box itself refuses a bigger file, and
    says so only in a tooltip on the file's red mark."""
    if SOURCE.value != "upload":
        return "Choose, paste or upload a corpus first."
    return (
        f"Upload a .txt corpus first, at most {uploads.size_label(MAX_CORPUS_BYTES)} (a larger "
        "file is refused by the box above: it shows the file in red, its reason on hover)."
    )


def train_section(corpus: corpora.Corpus | None) -> None:
    settings, name, problems = settings_section(corpus)
    if corpus is None:
        problems.insert(0, _no_corpus_yet())
    elif not corpus.text:  # whitespace alone is a corpus: its runs of spaces merge too
        problems.insert(0, f"No text to train on in {corpus.title}.")  # the upload said why
    for problem in problems:
        st.error(problem)
    if corpus is not None and not problems and session.pending() is None:
        session.resume(corpus, settings, name)
    # Not an on_click callback: its arguments would be this run's, and a click that also commits
    # an edited box (vocabulary size, name) must train with the edited values.
    if (
        st.button(
            "Train",
            type="primary",
            icon=":material/model_training:",
            key="train.train",
            disabled=bool(problems) or session.pending() is not None,
        )
        and corpus is not None
        and not problems  # a click sent with the value that makes one (typed, then clicked)
    ):
        session.start(corpus, settings, name)
        st.rerun()  # redraw with the button disabled and the progress showing
    if session.pending() is not None:
        progress_panel()
    else:
        session.show_notice()


def _selected(held: list[str]) -> str:
    """The vocabulary on show: the link's (``?show=``), else the sidebar's pick, else the latest."""

    def check(name: str) -> str | None:
        return None if name in held else "not one of your vocabularies here"

    picked = current_encoding().name
    default = picked if picked in held else held[-1]
    SELECTED.seed(check, default)
    if SELECTED.value not in held:  # removed, or dropped by the server
        SELECTED.set(default)
    return default


def title_row() -> None:
    """The page's title, its presentation-mode toggle and what the page does.

    Presentation mode waits for a vocabulary to replay: until there is one, the page is as
    usual, and says so under the title.
    """
    top = page_head(
        "Train",
        "Train your own byte-level BPE vocabulary, watch it learn merge by merge, and compare it "
        "with GPT-2 on the Compare page.",
    )
    top.toggle(
        "Presentation mode",
        PRESENT.value,
        key=PRESENT.key,
        help=presentation.TOGGLE_HELP,
        width="content",
    )
    PRESENT.publish()
    if PRESENT.value:
        st.info(_presentation_waits(), icon=":material/slideshow:")


def _presentation_waits() -> str:
    """Why presentation mode, on, does not present yet: no vocabulary, or the one on show has no
    training to replay (an imported GPT-2 or Hugging Face file)."""
    held = list(registry.trained_encodings())
    if held and SELECTED.value in held:
        return (
            f"Presentation mode shows a training's replay on one screen, and "
            f"{inline_code(SELECTED.value, 40)} has none to replay: pick a vocabulary you trained "
            "under 3 · Your vocabularies."
        )
    return (
        "Presentation mode shows the replay of a vocabulary you trained on one screen: it starts "
        "as soon as there is one (train one below, or import a bundle, which keeps its training "
        "record)."
    )


def presented() -> tk.Encoding | None:
    """The vocabulary to present: presentation mode is on (``?present=1``) and the vocabulary
    on show has merges to replay; else None."""
    if not PRESENT.seed():
        return None
    held = list(registry.trained_encodings())
    if not held:
        return None
    _selected(held)
    enc = registry.get_encoding(SELECTED.value)
    return enc if panels.replayable(enc) else None


def presentation_section(enc: tk.Encoding) -> None:
    """The whole page while presenting: a head row (the title, the vocabulary, Copy link, the
    toggle), then the replay on the rest of one screen (ui/train/presentation.css). The corpus,
    the settings and the other tabs wait, with their values, for the toggle to be turned off."""
    st.html(presentation.style(_PRESENTATION_CSS, dark=st.context.theme.type == "dark"))
    held = list(registry.trained_encodings())
    default = _selected(held)
    row = st.container(horizontal=True, vertical_alignment="center", key="train_head")
    # The page's h1 still, at the size of the row's text (presentation.css).
    row.title(f"Train · {inline_code(enc.name, 40)}", anchor=False, width="content")
    row.selectbox(
        "Vocabulary",
        held,
        key=SELECTED.key,
        label_visibility="collapsed",
        help="The vocabulary whose training is replayed.",
    )
    SELECTED.publish(default)
    with row:  # the page's own is with the hidden sections: sharing a step took the address bar
        copy_link_button("train.present_copy_link", "Copy link")
    row.toggle(
        "Presentation mode", True, key=PRESENT.key, help=presentation.TOGGLE_HELP, width="content"
    )
    PRESENT.publish()
    panels.replay(enc, _replay_sample(enc.name, None), said=True, presenting=True)


def _replay_sample(name: str, corpus: corpora.Corpus | None) -> str:
    """The text the replay's sample box starts with: the start of the corpus the vocabulary
    `name` learned from, else of the corpus on the page (`corpus`), else the default text."""
    stored = registry.stored(name)
    learned = stored.sample if stored else ""
    return learned or (default_sample(corpus.text) if corpus is not None else "") or DEFAULT_TEXT


def vocabularies_section(corpus: corpora.Corpus | None) -> None:
    st.header("3 · Your vocabularies")
    held = list(registry.trained_encodings())
    if held:
        default = _selected(held)
        # A wrapping row, not columns: a narrow window cut "Remove" in a fixed share of the width.
        row = st.container(horizontal=True, vertical_alignment="bottom")
        name = row.selectbox(
            "Vocabulary",
            held,
            key=SELECTED.key,
            help="Every vocabulary here is also in the sidebar's encoding picker, on every page, "
            "and in this page's link: a reload, or anyone you send the link to, finds it while "
            "this server holds it.",
        )
        SELECTED.publish(default)
        with row:
            copy_link_button("train.copy_link", "Copy link")
        row.button(
            "Remove",
            key="train.remove",
            on_click=session.forget,
            args=(name,),
            icon=":material/delete:",
        )
        enc = registry.get_encoding(name)
        stored = registry.stored(name)
        told = stored.about.rstrip(".") if stored else ""  # a partial one's ends with a sentence
        about = f" {told[:1].upper()}{told[1:]}." if told else ""
        st.caption(table.describe(enc) + about)
        TAB.seed()
        tabs = st.tabs(list(TABS.values()), key=TAB.key, on_change="rerun")
        TAB.publish()
        with tabs[0]:
            if tabs[0].open:
                sample = _replay_sample(name, corpus)
                panels.replay(enc, sample, said=session.said_how_it_ended(name))
        with tabs[1]:
            if tabs[1].open:
                panels.vocabulary(enc)
        with tabs[2]:
            if tabs[2].open:
                vocab_panel.export_panel(enc, key="train.export")
    else:
        # A link to a vocabulary the server lost (a class's link after a restart) keeps its
        # view for the same training done again, which then opens where the link was.
        if not registry.link_lost_one():
            for param in (SELECTED, STEP, TAB):
                param.unused("there is no vocabulary here to show yet")
        st.caption(
            "Vocabularies you train or import appear here and in every encoding picker; their "
            "ids travel in the page's link, so a reload keeps them."
        )
    # Open while there is no vocabulary yet. It tracks its state (so an import can keep it open
    # with `_imported`), which also leaves the panel undrawn while it is closed.
    panel = st.expander(
        "Import a vocabulary", expanded=not held, key=IMPORT_PANEL_KEY, on_change="rerun"
    )
    if panel.open:
        with panel:
            vocab_panel.import_panel(key="train.import", then=_imported)


def _imported(name: str) -> None:
    """After an import: show its vocabulary, and keep the import panel open, with the result in
    it. The first import's vocabulary would otherwise fold the panel (``expanded=not held``)
    the moment it succeeds, hiding what was imported and any warning about it."""
    SELECTED.set(name)
    st.session_state[IMPORT_PANEL_KEY] = True
