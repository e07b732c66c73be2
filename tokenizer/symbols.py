"""GPT-2's printable stand-ins for raw bytes (`Ġ` for a space, `Ċ` for a newline).

GPT-2's files store tokens as text, so every byte needs a visible, non-whitespace character. Bytes
that are already printable Latin-1 characters stand for themselves; the other 68 bytes are mapped,
in byte order, to the code points from U+0100 upwards.
"""

from functools import cache


@cache
def gpt2_byte_symbols() -> dict[int, str]:
    """Map each byte to GPT-2's symbol for it: ``gpt2_byte_symbols()[0x20] == "Ġ"``."""
    printable = [
        b
        for b in range(256)
        if ord("!") <= b <= ord("~") or ord("¡") <= b <= ord("¬") or ord("®") <= b <= ord("ÿ")
    ]
    symbols = {b: chr(b) for b in printable}
    others = [b for b in range(256) if b not in symbols]
    symbols.update({b: chr(256 + n) for n, b in enumerate(others)})
    return symbols


@cache
def gpt2_symbol_bytes() -> dict[str, int]:
    """The inverse of `gpt2_byte_symbols`: ``gpt2_symbol_bytes()["Ġ"] == 0x20``."""
    return {symbol: byte for byte, symbol in gpt2_byte_symbols().items()}


def bytes_to_symbols(data: bytes) -> str:
    """Write bytes in GPT-2's symbols: ``bytes_to_symbols(b" the") == "Ġthe"``."""
    table = gpt2_byte_symbols()
    return "".join(table[b] for b in data)


def symbols_to_bytes(text: str) -> bytes:
    """Read GPT-2's symbols back to bytes; a character outside the table raises KeyError."""
    table = gpt2_symbol_bytes()
    return bytes(table[ch] for ch in text)
