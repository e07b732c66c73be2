"""The Vocabulary page's panels: find tokens, list them a page at a time, show the chosen one.

Every choice lives in the session and in the URL (``?find=regex&q=…&id=…``), so each view is a
link. The selected token is held with its encoding's name and bytes: a link names an id, and when
the sidebar switches encoding the page follows the same bytes into the new vocabulary.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import pandas as pd
import streamlit as st

from tokenizer import Encoding
from tokenizer.vocab import SearchError, SearchMode, Vocabulary, parse_hex
from ui.common import vocab_panel
from ui.common.copy_button import link_leaves_out
from ui.common.grid import EMPTY_CELL
from ui.common.limits import USED_IN_SHOWN
from ui.common.messages import (
    SELECT_A_ROW,
    counted,
    download_label,
    inline_code,
    literal,
    quote_some,
)
from ui.common.sidebar import choose_encoding
from ui.common.state import history_navigation, publish_text, segmented
from ui.common.token_text import hex_bytes, plain, read_glyphs, write_glyphs
from ui.common.vocab_files import file_stem
from ui.vocab.data import Query, run_search
from ui.vocab.state import (
    FIND,
    FIND_MODES,
    GLYPHS,
    IGNORE_CASE,
    LIST,
    LISTING,
    LISTS,
    PAGE,
    QUERY,
    SELECTED,
    TABLE_TOKEN,
    TOKEN,
)
from ui.vocab.view import listing_csv, rows, token_card_html

LIST_INFO = {
    "longest": "All {n:,} tokens, longest (in bytes) first.",
    "not_utf8": "{n:,} tokens are not valid UTF-8 on their own: pieces of characters that "
    "only make sense next to their neighbours (⟨hex⟩ shows those bytes).",
    "last_learned": "{n:,} merged tokens, the last learned (highest merge rank) first.",
    "leading_space": "{n:,} tokens start with a space: most words are learned with the space "
    "before them.",
    "no_leading_space": "{n:,} tokens do not start with a space.",
}
# GPT-2's best-known under-trained ("glitch") tokens: the tokenizer learned them from text that the
# model then barely saw. Only search queries are listed here; the page offers those this
# vocabulary has as whole tokens, and the search finds them like any other token.
GLITCH_QUERIES = (
    " SolidGoldMagikarp",
    " petertodd",
    " davidjl",
    " TheNitromeFan",
    "StreamerBot",
    " RandomRedditorWithNo",
)
PAGE_SIZE = 100


@dataclass(frozen=True)
class Prompt:
    """What the search box says in one search mode."""

    label: str
    placeholder: str
    help: str


PROMPTS: dict[SearchMode, Prompt] = {
    "text": Prompt(
        "Text in the token",
        "·the   or   Magikarp",
        "Tokens containing this text: the exact match first, then the tokens starting with "
        "it, then the rest. "
        "A space counts: type · for it (→ tab, ↵ newline), so ·the and the find different tokens.",
    ),
    "regex": Prompt(
        "Regular expression",
        r"^·\p{Lu}\w+$   or   (.)\1\1",
        "Python `regex` syntax, matched anywhere in the token's text (anchor with ^ and $). "
        "· → ↵ stand for space, tab and newline; \\s matches any of them.",
    ),
    "id": Prompt(
        "Token ids",
        "43453   or   995, 31373   or   50250-50256",
        "Ids separated by spaces or commas, or ranges like 100-120.",
    ),
    "bytes": Prompt(
        "Bytes in hex",
        "F0 9F   or   20 74 68 65",
        "Tokens whose bytes contain these: the way to find pieces of characters.",
    ),
}

COLUMNS = {
    "id": st.column_config.NumberColumn("id", format="%d", width="small"),
    "token": st.column_config.TextColumn(
        "token", help="· space, → tab, ↵ newline; ⟨hex⟩ bytes that are not UTF-8 on their own"
    ),
    "length": st.column_config.NumberColumn(
        "length", format="%d", width="small", help="In bytes, not characters: 大 is 3"
    ),
    "rank": st.column_config.NumberColumn(  # "7,861", as the token card under it says
        "merge rank", format="localized", help="Order in which the merge was learned, from 0"
    ),
    "left": st.column_config.TextColumn("left parent"),
    "right": st.column_config.TextColumn("right parent"),
    "used_in": st.column_config.NumberColumn(
        "used in", format="localized", help="How many tokens have this one as a parent"
    ),
    "bytes": st.column_config.TextColumn("bytes (hex)"),
}

LONG_CELL = 24
"""Characters past which a text column is capped at Streamlit's "medium" width on that page."""


