"""A page's state in the session and in the address bar, bound by one mechanism: `Param`.

Each page declares its state once, in ``ui/<page>/state.py``, as `Param`s with prefixed session
keys (``merges.step``) and short URL names (``?step=12``). Every piece of state follows the same
life:

1. ``param.seed()`` before its widget is drawn: the first time a session sees the key, the value
   comes from the link if it is valid, else the default — and an invalid value is *named* in a
   notice at the top of the page (`show_notices`), never dropped silently. Later, a value
   Streamlit dropped with its widget (the user went to another page, or a run left the widget
   out) comes back as it was, unless the link now names one.
2. The widget reads and writes ``st.session_state[param.key]``, and has the value `seed`
   returned as its default (``value``, ``index``, ``default``) too: the browser draws a widget
   anew now and then (another mode, a page switch, a run it interrupted) and may send the
   widget's old value in the same run, so the session has it and Streamlit sends the widget no
   value; a widget with no value of its own shows, and next sends, its default. Streamlit logs
   a warning about a default beside a session value, once; it is meant.
3. ``param.publish()`` after the widget: the address bar gets the value, or loses it when it is
   the default, so a fresh link stays short and every view is a link.

Each publish that changes the link is a new entry in the browser's history. Back and Forward
rerun the page with that entry's link, and `follow_history` makes it win over the session.

(Streamlit's own ``bind="query-params"`` writes a widget's *displayed label*, e.g.
``enc=cl100k_base · GPT-4…``, and cannot validate; this keeps ``enc=cl100k_base``.)
"""

import re
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import quote, quote_plus, unquote, unquote_plus, unquote_to_bytes

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from ui.common.glyphs import not_utf8_sequences
from ui.common.limits import MAX_LINK_NOTICES, MAX_URL_TEXT_CHARS, MAX_URL_VALUE_BYTES
from ui.common.messages import counted, inline_code, quote_some

T = TypeVar("T")

_NOTICES = "common.url_notices"  # session state: sentences naming the link's invalid values
_KEPT = "common.kept"  # session state: each seeded key's last value, which no page switch drops
_SESSION_ID = "common.session"  # session state: a random id, made on the session's first ask
_TRUE, _FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no")
_SAME: Any = object()  # "no other default given"
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
_LIST_ESCAPES = re.compile(r"[%,]|^\s|\s$")  # what a list link escapes in a name
_WRITES = "common.link_writes"  # session state: the link's changes not sent yet, url -> value
# Whether the run in this thread is within a `one_history_entry` block.
_IN_BLOCK: ContextVar[bool] = ContextVar("in_history_block", default=False)
_DECLARED: dict[str, "Param[Any]"] = {}  # every Param made, by key (for `follow_history`)


