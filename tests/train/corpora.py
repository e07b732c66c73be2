"""Training inputs for the tests: texts in several scripts, and hypothesis corpora full of ties."""

import random

from hypothesis import strategies as st

_EMOJI = ["😀", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇫🇷", "🇯🇵", "❤️", "🐍", "🎉", "🙈"]

# Letters of each script, plus how its words are joined (CJK and Thai use no spaces).
SCRIPTS: dict[str, tuple[list[str], list[str]]] = {
    "cjk": (
        [chr(c) for c in range(0x4E00, 0x4E60)] + [chr(c) for c in range(0x3041, 0x3060)],
        ["", "", "", "，", "。\n"],
    ),
    "arabic": ([chr(c) for c in range(0x0621, 0x064B)], [" ", " ", " ", "، ", ".\n"]),
    "devanagari": (
        [chr(c) for c in range(0x0905, 0x093A)] + ["\u093e", "\u093f", "\u094d"],
        [" ", " ", "। "],
    ),
    "cyrillic": ([chr(c) for c in range(0x0430, 0x0450)], [" ", " ", ", ", ".\n"]),
    "thai": ([chr(c) for c in range(0x0E01, 0x0E2F)], ["", "", " "]),
    "emoji": (_EMOJI, [" ", "", "!", "\n"]),
}


def script_text(script: str, words: int = 4000, seed: int = 0) -> str:
    """Deterministic text in one script: words drawn Zipf-like from a random lexicon.

    Real text repeats a few words a lot and most words rarely; that is what makes BPE learn long
    tokens, so the lexicon is sampled with weights 1/rank.
    """
    letters, joiners = SCRIPTS[script]
    rng = random.Random(f"{script}-{seed}")
    lexicon = ["".join(rng.choices(letters, k=rng.randint(1, 6))) for _ in range(300)]
    weights = [1 / (rank + 1) for rank in range(len(lexicon))]
    out = []
    for word in rng.choices(lexicon, weights, k=words):
        out += [word, rng.choice(joiners)]
    return "".join(out)


# Few distinct symbols, short pieces, repeats: most steps have several pairs with equal counts.
_TIE_PIECES = st.sampled_from(
    [
        "a",
        "b",
        "ab",
        "ba",
        "aa",
        "aaa",
        "bb",
        "abab",
        " ",
        "  ",
        "\n",
        "é",
        "🙂",
        "<|x|>",
        "1",
        "22",
    ]
)
tie_corpora = st.lists(_TIE_PIECES, max_size=60).map("".join)
