"""The vocabularies users make (trained or imported), held by the server and shared by id.

A session does not keep its vocabularies itself: it keeps their ids (ui/common/registry.py),
and this process-wide store keeps the vocabularies. So a page reload, which starts a new session,
finds them again from the ids in its link (``?vocabs=…``), and anyone given the link sees the same
vocabulary while the server holds it.

- **Id.** `content_id`: ``vocab-`` and 16 hex digits of a SHA-256 over everything that makes the
  vocabulary what the user sees: its name, pattern, normalizer, special tokens, every token's
  bytes in id order, its merge list and whether it carries a training record. Equal ids are equal
  vocabularies, so a class training the same corpus under the same name stores one copy, and the
  caches of derived views (`ui.common.cache.derived`) use the same id as their key.
- **Bound.** Entries are bounded by their estimated bytes (`VOCAB_STORE_BYTES`), least recently
  used first out (`ui.common.cache.ContentCache`); every use by a session counts as a use.
- **Gone.** A dropped vocabulary leaves a small note (its name and how it was made, at most
  `MAX_GONE_VOCABS`), so a link to it says what it was and how to get it back: train it again with
  the same corpus and settings (same vocabulary, same id) or import the file exported from it.
  A restarted server has no notes: the link then says it does not know the id.
"""

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from tokenizer import Encoding
from tokenizer.train_record import TrainingRecord
from ui.common.cache import ContentCache
from ui.common.limits import MAX_GONE_VOCABS, VOCAB_STORE_BYTES

ID_PREFIX = "vocab-"
ID_DIGITS = 16  # 64 bits: no two vocabularies of one server share an id by accident

# Estimated bytes per token id (decoder entry, merge pair, lookup tables), per step of a training
# record (measured: about 185), and a flat allowance for the chunk cache it fills as it is used.
_BYTES_PER_ID = 400
_BYTES_PER_STEP = 200
_CACHE_ALLOWANCE = 1024 * 1024

_IDS: "WeakKeyDictionary[Encoding, str]" = WeakKeyDictionary()


def content_id(enc: Encoding) -> str:
    """The vocabulary's id: ``vocab-`` + 16 hex digits of its content hash (see above).

    Computed once per vocabulary object (a 200,000-token import takes a fraction of a second).

    >>> import tokenizer as tk
    >>> a, b = tk.train("aaab aaab", 259, name="a"), tk.train("aaab aaab", 259, name="a")
    >>> content_id(a) == content_id(b), content_id(a).startswith("vocab-"), len(content_id(a))
    (True, True, 22)
    >>> content_id(a) == content_id(tk.train("aaab aaab", 259, name="b"))
    False
    """
    held = _IDS.get(enc)
    if held is not None:
        return held
    digest = hashlib.sha256()
    normalizer = enc.normalizer
    described = getattr(normalizer, "describe", None)
    head = [
        enc.name,
        enc.pattern,
        sorted(enc.special_tokens.items()),
        None if normalizer is None else (described() if described else repr(normalizer)),
        isinstance(enc.training, TrainingRecord),
    ]
    digest.update(json.dumps(head).encode("utf-8", "surrogatepass"))
    digest.update(json.dumps(enc.merges).encode())
    for token_id in range(enc.n_vocab):
        piece = enc.token_bytes(token_id) if enc.is_valid_id(token_id) else b""
        digest.update(len(piece).to_bytes(4, "big") + piece)  # length first: unambiguous
    vocab_id = _IDS[enc] = f"{ID_PREFIX}{digest.hexdigest()[:ID_DIGITS]}"
    return vocab_id


def looks_like_id(text: str) -> bool:
    """Whether `text` has the shape of an id (``looks_like_id("vocab-0123456789abcdef")``)."""
    digits = text.removeprefix(ID_PREFIX)
    return (
        text.startswith(ID_PREFIX)
        and len(digits) == ID_DIGITS
        and all(c in "0123456789abcdef" for c in digits)
    )


def _id_case(ref: str) -> str:
    """`ref` as an id is written (lower case) if it is one in any case, else as it is.

    >>> _id_case("VOCAB-0123456789ABCDEF"), _id_case("My Vocab")
    ('vocab-0123456789abcdef', 'My Vocab')
    """
    return ref.lower() if looks_like_id(ref.lower()) else ref