@dataclass(frozen=True)
class Param(Generic[T]):
    """One piece of page state: ``st.session_state[key]``, shared in links as ``?url=…``.

    `parse` reads the URL's text and raises ValueError with a short reason when it is not a
    valid value; `show` writes a value back as URL text. `unlinked_stays` marks a value that a
    link may leave out because it is too long for one (a text, a conversation): going Back to
    a link without it then keeps it (`follow_history`).
    """

    key: str
    url: str
    default: T
    parse: Callable[[str], T]
    show: Callable[[T], str] = str
    unlinked_stays: bool = False

    def __post_init__(self) -> None:
        _DECLARED[self.key] = self

    @property
    def value(self) -> T:
        """The current value (the default before the first `seed`)."""
        return st.session_state.get(self.key, self.default)  # type: ignore[no-any-return]

    def set(self, value: T) -> None:
        """Change the value (before its widget is drawn in this run)."""
        st.session_state[self.key] = value

    def seed(self, check: Callable[[T], str | None] | None = None, default: Any = _SAME) -> T:
        """Give the key its first value: the link's, if valid, else the default.

        `check` adds a test that depends on the page's data (a step number within this text's
        steps) and returns the reason a value is invalid, or None; `default` replaces the
        declared default when it too depends on the data (the chunk with the most merges).
        """
        kept: dict[str, Any] = st.session_state.setdefault(_KEPT, {})
        if self.key not in st.session_state:
            fallback = self.default if default is _SAME else default
            if _link_value(self.url) is None and self.key in kept:
                fallback = self._checked(kept[self.key], check, fallback)
            st.session_state[self.key] = self._from_link(check, fallback)
        kept[self.key] = st.session_state[self.key]
        return self.value

    @staticmethod
    def _checked(value: T, check: Callable[[T], str | None] | None, fallback: T) -> T:
        """`value` if it passes `check` (the page's data may have changed), else `fallback`."""
        return value if check is None or check(value) is None else fallback

    def _from_link(self, check: Callable[[T], str | None] | None, fallback: T) -> T:
        raw = _link_value(self.url)
        if raw is None:
            return fallback
        _name_repeats(self.url)
        reason: str | None
        try:
            value = self.parse(raw)
        except ValueError as exc:
            reason = str(exc)
        else:
            reason = check(value) if check else None
            if reason is None:
                return value
        _notice(self.url, raw, reason, None if fallback is _SAME else self.show(fallback))
        return fallback

    def publish(self, default: Any = _SAME, value: Any = _SAME) -> None:
        """Write the current value (or `value`) to the address bar; the default is left out.

        `default` is the data-dependent default given to `seed`, if there was one.
        """
        default = self.default if default is _SAME else default
        value = self.value if value is _SAME else value
        if value == default and self.spells(default):
            return
        _set_url(self.url, None if value == default else self.show(value))

    def spells(self, default: T) -> bool:
        """Whether the link gives this parameter once, as `default` (``?enc=gpt2``). Such a
        link is left as written: taking the default out of the address made a second history
        entry of one view on the page's first run (the history script is not yet there to fold
        it), and Back went to the first, where the run took it out again."""
        given = _values(self.url)
        if len(given) != 1:
            return False
        try:
            return bool(self.parse(given[0]) == default)
        except ValueError:
            return False

    def linked(self, check: Callable[[T], str | None] | None = None) -> T | None:
        """The link's value now, if it has a valid one (an invalid one is named in a notice).

        For state a page keeps in its own shape rather than under `key` (a selected token).
        """
        if _link_value(self.url) is None:
            return None
        missing: Any = _SAME
        value = self._from_link(check, missing)
        return None if value is _SAME else value  # type: ignore[no-any-return]

    def forget(self) -> None:
        """Take the parameter out of the address bar (the view does not use it now)."""
        _set_url(self.url, None)

    def unused(self, reason: str) -> None:
        """Take a value the page has no use for now out of the address bar, naming it (with
        `reason`) when it came from a link: a value this session set itself goes quietly."""
        raw = _link_value(self.url)
        if raw is None:
            return
        if self.key not in st.session_state.get(_KEPT, {}):
            _notice(self.url, raw, reason, None)
        self.forget()

    def reset(self) -> None:
        """Start over: drop the value, the one kept for it and its link; the next `seed`
        gives the default."""
        st.session_state.pop(self.key, None)
        st.session_state.get(_KEPT, {}).pop(self.key, None)
        self.forget()


def history_navigation() -> bool:
    """Whether this run is the browser's Back or Forward: Streamlit then reruns the app with
    the link of the history entry it went to (each publish that changed the link made one)."""
    ctx = get_script_run_ctx()
    return ctx is not None and ctx.is_history_navigation


def follow_history(page: str) -> None:
    """On a Back or Forward run, show the state of the history entry the browser went to.

    Every `Param` seeds once per session, so without this the page showed its current state
    again and rewrote the entry's link with it. The values of `page` (keys ``page.*``) and of
    every page's sidebar (``common.*``) are dropped, so that `seed` reads them again: from the
    link, or as the default when the link leaves them out. Other pages' values stay.

    A link also leaves out a value too long for it (`Param.unlinked_stays`), so such a value,
    when it is too long for a link, stays: a long text is never lost by going Back.
    """
    if not history_navigation():
        return
    kept: dict[str, Any] = st.session_state.setdefault(_KEPT, {})
    for key, param in list(_DECLARED.items()):  # a copy: another session may add a Param
        if key.partition(".")[0] in (page, "common") and not _stays_unlinked(param):
            st.session_state.pop(key, None)
            kept.pop(key, None)


