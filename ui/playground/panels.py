"""The Playground's panels: the text or ids box, the settings, the counts and the tokens.

Each panel reads and writes its state through ui/playground/state.py, so every setting is also
in the link; the tokens themselves come from `ui.common.tokens` (cached by content).

The layout (ui/playground/layout.css) puts the input on the left and the counts and tokens on
the right when the page has 720 px of room (a window 1,100 px wide with the sidebar open, 800 px
with it closed), stacked below that, sized to the window so that the box, the first tokens and
their ids show without scrolling; long texts scroll inside their panes.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from tokenizer import Encoding, Tokenized
from ui.common import cache, registry, tokens
from ui.common.context_windows import window_sentence
from ui.common.copy_button import copy_link_button, link_leaves_out
from ui.common.examples import EXAMPLES, document_end, for_encoding
from ui.common.glyphs import not_utf8_sequences
from ui.common.heading import page_head
from ui.common.limits import (
    INSTANT_CHARS,
    MAX_DECODED_SHOWN,
    MAX_IDS,
    MAX_TEXT_CHARS,
    RENDER_LIMIT,
)
from ui.common.links import VOCAB_PAGE, vocab_params
from ui.common.live_text import examples_menu, live_textarea, set_live_text
from ui.common.messages import counted, inline_code, quote_some
from ui.common.registry import vocab_key
from ui.common.sidebar import current_encoding
from ui.common.state import publish_text
from ui.common.stats import format_ratio, token_stats
from ui.common.token_pane import live_token_view
from ui.common.token_view import ColorBy, ViewOptions, view_parts
from ui.playground.ids import parse_ids, unknown_ids, valid_ids_sentence
from ui.playground.pin import pin_html
from ui.playground.state import (
    CHAT,
    CHUNKS,
    COLOUR,
    COLOURS,
    EXAMPLE,
    IDS,
    LIMIT,
    MODE,
    MODES,
    PIN,
    PROMPT,
    SPECIAL,
    TEMPLATE,
    TEXT,
    WHITESPACE,
)

_LAYOUT_CSS = Path(__file__).with_name("layout.css").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Settings:
    """What the toggles under the box ask for."""

    mode: str
    special: bool
    show_whitespace: bool
    show_chunks: bool
    colour_by: ColorBy


def header(enc: Encoding) -> None:
    """The page's style, its title and what it shows, and "Copy link", on one short row."""
    st.html(f"<style>{_LAYOUT_CSS}</style>")
    # A trained vocabulary's name is user input: quote it, never let it format the caption.
    label = inline_code(registry.encoding_label(enc.name), 80)
    with page_head("Playground", f"How {label} cuts text into tokens."):
        copy_link_button("playground.copy_link")


def workspace() -> tuple[DeltaGenerator, DeltaGenerator]:
    """The two halves: input (left, or on top) and output (right, or below)."""
    row = st.container(horizontal=True, key="playground-workspace", gap="medium")
    return row.container(key="playground-input"), row.container(key="playground-output")


def mode_switch() -> str:
    """Text → tokens or ids → text."""
    st.segmented_control(
        "Mode",
        list(MODES),
        # What it holds, as its default too (why: `state.segmented`); Streamlit's log warns of
        # a default beside a session value once per server, which is meant.
        default=MODE.seed(),
        format_func=MODES.__getitem__,
        key=MODE.key,
        required=True,
        label_visibility="collapsed",
        on_change=_refill_ids,
    )
    return MODE.value


# The ids the box was last filled with from the text: while it holds them, it follows the text.
_FILLED = "playground.ids-filled"


def _refill_ids() -> None:
    """Mode switch callback: ids → text opens with the ids of the text the page holds now.

    Only while the box still holds the ids it was filled with: ids the user typed or pasted stay
    until they change them, whatever the text does meanwhile.
    """
    untouched = st.session_state.get(IDS.key) == st.session_state.get(_FILLED)
    if MODE.value == "decode" and IDS.key in st.session_state and untouched:
        _fill_ids(_ids_of_the_text(current_encoding()))


