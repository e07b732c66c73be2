"""Chat templates: the text a chat model really reads for a conversation, special tokens included.

A conversation is a list of messages, ``{"role": ..., "content": ...}`` (a harmony message may add
``"channel"``). Each template writes it as its model family does, character for character:

- ``"chatml"`` (GPT-3.5/4 family): ``<|im_start|>{role}\\n{content}<|im_end|>`` per message,
  nothing between them; prompt ``<|im_start|>assistant\\n``: 3 tokens a message and 3 for the
  prompt beside the role's and content's, OpenAI's cookbook rule. (Tiktokenizer writes
  ``<|im_sep|>`` for the ``\\n`` for GPT-4 and GPT-4o, one token either way, and a newline between
  messages for GPT-3.5: the same count unless a message starts with a newline.)
- ``"harmony"`` (GPT-OSS, as OpenAI's `openai-harmony` renders it): ``<|start|>{role}<|message|>
  {content}<|end|>``, ``<|channel|>{channel}`` before ``<|message|>`` when given; prompt
  ``<|start|>assistant``. Like `openai-harmony`, once the conversation's last assistant message is
  on the ``final`` channel, ``analysis`` messages before the first ``final`` one are dropped.
- ``"llama3"`` (Meta's ``ChatFormat``, `llama-models`): ``<|begin_of_text|>``, then
  ``<|start_header_id|>{role}<|end_header_id|>\\n\\n{content}<|eot_id|>`` per message; prompt
  ``<|start_header_id|>assistant<|end_header_id|>\\n\\n``. No date preamble.
- ``"qwen3"`` (Qwen 3's published template, without tools): ``<|im_start|>{role}\\n{content}
  <|im_end|>\\n`` per message, no default system prompt; an assistant turn keeps its
  ``<think>…</think>`` only after the last user message (the last turn always gets one, empty if
  need be), earlier ones lose it; prompt ``<|im_start|>assistant\\n``.

Each renderer also reads the text as its reference does. Tiktokenizer (chatml) and Hugging Face's
templates (qwen3) encode the rendered text as one string, every special token's text read as the
token, in a message too. Meta's ChatFormat (llama3) and openai-harmony encode each piece on its
own, a message's text as ordinary text, so special-token text typed in a message stays text
there, and no token spans a header and the message after it.

`read_chat` locates the tokens of a rendered conversation and counts them, in all and per message
(`count_chat` and `tokenize_chat` give one of the two), with an encoding that knows the
template's special tokens (`chat_encoding`).

>>> render_chat([{"role": "user", "content": "Hi"}], "chatml")
'<|im_start|>user\\nHi<|im_end|><|im_start|>assistant\\n'
"""

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from tokenizer.encoding import Encoding, Tokenized
from tokenizer.formats import ordinary_ids
from tokenizer.loaders import get_encoding

Template = Literal["chatml", "harmony", "llama3", "qwen3"]
TEMPLATES: tuple[str, ...] = get_args(Template)
PartKind = Literal["prefix", "message", "prompt"]

ROLES: dict[str, tuple[str, ...]] = {
    "chatml": ("system", "developer", "user", "assistant"),
    "harmony": ("system", "developer", "user", "assistant"),
    "llama3": ("system", "user", "assistant"),  # Meta's ChatFormat also has tool ("ipython")
    "qwen3": ("system", "user", "assistant"),  # Qwen's template drops any other role
}

# The special tokens each template writes (an encoding must have them to count a chat).
TEMPLATE_SPECIALS: dict[str, tuple[str, ...]] = {
    "chatml": ("<|im_start|>", "<|im_end|>"),
    "harmony": ("<|start|>", "<|message|>", "<|end|>", "<|channel|>"),
    "llama3": ("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"),
    "qwen3": ("<|im_start|>", "<|im_end|>", "<think>", "</think>"),
}

# Ids of ChatML's special tokens, which OpenAI's encodings leave out of their public definitions
# (tiktoken's README extends cl100k_base with the same ids).
CHATML_IDS: dict[str, dict[str, int]] = {
    "cl100k_base": {"<|im_start|>": 100264, "<|im_end|>": 100265, "<|im_sep|>": 100266},
    "o200k_base": {"<|im_start|>": 200264, "<|im_end|>": 200265, "<|im_sep|>": 200266},
}