def column_config(frame: pd.DataFrame) -> dict[str, Any]:
    """`COLUMNS`, with each text column that has a long cell on this page capped in width.

    Streamlit sizes a column to its widest cell: GPT-2's 128-byte longest token and its parents
    pushed every column after them off a 1024 px window. A fixed width everywhere would cut
    short tokens' pages instead (at 1280 px, "used in" and "bytes" went), so only a page with a
    long cell is capped; its cells end in "…", and the token card below shows the selected one
    whole. The hex, last, pushes nothing off.
    """
    config = dict(COLUMNS)
    for name in ("token", "left", "right"):
        if frame[name].str.len().max() > LONG_CELL:
            config[name] = {**COLUMNS[name], "width": "medium"}
    return config


@dataclass(frozen=True)
class Listing:
    """The tokens the table lists, and a Markdown sentence saying what they are."""

    key: tuple[object, ...]  # what was asked for; a new key starts again at page 1
    ids: tuple[int, ...]
    description: str


@dataclass(frozen=True)
class Selected:
    """The token on show, with its encoding and bytes (to follow it into another encoding)."""

    enc_name: str
    token_id: int
    piece: bytes


# ---- selection ----------------------------------------------------------------------------------


def select(enc: Encoding, token_id: int) -> None:
    """Show this token, and say so in the URL (``?id=``) so the address is its permalink."""
    st.session_state[SELECTED] = Selected(enc.name, token_id, enc.token_bytes(token_id))
    TOKEN.publish(value=token_id)


def selected_token(vocab: Vocabulary) -> int | None:
    """The token to show: a link's ``?id=`` wins; after an encoding switch, the same bytes."""
    enc = vocab.enc
    if history_navigation():  # Back or Forward: the history entry's link alone says which token
        st.session_state.pop(SELECTED, None)
    held: Selected | None = st.session_state.get(SELECTED)
    asked = _linked_id(enc)
    if held is not None and held.enc_name != enc.name and asked in (None, held.token_id):
        token_id = vocab.id_of(held.piece)  # the sidebar switched encoding under this page
    elif asked is not None:
        token_id = asked
    elif held is not None and held.enc_name == enc.name:
        token_id = held.token_id  # back on the page: navigation dropped ?id=
    else:
        token_id = None
    if token_id is None:
        # Nothing to show here. What is held stays (it can only be another encoding's token
        # that this one lacks), so back in an encoding that has it, the page shows it again.
        TOKEN.forget()
        if held is not None and held.enc_name != enc.name:
            st.caption(
                f"The token shown before, {inline_code(plain(held.piece), 40)} "
                f"(id {held.token_id:,} of {inline_code(held.enc_name, 40)}), is not a token "
                f"of {inline_code(enc.name, 40)}."
            )
    else:
        select(enc, token_id)
    return token_id


def _linked_id(enc: Encoding) -> int | None:
    """The id in ``?id=``, if it names a token of `enc`; a notice names it if it does not."""

    def check(token_id: int) -> str | None:
        return None if enc.is_valid_id(token_id) else f"{enc.name} does not have this token"

    return TOKEN.linked(check)


def _on_row(enc: Encoding, ids: tuple[int, ...], key: str) -> None:
    """Table callback: a selected row shows its token."""
    chosen = st.session_state[key].selection.rows
    if chosen:
        select(enc, ids[chosen[0]])


# ---- finding ------------------------------------------------------------------------------------


def find_panel(vocab: Vocabulary) -> Listing | None:
    """The mode switch and its inputs; returns what to list (None after an error shown)."""
    mode = segmented(FIND, "Find tokens by", FIND_MODES)
    if mode == "curious":
        return _curiosities_panel(vocab)
    return _search_panel(vocab, cast(SearchMode, mode))  # FIND's other modes are searches