def _fill_ids(ids: str) -> None:
    """Put `ids` in the ids box, remembered as filled from the text."""
    set_live_text(IDS.key, ids)
    st.session_state[_FILLED] = ids


def _load_example(name: str) -> None:
    """Examples menu callback: put the example in the box, with the encoding's own specials."""
    set_live_text(TEXT.key, for_encoding(EXAMPLES[name], current_encoding()))
    st.session_state.pop(LIMIT, None)  # a new text starts with one page of tokens
    if "<|" in EXAMPLES[name]:
        SPECIAL.set(True)  # the example is about special tokens


# The fragment that draws everything depending on the text: a keystroke reruns only it.
TOKENS_FRAGMENT = "playground-tokens"


def text_box() -> None:
    """Encode mode's input: the live text box (pre-filled from ?text=)."""
    if TEXT.key not in st.session_state:
        set_live_text(TEXT.key, TEXT.seed())
    live_textarea(
        TEXT.key,
        label="Text",
        placeholder="Type or paste text…",
        instant_chars=INSTANT_CHARS,
        label_visibility="collapsed",
        rerun_fragment=TOKENS_FRAGMENT,
    )


def input_row() -> str:
    """The mode switch and, when encoding, the examples menu, side by side; returns the mode."""
    row = st.container(horizontal=True, vertical_alignment="center", key="playground-modes")
    with row:
        mode = mode_switch()
        if mode == "encode":
            examples_menu(EXAMPLE, EXAMPLES, _load_example)
    return mode


def ids_box(enc: Encoding) -> None:
    """Decode mode's input: the live box for ids, pre-filled from ?ids= or with the ids of the
    text the page holds (`_refill_ids`), so the way back to that text shows at once."""
    if TEXT.key not in st.session_state:  # opened in this mode: the text for the way back
        set_live_text(TEXT.key, TEXT.seed(default=_text_of_the_linked_ids(enc)))
    if IDS.key not in st.session_state:
        filled = _ids_of_the_text(enc)
        set_live_text(IDS.key, IDS.seed(default=filled))
        st.session_state[_FILLED] = filled
    live_textarea(
        IDS.key,
        label="Token ids",
        placeholder="31373, 995   or   31373 995   or   [31373, 995]",
        instant_chars=INSTANT_CHARS,
        label_visibility="collapsed",
    )


def _text_of_the_linked_ids(enc: Encoding) -> str:
    """What the link's ids decode to, for a page opened in decode mode with no text: a reload
    of an ids link, then "Text → tokens", showed the default text instead. The default text if
    the ids are not all ids of `enc`, too many, or not whole UTF-8."""
    parsed = parse_ids(IDS.linked() or "")
    ids = parsed.ids
    if parsed.malformed or not ids or len(ids) > MAX_IDS or unknown_ids(enc, ids):
        return TEXT.default
    try:
        return enc.decode_bytes(ids).decode("utf-8")
    except UnicodeDecodeError:
        return TEXT.default


def _ids_of_the_text(enc: Encoding) -> str:
    """The text box's ids as the ids box reads them ("" for no text, or more than it takes)."""
    tok = tokens.tokenize(enc, st.session_state.get(TEXT.key, ""), special=SPECIAL.value)
    if len(tok.ids) > MAX_IDS:
        return ""
    ids = ", ".join(map(str, tok.ids))
    return ids if len(ids) <= MAX_TEXT_CHARS else ""


def current_input(mode: str) -> str:
    """The box's text, as the box last sent it, also put in the link (if it fits)."""
    for param in (CHAT, TEMPLATE, PROMPT):  # the Chat view's, kept in the session meanwhile
        param.forget()
    if mode == "decode":
        raw: str = st.session_state.get(IDS.key, "")
        publish_text(IDS, raw)
        TEXT.forget()
        return raw
    text: str = st.session_state.get(TEXT.key, "")
    if not publish_text(TEXT, text):
        link_leaves_out("text")
    IDS.forget()
    return text