def harmony_special_tokens() -> dict[str, int]:
    """o200k_harmony's special tokens (GPT-OSS): ids 199,998 to 201,087, most reserved.

    >>> harmony_special_tokens()["<|start|>"], len(harmony_special_tokens())
    (200006, 1090)
    """
    named = {
        199998: "<|startoftext|>",
        199999: "<|endoftext|>",
        200002: "<|return|>",
        200003: "<|constrain|>",
        200005: "<|channel|>",
        200006: "<|start|>",
        200007: "<|end|>",
        200008: "<|message|>",
        200012: "<|call|>",
        200018: "<|endofprompt|>",
    }
    return {named.get(i, f"<|reserved_{i}|>"): i for i in range(199998, 201088)}


# Special tokens a template can add to a bundled base encoding, by (encoding, template).
ADDED_SPECIALS: dict[tuple[str, str], dict[str, int]] = {
    ("cl100k_base", "chatml"): CHATML_IDS["cl100k_base"],
    ("o200k_base", "chatml"): CHATML_IDS["o200k_base"],
    ("o200k_base", "harmony"): harmony_special_tokens(),
}

# The templates whose reference encodes the rendered text as one string, special tokens' text read
# as the tokens wherever it is (Tiktokenizer; Hugging Face's `apply_chat_template`). The others'
# references encode piece by piece (see the module's docstring).
READ_AS_ONE_TEXT = frozenset({"chatml", "qwen3"})

TEMPLATE_OF_ENCODING: dict[str, Template] = {
    "cl100k_base": "chatml",
    "o200k_base": "chatml",
    "o200k_harmony": "harmony",
    "llama3": "llama3",
    "qwen3": "qwen3",
}


class ChatTemplateError(ValueError):
    """A conversation or encoding a template cannot render or count; the message says why."""


Segment = tuple[str, bool]
"""A piece of rendered text, and whether the template wrote it as one of its special tokens."""


@dataclass(frozen=True)
class ChatPart:
    """One stretch of the rendered text: a message, the template's prefix, or the prompt."""

    kind: PartKind
    segments: tuple[Segment, ...]  # none for a message the template drops
    message: int | None = None  # index into the messages, for kind "message"

    @property
    def text(self) -> str:
        return "".join(text for text, _ in self.segments)


@dataclass(frozen=True)
class RenderedChat:
    """A conversation rendered by a template, in parts that join to `text`."""

    template: str
    parts: tuple[ChatPart, ...]

    @property
    def text(self) -> str:
        """The whole text the model reads."""
        return "".join(part.text for part in self.parts)


@dataclass(frozen=True)
class ChatCount:
    """Tokens of a rendered conversation: in all, per message, and the template's own."""

    total: int
    per_message: tuple[int, ...]  # aligned with the messages; 0 for one the template drops
    prefix: int  # <|begin_of_text|> (llama3), else 0
    prompt: int  # the generation prompt, 0 without one


@dataclass(frozen=True)
class ChatReading:
    """A rendered conversation's tokens and their counts, from one reading (`read_chat`)."""

    tokens: Tokenized
    count: ChatCount


# ---- rendering ----------------------------------------------------------------------------------


def render_chat(
    messages: Sequence[Mapping[str, str]], template: str, add_generation_prompt: bool = True
) -> str:
    """The text `template` makes of `messages`, ending with the assistant's prompt if asked."""
    return render_chat_parts(messages, template, add_generation_prompt).text


def render_chat_parts(
    messages: Sequence[Mapping[str, str]], template: str, add_generation_prompt: bool = True
) -> RenderedChat:
    """`render_chat`, keeping which part of the text each message is (for per-message counts)."""
    if template not in TEMPLATES:
        raise ChatTemplateError(f"unknown template {template!r}; choose one of {TEMPLATES}")
    checked = _check_messages(messages, template)
    render = {
        "chatml": _chatml,
        "harmony": _harmony,
        "llama3": _llama3,
        "qwen3": _qwen3,
    }[template]
    return RenderedChat(template, tuple(render(checked, add_generation_prompt)))


def _check_messages(messages: Sequence[Mapping[str, str]], template: str) -> list[dict[str, str]]:
    """Plain dicts with a known role and string content; ``channel`` only for harmony."""
    keys = {"role", "content", "channel"} if template == "harmony" else {"role", "content"}
    out = []
    for n, message in enumerate(messages):
        if not isinstance(message, Mapping):
            raise ChatTemplateError(f"message {n} must be a dict with role and content")
        extra = set(message) - keys
        if extra:
            raise ChatTemplateError(
                f"message {n} has {', '.join(sorted(extra))}, which the {template} template "
                "does not write"
            )
        role, content = message.get("role"), message.get("content")
        if role not in ROLES[template]:
            raise ChatTemplateError(
                f"message {n}: the {template} template has no role {role!r} "
                f"(it has {', '.join(ROLES[template])})"
            )
        if not isinstance(content, str):
            raise ChatTemplateError(f"message {n}: content must be text")
        channel = message.get("channel")
        if channel is not None and not isinstance(channel, str):
            raise ChatTemplateError(f"message {n}: channel must be text")
        out.append(dict(message))
    return out


