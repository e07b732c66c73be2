"""The Playground's Chat view: a conversation edited message by message, rendered with a chat
template, and the tokens a chat model really reads — its template's special tokens included.

The page calls, in order: `conversation` (the state: messages, template, prompt), `rendered`
(the one core call, cached by content), then `editor` (left) and `result` (right). The tokens are
the Playground's own token view (`panels.token_pane`); the counts are `panels.counts` over the
whole rendered text, and each message's card shows its own count (`tokenizer.read_chat`).

State (ui/playground/state.py): the conversation is one tuple of `Message`s in the session, kept
while the user is in another mode or on another page, and in the link as ``?chat=``. Each
message's widgets are keyed by the message's `key`, so they move with it; the session's tuple
takes their values at the start of every run (`conversation`), which is why any callback may
reorder or remove messages without losing what the user just typed.
"""

import sys
from dataclasses import dataclass, replace

import streamlit as st

import tokenizer as tk
from tokenizer import ChatCount, ChatTemplateError, Encoding, Tokenized
from tokenizer.chat import READ_AS_ONE_TEXT, ROLES
from ui.common import cache, registry
from ui.common.capped import capped
from ui.common.copy_button import copy_text_button, link_leaves_out
from ui.common.focus import focus_once
from ui.common.limits import MAX_CHAT_MESSAGE_CHARS, MAX_CHAT_MESSAGES
from ui.common.messages import counted, inline_code, quote_some
from ui.common.registry import vocab_key
from ui.common.state import key_class, publish_fitting, seed_following_default
from ui.common.tokens import special_texts_in
from ui.playground import panels
from ui.playground.conversation import (
    CHANNELS,
    Message,
    added,
    encodings_for,
    fit_role,
    for_template,
    moved,
    removed,
    unreadable,
    with_keys,
)
from ui.playground.state import CHAT, CHAT_FOCUS, IDS, PROMPT, TEMPLATE, TEXT

# Who renders each template that reads a message's text as text, for the note that says so.
READERS = {"harmony": "openai-harmony", "llama3": "Meta's ChatFormat"}

ADD_ROW = "playground-chat-add"  # the key of the row of add buttons


@dataclass(frozen=True)
class Conversation:
    """What the Chat view's state asks for in this run."""

    messages: tuple[Message, ...]
    template: str
    own_template: str | None  # the template of the encoding's models, if it has one
    prompt: bool  # end with the assistant's generation prompt
    in_link: bool = True  # False: too long for the address bar, which keeps the settings only


@dataclass(frozen=True)
class Counted:
    """The rendered conversation read by an encoding that knows its template's special tokens."""

    enc: Encoding  # the picked encoding, or a base with the template's specials added
    tokens: Tokenized
    count: ChatCount


@dataclass(frozen=True)
class RenderedView:
    """The one core call's result: the text, and its tokens when the encoding can read it."""

    text: str
    counted: Counted | None  # None: the encoding has no ids for the template's special tokens
    error: str = ""  # the core refused the conversation itself (not expected: roles are fitted)


# ---- state --------------------------------------------------------------------------------------


_PARTS = ("role", "content", "channel")  # of a message, each a widget


def _widget_key(part: str, message: Message) -> str:
    """``playground.chat.content.3``: the widget of `part` of the message keyed 3."""
    return f"{CHAT.key}.{part}.{message.key}"


def _current_messages() -> tuple[Message, ...]:
    """The session's conversation with what its widgets hold now (typed since the last run)."""
    messages = []
    for m in CHAT.value:
        typed = {
            part: st.session_state[_widget_key(part, m)]
            for part in _PARTS
            if isinstance(st.session_state.get(_widget_key(part, m)), str)
        }
        messages.append(replace(m, **typed))
    return tuple(messages)


def _unused_keys_from() -> int:
    """The first message key above every message widget's in the session.

    Messages read from a link anew (Back or Forward) get keys from there, so their widgets are
    new ones that show them. The browser sends the widgets of the conversation on show with the
    run: keyed from 0 again, the link's messages got those widgets' values, and the browser
    kept showing them (Back after a removal showed a message twice and lost another).
    """
    widgets = [str(k) for k in st.session_state if str(k).startswith(f"{CHAT.key}.")]
    ends = [key.rpartition(".")[2] for key in widgets]  # playground.chat.content.3 -> 3
    return max((int(end) for end in ends if end.isdigit()), default=-1) + 1


