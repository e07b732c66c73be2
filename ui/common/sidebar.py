"""The app-wide sidebar: one encoding picker that every page reads.

The picker's value lives in ``st.session_state["common.enc"]`` and in the link (``?enc=…``), so it
stays the same across pages and survives a shared link.

The picker lists the encodings grouped by who made their models (OpenAI, Meta, Qwen, then the
vocabularies trained or imported here), each as its name and its family (``llama3 · Meta``),
which always fit the sidebar; the models of the chosen one and their context windows are written
in full under it, where a line can wrap (a full label such as ``o200k_base · GPT-4o, o1, o3 and
later`` was cut off in the box).
"""

import streamlit as st

import tokenizer as tk
from tokenizer import Encoding
from ui.common import registry, state
from ui.common.context_windows import windows_of
from ui.common.messages import counted
from ui.common.registry import available_encodings, get_encoding

DEFAULT_ENCODING = "gpt2"


def _param() -> state.Param[str]:
    """The picker's state; its choices grow as the session trains or imports vocabularies."""
    return state.Param("common.enc", "enc", DEFAULT_ENCODING, _known)


def _known(name: str) -> str:
    """`name` if this session has it, else a ValueError saying where such a name comes from.

    A link to a trained vocabulary that the server no longer holds said, under the sentence on
    its ``vocabs=``, that ``enc=my-text`` was "not one of gpt2, cl100k_base, …": read as a typo.
    """
    if name in available_encodings():
        return name
    if registry.link_lost_one():
        raise ValueError("the vocabulary of this name came with the link's vocabs=, named above")
    raise ValueError(
        f"no encoding or vocabulary of this name here: the bundled ones are "
        f"{', '.join(tk.list_encodings())}, and one trained or imported comes with the link "
        "that holds it (vocabs=)"
    )


def encoding_picker() -> None:
    """Draw the picker (from app.py, so it is the same widget on every page)."""
    linked = registry.sync_link()  # the link's own vocabularies (?vocabs=, ?vocab=) first
    param = _param()
    if linked is not None:
        param.set(linked)
    param.seed()
    if param.value not in available_encodings():  # a vocabulary this session removed
        param.set(DEFAULT_ENCODING)
    choices = available_encodings()
    st.sidebar.selectbox(
        "Encoding",
        choices,
        index=choices.index(param.value),  # also its default: see `state.segmented`
        key=param.key,
        format_func=option_label,
        help="The vocabulary and pre-tokenizer pattern used on every page: "
        + "; ".join(f"**{name}** for {models}" for name, models in tk.MODELS.items())
        + ". Vocabularies you train on the Train page are added here.",
    )
    param.publish()
    st.sidebar.caption("  \n".join(describe(current_encoding())))  # a Markdown line break each


def picker_again(key: str) -> None:
    """The encoding picker once more, for a page that hides the sidebar (Merges presenting).

    A key can be drawn once a run, so this is a widget of its own: it shows the sidebar's choice,
    whatever changed it, and hands its own to the sidebar's from its callback (which runs before
    the sidebar's picker is drawn), so the link and every page follow it.
    """
    st.session_state[key] = _param().value
    st.selectbox(
        "Encoding",
        available_encodings(),
        key=key,
        format_func=option_label,
        on_change=lambda: choose_encoding(st.session_state[key]),
        help="The same choice as the sidebar's, which presentation mode hides.",
    )


def option_label(name: str) -> str:
    """``"llama3 · Meta"``: the name first (what links and tests use), then who made it.

    >>> option_label("qwen3"), option_label("my-vocab")
    ('qwen3 · Qwen', 'my-vocab · yours')
    """
    return f"{name} · {tk.FAMILIES.get(name, 'yours')}"


def describe(enc: Encoding) -> list[str]:
    """The chosen encoding in a few lines: its models, their context windows, its size.

    Each model's window is kept on one line (`unbroken`): the sidebar wrapped "GPT-" away from
    "4.1 1,047,576".

    >>> lines = describe(tk.get_encoding("o200k_harmony"))
    >>> lines[0], lines[2]
    ('GPT-OSS (gpt-oss-20b, gpt-oss-120b)', '201,088 token ids · 1,091 special tokens')
    >>> lines[1].replace("\u00a0", " ").replace("\u2011", "-")
    'context window: gpt-oss-120b 131,072 · gpt-oss-20b 131,072'
    """
    lines = [tk.MODELS.get(enc.name, "A vocabulary trained or imported here")]
    if windows := windows_of(enc.name):
        sizes = " · ".join(unbroken(f"{w.model} {w.tokens:,}") for w in windows)
        lines.append(f"context window: {sizes}")
    specials = len(enc.special_tokens)
    lines.append(f"{enc.n_vocab:,} token ids · {counted(specials, 'special token')}")
    return lines


def unbroken(text: str) -> str:
    """`text` with no place to break a line: no-break spaces and non-breaking hyphens."""
    return text.replace(" ", "\u00a0").replace("-", "\u2011")


def current_encoding() -> Encoding:
    """The encoding picked in the sidebar (the default before the picker first runs)."""
    name = _param().value
    return get_encoding(name if name in available_encodings() else DEFAULT_ENCODING)


def choose_encoding(name: str) -> None:
    """Make `name` the picked encoding (before the picker is drawn: from a callback)."""
    _param().set(name)