def _token(token: str) -> Segment:
    """One of the template's special tokens."""
    return token, True


def _text(text: str) -> Segment:
    """Ordinary text: a role's name, a message, the template's own newlines."""
    return text, False


def _chatml(messages: list[dict[str, str]], prompt: bool) -> list[ChatPart]:
    def turn(role: str, *content: Segment) -> tuple[Segment, ...]:
        return _token("<|im_start|>"), _text(f"{role}\n"), *content

    parts = [
        ChatPart("message", turn(m["role"], _text(m["content"]), _token("<|im_end|>")), n)
        for n, m in enumerate(messages)
    ]
    return parts + [ChatPart("prompt", turn("assistant"))] * prompt


def _harmony(messages: list[dict[str, str]], prompt: bool) -> list[ChatPart]:
    # openai-harmony's default rendering drops chain of thought once an answer is final.
    last_assistant = next((m for m in reversed(messages) if m["role"] == "assistant"), None)
    drop = last_assistant is not None and last_assistant.get("channel") == "final"
    first_final = next((n for n, m in enumerate(messages) if m.get("channel") == "final"), None)
    parts = []
    for n, m in enumerate(messages):
        dropped = drop and first_final is not None and n < first_final
        if dropped and m.get("channel") == "analysis":
            parts.append(ChatPart("message", (), n))
            continue
        channel = () if m.get("channel") is None else (_token("<|channel|>"), _text(m["channel"]))
        segments = (
            _token("<|start|>"),
            _text(m["role"]),
            *channel,
            _token("<|message|>"),
            _text(m["content"]),
            _token("<|end|>"),
        )
        parts.append(ChatPart("message", segments, n))
    return parts + [ChatPart("prompt", (_token("<|start|>"), _text("assistant")))] * prompt


def _llama3(messages: list[dict[str, str]], prompt: bool) -> list[ChatPart]:
    def header(role: str) -> tuple[Segment, ...]:
        return (
            _token("<|start_header_id|>"),
            _text(role),
            _token("<|end_header_id|>"),
            _text("\n\n"),
        )

    parts = [ChatPart("prefix", (_token("<|begin_of_text|>"),))]
    parts += [
        ChatPart("message", (*header(m["role"]), _text(m["content"]), _token("<|eot_id|>")), n)
        for n, m in enumerate(messages)
    ]
    return parts + [ChatPart("prompt", header("assistant"))] * prompt


def _qwen3(messages: list[dict[str, str]], prompt: bool) -> list[ChatPart]:
    # The last "real" user message: thinking shown after it is kept, before it is dropped.
    last_query = len(messages) - 1
    for n in range(len(messages) - 1, -1, -1):
        content = messages[n]["content"]
        wrapped = content.startswith("<tool_response>") and content.endswith("</tool_response>")
        if messages[n]["role"] == "user" and not wrapped:
            last_query = n
            break

    def turn(role: str, *body: Segment) -> tuple[Segment, ...]:
        return _token("<|im_start|>"), _text(f"{role}\n"), *body

    parts = []
    for n, m in enumerate(messages):
        role, content = m["role"], m["content"]
        end = (_token("<|im_end|>"), _text("\n"))
        if role != "assistant":
            parts.append(ChatPart("message", turn(role, _text(content), *end), n))
            continue
        reasoning = ""
        if "</think>" in content:
            reasoning = content.split("</think>")[0].rstrip("\n").split("<think>")[-1].lstrip("\n")
            content = content.split("</think>")[-1].lstrip("\n")
        last = n == len(messages) - 1
        if n > last_query and (last or reasoning):
            body: tuple[Segment, ...] = (
                _token("<think>"),
                _text(f"\n{reasoning.strip(chr(10))}\n"),
                _token("</think>"),
                _text(f"\n\n{content.lstrip(chr(10))}"),
            )
        else:
            body = (_text(content),)
        parts.append(ChatPart("message", turn(role, *body, *end), n))
    return parts + [ChatPart("prompt", turn("assistant"))] * prompt


# ---- counting -----------------------------------------------------------------------------------

_WITH_SPECIALS: "weakref.WeakKeyDictionary[Encoding, dict[str, Encoding]]" = (
    weakref.WeakKeyDictionary()
)