def _search_panel(vocab: Vocabulary, mode: SearchMode) -> Listing | None:
    """The search box and its two toggles, then the search."""
    query, ignore_case = QUERY.seed(), IGNORE_CASE.seed()  # also the widgets' defaults:
    glyphs = st.session_state.setdefault(GLYPHS, True)  # see ui/common/state.py, step 2
    prompt = PROMPTS[mode]
    wordy = mode in ("text", "regex")
    # A row, not columns: the toggles keep their labels whole and the box takes what is left.
    row = st.container(horizontal=True, vertical_alignment="bottom", key="vocab-search-row")
    raw = row.text_input(
        prompt.label,
        query,
        key=QUERY.key,
        placeholder=prompt.placeholder,
        help=prompt.help,
        live=True,
    )
    ignore_case = row.toggle("Ignore case", ignore_case, key=IGNORE_CASE.key, disabled=not wordy)
    read = row.toggle(
        "· is a space",
        glyphs,
        key=GLYPHS,
        disabled=not wordy,
        help="Read the glyphs · → ↵ as space, tab and newline (the box cannot show those). "
        "Off: search for the characters · → ↵ themselves.",
    )
    if not publish_text(QUERY, raw):
        link_leaves_out("search")
    IGNORE_CASE.publish()
    enc = vocab.enc
    query = read_glyphs(raw) if wordy and read else raw
    if not (query if mode == "text" else query.strip()):
        return Listing(
            (enc.name, "all"), vocab.ids, f"All {len(vocab.ids):,} tokens, by id: type to search."
        )
    try:
        result = run_search(Query(vocab, mode, query, wordy and ignore_case))
    except SearchError as exc:
        st.error(f"Cannot search: {literal(str(exc))}.", icon=":material/error:")
        return None
    if result.not_ids:
        st.warning(
            f"Not ids: {quote_some(result.not_ids)}. An id is a whole number from 0 to "
            f"{enc.n_vocab - 1:,}; a range is two, as in 50250-50256."
        )
    if result.unknown:
        which = "id" if len(result.unknown) == 1 else "ids"
        st.warning(f"No token of {enc.name} has the {which} {quote_some(result.unknown)}.")
    described = _describe(mode, query, len(result.ids), wordy and ignore_case)
    return Listing((enc.name, mode, query, wordy and ignore_case), result.ids, described)


def _describe(mode: SearchMode, query: str, count: int, ignore_case: bool) -> str:
    """One Markdown sentence about a search's results; the query is quoted with its glyphs."""
    many = count > 1
    tokens = f"{count:,} tokens" if many else "1 token" if count else "No token"
    shown = inline_code(plain(query.encode("utf-8", "replace")), max_chars=60)
    case = ", ignoring case" if ignore_case else ""
    if mode == "text":
        order = (
            ": the exact match first, then those starting with it, then the rest" if many else ""
        )
        return f"{tokens} {'contain' if many else 'contains'} {shown}{case}{order}."
    if mode == "regex":
        return f"{tokens} {'match' if many else 'matches'} {shown}{case}."
    if mode == "bytes":
        hexed = inline_code(hex_bytes(parse_hex(query)))
        return f"{tokens} {'contain' if many else 'contains'} the bytes {hexed}."
    return f"{tokens} by id."


def _curiosities_panel(vocab: Vocabulary) -> Listing:
    """Counts, a choice of curious lists, and searches for GPT-2's glitch tokens."""
    enc = vocab.enc
    found = vocab.curiosities
    total = len(found.leading_space) + len(found.no_leading_space)
    longest = len(enc.token_bytes(found.longest[0]))
    cells = st.columns(4)
    cells[0].metric("Longest token", f"{longest} bytes")
    cells[1].metric(
        "Not UTF-8 on their own",
        f"{len(found.not_utf8):,}",
        help="Tokens holding part of a character, such as half of an emoji's four bytes.",
    )
    cells[2].metric("With a leading space", f"{len(found.leading_space) / total:.0%}")
    cells[3].metric("Without", f"{len(found.no_leading_space) / total:.0%}")
    st.caption(
        f"Of {total:,} ordinary tokens, {len(found.leading_space):,} start with a space and "
        f"{len(found.no_leading_space):,} do not."
    )
    _glitch_searches(vocab)
    st.segmented_control(
        "List",
        list(LISTS),
        default=LIST.seed(),  # also its default: see ui/common/state.py, step 2
        format_func=LISTS.__getitem__,
        key=LIST.key,
        required=True,
    )
    LIST.publish()
    choice = LIST.value
    ids = getattr(found, choice)
    return Listing((enc.name, "curious", choice), ids, LIST_INFO[choice].format(n=len(ids)))


