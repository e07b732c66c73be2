"""The Chat view's conversation as data: messages, their edits, and their form in a link.

Pure (no Streamlit): the Chat view (ui/playground/chat.py) keeps a tuple of `Message`s in the
session and changes it only through these functions, which the unit tests check one by one.
A message carries a `key` that never changes while it lives, so its widgets (keyed by it) follow
it when it moves up or down, rather than staying at their place with another message's text.
"""

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from tokenizer.chat import ADDED_SPECIALS, ROLES, TEMPLATE_SPECIALS, TEMPLATES, template_for
from tokenizer.encoding import repair_surrogates
from ui.common.limits import MAX_CHAT_MESSAGE_CHARS, MAX_CHAT_MESSAGES
from ui.common.messages import inline_code

# Every role any template writes, in the order the role menus offer them.
ALL_ROLES: tuple[str, ...] = tuple(dict.fromkeys(role for t in TEMPLATES for role in ROLES[t]))
# Harmony's channels for assistant turns ("" for none): reasoning, tool preambles, the answer.
CHANNELS: tuple[str, ...] = ("", "analysis", "commentary", "final")


@dataclass(frozen=True)
class Message:
    """One message as the user edits it; `channel` is used by harmony assistant turns only."""

    role: str
    content: str
    channel: str = ""
    key: int = field(default=0, compare=False)  # names its widgets; not part of its value


DEFAULT_CONVERSATION: tuple[Message, ...] = (
    Message("system", "You are a helpful assistant.", key=0),
    Message("user", "How many tokens is “hello world”?", key=1),
)


def next_key(messages: Sequence[Message]) -> int:
    """A key no message holds.

    >>> next_key(DEFAULT_CONVERSATION), next_key(())
    (2, 0)
    """
    return max((m.key for m in messages), default=-1) + 1


def with_keys(messages: Iterable[Message], first: int = 0) -> tuple[Message, ...]:
    """The messages keyed `first`, `first + 1`, … (for messages read from a link)."""
    return tuple(replace(m, key=first + n) for n, m in enumerate(messages))


def added(messages: Sequence[Message], role: str) -> tuple[Message, ...]:
    """An empty message of `role` at the end, unless the conversation is full.

    >>> [m.role for m in added(DEFAULT_CONVERSATION, "assistant")]
    ['system', 'user', 'assistant']
    """
    if len(messages) >= MAX_CHAT_MESSAGES:
        return tuple(messages)
    return (*messages, Message(role, "", key=next_key(messages)))


def removed(messages: Sequence[Message], index: int) -> tuple[Message, ...]:
    """Without the message at `index`."""
    return tuple(m for n, m in enumerate(messages) if n != index)


def moved(messages: Sequence[Message], index: int, step: int) -> tuple[Message, ...]:
    """The message at `index` swapped with its neighbour `step` (-1 up, +1 down), if there is one.

    >>> [m.role for m in moved(DEFAULT_CONVERSATION, 1, -1)]
    ['user', 'system']
    >>> moved(DEFAULT_CONVERSATION, 0, -1) == DEFAULT_CONVERSATION
    True
    """
    other = index + step
    if not (0 <= index < len(messages) and 0 <= other < len(messages)):
        return tuple(messages)
    order = list(messages)
    order[index], order[other] = order[other], order[index]
    return tuple(order)


def fit_role(role: str, template: str) -> str:
    """`role` if `template` has it; otherwise ``system``, which every template has.

    Only ``developer`` can be missing (llama3 and qwen3 have none); its instructions are a
    system prompt's in every template that lacks it.

    >>> fit_role("developer", "llama3"), fit_role("developer", "chatml")
    ('system', 'developer')
    """
    return role if role in ROLES[template] else "system"


def for_template(messages: Sequence[Message], template: str) -> list[dict[str, str]]:
    """The messages as `tokenizer.render_chat` takes them for `template`: roles it has, and a
    channel only on harmony's assistant turns that name one.

    >>> for_template([Message("developer", "Be brief.")], "qwen3")
    [{'role': 'system', 'content': 'Be brief.'}]
    >>> for_template([Message("assistant", "4", "final")], "harmony")
    [{'role': 'assistant', 'content': '4', 'channel': 'final'}]
    """
    chat = []
    for m in messages:
        message = {"role": fit_role(m.role, template), "content": m.content}
        if template == "harmony" and m.role == "assistant" and m.channel:
            message["channel"] = m.channel
        chat.append(message)
    return chat