def template_for(encoding_name: str) -> Template | None:
    """The chat template of a bundled encoding's models, or None (gpt2, trained vocabularies)."""
    return TEMPLATE_OF_ENCODING.get(encoding_name)


def chat_encoding(enc_or_name: Encoding | str, template: str) -> Encoding:
    """An encoding that reads `template`'s special tokens as single tokens.

    One that already has them is returned as it is (o200k_harmony, llama3, qwen3). cl100k_base and
    o200k_base get ChatML's tokens (and o200k_base harmony's) at their known ids, as a new encoding
    with the same ranks, made once per base. Any other encoding raises `ChatTemplateError`.
    """
    enc = get_encoding(enc_or_name) if isinstance(enc_or_name, str) else enc_or_name
    if template not in TEMPLATES:
        raise ChatTemplateError(f"unknown template {template!r}; choose one of {TEMPLATES}")
    missing = [s for s in TEMPLATE_SPECIALS[template] if s not in enc.special_tokens]
    if not missing:
        return enc
    added = ADDED_SPECIALS.get((enc.name, template))
    if added is None:
        raise ChatTemplateError(
            f"{enc.name} has no ids for {', '.join(missing)}, so it cannot count a {template} "
            "chat; pick the encoding of a model that uses this template"
        )
    made = _WITH_SPECIALS.setdefault(enc, {})
    if template not in made:
        made[template] = _with_specials(enc, added, template)
    return made[template]


def _with_specials(enc: Encoding, added: dict[str, int], template: str) -> Encoding:
    """`enc` with more special tokens, refusing ids its tokens already use."""
    ordinary = ordinary_ids(enc)
    taken = set(ordinary)
    for text, token_id in added.items():
        if token_id in taken or enc.special_tokens.get(text, token_id) != token_id:
            raise ChatTemplateError(f"{enc.name} already uses id {token_id} for another token")
    return Encoding.from_ranks(
        name=f"{enc.name}+{template}",
        pattern=enc.pattern,
        ranks={enc.token_bytes(i): i for i in ordinary},
        special_tokens={**enc.special_tokens, **added},
        normalizer=enc.normalizer,
    )


def read_chat(
    messages: Sequence[Mapping[str, str]],
    template: str,
    enc_or_name: Encoding | str,
    add_generation_prompt: bool = True,
) -> ChatReading:
    """The tokens of a rendered conversation, located in its text, and their counts, read as
    the template's reference reads it, with `chat_encoding(enc_or_name, template)`.

    The template's special tokens are single tokens. A message's special-token text is read
    as its template's reference reads it: as the token for chatml and qwen3, whose references
    encode the rendered text as one string; as text for llama3 and harmony, whose references
    encode every piece on its own.

    Each part is read once, on its own: every part starts or ends at a special token, where
    encoding cuts the text anyway, so the parts' tokens one after another are the whole text's
    and their counts add up to the total.
    """
    enc = chat_encoding(enc_or_name, template)
    parts = render_chat_parts(messages, template, add_generation_prompt).parts
    read = [_read(enc, template, part) for part in parts]
    per_message = [0] * len(messages)
    prefix = prompt = 0
    for part, tokens in zip(parts, read, strict=True):
        n = len(tokens.ids)
        if part.kind == "message" and part.message is not None:
            per_message[part.message] = n
        elif part.kind == "prefix":
            prefix = n
        else:
            prompt = n
    whole = Tokenized.joined(read)
    return ChatReading(whole, ChatCount(len(whole.ids), tuple(per_message), prefix, prompt))


def count_chat(
    messages: Sequence[Mapping[str, str]],
    template: str,
    enc_or_name: Encoding | str,
    add_generation_prompt: bool = True,
) -> ChatCount:
    """The counts of `read_chat`: in all, per message, and the template's own."""
    return read_chat(messages, template, enc_or_name, add_generation_prompt).count


def tokenize_chat(
    messages: Sequence[Mapping[str, str]],
    template: str,
    enc_or_name: Encoding | str,
    add_generation_prompt: bool = True,
) -> Tokenized:
    """The tokens of `read_chat`, located in the rendered text (as `Encoding.tokenize` does)."""
    return read_chat(messages, template, enc_or_name, add_generation_prompt).tokens


def _read(enc: Encoding, template: str, part: ChatPart) -> Tokenized:
    """One part's tokens, as its template's reference reads them (`read_chat`)."""
    if template in READ_AS_ONE_TEXT:
        return enc.tokenize(part.text, "all")
    return enc.tokenize_pieces(part.segments)
