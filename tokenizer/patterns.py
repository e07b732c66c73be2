"""The pre-tokenizer patterns of the bundled encodings.

Each encoding first cuts text into chunks with its own regular expression; BPE never merges
across a chunk boundary. The patterns are written for the third-party `regex` module (``\\p{L}``
classes and possessive quantifiers), which is the only dependency `import tokenizer` needs.
"""

# GPT-2's original pattern from its `encoder.py` (tiktoken's `r50k` pattern is an equivalent,
# faster rewrite; the tests check both give the same ids).
GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

# GPT-4's pattern: case-insensitive contractions, digits in groups of at most three, and possessive
# quantifiers (`?+`, `++`) that forbid backtracking.
CL100K = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

# GPT-4o's pattern: words split at case changes (CamelCase -> Camel|Case), contractions glued to
# the word before them, and no possessive quantifiers.
O200K = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

# Llama 3's pattern (Meta's `llama-models`): cl100k_base's, written without possessive
# quantifiers and with any run of newlines kept whole after the whitespace before it.
LLAMA3 = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

# Qwen 2.5 / 3's pattern (its tokenizer.json): Llama 3's, but every digit is a chunk of its own.
QWEN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

PATTERNS: dict[str, str] = {
    "gpt2": GPT2,
    "cl100k_base": CL100K,
    "o200k_base": O200K,
    "o200k_harmony": O200K,  # GPT-OSS splits as GPT-4o does
    "llama3": LLAMA3,
    "qwen3": QWEN,
}
