"""Which encodings the app offers: the bundled ones, and the vocabularies this session made.

Bundled vocabularies are big and read-only, so every session shares one copy (`bundled_encoding`).
Vocabularies a user trains or imports live in the server's store (ui/common/vocab_store.py), by
id; a session keeps only their names and ids (`add`), and every picker that lists
`available_encodings()` offers them. The ids travel in every page's link (``?vocabs=id,id``), so a
reload, which starts a new session, finds them again (`sync_link`), and ``?vocab=<id or name>``
opens one on any page. When the store has dropped one, the page says so and how to get it back
(`show_lost`).

Caches of views derived from a vocabulary key it by `vocab_key`: a bundled name, or the id of a
vocabulary users made (a hash of its content and name), so equal vocabularies share results and
two different ones under the same name never do.
"""

import copy
import re
from collections.abc import Callable
from dataclasses import replace

import streamlit as st

import tokenizer as tk
from tokenizer import Encoding
from ui.common import cache, state
from ui.common.limits import MAX_NAME_CHARS, MAX_SESSION_VOCABS
from ui.common.messages import inline_code
from ui.common.vocab_store import STORE, Stored, content_id, looks_like_id

# st.session_state[TRAINED_KEY]: dict[str, str], this session's vocabularies: name -> id. (An
# Encoding put there, as tests do, is moved into the store on the next read.)
TRAINED_KEY = "common.vocabularies"

_AWAITED = "common.awaited"  # session state: collectors of vocabularies still being made
_LINKED = "common.vocabs_linked"  # session state: set once the link's vocabularies are restored
_LOST = "common.vocabs_lost"  # session state: sentences about vocabularies the store dropped
_UNFOUND = "common.vocabs_unfound"  # session state: set when the link named one the store lacks

_NAME = re.compile(r"[\w.\- ]+")  # letters, digits, space, dot, dash, underscore

VOCABS = state.names("common.vocabs", "vocabs")  # every page's link: this session's ids
VOCAB = state.text("common.vocab", "vocab")  # a hand-made link: one id or name to open

HOW_TO_GET_BACK = (
    "To get it back, train it again with the same corpus and settings (the Train page's link "
    "from its training holds them, and they give the same vocabulary) or import the file you "
    "exported from it."
)
WHY_GONE = (
    "the server keeps the vocabularies its users make while memory allows, the least recently "
    "used going first, and none after a restart"
)


@cache.resource(spinner="Loading the vocabulary…")
def bundled_encoding(name: str) -> Encoding:
    """A bundled vocabulary, loaded once per server process and shared by all sessions."""
    return tk.get_encoding(name)


# ---- this session's vocabularies ---------------------------------------------------------------


def _held() -> dict[str, str]:
    """This session's name -> id map (Encodings put there directly are stored first)."""
    held: dict[str, object] = st.session_state.setdefault(TRAINED_KEY, {})
    for name, value in list(held.items()):
        if isinstance(value, Encoding):
            enc = value if value.name == name else renamed(value, name)
            held[name] = STORE.put(Stored(enc))
    return held  # type: ignore[return-value]


def trained_encodings() -> dict[str, Encoding]:
    """This session's vocabularies that the store still holds, by name, oldest first.

    One the store has dropped leaves the session here, with a notice (`show_lost`).
    """
    held = _held()
    found = {}
    for name, vocab_id in list(held.items()):
        stored = STORE.get(vocab_id)
        if stored is None:
            del held[name]
            _lost(f"{inline_code(name, 40)} is no longer on this server: {WHY_GONE}.")
        else:
            found[name] = stored.enc
    return found


def stored(name: str) -> Stored | None:
    """The store's entry for one of this session's vocabularies (its id, notes and sample)."""
    vocab_id = _held().get(name)
    return None if vocab_id is None else STORE.get(vocab_id)