def conversation(enc: Encoding) -> Conversation:
    """Read the Chat view's state (from the link on a session's first run) and put it in the
    link. The template follows the encoding's own until the user picks another."""
    from_link = CHAT.key not in st.session_state  # the first run, Back or Forward
    CHAT.seed()
    if from_link:
        CHAT.set(with_keys(CHAT.value, first=_unused_keys_from()))
    messages = _current_messages()
    CHAT.set(messages)
    own = tk.template_for(enc.name)
    template = seed_following_default(TEMPLATE, own or TEMPLATE.default)
    prompt = PROMPT.seed()
    in_link = publish_fitting(CHAT, messages)
    TEMPLATE.publish(default=own or TEMPLATE.default)
    PROMPT.publish()
    TEXT.forget()  # the other modes' boxes keep their texts in the session meanwhile
    IDS.forget()
    return Conversation(messages, template, own, prompt, in_link)


# ---- the core call ------------------------------------------------------------------------------


def rendered(enc: Encoding, talk: Conversation) -> RenderedView:
    """The conversation rendered with its template and counted, cached by content (the
    vocabulary's key, the template, the messages, the prompt) for every session."""
    chat = for_template(talk.messages, talk.template)
    key = (
        "chat",
        vocab_key(enc),
        talk.template,
        tuple(tuple(m.items()) for m in chat),
        talk.prompt,
    )

    def compute() -> RenderedView:
        try:
            text = tk.render_chat(chat, talk.template, talk.prompt)
        except ChatTemplateError as exc:
            return RenderedView("", None, str(exc))
        try:
            reader = tk.chat_encoding(enc, talk.template)
        except ChatTemplateError:  # no ids for the template's special tokens: `result` says so
            return RenderedView(text, None)
        read = tk.read_chat(chat, talk.template, reader, talk.prompt)
        return RenderedView(text, Counted(reader, read.tokens, read.count))

    def size(view: RenderedView) -> int:
        # About 300 bytes a token, as `ui.common.tokens` reckons a `Tokenized`.
        held = 0 if view.counted is None else 300 * len(view.counted.tokens.ids)
        return sys.getsizeof(view.text) + held

    return cache.derived(key, compute, size)


# ---- drawing: the editor (left) -----------------------------------------------------------------


def _keep_edits() -> None:
    """A message widget's callback: take its new value into the conversation at once, as the
    run it starts may be another mode's or page's, after which Streamlit forgets the widget."""
    CHAT.set(_current_messages())


def _index(key: int) -> int:
    """Where the message keyed `key` is now (callbacks name messages by key, not by place)."""
    return next(n for n, m in enumerate(_current_messages()) if m.key == key)


def _add(role: str) -> None:
    """Add button callback: a message of `role` at the end, its text box to be focused."""
    before = _current_messages()
    after = added(before, role)
    CHAT.set(after)
    if len(after) > len(before):
        _focus_next(_widget_key("content", after[-1]), "textarea")


def _remove(key: int) -> None:
    """Remove button callback; the focus goes to the remove button now in its place (or the
    last message's, or the first add button): left on the page's body, the next Tab started
    over at the top."""
    index = _index(key)
    after = removed(_current_messages(), index)
    CHAT.set(after)
    if after:
        _focus_next(_widget_key("remove", after[min(index, len(after) - 1)]), "button")
    else:
        _focus_next(ADD_ROW, "button")  # the first


def _move(key: int, step: int) -> None:
    """Move button callback; the focus stays on the moved message's button of the same way,
    or its other one once it reaches the end (that one is disabled there)."""
    index = _index(key)
    after = moved(_current_messages(), index, step)
    CHAT.set(after)
    now = index + step if after[index].key != key else index
    at_end = now == 0 if step < 0 else now == len(after) - 1
    way = (("up", "down") if step < 0 else ("down", "up"))[at_end]
    if len(after) > 1:
        _focus_next(_widget_key(way, after[now]), "button")