def estimate_bytes(enc: Encoding) -> int:
    """What holding `enc` costs, roughly: its tables, its training record, its chunk cache."""
    record = enc.training
    steps = record.n_merges if isinstance(record, TrainingRecord) else 0
    return _BYTES_PER_ID * enc.n_vocab + _BYTES_PER_STEP * steps + _CACHE_ALLOWANCE


@dataclass(frozen=True)
class Stored:
    """A vocabulary and what the pages say about it."""

    enc: Encoding
    about: str = ""  # how it was made, one Markdown line ("trained on your text, GPT-2 pattern")
    sample: str = ""  # the start of the text it was trained on, for its replay ("" if unknown)
    specials_in_text: bool = False  # its special tokens are read in text (Hugging Face's added
    # tokens are): pages encode with allowed_special="all" to give the file's own ids
    corpus_sha256: str = ""  # `text_sha256` of the text it was trained on ("" if not trained here)

    @property
    def id(self) -> str:
        return content_id(self.enc)


@dataclass(frozen=True)
class Gone:
    """What the store remembers of a vocabulary it dropped."""

    name: str
    about: str


class VocabStore:
    """Vocabularies by id, bounded by bytes, with notes on the ones it dropped.

    Thread-safe: every session runs in its own thread.

    >>> import tokenizer as tk
    >>> store = VocabStore(max_bytes=3 * 1024 * 1024, max_gone=10)
    >>> ids = [store.put(Stored(tk.train("aaab aaab", 259, name=n))) for n in "abc"]
    >>> store.get(ids[0]) is None, store.gone(ids[0]).name, store.find("c").enc.name
    (True, 'a', 'c')
    """

    def __init__(self, max_bytes: int = VOCAB_STORE_BYTES, max_gone: int = MAX_GONE_VOCABS):
        self._held = ContentCache(max_bytes, on_evict=self._dropped)
        self._max_gone = max_gone
        self._lock = threading.Lock()
        self._names: dict[str, str] = {}  # name -> the id last stored under it
        self._gone: OrderedDict[str, Gone] = OrderedDict()

    def put(self, stored: Stored) -> str:
        """Hold `stored` (an equal vocabulary already held stays as it is); return its id."""
        vocab_id = stored.id
        with self._lock:
            self._names[stored.enc.name] = vocab_id
            self._gone.pop(vocab_id, None)
        if self._held.peek(vocab_id) is None:
            self._held.put(vocab_id, stored, estimate_bytes(stored.enc))
        return vocab_id

    def get(self, vocab_id: str) -> Stored | None:
        """The vocabulary with this id, if held (and now the most recently used)."""
        held: Stored | None = self._held.peek(vocab_id)
        return held

    def find(self, ref: str) -> Stored | None:
        """A vocabulary by id, else by name (the one last stored under that name).

        An id is read in any case: an address bar or a chat app may have upper-cased it.
        """
        held = self.get(_id_case(ref))
        if held is not None:
            return held
        with self._lock:
            vocab_id = self._names.get(ref)
        return None if vocab_id is None else self.get(vocab_id)

    def gone(self, ref: str) -> Gone | None:
        """The note on a dropped vocabulary, by id (in any case) or name; None if never held
        (or held now)."""
        with self._lock:
            vocab_id = self._names.get(ref, _id_case(ref))
            return self._gone.get(vocab_id)

    def ids(self) -> list[Hashable]:
        """The ids held, least recently used first (for tests and benchmarks)."""
        return self._held.keys()

    @property
    def total_bytes(self) -> int:
        return self._held.total_bytes

    def _dropped(self, vocab_id: Hashable, stored: Stored) -> None:
        # Called by the cache, under its lock, for each entry it drops to make room.
        with self._lock:
            self._gone[str(vocab_id)] = Gone(stored.enc.name, stored.about)
            while len(self._gone) > self._max_gone:
                self._gone.popitem(last=False)


STORE = VocabStore()
"""The one store of this server process."""