def add(entry: Stored) -> list[str]:
    """Store `entry`, offer its vocabulary in every picker of this session; return the names
    dropped for room.

    A session lists at most `MAX_SESSION_VOCABS`; the oldest leave its list (the store may
    still hold them for their links).
    """
    enc = entry.enc
    if enc.name in tk.list_encodings():
        raise ValueError(f"{enc.name!r} is a bundled encoding; give the trained one another name")
    held = _held()
    vocab_id = STORE.put(entry)
    held.pop(enc.name, None)
    dropped = []
    while len(held) >= MAX_SESSION_VOCABS:
        dropped.append(next(iter(held)))
        del held[dropped[-1]]
    held[enc.name] = vocab_id
    return dropped


def add_trained_encoding(enc: Encoding) -> None:
    """Offer `enc` in every encoding picker of this session, under ``enc.name``."""
    add(Stored(enc))


def specials_in_text(enc: Encoding) -> bool:
    """Whether pages should read `enc`'s special tokens in text (an imported tokenizer.json)."""
    if is_bundled(enc):
        return False
    held = STORE.get(content_id(enc))
    return held is not None and held.specials_in_text


def remove(name: str) -> None:
    """Take one vocabulary out of this session's list (links to it keep working while stored)."""
    _held().pop(name, None)


def renamed(enc: Encoding, name: str) -> Encoding:
    """`enc` under another name: a shallow copy sharing its tables, so it costs nothing."""
    twin = copy.copy(enc)
    twin.name = name
    return twin


def holder_of(enc: Encoding) -> str | None:
    """The name of this session's vocabulary that is `enc` under another name, if it has one:
    a file imported twice, a training asked for again. (Vocabularies of another size or
    pattern are told apart without hashing their tokens.)"""
    for name, other in trained_encodings().items():
        alike = other.n_vocab == enc.n_vocab and other.pattern == enc.pattern
        if alike and content_id(other) == content_id(renamed(enc, name)):
            return name
    return None


def await_vocabulary(collect: Callable[[], bool]) -> None:
    """Call `collect` at the start of every run, on any page, until it returns True.

    A training runs in the background while its user goes on to other pages; whichever page
    runs when it finishes, the collector adds the vocabulary before the sidebar is drawn.
    """
    st.session_state.setdefault(_AWAITED, []).append(collect)


def collect_awaited() -> None:
    """Run the pending collectors (from app.py, before the sidebar's picker)."""
    held: list[Callable[[], bool]] = st.session_state.get(_AWAITED, [])
    if held:
        st.session_state[_AWAITED] = [collect for collect in held if not collect()]


def check_name(name: str, reserved: list[str]) -> str | None:
    """An error sentence for an unusable vocabulary name, or None.

    >>> check_name("my vocab 1.0", ["gpt2"]), check_name("gpt2", ["gpt2"])[:11]
    (None, '"gpt2" is a')
    """
    if not name.strip():
        return "Give the vocabulary a name."
    if len(name) > MAX_NAME_CHARS:
        return f"A name has at most {MAX_NAME_CHARS} characters."
    if not _NAME.fullmatch(name):
        return "Use letters, digits, spaces, dots, dashes and underscores in the name."
    if name in reserved:
        return f'"{name}" is a built-in encoding; pick another name.'
    return None


def unique_name(name: str, taken: list[str]) -> str:
    """`name`, or `name-2`, `name-3`… if it is taken: ``unique_name("a", ["a"]) == "a-2"``."""
    if name not in taken:
        return name
    n = 2
    while f"{name}-{n}" in taken:
        n += 1
    return f"{name}-{n}"


# ---- links -------------------------------------------------------------------------------------


def sync_link() -> str | None:
    """Restore the link's vocabularies (a session's first run), then write this session's ids.

    ``?vocabs=id,id`` brings back a session's list (every page's link carries it, so a reload
    keeps them); ``?vocab=<id or name>`` opens one more. Returns the name to pick in the
    encoding picker (the ``vocab=`` one), if any. Ids the store does not hold are named in the
    link notice, with what became of them.
    """
    pick = None
    if not st.session_state.get(_LINKED):
        st.session_state[_LINKED] = True
        for ref in VOCABS.linked() or []:
            _restore(VOCABS.url, ref)
        ref = (VOCAB.linked() or "").strip()
        if ref:
            pick = _restore(VOCAB.url, ref)
    VOCAB.forget()  # now in ?vocabs= and ?enc=
    trained_encodings()  # leaves out any the store dropped (with a notice)
    VOCABS.publish(value=list(_held().values()))
    return pick


