"""BPE Lens's pure-Python byte-level BPE core: a drop-in for `tiktoken`, with traces and training.

Also vocabulary files in and out (`load`, `save`: Hugging Face, tiktoken, GPT-2, bundle) and chat
templates (`render_chat`, `read_chat`, `count_chat`, `tokenize_chat`).

`import tokenizer` needs only `regex`; loading an encoding imports its data package.

>>> import tokenizer as tk
>>> enc = tk.get_encoding("gpt2")
>>> enc.encode("hello world"), enc.decode([31373, 995])
([31373, 995], 'hello world')
>>> tk.encoding_for_model("gpt-4o").name
'o200k_base'
"""

__version__ = "0.1.0"  # the project's version, as in pyproject.toml (a test keeps them equal)

from tokenizer.bpe import ChunkTrace, MergeStep
from tokenizer.cache import DEFAULT_CACHE_BYTES, ChunkCache
from tokenizer.chat import (
    TEMPLATES,
    ChatCount,
    ChatReading,
    ChatTemplateError,
    chat_encoding,
    count_chat,
    read_chat,
    render_chat,
    render_chat_parts,
    template_for,
    tokenize_chat,
)
from tokenizer.encoding import Encoding, Tokenized
from tokenizer.files import SAVE_FORMATS, dump, load, load_files, save
from tokenizer.formats import FormatError
from tokenizer.frozen_regex import PatternError, compile_pattern
from tokenizer.loaders import (
    FAMILIES,
    MODELS,
    EncodingUnavailableError,
    get_encoding,
    list_encoding_names,
    list_encodings,
)
from tokenizer.models import encoding_for_model, encoding_name_for_model
from tokenizer.normalize import Normalizer
from tokenizer.patterns import PATTERNS
from tokenizer.splitter import MATCH_TIMEOUT_S, PatternTimeoutError
from tokenizer.symbols import bytes_to_symbols, gpt2_byte_symbols
from tokenizer.train import train
from tokenizer.unicode_tables import DEFAULT_UNICODE

__all__ = [
    "DEFAULT_CACHE_BYTES",
    "DEFAULT_UNICODE",
    "FAMILIES",
    "MATCH_TIMEOUT_S",
    "MODELS",
    "PATTERNS",
    "SAVE_FORMATS",
    "TEMPLATES",
    "ChatCount",
    "ChatReading",
    "ChatTemplateError",
    "ChunkCache",
    "ChunkTrace",
    "Encoding",
    "EncodingUnavailableError",
    "FormatError",
    "MergeStep",
    "Normalizer",
    "PatternError",
    "PatternTimeoutError",
    "Tokenized",
    "__version__",
    "bytes_to_symbols",
    "chat_encoding",
    "compile_pattern",
    "count_chat",
    "dump",
    "encoding_for_model",
    "encoding_name_for_model",
    "get_encoding",
    "gpt2_byte_symbols",
    "list_encoding_names",
    "list_encodings",
    "load",
    "load_files",
    "read_chat",
    "render_chat",
    "render_chat_parts",
    "save",
    "template_for",
    "tokenize_chat",
    "train",
]