def typed_urls() -> list[str]:
    """The link names of the values typed into a box (texts), which change as the user types."""
    return sorted({param.url for param in list(_DECLARED.values()) if param.unlinked_stays})


def _stays_unlinked(param: "Param[Any]") -> bool:
    """Whether the link's silence about `param` may mean "too long for me" rather than "the
    default": the link lacks it, and the session holds a value that does not fit in one."""
    if _link_value(param.url) is not None or param.key not in st.session_state:
        return False
    return param.unlinked_stays and not fits_in_link(param.show(st.session_state[param.key]))


def keep_across_pages(*keys: str) -> None:
    """Keep widgets' values that are not in the link (a half-typed form) through a visit to
    another page, which makes Streamlit drop them with their widgets: call before drawing."""
    kept: dict[str, Any] = st.session_state.setdefault(_KEPT, {})
    for key in keys:
        if key in st.session_state:
            kept[key] = st.session_state[key]
        elif key in kept:
            st.session_state[key] = kept[key]


def session_id() -> str:
    """This browser session's id, kept in its own state (public API only).

    Server-wide structures tell sessions apart by it: the training pool its watchers, the
    server's pace the sessions typing at once. Streamlit's own session id sits behind its
    private ``runtime`` package; a random id made once per session does the same job.
    """
    held: str = st.session_state.setdefault(_SESSION_ID, secrets.token_hex(8))
    return held


def key_class(key: str) -> str:
    """The CSS class Streamlit gives the element of the widget or container keyed `key`: every
    character other than a letter, digit, ``_`` or ``-`` made a ``-``, so a page's style or
    script can find it (a dotted key's class holds no dot, which CSS would read as a class).

    >>> key_class("train.vocab"), key_class("chat.add.user")
    ('st-key-train-vocab', 'st-key-chat-add-user')
    """
    return "st-key-" + re.sub(r"[^a-zA-Z0-9_-]", "-", key)


def not_one_of(options: Iterable[str]) -> Any:
    """Raise the ValueError a `parse` raises for a value outside `options` (any return type)."""
    raise ValueError(f"not one of {', '.join(options)}")


def choice(key: str, url: str, options: Sequence[str], default: str) -> Param[str]:
    """One of `options` (``?color=id``)."""

    def parse(raw: str) -> str:
        if raw not in options:
            raise ValueError(f"not one of {', '.join(options)}")
        return raw

    return Param(key, url, default, parse)


def picked(key: str, url: str) -> Param[str]:
    """One of a list only the page knows (``?show=verdict-1k``: a vocabulary of the session);
    the page's `seed` check says whether it is. Unlike a `text`, picking another is a view of
    its own, with its own history entry (a typed text replaces its entry as it changes)."""
    return Param(key, url, "", str)


def flag(key: str, url: str, default: bool = False) -> Param[bool]:
    """On or off (``?ws=1``; also true/false, on/off, yes/no)."""

    def parse(raw: str) -> bool:
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise ValueError("not 1 or 0")

    return Param(key, url, default, parse, lambda value: str(int(value)))


def text(key: str, url: str, default: str = "") -> Param[str]:
    """A text (``?text=…``); links keep at most `MAX_URL_TEXT_CHARS` characters of it, and a
    longer one (made by hand: the app never writes one) is cut with a notice that says so."""

    def parse(raw: str) -> str:
        if len(raw) > MAX_URL_TEXT_CHARS:
            name_invalid(
                url,
                raw,
                f"{len(raw):,} characters, more than a link holds; showing the first "
                f"{MAX_URL_TEXT_CHARS:,}",
            )
        if bad := _not_utf8_in_link(url, raw):
            name_invalid(
                url,
                raw,
                f"{counted(bad, 'escaped byte sequence')} in it {'is' if bad == 1 else 'are'} not "
                "UTF-8 (a link cut short, or written in another encoding); each shows as U+FFFD �",
            )
        return raw[:MAX_URL_TEXT_CHARS]

    return Param(key, url, default, parse, unlinked_stays=True)