def _restore(url: str, ref: str) -> str | None:
    """Add the stored vocabulary `ref` (an id or a name) to this session; its name, or None."""
    found = STORE.find(ref)
    if found is None:
        state.name_invalid(url, ref, _missing(ref))
        st.session_state[_UNFOUND] = True
        return None
    held = _held()
    enc = found.enc
    if held.get(enc.name) not in (None, found.id):  # the session has another one by that name
        enc = renamed(enc, unique_name(enc.name, [*tk.list_encodings(), *held]))
    add(replace(found, enc=enc))
    return enc.name


def link_lost_one() -> bool:
    """Whether this session's link named a vocabulary this server does not hold (made before a
    restart, or dropped): the Train page then keeps the link's step for its training again."""
    return bool(st.session_state.get(_UNFOUND))


def _missing(ref: str) -> str:
    """Why a linked vocabulary is not here, and what to do."""
    gone = STORE.gone(ref)
    if gone is not None:
        about = f" ({gone.about})" if gone.about else ""
        return (
            f"this server no longer holds {inline_code(gone.name, 40)}{about}: {WHY_GONE}. "
            + HOW_TO_GET_BACK
        )
    what = "vocabulary id" if looks_like_id(ref) else "vocabulary of that name"
    return (
        f"this server holds no such {what}: it was made on another server, or before this "
        f"server restarted ({WHY_GONE}). " + HOW_TO_GET_BACK
    )


def _lost(sentence: str) -> None:
    lost: list[str] = st.session_state.setdefault(_LOST, [])
    if sentence not in lost:
        lost.append(sentence)


def show_lost() -> None:
    """Say which of this session's vocabularies the store dropped, until the user dismisses it."""
    lost: list[str] = st.session_state.get(_LOST, [])
    if not lost:
        return
    box = st.container(border=True, key="common_lost_notice")
    box.warning("\n\n".join([*lost, HOW_TO_GET_BACK]), icon=":material/history:")
    box.button("Dismiss", key="common_lost_close", on_click=_dismiss_lost, type="tertiary")


def _dismiss_lost() -> None:
    st.session_state[_LOST] = []


# ---- every encoding ----------------------------------------------------------------------------


OPENAI_GENERATIONS = ("gpt2", "cl100k_base", "o200k_base")
"""GPT-2, GPT-4 and GPT-4o: where a comparison starts (Tiktokenizer's own three)."""


def available_encodings() -> list[str]:
    """Bundled names first, in their usual order, then this session's own."""
    return [*tk.list_encodings(), *trained_encodings()]


def encoding_label(name: str) -> str:
    """``"o200k_base · GPT-4o, o1, o3 and later"``; the session's own ones say so."""
    if name in tk.MODELS:
        return f"{name} · {tk.MODELS[name]}"
    return f"{name} · trained or imported here"


def get_encoding(name: str) -> Encoding:
    """A bundled or trained encoding by name; ValueError names the choices if it is neither."""
    held = trained_encodings()
    if name in held:
        return held[name]
    if name not in tk.list_encodings():
        raise ValueError(f"unknown encoding {name!r}; choose one of {available_encodings()}")
    return bundled_encoding(name)


def is_bundled(enc: Encoding) -> bool:
    """Whether `enc` is the shared copy of a bundled vocabulary (not a look-alike by name)."""
    return enc.name in tk.list_encodings() and enc is bundled_encoding(enc.name)


def vocab_key(enc: Encoding) -> str:
    """The key caches use for `enc`: its name if bundled, else its id in the store.

    The id hashes the name, pattern, normalizer, special tokens and every token's bytes (merge
    lists included), computed once per vocabulary object (`vocab_store.content_id`).
    """
    return enc.name if is_bundled(enc) else content_id(enc)