def _glitch_searches(vocab: Vocabulary) -> None:
    """Buttons that search for the known glitch tokens this vocabulary has."""
    present = [q for q in GLITCH_QUERIES if vocab.id_of(q.encode("utf-8")) is not None]
    if not present:
        return
    st.caption(
        "**Under-trained (“glitch”) tokens**: learned by the tokenizer from text the model "
        "itself barely saw, so models behaved strangely on them. Search for one:"
    )
    with st.container(horizontal=True):
        for query in present:
            st.button(
                inline_code(plain(query.encode("utf-8"))),
                key=f"vocab.glitch_{query}",
                on_click=_search_for,
                args=(query,),
                type="tertiary",
            )


def _search_for(query: str) -> None:
    """Glitch-button callback: a text search for `query`, written as the box reads it."""
    FIND.set("text")
    QUERY.set(write_glyphs(query) if st.session_state.get(GLYPHS, True) else query)


# ---- listing ------------------------------------------------------------------------------------


def _page_of(ids: Sequence[int], token_id: int | None) -> int | None:
    """The page (from 1) of `ids` that holds `token_id`, or None: one scan of the list.

    >>> _page_of(range(250), 120), _page_of(range(250), None), _page_of((), 5)
    (2, None, None)
    """
    if token_id is None:
        return None
    try:
        return ids.index(token_id) // PAGE_SIZE + 1
    except ValueError:
        return None


def _moved(token_id: int | None) -> bool:
    """Whether another token is shown than when the table was last drawn (a parent, a child or
    a row opened it), remembering this one for the next time."""
    before = st.session_state.get(TABLE_TOKEN)
    st.session_state[TABLE_TOKEN] = token_id
    return before is not None and before != token_id


