"""What the user asks the trainer for, checked before anything runs: pattern, specials, name.

Pure (no Streamlit). Each check returns an error sentence for the page to show, or None, so a bad
regex or name is a message under its box while the user types, never a failed training later.
"""

import unicodedata
from dataclasses import dataclass

import regex

from tokenizer import PATTERNS
from tokenizer.frozen_regex import PatternError, check_tiktoken_syntax, compile_pattern
from ui.common.glyphs import INVISIBLE_CHARS, code_point
from ui.common.limits import (
    MAX_SPECIAL_CHARS,
    MAX_SPECIAL_TOKENS,
    REGEX_TRIAL_CHARS,
    REGEX_TRIAL_SECONDS,
)
from ui.common.messages import counted, inline_code, literal
from ui.train.corpora import Corpus
from ui.train.jobs import TrainSettings

CUSTOM = "custom"
NO_SPLIT = "none"

# Picker value -> label. Bundled patterns are named after the models that made them famous (GPT-OSS
# splits as GPT-4o does, so o200k_harmony needs no entry of its own).
PATTERN_CHOICES: dict[str, str] = {
    "gpt2": "GPT-2",
    "cl100k_base": "GPT-4 (cl100k_base)",
    "o200k_base": "GPT-4o (o200k_base)",
    "llama3": "Llama 3",
    "qwen3": "Qwen 2.5 / 3 (digits one by one)",
    NO_SPLIT: "None: the whole text is one chunk",
    CUSTOM: "Custom regex",
}

PREVIEW_TEXT = "Hello world! It's 2024: 12345 naïve cafés\n    print(x)  # 👋🏽"
"""A line that shows how a pattern treats words, contractions, digits, accents, code and emoji."""


def pattern_source(choice: str, custom: str) -> str | None:
    """The regex a picker choice stands for (None: no pre-split)."""
    if choice == NO_SPLIT:
        return None
    if choice == CUSTOM:
        return custom
    return PATTERNS[choice]


@dataclass(frozen=True)
class PatternCheck:
    """A custom pattern's verdict: an error, or how it splits the preview line."""

    error: str | None
    chunks: tuple[str, ...] = ()
    dropped: str = ""  # the preview's characters no match covers, in order (training skips them)


def check_pattern(source: str, sample: str = PREVIEW_TEXT) -> PatternCheck:
    """Compile `source` and split `sample` with it, within a time limit.

    >>> len(check_pattern(r"\\w+").dropped), check_pattern(r"\\S+|.").dropped == "\\n"
    (22, True)
    """
    if not source:
        return PatternCheck("Type a regular expression, e.g. ` ?\\p{L}+| ?\\p{N}+|\\s+|.`")
    try:
        compiled = compile_pattern(source)  # the classes training will use, not `regex`'s
        check_tiktoken_syntax(source)  # what training refuses, refused before it starts
    except PatternError as exc:
        return PatternCheck(f"This regex is refused: {literal(str(exc))}.")  # it quotes the regex
    if compiled.groups:
        return PatternCheck(
            "Use non-capturing groups `(?:…)`: with a capturing group the pre-tokenizer keeps "
            "only the group's text."
        )
    try:
        spans = [m.span() for m in compiled.finditer(sample, timeout=REGEX_TRIAL_SECONDS)]
    except TimeoutError:
        return PatternCheck("This regex takes too long even on one line; simplify it.")
    chunks = tuple(sample[start:end] for start, end in spans if end > start)
    starts = [0, *(end for _, end in spans)]  # of each gap: where a match ends (or the line)
    ends = [*(start for start, _ in spans), len(sample)]
    gaps = "".join(sample[start:end] for start, end in zip(starts, ends, strict=True))
    return PatternCheck(None, chunks, gaps)


def trial_split(source: str, corpus: Corpus) -> str | None:
    """Run a custom pattern over the start of the corpus; an error sentence if it is too slow,
    or if it finds no text there (``\\b`` matches only empty strings): training would then
    learn nothing, and say only that no pair occurs twice."""
    sample = corpus.text[:REGEX_TRIAL_CHARS]
    try:
        chunks = regex.findall(source, sample, timeout=REGEX_TRIAL_SECONDS)
    except TimeoutError:
        where = (
            "the corpus"
            if len(sample) == len(corpus.text)
            else f"the first {REGEX_TRIAL_CHARS:,} characters of the corpus"
        )
        return (
            f"This regex needs more than {REGEX_TRIAL_SECONDS:g} s for {where} "
            f"({len(sample):,} characters); training would take forever."
        )
    if not any(chunks):
        where = "the corpus" if len(sample) == len(corpus.text) else "its first characters"
        return (
            f"This regex finds no text in {where}, only empty matches or none: the "
            "pre-tokenizer keeps only what it matches, so training would learn nothing."
        )
    return None


SHOWN_CODES = 8  # code points named when a special token draws nothing