def _not_utf8_in_link(url: str, raw: str) -> int:
    """How many of the byte sequences that ``?url=`` escapes in the link as the browser sent it
    are not UTF-8, if `raw` is that value as Streamlit read it.

    Streamlit reads each such sequence (``caf%E9``: "café" in Latin-1; a link cut inside a
    character) as a U+FFFD, and the text shows a "�" nobody typed. 0 for a value this run wrote.
    """
    ctx = get_script_run_ctx()
    fields = [] if ctx is None else ctx.query_string.split("&")
    pairs = (field.partition("=") for field in fields)  # names read as Streamlit reads them
    given = [value for name, _, value in pairs if unquote_plus(name) == url]
    if not given:
        return 0
    bad = not_utf8(given[-1])  # the last one counts, as in `_link_value`
    return bad if bad and unquote_plus(given[-1]) == raw else 0


def not_utf8(escaped: str) -> int:
    """How many byte sequences of a link's %-escaped value are not UTF-8 (each became one U+FFFD
    where it was read).

    >>> not_utf8("caf%C3%A9"), not_utf8("caf%E9"), not_utf8("%E2%82+and+%FF%FE"), not_utf8("100%")
    (0, 1, 3, 0)
    """
    return not_utf8_sequences(unquote_to_bytes(escaped.replace("+", " ")))


def number(key: str, url: str, default: int, *, lowest: int = 0) -> Param[int]:
    """A whole number from `lowest` up (``?step=12``); its upper bound is the page's `check`."""

    def parse(raw: str) -> int:
        # ASCII digits only: int() would also read "3_0" as 30 and "٣" as 3.
        if not _WHOLE_NUMBER.fullmatch(raw.strip()):
            raise ValueError("not a whole number")
        value = int(raw)
        if value < lowest:
            raise ValueError(f"below {lowest}")
        return value

    return Param(key, url, default, parse)


def names(key: str, url: str) -> Param[list[str]]:
    """A list of names (``?encs=gpt2,cl100k_base``); the page checks them against its choices.

    Its default depends on the page's data, so `seed` and `publish` are given one. Any name
    comes back whole, commas and edge spaces too (a special token ``<|a,b|>``): `_list_item`.
    """

    def parse(raw: str) -> list[str]:
        parts = (part.strip() for part in raw.split(","))
        found = list(dict.fromkeys(unquote(part) for part in parts if part))
        if not found:
            raise ValueError("no names")
        return found

    return Param(key, url, [], parse, lambda found: ",".join(map(_list_item, found)))


def _list_item(name: str) -> str:
    """A name as a list link holds it: its commas, its percent signs and the whitespace at its
    ends percent-encoded, so that splitting at commas, stripping and unquoting give it back.
    A hand-typed ``encs=gpt2, cl100k_base`` still reads as two names.

    >>> _list_item("<|a,b|>"), _list_item(" 50% "), _list_item("gpt2")
    ('<|a%2Cb|>', '%2050%25%20', 'gpt2')
    """
    return _LIST_ESCAPES.sub(lambda found: quote(found[0], safe=""), name)


def segmented(param: Param[str], label: str, choices: Mapping[str, str]) -> str:
    """`param`'s whole life as a segmented control (seed, draw, publish); returns its value.

    `choices` maps each value to its label. The control always has a value (the label is
    hidden: the options say what they are), so a page's modes read the same way everywhere.

    What the control holds is its default as well (step 2 above): the Train page's settings
    lost their values without it.
    """
    st.segmented_control(
        label,
        list(choices),
        default=param.seed(),
        format_func=choices.__getitem__,
        key=param.key,
        required=True,
        label_visibility="collapsed",
    )
    param.publish()
    return param.value