def _focus_next(key: str, element: str) -> None:
    """Have the next run focus the `element` ("button", "textarea") of the widget keyed `key`."""
    st.session_state[CHAT_FOCUS] = f".{key_class(key)} {element}"


def editor(talk: Conversation, view: RenderedView) -> None:
    """The template and prompt row, each message's card, and the buttons that add one."""
    row = st.container(horizontal=True, vertical_alignment="center", key="playground-chat-head")
    row.selectbox(
        "Template",
        tk.TEMPLATES,
        index=tk.TEMPLATES.index(talk.template),
        format_func="Template: {}".format,
        key=TEMPLATE.key,
        label_visibility="collapsed",
        help="How the conversation is written out for the model, special tokens included. "
        "An encoding whose models have a template starts with theirs (the default).",
    )
    row.toggle(
        "Generation prompt",
        talk.prompt,
        key=PROMPT.key,
        help="Add the generation prompt: end with the start of the assistant's turn, as a chat "
        "app does to ask the model for its answer.",
    )
    per_message = view.counted.count.per_message if view.counted is not None else None
    with st.container(key="playground-chat-messages", gap="small"):
        for n, message in enumerate(talk.messages):
            tokens = per_message[n] if per_message is not None else None
            _card(n, message, talk, tokens)
        _add_row(talk)
    if not talk.in_link:
        link_leaves_out("conversation")


def _card(n: int, message: Message, talk: Conversation, tokens: int | None) -> None:
    """One message: its role (and harmony channel), its count, move and remove, its content.

    Each widget has what the message holds as its default, not only in the session: back from
    another mode, the browser can send a box's value from before while drawing the box anew
    with none of its own, and it then shows the default. With "" as default a text typed just
    before leaving showed an empty box on return, though the link still had it.
    """
    card = st.container(border=True, key=f"playground-chat-message-{message.key}", gap="small")
    head = card.container(horizontal=True, vertical_alignment="center", gap="small")
    known = ROLES[talk.template]
    roles = [*known, *([message.role] if message.role not in known else [])]
    head.selectbox(
        f"Role of message {n + 1}",
        roles,
        index=roles.index(message.role),
        key=_widget_key("role", message),
        on_change=_keep_edits,
        label_visibility="collapsed",
        width=130,
    )
    if talk.template == "harmony" and message.role == "assistant":
        head.selectbox(
            f"Channel of message {n + 1}",
            CHANNELS,
            index=CHANNELS.index(message.channel),
            format_func=lambda channel: channel or "no channel",
            key=_widget_key("channel", message),
            on_change=_keep_edits,
            label_visibility="collapsed",
            width=140,
        )
    if tokens is not None:
        head.caption("not in the rendered text" if tokens == 0 else counted(tokens, "token"))
    last = len(talk.messages) - 1
    for icon, name, step, off in (
        (":material/arrow_upward:", "up", -1, n == 0),
        (":material/arrow_downward:", "down", 1, n == last),
    ):
        head.button(
            f"Move message {n + 1} {name}",  # its name for a screen reader; only the icon shows
            icon=icon,
            key=_widget_key(name, message),
            help=f"Move message {n + 1} {name}",
            on_click=_move,
            args=(message.key, step),
            disabled=off,
            type="tertiary",
        )
    head.button(
        f"Remove message {n + 1}",
        icon=":material/close:",
        key=_widget_key("remove", message),
        help=f"Remove message {n + 1}",
        on_click=_remove,
        args=(message.key,),
        type="tertiary",
    )
    card.text_area(
        f"Content of message {n + 1}",
        message.content,
        key=_widget_key("content", message),
        on_change=capped(_widget_key("content", message), MAX_CHAT_MESSAGE_CHARS, _keep_edits),
        placeholder=f"What the {message.role} says… (Ctrl+Enter to apply)",
        label_visibility="collapsed",
        height=68,
    )
    fitted = fit_role(message.role, talk.template)
    if fitted != message.role:
        card.caption(
            f"The {talk.template} template has no {message.role} role: written as {fitted}."
        )
    if tokens == 0:
        card.caption(
            "Harmony leaves out reasoning (the analysis channel) before the first final answer "
            "once the last assistant message is final."
        )