def draws_nothing(text: str) -> bool:
    """Whether `text` has no character a reader can see: whitespace, control characters and
    the invisible ones of `ui.common.glyphs` (a zero-width space) only, or nothing at all.

    >>> draws_nothing(" \\u200b\\t"), draws_nothing("<\\u200b>"), draws_nothing("")
    (True, False, True)
    """
    return all(
        char.isspace() or char in INVISIBLE_CHARS or unicodedata.category(char) == "Cc"
        for char in text
    )


def specials_in_link(specials: list[str]) -> str | None:
    """A `Param.seed` check: a link naming more special tokens than a training takes is not
    drawn (thousands of chips would stall the browser); the page says so and uses its default.

    >>> specials_in_link(["<|a|>"]), specials_in_link(["x"] * 17)
    (None, 'it names 17 special tokens; a training takes at most 16')
    """
    if len(specials) <= MAX_SPECIAL_TOKENS:
        return None
    return (
        f"it names {len(specials):,} special tokens; a training takes at most {MAX_SPECIAL_TOKENS}"
    )


def check_specials(specials: list[str]) -> str | None:
    """An error sentence for unusable special tokens, or None.

    One that draws nothing is refused: its chip in the picker is empty, so the user could
    neither read it nor tell which one to remove, and the pages would show it as nothing too.

    >>> check_specials(["<|endoftext|>"]), check_specials(["\\u200b"])[:72]
    (None, 'A special token needs at least one visible character: the token `U+200B`')
    """
    if len(specials) > MAX_SPECIAL_TOKENS:
        return f"At most {MAX_SPECIAL_TOKENS} special tokens; this list has {len(specials):,}."
    for special in specials:
        if draws_nothing(special):
            codes = " ".join(code_point(char) for char in special[:SHOWN_CODES])
            codes += " …" if len(special) > SHOWN_CODES else ""
            which = f"the token `{codes}`" if special else "an empty token"
            return (
                f"A special token needs at least one visible character: {which} draws "
                "nothing, so its chip above is empty. Remove it (its ×) or type one you can read."
            )
        if len(special) > MAX_SPECIAL_CHARS:
            return f"A special token has at most {MAX_SPECIAL_CHARS} characters."
    return None


def ordinary_specials(specials: list[str], text: str) -> str | None:
    """A warning for special tokens that are ordinary words the corpus holds, or None.

    Training cuts the corpus at every occurrence of a special token's text, inside words too:
    ``low`` takes the "low" out of "lower" and "slowly", and those letters are never trained
    on. That is seldom what was meant; tokens marked like ``<|endoftext|>`` never occur by
    chance, and one that does (a separator between documents) is meant to.

    >>> said = ordinary_specials(["low", "<|endoftext|>"], "lower and slowly<|endoftext|>")
    >>> said[said.index(":"):said.index(".")]
    ': `low` 2 times (as in `lower`)'
    >>> ordinary_specials(["low"], "high") is None
    True
    """
    found = []
    for special in specials:
        if not special.strip() or not all(c.isalnum() or c.isspace() for c in special):
            continue
        count = text.count(special)
        if not count:
            continue
        word = _word_around(text, text.index(special), special)
        example = f" (as in {inline_code(word, 32)})" if word != special else ""
        found.append(f"{inline_code(special)} {counted(count, 'time')}{example}")
    if not found:
        return None
    which = "a special token that is" if len(found) == 1 else "special tokens that are"
    return (
        f"The corpus holds {which} ordinary text: {', '.join(found)}. Each "
        "occurrence becomes the special token, a boundary that no merge crosses, so its letters "
        "are not trained on. Special tokens are usually marked so that text never holds them by "
        "chance, as `<|endoftext|>` is."
    )


def _word_around(text: str, start: int, special: str) -> str:
    """The word (letters and digits) that holds the occurrence of `special` at `start`."""
    left, right = start, start + len(special)
    while left > 0 and text[left - 1].isalnum() and start - left < 20:
        left -= 1
    while right < len(text) and text[right].isalnum() and right - start < 40:
        right += 1
    return text[left:right]


def default_name(corpus_name: str, vocab_size: int) -> str:
    """``"python-code-16k"``: the corpus and the vocabulary size, for the name box.

    >>> default_name("samples", 1000), default_name("python-code", 16384)
    ('samples-1000', 'python-code-16k')
    """
    size = f"{vocab_size // 1024}k" if vocab_size % 1024 == 0 else str(vocab_size)
    return f"{corpus_name}-{size}"


def settings_for(vocab_size: int, choice: str, custom: str, specials: list[str]) -> TrainSettings:
    """The training's settings, with the pattern resolved to its regex."""
    return TrainSettings(vocab_size, pattern_source(choice, custom), tuple(specials))


def describe_pattern(settings: TrainSettings) -> str:
    """A training's pattern in words, for the notes kept with its vocabulary.

    >>> describe_pattern(TrainSettings(1024, PATTERNS["gpt2"], ("<|endoftext|>",)))
    'the GPT-2 pattern'
    """
    if settings.pattern is None:
        return "no pattern"
    named = [c for c in PATTERN_CHOICES if PATTERNS.get(c) == settings.pattern]
    return f"the {PATTERN_CHOICES[named[0]]} pattern" if named else "a custom pattern"