def encodings_for(template: str, names: Iterable[str]) -> list[str]:
    """Which of the encodings `names` can count a `template` chat: those whose models use it,
    and the bases the core extends with its special tokens (ChatML ids for cl100k_base).

    >>> encodings_for("chatml", ["gpt2", "cl100k_base", "o200k_base"])
    ['cl100k_base', 'o200k_base']
    >>> encodings_for("harmony", ["gpt2", "cl100k_base", "o200k_base"])
    ['o200k_base']
    """
    return [n for n in names if template_for(n) == template or (n, template) in ADDED_SPECIALS]


def unreadable(
    enc_name: str, specials: Iterable[str], template: str, choices: Sequence[str]
) -> str:
    """Why an encoding cannot count a `template` chat, and what to do instead (Markdown, with
    every name quoted: a trained vocabulary's name is user text).

    >>> said = unreadable("gpt2", ["<|endoftext|>"], "chatml", ["cl100k_base", "o200k_base"])
    >>> said.split(", so")[0]
    "`gpt2` has no ids for the chatml template's special tokens `<|im_start|>` and `<|im_end|>`"
    >>> said.split("Next: ")[1]
    'pick `cl100k_base` or `o200k_base` in the sidebar, whose models read chatml.'
    """
    missing = [inline_code(s, 40) for s in TEMPLATE_SPECIALS[template] if s not in specials]
    if choices:
        listed = _joined([inline_code(c, 40) for c in choices], "or")
        step = f"pick {listed} in the sidebar, whose models read {template}"
    else:
        step = "pick another template, or in the sidebar an encoding whose models read this one"
    return (
        f"{inline_code(enc_name, 40)} has no ids for the {template} template's special tokens "
        f"{_joined(missing, 'and')}, so it cannot read this conversation as a chat model does "
        f"(the text it would read is below). Next: {step}."
    )


def _joined(items: Sequence[str], word: str) -> str:
    """``a, b and c``.

    >>> _joined(["a"], "or"), _joined(["a", "b", "c"], "or")
    ('a', 'a, b or c')
    """
    return f"{', '.join(items[:-1])} {word} {items[-1]}" if len(items) > 1 else "".join(items)


# ---- the conversation in a link: ?chat=[["system","You are…"],["assistant","4","final"]] ----


def to_link(messages: Sequence[Message]) -> str:
    """Compact JSON: one ``[role, content]`` list per message, ``[role, content, channel]``
    when it has a channel.

    >>> to_link([Message("user", "Hi"), Message("assistant", "Hello", "final")])
    '[["user","Hi"],["assistant","Hello","final"]]'
    """
    rows = [[m.role, m.content, *([m.channel] if m.channel else [])] for m in messages]
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":"))


def from_link(raw: str) -> tuple[Message, ...]:
    """The messages of `to_link`'s text; ValueError with a short reason for anything else.

    >>> from_link('[["user","Hi"]]')
    (Message(role='user', content='Hi', channel='', key=0),)
    >>> from_link('[["robot","Hi"]]')
    Traceback (most recent call last):
    ...
    ValueError: message 1 has no role `robot` (roles: system, developer, user, assistant)
    """
    try:
        rows = json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested past Python's stack
        raise ValueError("not a conversation (a JSON list of [role, content])") from None
    if not isinstance(rows, list):  # [] too: the page allows a conversation with no message
        raise ValueError("not a conversation (a JSON list of [role, content])")
    if len(rows) > MAX_CHAT_MESSAGES:
        raise ValueError(f"{len(rows)} messages; a conversation holds at most {MAX_CHAT_MESSAGES}")
    return with_keys(_message(n, row) for n, row in enumerate(rows, start=1))


def _message(n: int, row: object) -> Message:
    """Message `n` (counted from 1, as the view numbers them) of a link, checked; what the
    link says is quoted in the reason, which the page shows as Markdown."""
    if not (isinstance(row, list) and 2 <= len(row) <= 3 and all(isinstance(x, str) for x in row)):
        raise ValueError(f"message {n} is not [role, content] or [role, content, channel]")
    # JSON can spell a lone surrogate (``"\\ud800"``), which no page can send on: U+FFFD, as
    # the core makes of one in text.
    role, content, channel = map(repair_surrogates, (*row, "") if len(row) == 2 else row)
    if role not in ALL_ROLES:
        roles = ", ".join(ALL_ROLES)
        raise ValueError(f"message {n} has no role {inline_code(role)} (roles: {roles})")
    if channel not in CHANNELS:
        channels = ", ".join(c for c in CHANNELS if c)
        quoted = inline_code(channel)
        raise ValueError(f"message {n} has no channel {quoted} (channels: {channels})")
    if len(content) > MAX_CHAT_MESSAGE_CHARS:
        raise ValueError(
            f"message {n} has {len(content):,} characters; a message holds at most "
            f"{MAX_CHAT_MESSAGE_CHARS:,}"
        )
    return Message(role, content, channel)
