"""How much of a model's context window a text fills: one table of sizes, one sentence.

The table is keyed by encoding name and model name, one row per model, each with where its size
comes from. Sizes are the tokens a model reads in one request (prompt and answer together), as
its maker publishes them; no prices, which go stale. An encoding with no row (a vocabulary
trained here) gets no sentence.
"""

from dataclasses import dataclass

from ui.common.messages import counted


@dataclass(frozen=True)
class ContextWindow:
    encoding: str  # the encoding's name, as the sidebar lists it
    model: str  # the model's name, as people write it
    tokens: int  # its context window, in tokens


WINDOWS: tuple[ContextWindow, ...] = (
    # GPT-2: "Language Models are Unsupervised Multitask Learners" (Radford et al., 2019), section
    # 2.3: the context size grows from 512 to 1,024 tokens.
    ContextWindow("gpt2", "GPT-2", 1_024),
    # GPT-3 uses r50k_base, GPT-2's vocabulary: "Language Models are Few-Shot Learners" (Brown et
    # al., 2020), section 2.1: every model has a context window of n_ctx = 2,048 tokens.
    ContextWindow("gpt2", "GPT-3", 2_048),
    ContextWindow("r50k_base", "GPT-3", 2_048),
    # OpenAI's API model page for gpt-4: a context window of 8,192 tokens.
    ContextWindow("cl100k_base", "GPT-4", 8_192),
    # OpenAI's API model page for gpt-3.5-turbo: a context window of 16,385 tokens.
    ContextWindow("cl100k_base", "GPT-3.5-turbo", 16_385),
    # OpenAI's API model page for gpt-4o: a context window of 128,000 tokens.
    ContextWindow("o200k_base", "GPT-4o", 128_000),
    # OpenAI's API model page for gpt-4.1: a context window of 1,047,576 tokens.
    ContextWindow("o200k_base", "GPT-4.1", 1_047_576),
    # OpenAI's API model page for o3: a context window of 200,000 tokens.
    ContextWindow("o200k_base", "o3", 200_000),
    # OpenAI's API model pages for gpt-oss-120b and gpt-oss-20b: a context window of 131,072.
    ContextWindow("o200k_harmony", "gpt-oss-120b", 131_072),
    ContextWindow("o200k_harmony", "gpt-oss-20b", 131_072),
    # Meta's Llama 3.1 model card: context length 128k (131,072 in its config,
    # max_position_embeddings).
    ContextWindow("llama3", "Llama 3.1", 131_072),
    # Qwen's Qwen3 model cards: 32,768 tokens natively (131,072 only with YaRN scaling switched
    # on, which is not the default).
    ContextWindow("qwen3", "Qwen3", 32_768),
)


def windows_of(encoding: str) -> tuple[ContextWindow, ...]:
    """The models known for `encoding`, in the table's order (the first is its preset).

    >>> [w.model for w in windows_of("cl100k_base")]
    ['GPT-4', 'GPT-3.5-turbo']
    """
    return tuple(w for w in WINDOWS if w.encoding == encoding)


def window(encoding: str, model: str | None = None) -> ContextWindow | None:
    """The row of `model` for `encoding`, or the encoding's first model; None if none is known."""
    rows = windows_of(encoding)
    if model is not None:
        rows = tuple(w for w in rows if w.model == model)
    return rows[0] if rows else None


def share(tokens: int, size: int) -> str:
    """`tokens` as a part of `size`, in a form that stays readable from 1 token to 10 windows.

    >>> share(44, 128_000), share(600, 1_024), share(0, 1_024), share(3_000, 2_048)
    ('0.03%', '59%', '0%', '146%')
    """
    percent = 100 * tokens / size
    if percent == 0:
        return "0%"
    if percent < 0.01:
        return "<0.01%"
    if percent < 10:
        return f"{percent:.2g}%" if percent >= 1 else f"{percent:.1g}%"
    return f"{percent:,.0f}%"


def window_sentence(tokens: int, encoding: str, model: str | None = None) -> str | None:
    """``"44 tokens — 0.03% of GPT-4o's context window (128,000)"``, or None without a model.

    >>> window_sentence(3_000, "gpt2")
    "3,000 tokens — 293% of GPT-2's context window (1,024): more than it can read at once"
    """
    row = window(encoding, model)
    if row is None:
        return None
    sentence = (
        f"{counted(tokens, 'token')} — {share(tokens, row.tokens)} of "
        f"{row.model}'s context window ({row.tokens:,})"
    )
    if tokens > row.tokens:
        sentence += ": more than it can read at once"
    return sentence