def seed_following(param: Param[list[str]], default: list[str], allowed: Sequence[str],
                   limit: int) -> None:  # fmt: skip
    """Seed a list of names that follows its default until the user edits it.

    The default can change under the page (a new vocabulary joins "GPT-2 against the latest
    vocabulary"): a list still equal to the default it was given follows to the new one. Names
    no longer `allowed` are dropped (a link's are named in a notice), and at most `limit` are
    kept (a link that asks for more is named in a notice too).
    """
    first = param.key not in st.session_state
    current = keep_known(param, seed_following_default(param, default, known_only(allowed)),
                         allowed, first)  # fmt: skip
    if first and len(current) > limit and (raw := _link_value(param.url)) is not None:
        reason = f"at most {limit} at once; showing {', '.join(current[:limit])}"
        name_invalid(param.url, raw, reason)
    param.set(current[:limit])


def at_most(upper: int, owner: str, what: str) -> Callable[[int], str | None]:
    """A `Param.seed` check for a number from 0 to `upper`, which every page words alike.

    >>> at_most(143, "this text", "step")(144)
    'this text has 144 steps (0 to 143)'
    """

    def check(value: int) -> str | None:
        return (
            None if value <= upper else f"{owner} has {counted(upper + 1, what)} (0 to {upper:,})"
        )

    return check


def no_such(names: list[str]) -> str:
    """Why a link's names are not used, when the page has none of that name (the usual case).

    The names are quoted as code: they are the link's, and as Markdown, ``**x**`` was bold and
    ``[x](http://…)`` a link the notice drew.

    >>> no_such(["zzz", "**yyy**"])
    'no `zzz`, `**yyy**` here'
    """
    return f"no {quote_some(names)} here"


def known_only(
    allowed: Sequence[str], why: Callable[[list[str]], str] = no_such
) -> Callable[[list[str]], str | None]:
    """A `seed` check for a list of names: refused (the default instead) only when none of them
    is `allowed`; otherwise `keep_known` drops the unknown ones and keeps the rest. `why` says
    why names are not used, in the notice."""

    def check(picked: list[str]) -> str | None:
        if any(name in allowed for name in picked):
            return None
        return why(picked)

    return check


def keep_known(param: Param[list[str]], picked: list[str], allowed: Sequence[str], first: bool,
               why: Callable[[list[str]], str] = no_such) -> list[str]:  # fmt: skip
    """The names of `picked` that are `allowed`. Those that are not, when they come from the link
    (the `first` seed), are named in a notice: a shared link with one vocabulary the server no
    longer holds keeps the others."""
    kept = [name for name in picked if name in allowed]
    unknown = [name for name in picked if name not in allowed]
    if unknown and first and (raw := _link_value(param.url)) is not None:
        reason = f"{why(unknown)}; showing {', '.join(kept)}"
        name_invalid(param.url, raw, reason)
    return kept


def seed_following_default(
    param: Param[T], default: T, check: Callable[[T], str | None] | None = None
) -> T:
    """Seed a value whose default depends on the page's data, and that follows that default
    while the user has not changed it (the Chat view's template follows the encoding's own
    until the user picks another)."""
    followed = f"{param.key}.followed"
    current = param.seed(check, default)
    if current == st.session_state.get(followed):
        current = default
    st.session_state[followed] = default
    param.set(current)
    return current


def publish_text(param: Param[str], value: str) -> bool:
    """Put a text in the link if it fits; False (and the parameter left out) when it is too long.

    The page says so ("this text is too long for a link") rather than share a truncated text.
    """
    return publish_fitting(param, value)


def publish_fitting(param: Param[T], value: T) -> bool:
    """`publish_text` for any value: its link text (`param.show`) if it fits, else nothing."""
    shown = param.show(value)
    fits = fits_in_link(shown)
    if value == param.default and param.spells(param.default):
        return True
    _set_url(param.url, shown if fits and value != param.default else None)
    return fits


def fits_in_link(shown: str) -> bool:
    """Whether a value fits in a link: `MAX_URL_TEXT_CHARS` characters, and
    `MAX_URL_VALUE_BYTES` once encoded as the address bar holds it (``+`` for a space, three
    bytes for each UTF-8 byte of any other character but letters, digits and ``_.-~``).

    >>> fits_in_link("a b" * 600), fits_in_link("日本" * 600)
    (True, False)
    """
    return len(shown) <= MAX_URL_TEXT_CHARS and len(quote_plus(shown)) <= MAX_URL_VALUE_BYTES


