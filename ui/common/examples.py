"""Short texts for the playground's Examples menu, each showing one classic tokenizer effect.

The examples are written with GPT's ``<|endoftext|>``; `for_encoding` swaps in the document
boundary of the encoding on show (Llama 3 has no ``<|endoftext|>`` but ``<|end_of_text|>``), so
the special-tokens example shows a special token in every bundled encoding.
"""

from tokenizer import Encoding

# The special token that ends a document, by the names vocabularies give it, most common first.
DOCUMENT_ENDS = ("<|endoftext|>", "<|end_of_text|>")

# Shown when the playground opens with no text in the link.
DEFAULT_TEXT = (
    "Byte-level BPE turns text into tokens.\n"
    "Try numbers (1234567), naïve café, 你好世界, emoji 👋🏽 and    extra spaces."
)

EXAMPLES: dict[str, str] = {
    "Numbers": (
        "12345 + 678 = 13023\n3.14159265358979\n1,000,000 vs 1000000\n"
        "Call 555-0100 before 2024-12-31."
    ),
    "Code indentation": (
        "def fizzbuzz(n):\n"
        "    for i in range(1, n + 1):\n"
        "        if i % 15 == 0:\n"
        '            print("FizzBuzz")\n'
        "        elif i % 3 == 0:\n"
        '            print("Fizz")\n'
        "        else:\n"
        "            print(i)\n"
    ),
    "Non-English text": (
        "Hello, world!\nBonjour le monde !\nПривет, мир!\nこんにちは世界\n你好，世界\n"
        "नमस्ते दुनिया\nمرحبا بالعالم\n안녕하세요 세계"
    ),
    "Emoji": "Hi 👋 👋🏽 ❤️ 🇫🇷 👨‍👩‍👧‍👦 🤖✨",
    "SolidGoldMagikarp": (
        " SolidGoldMagikarp\n petertodd\n davidjl\n TheNitromeFan\n"
        "Whole tokens that GPT-2 almost never saw in training."
    ),
    "Trailing spaces": "hello world\nhello world \nhello world  \n    hello world\n\thello world",
    "Capital letters": "hello Hello HELLO hELLO\nthe The THE",
    "Special tokens": "First document.<|endoftext|>Second document.",
}


def document_end(enc: Encoding) -> str | None:
    """The special token `enc` ends a document with; else its first special token; else None.

    tiktoken's ``eot_token`` raises KeyError for an encoding without ``<|endoftext|>``, so pages
    ask this instead of assuming GPT's name.

    >>> import tokenizer as tk
    >>> document_end(tk.get_encoding("gpt2")), document_end(tk.get_encoding("llama3"))
    ('<|endoftext|>', '<|end_of_text|>')
    """
    specials = enc.special_tokens
    named = next((name for name in DOCUMENT_ENDS if name in specials), None)
    return named or min(specials, key=specials.__getitem__, default=None)


def for_encoding(text: str, enc: Encoding) -> str:
    """`text` with GPT's ``<|endoftext|>`` as `enc`'s own document end (unchanged if it has none).

    >>> import tokenizer as tk
    >>> for_encoding(EXAMPLES["Special tokens"], tk.get_encoding("llama3"))
    'First document.<|end_of_text|>Second document.'
    """
    end = document_end(enc)
    return text if end is None else text.replace(DOCUMENT_ENDS[0], end)