def _add_row(talk: Conversation) -> None:
    """One button per role the template has; at the limit, a sentence naming it."""
    full = len(talk.messages) >= MAX_CHAT_MESSAGES
    row = st.container(horizontal=True, vertical_alignment="center", key=ADD_ROW)
    for role in ROLES[talk.template]:
        row.button(
            f"Add {role}",  # its name for a screen reader too ("+ system" was read "system")
            type="tertiary",
            key=f"{CHAT.key}.add.{role}",
            help=f"Add {'an' if role == 'assistant' else 'a'} {role} message at the end",
            on_click=_add,
            args=(role,),
            disabled=full,
        )
    if full:
        row.caption(f"A conversation holds at most {MAX_CHAT_MESSAGES} messages.")
    selector = st.session_state.pop(CHAT_FOCUS, None)
    if selector is not None:
        focus_once(selector, key=f"{CHAT_FOCUS}_script")


# ---- drawing: the result (right) ----------------------------------------------------------------


def result(enc: Encoding, talk: Conversation, view: RenderedView, chosen: panels.Settings) -> None:
    """The counts, the context window, the rendered text's tokens and a copy button; or why this
    encoding cannot read the conversation, and its text as the template writes it."""
    if view.error:
        st.error(f"This conversation cannot be rendered: {inline_code(view.error, 200)}")
        return
    counted = view.counted
    if counted is None:
        others = [n for n in registry.available_encodings() if n != enc.name]
        choices = encodings_for(talk.template, others)
        st.info(
            unreadable(enc.name, enc.special_tokens, talk.template, choices),
            icon=":material/info:",
        )
        st.code(view.text, language=None, wrap_lines=True)
        return
    panels.counts(enc, counted.tokens, of="the rendered conversation, its template's text included")
    _special_text_note(talk, counted.enc)
    row = st.container(horizontal=True, vertical_alignment="center", key="playground-chat-sum")
    row.caption(_breakdown(talk, counted.count))
    with row:
        copy_text_button("playground.chat.copy", view.text, "Copy rendered text")
    panels.token_pane(counted.enc, counted.tokens, None, chosen, links=counted.enc is enc)


def _special_text_note(talk: Conversation, reader: Encoding) -> None:
    """Say which messages hold special-token text, and how this template's reference reads it:
    as the token (a message can close its turn early or open another, a prompt injection to
    know about), or as text (`tokenizer.chat.READ_AS_ONE_TEXT`)."""
    held = [
        f"message {n} ({quote_some(found, 3)})"
        for n, message in enumerate(talk.messages, 1)
        if (found := special_texts_in(message.content, reader.special_tokens))
    ]
    if not held:
        return
    if talk.template in READ_AS_ONE_TEXT:
        st.caption(
            f":material/warning: Special-token text in {', '.join(held)} is read as the special "
            "token itself, not as text, as this template's reference reads the rendered text: a "
            "message can end its turn early or start another. A server should escape or refuse "
            "it in what its users send."
        )
    else:
        st.caption(
            f":material/info: Special-token text in {', '.join(held)} is read as text, not as "
            f"the special token: {READERS[talk.template]} encodes a message's text on its own, "
            "as ordinary text, so it cannot end the turn."
        )


def _breakdown(talk: Conversation, count: ChatCount) -> str:
    """Where the tokens go, as a sum: ``"31 tokens = 28 in 3 messages + 3 generation prompt"``
    (the template's own tokens between messages count with their message)."""
    n = len(talk.messages)
    parts = [f"{count.total:,} tokens = {sum(count.per_message):,} in {n} message{'s' * (n != 1)}"]
    if count.prefix:
        parts.append(f"{count.prefix:,} start of text")
    if talk.prompt:
        parts.append(f"{count.prompt:,} generation prompt")
    return " + ".join(parts)
