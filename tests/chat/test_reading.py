"""`read_chat` reads each part of a conversation once and joins them: the same tokens, spans and
counts as reading the whole rendered text the template's way in one go."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from tests.chat.conversations import BASIC, EDGES, messages
from tokenizer.chat import READ_AS_ONE_TEXT, ROLES, TEMPLATE_OF_ENCODING

READERS = sorted(TEMPLATE_OF_ENCODING.items())  # (encoding, its template)


def read_whole(
    enc: tk.Encoding, template: str, chat: list[dict[str, str]], prompt: bool
) -> tk.Tokenized:
    """The whole rendered conversation read in one call, as the template's reference reads it."""
    rendered = tk.render_chat_parts(chat, template, prompt)
    if template in READ_AS_ONE_TEXT:
        return enc.tokenize(rendered.text, "all")
    return enc.tokenize_pieces([seg for part in rendered.parts for seg in part.segments])


@pytest.mark.parametrize(("name", "template"), READERS)
@given(data=st.data(), prompt=st.booleans())
def test_reading_by_parts_is_reading_the_whole(
    name: str, template: str, data: st.DataObject, prompt: bool
) -> None:
    chat = data.draw(messages(list(ROLES[template]), channels=template == "harmony"))
    enc = tk.chat_encoding(name, template)
    read = tk.read_chat(chat, template, enc, prompt)
    assert read.tokens == read_whole(enc, template, chat, prompt)
    count = read.count
    assert count.total == count.prefix + sum(count.per_message) + count.prompt


@pytest.mark.parametrize(("name", "template"), READERS)
@pytest.mark.parametrize("chat", [BASIC, *EDGES])
def test_fixed_conversations_read_the_same(
    name: str, template: str, chat: list[dict[str, str]]
) -> None:
    chat = [m for m in chat if m["role"] in ROLES[template]]
    enc = tk.chat_encoding(name, template)
    assert tk.read_chat(chat, template, enc).tokens == read_whole(enc, template, chat, True)