def current_settings() -> Settings:
    """What the mode and the toggles are set to, read from the session and put in the link.

    The tokens fragment calls this on every run, its own included: a keystroke's fragment run
    can cut short the app run a toggle started, and the link must still follow the toggle.
    """
    mode = MODE.value
    encoding = mode == "encode"
    for param in (MODE, COLOUR, WHITESPACE, *((SPECIAL, CHUNKS) if encoding else ())):
        param.publish()
    colour_by: ColorBy = "id" if COLOUR.value == "id" else "position"
    return Settings(
        mode,
        encoding and SPECIAL.value,
        WHITESPACE.value,
        encoding and CHUNKS.value,
        colour_by,
    )


def special_help(enc: Encoding) -> str:
    """The special-tokens toggle's help, naming a special token `enc` really has (Llama 3 has no
    ``<|endoftext|>``).

    >>> import tokenizer as tk
    >>> special_help(tk.get_encoding("llama3"))
    'Read `<|end_of_text|>` and the other special tokens of `llama3` as single ids, not as text.'
    """
    end = document_end(enc)
    name = inline_code(enc.name, 40)
    if end is None:
        return f"{name} has no special tokens: every text is ordinary text."
    return (
        f"Read {inline_code(end, 40)} and the other special tokens of {name} as single ids, "
        "not as text."
    )


def draw_settings(mode: str, enc: Encoding) -> None:
    """The toggles: special tokens, whitespace glyphs, regex chunks, colouring (each bound to
    its parameter; `current_settings` reads them and puts them in the link). They keep their
    values while another mode hides them (``persist_state``)."""
    # Each widget has what it holds as its default too (ui/common/state.py, step 2).
    special, whitespace, chunks = SPECIAL.seed(), WHITESPACE.seed(), CHUNKS.seed()
    colour = COLOUR.seed()
    row = st.container(horizontal=True, vertical_alignment="bottom", key="playground-settings")
    encoding = mode == "encode"
    if encoding:
        row.toggle(
            "Special tokens",
            special,
            key=SPECIAL.key,
            persist_state="session",
            help=special_help(enc),
        )
    row.toggle(
        "Show whitespace",
        whitespace,
        key=WHITESPACE.key,
        persist_state="session",
        help="Space ·, tab →, newline ↵, and invisible characters by their code point.",
    )
    if encoding:
        row.toggle(
            "Regex chunks",
            chunks,
            key=CHUNKS.key,
            persist_state="session",
            help="Underline how the pre-tokenizer's pattern cuts the text before any merge.",
        )
    row.segmented_control(
        "Colour",
        list(COLOURS),
        default=colour,
        format_func=COLOURS.__getitem__,
        key=COLOUR.key,
        persist_state="session",
        required=True,
        label_visibility="collapsed",
    )


def normalised_hint(enc: Encoding, raw: str, tok: Tokenized) -> None:
    """Say when the encoding read a normalised text (Qwen's NFC), which the tokens are of.

    One short line, the whole explanation in its tooltip: the token pane below gets the height.
    """
    if brief := tokens.normalised_brief(enc, raw, tok.text):
        st.caption(f":material/info: {brief}", help=tokens.normalised_note(enc, raw, tok.text))


def special_hint(enc: Encoding, text: str, chosen: Settings) -> None:
    """Special-token text read as ordinary text: say so, and how to see it as one id."""
    if chosen.special:
        return
    # A caption, not a box: at 1280x720 two boxes left the token pane three lines high.
    then = "turn on **Special tokens** to see {it} as one id."
    if note := tokens.specials_as_text([enc], text, then):
        st.caption(note)


def _unused_ids(enc: Encoding) -> list[int]:
    """Ids below `n_vocab` that name no token (o200k_base has two), found once per vocabulary."""
    return cache.derived(
        ("unused ids", vocab_key(enc)),
        lambda: [i for i in range(enc.n_vocab) if not enc.is_valid_id(i)],
        lambda unused: 64 + 32 * len(unused),
    )


