"""The Chat view's conversation as data: edits, roles per template, and its form in a link."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tokenizer as tk
from ui.common.limits import MAX_CHAT_MESSAGE_CHARS, MAX_CHAT_MESSAGES
from ui.playground.conversation import (
    ALL_ROLES,
    CHANNELS,
    DEFAULT_CONVERSATION,
    Message,
    added,
    encodings_for,
    for_template,
    from_link,
    moved,
    removed,
    to_link,
    unreadable,
    with_keys,
)

THREE = with_keys([Message("system", "s"), Message("user", "u"), Message("assistant", "a")])


def test_added_keys_are_new_and_the_limit_holds() -> None:
    grown = added(THREE, "user")
    assert [m.role for m in grown] == ["system", "user", "assistant", "user"]
    assert len({m.key for m in grown}) == 4
    full = with_keys([Message("user", str(n)) for n in range(MAX_CHAT_MESSAGES)])
    assert added(full, "user") == full


def test_moves_keep_each_message_with_its_key() -> None:
    down = moved(THREE, 0, 1)
    assert [(m.role, m.key) for m in down] == [("user", 1), ("system", 0), ("assistant", 2)]
    assert moved(THREE, 2, 1) == THREE  # the last one cannot go down
    assert [m.key for m in removed(THREE, 1)] == [0, 2]


def test_roles_fit_each_template() -> None:
    messages = [Message("developer", "d"), Message("assistant", "a", "final")]
    assert for_template(messages, "chatml") == [
        {"role": "developer", "content": "d"},
        {"role": "assistant", "content": "a"},  # a channel is harmony's alone
    ]
    assert for_template(messages, "llama3")[0]["role"] == "system"
    assert for_template(messages, "harmony")[1] == {
        "role": "assistant",
        "content": "a",
        "channel": "final",
    }
    for template in tk.TEMPLATES:  # whatever the roles, the core renders it
        tk.render_chat(for_template([Message(r, "x") for r in ALL_ROLES], template), template)


def test_encodings_that_can_count_each_template() -> None:
    names = ["gpt2", "r50k_base", "cl100k_base", "o200k_base", "o200k_harmony", "llama3"]
    assert encodings_for("chatml", names) == ["cl100k_base", "o200k_base"]
    assert encodings_for("harmony", names) == ["o200k_base", "o200k_harmony"]
    assert encodings_for("llama3", names) == ["llama3"]
    assert encodings_for("qwen3", ["gpt2"]) == []


def test_the_unreadable_message_quotes_names_and_gives_a_next_step() -> None:
    said = unreadable("**bold** [x](javascript:y)", [], "harmony", [])
    assert said.startswith("`**bold** [x](javascript:y)` has no ids")
    assert "`<|start|>`, `<|message|>`, `<|end|>` and `<|channel|>`" in said
    assert "Next: pick another template" in said


messages = st.lists(
    st.builds(
        Message,
        st.sampled_from(ALL_ROLES),
        st.text(max_size=40),
        st.sampled_from(CHANNELS),
    ),
    min_size=1,
    max_size=8,
)


@given(messages)
def test_a_link_gives_back_the_conversation(conversation: list[Message]) -> None:
    assert from_link(to_link(conversation)) == tuple(conversation)


def test_a_conversation_with_no_message_is_a_link_too() -> None:
    """Removing every message is allowed; its link must open again."""
    assert from_link(to_link([])) == ()


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("not json", "not a conversation"),
        ('{"role": "user"}', "not a conversation"),
        ('[["user"]]', "message 1 is not [role, content]"),
        ('[["user", 3]]', "message 1 is not [role, content]"),
        ('[["user", "a"], ["`tick`", "b"]]', "message 2 has no role `` `tick` ``"),
        ('[["assistant", "a", "loud"]]', "message 1 has no channel `loud`"),
        (f'[["user", "{"x" * (MAX_CHAT_MESSAGE_CHARS + 1)}"]]', "at most 20,000"),
        ("[" + ",".join(['["user","x"]'] * (MAX_CHAT_MESSAGES + 1)) + "]", "at most 50"),
        ("[" * 5_000, "not a conversation"),  # past Python's stack: once a traceback
    ],
)
def test_a_bad_link_says_why(raw: str, reason: str) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        from_link(raw)


def test_the_default_conversation_is_short_and_valid() -> None:
    assert from_link(to_link(DEFAULT_CONVERSATION)) == DEFAULT_CONVERSATION
    assert [m.key for m in DEFAULT_CONVERSATION] == [0, 1]
