"""The counts shown above the tokens: what a text costs, in tokens and in everything else."""

from dataclasses import dataclass, replace

from tokenizer import Tokenized


@dataclass(frozen=True)
class TextStats:
    """Sizes of one text and its tokens; ratios are None when there is nothing to divide by."""

    tokens: int
    chars: int
    utf8_bytes: int
    words: int

    @property
    def chars_per_token(self) -> float | None:
        return self.chars / self.tokens if self.tokens else None

    @property
    def bytes_per_token(self) -> float | None:
        return self.utf8_bytes / self.tokens if self.tokens else None


def text_stats(text: str, n_tokens: int) -> TextStats:
    """Count `text`. Words are runs of non-space characters, as a word counter would count them.

    >>> text_stats("héllo world", 2)
    TextStats(tokens=2, chars=11, utf8_bytes=12, words=2)
    """
    return TextStats(
        tokens=n_tokens,
        chars=len(text),
        utf8_bytes=len(text.encode("utf-8", "surrogatepass")),
        words=len(text.split()),
    )


def token_stats(tok: Tokenized) -> TextStats:
    """Count a tokenized text, its bytes from the tokens themselves.

    Ids decoded on their own may cut a character: the text then holds U+FFFD, 3 bytes, where
    the token holds its 2, and the counts would speak of bytes no token has.

    >>> import tokenizer as tk
    >>> from ui.common.tokens import tokenized_from_ids
    >>> tok = tokenized_from_ids(tk.get_encoding("gpt2"), [19526])  # 2 of the 3 bytes of 你
    >>> tok.text, token_stats(tok).utf8_bytes
    ('�', 2)
    """
    return replace(text_stats(tok.text, len(tok.ids)), utf8_bytes=sum(map(len, tok.pieces)))


def format_ratio(value: float | None) -> str:
    """Two decimals, or a dash when the ratio does not exist (no tokens yet)."""
    return "–" if value is None else f"{value:.2f}"