def decode_ids(enc: Encoding, raw: str) -> Tokenized:
    """Parse pasted ids, name the ones that cannot be used, and decode the rest."""
    parsed = parse_ids(raw)
    ids = parsed.ids[:MAX_IDS]
    errors = []
    if parsed.malformed:
        errors.append(
            f"Not token ids: {quote_some(parsed.malformed)}. Separate ids with spaces or "
            "commas, or paste a JSON list such as `[31373, 995]`."
        )
    if unknown := unknown_ids(enc, ids):
        name = inline_code(enc.name)
        valid = valid_ids_sentence(name, enc.n_vocab, _unused_ids(enc))
        errors.append(f"Not ids of {name}: {quote_some(unknown)}. {valid} They are left out below.")
    capped = [f"Only the first {MAX_IDS:,} ids are decoded."] if len(parsed.ids) > MAX_IDS else []
    # One box, its problems a line each: at 1280x720 two boxes squeezed the ids pane to half a
    # line of ids.
    if errors:
        st.error("  \n".join([*errors, *capped]))
    elif capped:
        st.warning(capped[0])
    return tokens.tokenized_from_ids(enc, [i for i in ids if enc.is_valid_id(i)])


def counts(enc: Encoding, tok: Tokenized, of: str = "the text") -> None:
    """The six counts, exact however long the text (only the drawing is capped), and how much
    of the encoding's model's context window the text fills. The two that are read several
    ways say in their help what they count, and of what (`of`): a figure cited from here must
    mean what the reader thinks. (A help mark on all six wrapped the row at 1280x720.)"""
    stats = token_stats(tok)
    row = st.container(horizontal=True, key="playground-counts", gap="small")
    row.metric("Tokens", f"{stats.tokens:,}")
    row.metric(
        "Characters",
        f"{stats.chars:,}",
        help=f"Unicode code points in {of}, as Python counts them: é written as e + ◌́ is two, "
        "a family emoji joined by zero-width joiners is seven.",
    )
    row.metric("UTF-8 bytes", f"{stats.utf8_bytes:,}")
    row.metric(
        "Words",
        f"{stats.words:,}",
        help=f"Runs of characters between whitespace in {of}: Chinese, Japanese or Thai, "
        "written without spaces, count a sentence as one word.",
    )
    row.metric("Chars / token", format_ratio(stats.chars_per_token))
    row.metric("Bytes / token", format_ratio(stats.bytes_per_token))
    sentence = window_sentence(stats.tokens, enc.name)
    if sentence is not None:
        st.caption(sentence)


def _visible_limit() -> int:
    """Tokens to draw: grows with "Show more" and stays while the text is edited."""
    return int(st.session_state.get(LIMIT, RENDER_LIMIT))


def _show_more() -> None:
    """Callback of "Show more": draw another page of tokens."""
    st.session_state[LIMIT] = _visible_limit() + RENDER_LIMIT


def pinned_index(ids: tuple[int, ...], held: tuple[int, int] | None) -> int | None:
    """Where the pinned token is now: its place if it still holds the same id, else the
    nearest token with that id (the text was edited before it), else nowhere.

    >>> pinned_index((5, 7, 5), (2, 5)), pinned_index((9, 5, 7), (0, 5)), pinned_index((1,), (0, 5))
    (2, 1, None)
    """
    if held is None:
        return None
    index, token_id = held
    if index < len(ids) and ids[index] == token_id:
        return index
    places = [i for i, found in enumerate(ids) if found == token_id]
    return min(places, key=lambda i: abs(i - index)) if places else None


def _whole_decoded_text(text: str) -> None:
    """Say that the decoded text's box holds only its start, and offer all of it: the box's
    copy button copies what the box holds, and a long decode lost its end without a word."""
    row = st.container(horizontal=True, vertical_alignment="center", key="playground-decoded-more")
    row.caption(f"The box shows {MAX_DECODED_SHOWN:,} of {len(text):,} characters.")
    _text_download(
        row,
        "Download all",  # one line with the caption in a 1280x720 window's column
        lambda: text,
        file_name="decoded.txt",
        key="playground.decoded",
        help="All of the decoded text, as a UTF-8 .txt file",
    )