def results_table(vocab: Vocabulary, listing: Listing, token_id: int | None) -> int | None:
    """The listing's current page as a selectable table, and the page picker under it.

    Returns the token to show: `token_id`, the selected one, unless the listing is new and has
    one token only, which is then shown straight away. A listing opens on the page that holds
    the token shown (a link's ``?id=`` then shows its row), else on its first page.
    """
    st.markdown(listing.description)
    if not listing.ids:
        return token_id
    enc = vocab.enc
    if st.session_state.get(LISTING) != listing.key:
        if LISTING in st.session_state:  # another listing than this session's last: start over
            PAGE.reset()
        st.session_state[LISTING] = listing.key
        if len(listing.ids) == 1:
            select(enc, listing.ids[0])
            token_id = listing.ids[0]
    pages = -(-len(listing.ids) // PAGE_SIZE)
    holder = _page_of(listing.ids, token_id)
    home = holder or 1
    page = PAGE.seed(
        lambda page: None if 1 <= page <= pages else f"this list has {counted(pages, 'page')}",
        default=home,
    )
    typed = page  # the box below has no bounds: see there
    if not 1 <= page <= pages:
        page = min(max(page, 1), pages)
        PAGE.set(page)
    if _moved(token_id) and holder is not None and holder != page:
        page = holder  # a parent or child opened: its row, not a page without it
        PAGE.set(page)
    start = (page - 1) * PAGE_SIZE
    ids = listing.ids[start : start + PAGE_SIZE]
    key = f"vocab_table_{abs(hash(listing.key))}_{page}"
    frame = pd.DataFrame(rows(vocab, ids)).astype({"rank": "Int64"})
    st.dataframe(
        frame,
        hide_index=True,
        column_config=column_config(frame),
        column_order=list(COLUMNS),
        placeholder=EMPTY_CELL,
        key=key,
        on_select=partial(_on_row, enc, ids, key),
        selection_mode="single-row",
    )
    if pages > 1:
        picker, where = st.columns([1, 5], vertical_alignment="center")
        # No bounds: the browser kept a page past one to itself, in red, behind an icon that
        # hid its last digits, and the table stayed where it was without a word (and the word
        # on a page typed before, "There is no page 999", stayed under a 0).
        picker.number_input("Page", value=page, key=PAGE.key)  # a whole number, as `page` is
        past = (
            ""
            if typed == page
            else f"There is no page {typed:,}; the {'first' if typed < 1 else 'last'} is shown. "
        )
        # Said on the Curiosities lists themselves, the pointer to them only puzzled.
        whole = (
            ""
            if listing.key[1] == "curious"
            else "; the whole vocabulary's longest or last learned tokens are under Curiosities"
        )
        where.caption(
            f"{past}Tokens {start + 1:,}–{start + len(ids):,} of {len(listing.ids):,} "
            f"({pages:,} pages of {PAGE_SIZE}). A column's header sorts this page only{whole}."
        )
    PAGE.publish(default=home)
    labels = {name: config["label"] or name for name, config in COLUMNS.items()}
    st.download_button(
        download_label(len(listing.ids)),
        data=lambda: listing_csv(vocab, listing.ids, labels),  # made when pressed
        file_name=f"{file_stem(enc.name)}-tokens.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
        key="vocab.csv",
        type="tertiary",
        help="Every token of this list, not only this page, with the table's columns: the "
        "token as shown (· for a space) and its exact bytes in hex.",
    )
    return token_id


# ---- the selected token -------------------------------------------------------------------------


def token_panel(vocab: Vocabulary, token_id: int | None, listed: bool) -> None:
    """The selected token: its card and merge tree, then buttons to its parents and children.

    With none selected, a hint to select one, if the table above has rows (`listed`).
    """
    if token_id is None:
        if listed:
            st.caption(SELECT_A_ROW)
        return
    enc = vocab.enc
    st.header(f"Token {token_id}", anchor=False)
    st.html(token_card_html(vocab, token_id))
    pair = vocab.parents[token_id]
    if pair is not None:
        _open_buttons("Parents", enc, list(dict.fromkeys(pair)), "vocab.parent")
    used = vocab.used_in(token_id)
    if not used:
        st.caption("Used in no token: no merge takes it any further.")
        return
    shown = f", the first {USED_IN_SHOWN}" if len(used) > USED_IN_SHOWN else ""
    title = f"Used in {counted(len(used), 'token')}{shown}"
    _open_buttons(title, enc, list(used[:USED_IN_SHOWN]), "vocab.used_in")


def _open_buttons(title: str, enc: Encoding, ids: list[int], key: str) -> None:
    """A titled row of tokens as buttons; clicking one opens it."""
    st.markdown(f"**{title}**")
    with st.container(horizontal=True, gap="small"):
        for token_id in ids:
            st.button(
                _button_label(enc, token_id),
                key=f"{key}_{token_id}",
                on_click=select,
                args=(enc, token_id),
            )


def _button_label(enc: Encoding, token_id: int) -> str:
    """A token as a button's Markdown label: its text as code (shown verbatim), then its id."""
    return f"{inline_code(plain(enc.token_bytes(token_id)), max_chars=40)} #{token_id}"


# ---- files --------------------------------------------------------------------------------------


def files_panel(enc: Encoding) -> None:
    """Export this vocabulary in every format; import one, which the sidebar then picks."""
    files = st.expander("Vocabulary files: export or import", key="vocab.files", on_change="rerun")
    if not files.open:
        return
    with files:
        left, right = st.columns(2, gap="large")
        with left:
            st.markdown(f"**Export {inline_code(enc.name, 40)}**")
            vocab_panel.export_panel(enc, key="vocab.export")
        with right:
            st.markdown("**Import a vocabulary to explore**")
            vocab_panel.import_panel(key="vocab.import", then=choose_encoding)
