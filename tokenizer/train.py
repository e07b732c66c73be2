"""`train`: learn a byte-level BPE vocabulary from text, by the Training tie rule of DESIGN.md.

The corpus is cut at special-token text (never merged into), split into chunks by the pattern, and
each distinct chunk is counted once; `tokenizer.learner` then learns the merges. The result is an
ordinary `Encoding` whose merge ranks are its merge order, carrying its `TrainingRecord` for replay.

Ties go to the smallest pair: after ``aa``, ``(aa, a)`` and ``(a, b)`` both occur twice.

>>> enc = train("aaabdaaabac", 259, special_tokens=())
>>> enc.merges, enc.encode("aaabdaaabac")
([(97, 97), (97, 98), (256, 257)], [258, 100, 258, 97, 99])
"""

from collections import Counter
from collections.abc import Iterable

import regex

from tokenizer.encoding import Encoding, repair_surrogates
from tokenizer.frozen_regex import compile_pattern
from tokenizer.learner import OnStep, learn_merges
from tokenizer.patterns import PATTERNS
from tokenizer.splitter import Split, splitter
from tokenizer.unicode_tables import DEFAULT_UNICODE

MAX_VOCAB_SIZE = 1_000_000
"""Far beyond any vocabulary a text you can upload supports (GPT-4o has about 200,000)."""

MAX_UNSPLIT_BYTES = 100_000
"""Without a pattern the whole text is one chunk and every merge rescans it, so keep it short."""

WHOLE_TEXT = r"(?s).+"
"""The pattern of an encoding trained with ``pattern=None``: all the text is one chunk."""


def train(
    text: str,
    vocab_size: int,
    *,
    pattern: str | None = "gpt2",
    special_tokens: Iterable[str] = ("<|endoftext|>",),
    on_step: OnStep | None = None,
    name: str = "trained",
    unicode: str = DEFAULT_UNICODE,
) -> Encoding:
    """Train a vocabulary of `vocab_size` ids: 256 bytes, then merges, then `special_tokens`.

    `pattern` is an encoding's name (``"gpt2"``, ``"cl100k_base"``, ``"o200k_base"``), any regex
    for the `regex` module, or None to train on the text unsplit (at most `MAX_UNSPLIT_BYTES`).
    Its ``\\p{..}`` classes are those of Unicode `unicode` (tiktoken's by default); a chunk is
    the whole match even if the pattern has capturing groups; and a pattern that backtracks
    catastrophically on the text stops training with `PatternTimeoutError` (a ValueError).

    `on_step` is called with each `TrainStep` right after that merge; returning ``False`` (not
    merely a falsy value) stops training there, keeping the merges made so far. Training also
    stops early when no pair occurs at least twice. Either way the result is a valid, smaller
    Encoding: ``enc.training.n_merges`` says how many merges were made, ``enc.training.message``
    says why it stopped.
    """
    specials = _checked_specials(special_tokens)
    n_merges = _checked_merge_count(vocab_size, len(specials))
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    text = repair_surrogates(text)
    if pattern is None:
        size = len(text.encode("utf-8"))
        if size > MAX_UNSPLIT_BYTES:
            raise ValueError(
                f"pattern=None trains on the whole text as one chunk, which is only practical "
                f"up to {MAX_UNSPLIT_BYTES:,} bytes; this text has {size:,}. Pick a pattern or "
                "shorten the text."
            )
    source = resolve_pattern(pattern, unicode)
    chunks = count_chunks(text, splitter(source, unicode), specials)
    words = list(map(list, map(str.encode, chunks)))
    record = learn_merges(words, list(chunks.values()), n_merges, on_step)
    first_special = 256 + record.n_merges
    return Encoding.from_merges(
        name=name,
        pattern=source,
        merges=record.merges,
        special_tokens={s: first_special + i for i, s in enumerate(specials)},
        training=record,
        unicode=unicode,
    )


def count_chunks(text: str, split: Split, specials: list[str]) -> Counter[str]:
    """Count the distinct chunks of `text`, cutting it at special-token text first.

    >>> count_chunks("hi hi<|x|>hi", regex.compile(r" ?\\w+").findall, ["<|x|>"])
    Counter({'hi': 2, ' hi': 1})
    """
    if specials:
        # Longest first, so a special token that contains another is cut out whole.
        cutter = "|".join(regex.escape(s) for s in sorted(specials, key=len, reverse=True))
        pieces = regex.split(cutter, text)
    else:
        pieces = [text]
    counts: Counter[str] = Counter()
    for piece in pieces:
        counts.update(split(piece))
    counts.pop("", None)  # a custom pattern may match empty strings: they hold no pair
    return counts


def resolve_pattern(pattern: str | None, unicode: str = DEFAULT_UNICODE) -> str:
    """The regex source for `pattern`: an encoding's name, a regex of its own, or None (no split).

    A regex that does not compile is a `PatternError` (a ValueError) that says why.

    >>> resolve_pattern("gpt2") == PATTERNS["gpt2"], resolve_pattern("[a-z]+")
    (True, '[a-z]+')
    """
    if pattern is None:
        return WHOLE_TEXT
    if not isinstance(pattern, str):
        raise TypeError(f"pattern must be a str or None, not {type(pattern).__name__}")
    source = PATTERNS.get(pattern, pattern)
    compile_pattern(source, unicode)
    return source


def _checked_specials(special_tokens: Iterable[str]) -> list[str]:
    """The special tokens as a list of distinct, non-empty strings."""
    if isinstance(special_tokens, str):
        raise TypeError(
            "special_tokens must be a collection of strings such as ('<|endoftext|>',), not a str"
        )
    specials = list(special_tokens)
    for special in specials:
        if not isinstance(special, str) or not special:
            raise TypeError(f"special tokens must be non-empty strings, not {special!r}")
    if len(set(specials)) != len(specials):
        raise ValueError(f"special tokens must be distinct: {specials!r}")
    return specials


def _checked_merge_count(vocab_size: int, n_specials: int) -> int:
    """How many merges `vocab_size` asks for, after checking it is a sensible integer."""
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise TypeError(f"vocab_size must be an int, not {type(vocab_size).__name__}")
    smallest = 256 + n_specials
    if vocab_size < smallest:
        raise ValueError(
            f"vocab_size must be at least {smallest} (256 byte tokens + {n_specials} special), "
            f"got {vocab_size}"
        )
    if vocab_size > MAX_VOCAB_SIZE:
        raise ValueError(
            f"vocab_size {vocab_size:,} is absurdly large; the limit is {MAX_VOCAB_SIZE:,}"
        )
    return vocab_size - smallest