def _all_ids_download(row: DeltaGenerator, ids: Sequence[int]) -> None:
    """Every id of a text with more than "Copy ids" copies (`MAX_IDS`, what decode mode
    reads), comma-separated as that button copies them."""
    _text_download(
        row,
        f"Download all {len(ids):,} ids",
        lambda: ", ".join(map(str, ids)),
        file_name="token-ids.txt",
        key="playground.all_ids",
        help=f"Copy ids copies the first {MAX_IDS:,}, as many as Ids → text reads",
    )


def _text_download(
    row: DeltaGenerator, label: str, make: Callable[[], str], *, file_name: str, key: str, help: str
) -> None:
    """A plain-text file made only when pressed: what it holds can be megabytes."""
    row.download_button(
        label,
        data=make,
        file_name=file_name,
        mime="text/plain",
        icon=":material/download:",
        on_click="ignore",
        key=key,
        type="tertiary",
        help=help,
    )


def token_pane(
    enc: Encoding,
    tok: Tokenized,
    chunks: tuple[str, ...] | None,
    chosen: Settings,
    *,
    links: bool = True,
) -> None:
    """The coloured tokens with their ids, a page at a time; a token can be pinned.

    `links` offers each token on the Vocabulary page; the Chat view turns it off when its
    encoding is a base with a template's special tokens added, which that page does not list.
    """
    limit = _visible_limit()
    drawn = tok.ids[:limit]
    pinned = pinned_index(drawn, st.session_state.get(PIN))
    st.session_state[PIN] = None if pinned is None else (pinned, drawn[pinned])
    if chosen.mode == "decode" and tok.ids:
        # What the ids say comes first, named like the panes below it: under the panes, at
        # the column's foot, it was an unnamed box far from everything it belongs to.
        with st.container(key="playground-decoded"):  # scrolls on its own (layout.css)
            st.html('<div class="pg-label">Decoded text</div>')
            st.code(tok.text[:MAX_DECODED_SHOWN], language=None, wrap_lines=True)
        if len(tok.text) > MAX_DECODED_SHOWN:
            _whole_decoded_text(tok.text)
        # Only a "\ufffd" in the text can mean one: the common case skips the re-decoding.
        if "\ufffd" in tok.text and (broken := not_utf8_sequences(b"".join(tok.pieces))):
            st.caption(  # a "�" nobody typed: a learner asks where it came from
                f"{counted(broken, 'byte sequence')} of these ids {'is' if broken == 1 else 'are'}"
                " not UTF-8 (the ids split a character, or end inside one): "
                f"{'it shows' if broken == 1 else 'each shows'} as U+FFFD �."
            )
    if tok.ids:
        view = ViewOptions(
            color_by=chosen.colour_by, show_whitespace=chosen.show_whitespace, limit=limit
        )

        def pin(index: int | None) -> None:
            """The view's pin or unpin: remember the token by place and id."""
            valid = index is not None and index < len(drawn)
            st.session_state[PIN] = (index, drawn[index]) if index is not None and valid else None

        panel = None
        if pinned is not None:
            parents = tokens.merge_parents(enc, drawn[pinned])
            panel = pin_html(enc, tok, pinned, parents, link=links)
        events = live_token_view(
            "playground.tokens",
            view_parts(tok, enc, view, chunks),
            ids=tok.ids,
            pinned=pinned,
            pin=panel,
            on_pin=pin,
        )
        if links and events.open_vocab is not None and enc.is_valid_id(events.open_vocab):
            st.switch_page(VOCAB_PAGE, query_params=vocab_params(enc.name, events.open_vocab))
    else:
        what = "token ids, such as 15339, 1917," if chosen.mode == "decode" else "text"
        st.caption(f"No tokens yet: type or paste {what} in the box.")
    if len(tok.ids) > min(limit, MAX_IDS):  # one short row: a box and a button took the panes' room
        row = st.container(horizontal=True, vertical_alignment="center", key="playground-more")
        if len(tok.ids) > limit:
            row.caption(f"Showing the first {limit:,} of {len(tok.ids):,} tokens (counted above).")
            row.button(f"Show {RENDER_LIMIT:,} more", on_click=_show_more, type="secondary")
        if len(tok.ids) > MAX_IDS:  # more than "Copy ids" copies
            _all_ids_download(row, tok.ids)
