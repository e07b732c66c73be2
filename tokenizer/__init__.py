"""BPE Lens's pure-Python byte-level BPE core: exact GPT-2, cl100k_base and o200k_base.

`import tokenizer` needs only `regex`; loading an encoding imports its data package.

>>> import tokenizer as tk
>>> tk.get_encoding("gpt2").encode("hello world")
[31373, 995]
"""

from tokenizer.bpe import ChunkTrace, MergeStep
from tokenizer.encoding import Encoding, Tokenized
from tokenizer.loaders import MODELS, EncodingUnavailableError, get_encoding, list_encodings
from tokenizer.patterns import PATTERNS
from tokenizer.symbols import bytes_to_symbols, gpt2_byte_symbols
from tokenizer.train import train

__all__ = [
    "MODELS",
    "PATTERNS",
    "ChunkTrace",
    "Encoding",
    "EncodingUnavailableError",
    "MergeStep",
    "Tokenized",
    "bytes_to_symbols",
    "get_encoding",
    "gpt2_byte_symbols",
    "list_encodings",
    "train",
]
