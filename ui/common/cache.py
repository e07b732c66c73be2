"""What the app keeps in memory, where, and for how long: the one caching rule of every page.

=====================================  ==========================  ============================
What                                   Where                       Bound
=====================================  ==========================  ============================
Bundled vocabularies, their explorer   the process, shared by      one per name; loaded once
indexes, the bundled corpora           every session (`resource`)  and frozen out of the GC
Views derived from a text: tokens,     the process, shared by      `DERIVED_CACHE_BYTES` in
chunks, merge walkthroughs, counts     every session (`derived`)   all, least recently used
                                       keyed by content            first out
A session's last result of one kind    that session (`memo`)       one entry per kind
(a search, a decoded upload)
Vocabularies users train or import     the process, shared, by id  `VOCAB_STORE_BYTES` in all,
                                       (`ui/common/vocab_store`)   least recently used first out
Trainings, running and finished        the process, one pool       limits.py: trainings at once
                                       (`ui/train/session`)        and finished ones kept
Small lookups: a pattern's             the process, `functools`    64 patterns; one manifest;
alternatives, the samples manifest,    caches where they are made  one icon (never a user's
the favicon                            (pure modules stay pure)    text)
=====================================  ==========================  ============================

Derived views are keyed by *content* — the vocabulary's key (`ui.common.registry.vocab_key`: a
bundled name or a trained vocabulary's content hash), the text and the options — never by a
session, so a class opening the same link computes it once, and two users with different
vocabularies under one name never see each other's results.
"""

import gc
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, ParamSpec, TypeVar

import streamlit as st

from tokenizer import PatternTimeoutError
from ui.common.limits import DERIVED_CACHE_BYTES

T = TypeVar("T")
P = ParamSpec("P")

_MEMO_KEY = "common.memo"  # session state: {kind: (key, value)}


def keep_for_good(value: T) -> T:
    """Return `value` after moving everything alive now into the collector's permanent generation.

    A loaded vocabulary or its explorer index is millions of objects that live as long as the
    server. Left in the tracked generations, every full collection walks them all again (tens of
    milliseconds, felt by whoever is typing at that moment); frozen, they are never scanned, and
    reference counting still frees whatever is dropped later.
    """
    gc.freeze()
    return value


def resource(spinner: str | bool = False) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """Decorate a loader of big read-only data: run once per process and argument, then frozen.

    Arguments must be small and hashable (a name), never a vocabulary: hashing one costs seconds.
    """

    def wrap(load: Callable[P, T]) -> Callable[P, T]:
        def loaded(*args: P.args, **kwargs: P.kwargs) -> T:
            return keep_for_good(load(*args, **kwargs))

        loaded.__name__ = load.__name__
        loaded.__qualname__ = load.__qualname__
        loaded.__module__ = load.__module__
        loaded.__doc__ = load.__doc__
        return st.cache_resource(show_spinner=spinner)(loaded)

    return wrap


class ContentCache:
    """A thread-safe least-recently-used map whose entries are bounded by their estimated bytes.

    Streamlit runs every session in its own thread, so all access holds one lock; a value is
    computed outside it (two sessions asking for the same new key at once may both compute it,
    which is harmless, while holding the lock would make every session wait for the slowest).

    >>> cache = ContentCache(max_bytes=250)  # each entry below costs 100 + its key's ~50 bytes
    >>> cache.get(("a",), lambda: "x" * 100, len) == "x" * 100
    True
    >>> cache.get(("b",), lambda: "y" * 100, len) == "y" * 100
    True
    >>> cache.keys()  # "a" went out to keep the total within 250 bytes
    [('b',)]
    """

    def __init__(
        self, max_bytes: int, on_evict: Callable[[Hashable, Any], None] | None = None
    ) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._total = 0
        self._lock = threading.Lock()
        self._on_evict = on_evict  # told of each entry dropped to make room (under the lock)

    def get(self, key: Hashable, compute: Callable[[], T], size: Callable[[T], int]) -> T:
        """The value for `key`, computed by `compute` on a miss; `size` estimates its bytes."""
        held = self.peek(key)
        if held is not None:
            return held  # type: ignore[no-any-return]
        value = compute()
        self.put(key, value, size(value))
        return value

    def peek(self, key: Hashable) -> Any:
        """The value held for `key` (now the most recently used), or None; nothing computed."""
        with self._lock:
            held = self._entries.get(key)
            if held is None:
                return None
            self._entries.move_to_end(key)
            return held[0]

    def put(self, key: Hashable, value: Any, size: int) -> bool:
        """Hold `value` (about `size` bytes) under `key` unless it is there already.

        Returns whether it is held: a value bigger than the whole budget is not.
        """
        cost = size + _key_size(key)
        if cost > self.max_bytes:
            return False  # too big to keep: the caller holds it as long as it needs it
        with self._lock:
            if key not in self._entries:
                self._entries[key] = (value, cost)
                self._total += cost
            self._entries.move_to_end(key)
            while self._total > self.max_bytes:
                dropped_key, (dropped, dropped_cost) = self._entries.popitem(last=False)
                self._total -= dropped_cost
                if self._on_evict is not None:
                    self._on_evict(dropped_key, dropped)
        return True

    def keys(self) -> list[Hashable]:
        """The keys held, least recently used first (for tests and the load benchmark)."""
        with self._lock:
            return list(self._entries)

    @property
    def total_bytes(self) -> int:
        """The estimated bytes held now."""
        return self._total

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._total = 0


def _key_size(key: Hashable) -> int:
    """Keys hold texts (up to a megabyte): count them, or a cache of small values could hold GBs."""
    if isinstance(key, tuple):
        return sum(_key_size(part) for part in key)
    return sys.getsizeof(key)


DERIVED = ContentCache(DERIVED_CACHE_BYTES)
_REFUSAL_BYTES = 1_000  # a held PatternTimeoutError: its message, roughly


def derived(key: Hashable, compute: Callable[[], T], size: Callable[[T], int]) -> T:
    """A view derived from content, shared by every session (see the table above).

    A pattern too slow for the text (`PatternTimeoutError`, after a second or so) is held too,
    and raised again: every rerun of a page that tokenizes with such a vocabulary would spend
    that second again to learn the same thing.
    """

    def outcome() -> T | PatternTimeoutError:
        try:
            return compute()
        except PatternTimeoutError as error:
            return error

    def cost(held: T | PatternTimeoutError) -> int:
        return _REFUSAL_BYTES if isinstance(held, PatternTimeoutError) else size(held)

    held = DERIVED.get(key, outcome, cost)
    if isinstance(held, PatternTimeoutError):
        raise held.with_traceback(None)  # a fresh traceback each time, not a growing one
    return held


def memo(kind: str, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """This session's last result of `kind`, recomputed only when `key` changes.

    Keys compare item by item with ``==``: a vocabulary by identity (Encoding has no __eq__), a
    text by content, which Python checks by identity first, so an unchanged megabyte costs
    nothing per rerun. One entry per kind keeps a session's memory bounded.
    """
    held: dict[str, tuple[tuple[Any, ...], Any]] = st.session_state.setdefault(_MEMO_KEY, {})
    entry = held.get(kind)
    if entry is None or entry[0] != key:
        entry = held[kind] = (key, compute())
    return entry[1]  # type: ignore[no-any-return]
