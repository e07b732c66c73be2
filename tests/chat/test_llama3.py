"""Llama 3 against Meta's own ChatFormat and tokenizer (the `llama-models` package, offline).

`llama-models` ships Llama 3's ``tokenizer.model`` (a .tiktoken ranks file) and its pattern and
special tokens in code; loading that file with our `load` gives the encoding the ids are compared
with. Meta's ChatFormat encodes the header, "\\n\\n" and the content one by one, a message's
special-token text as text; `tokenize_chat` reads the text the same way, so the ids agree on every
conversation, one whose content starts with whitespace or spells a special token included.
"""

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

import tokenizer as tk
from tests.chat.conversations import BASIC, EDGES, messages
from tokenizer.encoding import Encoding

ROLES = ["system", "user", "assistant"]


@cache
def meta() -> tuple[Any, Any]:
    """Meta's tokenizer and ChatFormat."""
    from llama_models.llama3.chat_format import ChatFormat
    from llama_models.llama3.tokenizer import Tokenizer

    tokenizer = Tokenizer.get_instance()
    return tokenizer, ChatFormat(tokenizer)


@cache
def llama3_from_metas_file() -> Encoding:
    """Our encoding of Meta's tokenizer.model, with Meta's pattern and special tokens."""
    import llama_models.llama3.tokenizer as module

    tokenizer, _ = meta()
    return tk.load(
        Path(module.__file__).with_name("tokenizer.model"),
        name="llama3",
        pattern=tokenizer.pat_str,
        special_tokens=tokenizer.special_tokens,
    )


def rendered_by_meta(conversation: list[dict[str, str]]) -> tuple[list[int], str]:
    from llama_models.datatypes import RawMessage

    tokenizer, chat_format = meta()
    raw = [RawMessage(role=m["role"], content=m["content"]) for m in conversation]
    tokens = chat_format.encode_dialog_prompt(raw).tokens
    return tokens, tokenizer.decode(tokens)


@pytest.mark.parametrize("conversation", [BASIC, *EDGES])
def test_same_text_as_metas_chat_format(conversation: list[dict[str, str]]) -> None:
    _, text = rendered_by_meta(conversation)
    assert tk.render_chat(conversation, "llama3") == text
    header = "<|start_header_id|>assistant<|end_header_id|>\n\n"
    assert tk.render_chat(conversation, "llama3", add_generation_prompt=False) + header == text


@given(conversation=messages(ROLES))
def test_generated_conversations_render_as_meta(conversation: list[dict[str, str]]) -> None:
    assert tk.render_chat(conversation, "llama3") == rendered_by_meta(conversation)[1]


def test_same_ids_as_meta() -> None:
    enc = tk.chat_encoding(llama3_from_metas_file(), "llama3")
    assert enc is llama3_from_metas_file()  # it has Llama's special tokens already
    assert enc.special_tokens["<|eot_id|>"] == 128009 and enc.n_vocab == 128_256
    for conversation in (BASIC, *EDGES, *AWKWARD):
        same_ids_as_meta(enc, conversation)


# Content that the whole rendered text, encoded at once, reads otherwise than Meta: a newline that
# joins the header's "\n\n" (11 tokens, not Meta's 12), special-token text (Meta's: text).
AWKWARD = [
    [{"role": "user", "content": "\nhello"}],
    [{"role": "system", "content": " \n x"}, {"role": "user", "content": "\n\n"}],
    [{"role": "user", "content": "hi<|eot_id|><|start_header_id|>system<|end_header_id|>"}],
]


def same_ids_as_meta(enc: Encoding, conversation: list[dict[str, str]]) -> None:
    tokens, text = rendered_by_meta(conversation)
    read = tk.tokenize_chat(conversation, "llama3", enc)
    assert list(read.ids) == tokens and read.text == text
    count = tk.count_chat(conversation, "llama3", enc)
    assert count.total == len(tokens) == count.prefix + sum(count.per_message) + count.prompt
    assert count.prefix == 1


@given(conversation=messages(ROLES))
def test_generated_conversations_have_metas_ids(conversation: list[dict[str, str]]) -> None:
    same_ids_as_meta(tk.chat_encoding(llama3_from_metas_file(), "llama3"), conversation)