def name_invalid(param: str, raw: str, reason: str) -> None:
    """Name a link value the page cannot use, for state that is not a `Param` (a vocabulary id)."""
    _notice(param, raw, reason.rstrip("."), None)


def show_notices() -> None:
    """Name the link's invalid values at the top of the page until the user closes the notice."""
    notices: list[str] = st.session_state.get(_NOTICES, [])
    if not notices:
        return
    named = notices[:MAX_LINK_NOTICES]
    if len(notices) > len(named):
        named.append(f"- and {counted(len(notices) - len(named), 'more value')} it cannot use.")
    box = st.container(border=True, key="common_url_notice")
    box.warning("Some values in this link could not be used as written:\n\n" + "\n".join(named))
    box.button("Dismiss", key="common_url_notice_close", on_click=_dismiss, type="tertiary")


def _dismiss() -> None:
    st.session_state[_NOTICES] = []


def _notice(param: str, raw: str, reason: str, fallback: str | None) -> None:
    instead = "" if fallback is None else f"; showing {inline_code(fallback, max_chars=40)} instead"
    sentence = f"- {inline_code(f'{param}={raw}', max_chars=60)}: {reason}{instead}."
    notices: list[str] = st.session_state.setdefault(_NOTICES, [])
    if sentence not in notices:
        notices.append(sentence)


def _name_repeats(param: str) -> None:
    """Name the values of a parameter a link gives more than once but the last, which counts
    (``?enc=gpt2&enc=cl100k_base`` shows cl100k_base): a link that silently ignored half of
    what it says would look broken."""
    given = _values(param)
    for raw in given[:-1]:
        _notice(
            param, raw, f"the link gives {param} {len(given)} times and the last one counts", None
        )


def _set_url(param: str, wanted: str | None) -> None:
    """Set ``?param=wanted``, or remove it for None; untouched if already so (no URL churn).

    A parameter given several times is set to its one value even when the last one is it.
    The link changes when the run's `one_history_entry` block ends."""
    if _values(param) != ([] if wanted is None else [wanted]):
        st.session_state.setdefault(_WRITES, {})[param] = wanted


@contextmanager
def one_history_entry() -> Iterator[None]:
    """Send what a run writes to the link as one change, when the run ends.

    Each change to ``st.query_params`` is a message of its own, and the browser makes each
    one an entry in its history: a run that set the search and took out the table's page made
    two, and Back went to the half-way one. So `_set_url` only notes its change (everything
    here reads the link with the changes noted), and this block, around every run (the
    frame's, a fragment's), sends them in one go. Changes noted by callbacks, which Streamlit
    calls before the run, go with the run's. A block within a block (a fragment drawn by the
    page's run) adds nothing. A run that ends for another run (``st.rerun``, a page switch)
    sends nothing: that run writes the link anew, and another page's must not get this one's.
    """
    if _IN_BLOCK.get():
        yield
        return
    token = _IN_BLOCK.set(True)
    try:
        yield
    except BaseException:
        st.session_state.pop(_WRITES, None)
        raise
    finally:
        _IN_BLOCK.reset(token)
    writes: dict[str, str | None] = st.session_state.pop(_WRITES, {})
    sent = {name: st.query_params.get_all(name) for name in st.query_params}
    link = dict(sent)
    for name, wanted in writes.items():
        if wanted is None:
            link.pop(name, None)
        else:
            link[name] = [wanted]
    if link != sent:
        st.query_params.from_dict(link)


def _link_value(url: str) -> str | None:
    """The link's value of ``?url=`` as this run has written it (the last one if repeated)."""
    values = _values(url)
    return values[-1] if values else None


def _values(url: str) -> list[str]:
    """Every value of ``?url=`` in the link, with the changes noted but not yet sent."""
    writes: dict[str, str | None] = st.session_state.get(_WRITES, {})
    if url not in writes:
        return st.query_params.get_all(url)
    wanted = writes[url]
    return [] if wanted is None else [wanted]
