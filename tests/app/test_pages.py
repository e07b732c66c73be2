"""Every page renders without an exception, is registered, and names its link's invalid values."""

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, ROOT, open_app, rerun
from ui.common.sidebar import unbroken

NAVIGATION = ROOT / "ui" / "common" / "navigation.py"

PAGE_FILES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))


@pytest.mark.parametrize("page", PAGE_FILES)
def test_page_is_in_the_navigation(page: str) -> None:
    assert f'"{page}"' in NAVIGATION.read_text(encoding="utf-8"), f"{page} is not an st.Page"


@pytest.mark.parametrize("page", PAGE_FILES)
def test_page_renders_without_exception(page: str) -> None:
    at = open_app()
    at.switch_page(page)
    rerun(at)
    assert at.selectbox(key="common.enc").value == "gpt2"


def test_the_encoding_picker_offers_every_bundled_encoding_and_names_its_models() -> None:
    at = open_app(enc="o200k_base")
    # Name and family in the box, so none is cut off; the models of the chosen one, with their
    # context windows, are written under it.
    assert at.selectbox(key="common.enc").options == [
        "gpt2 · OpenAI",
        "cl100k_base · OpenAI",
        "o200k_base · OpenAI",
        "o200k_harmony · OpenAI",
        "llama3 · Meta",
        "qwen3 · Qwen",
    ]
    assert at.selectbox(key="common.enc").value == "o200k_base"
    assert "GPT-4o, GPT-4.1, GPT-5, o1, o3" in at.sidebar.caption[0].value
    assert unbroken("GPT-4o 128,000") in at.sidebar.caption[0].value  # kept on one line
    assert "GPT-4, GPT-3.5-turbo" in at.selectbox(key="common.enc").help


def on_page(page: str, **query: str) -> AppTest:
    """A fresh session opened through app.py with `query` in the link, then on `page`."""
    at = open_app(**query)
    if page != "playground":
        at.switch_page(f"pages/{page}.py")
        rerun(at)
    return at


@pytest.mark.parametrize(
    ("page", "query", "named"),
    [
        ("playground", {"color": "rainbow", "ws": "maybe"}, ["color=rainbow", "ws=maybe"]),
        ("merges", {"step": "NaN", "by": "<b>"}, ["step=NaN", "by=<b>"]),
        ("merges", {"step": "1_0", "chunk": "\u0663"}, ["step=1_0", "chunk=\u0663"]),  # not 10, 3
        ("train", {"size": "99999999", "corpus": "nope"}, ["size=99999999", "corpus=nope"]),
        ("compare", {"tab": "nope", "encs": "mystery"}, ["tab=nope", "encs=mystery"]),
        ("vocab", {"find": "nope", "ic": "x"}, ["find=nope", "ic=x"]),
        ("vocab", {"find": "curious", "list": "nope"}, ["list=nope"]),
        # Values the page has no use for yet: no vocabulary trained, no text to step through.
        ("train", {"show": "nope", "step": "5", "view": "zz"}, ["show=nope", "step=5", "view=zz"]),
        ("merges", {"text": "", "chunk": "2", "step": "3"}, ["chunk=2", "step=3"]),
    ],
)
def test_invalid_link_values_are_named_in_a_notice(
    page: str, query: dict[str, str], named: list[str]
) -> None:
    """Every page names each value of its link it cannot use, never dropping one silently."""
    notice = " ".join(w.value for w in on_page(page, **query).warning)
    assert "Some values in this link could not be used as written" in notice
    for value in named:
        assert value in notice, f"{value} not named on {page}: {notice!r}"


@pytest.mark.parametrize(
    ("page", "query", "unused"),
    [
        ("train", {"show": "nope", "step": "5", "view": "vocabulary"}, ["show", "step", "view"]),
        ("merges", {"text": "", "chunk": "2", "step": "3", "by": "text"}, ["chunk", "step"]),
    ],
)
def test_values_a_page_cannot_use_yet_leave_its_link(
    page: str, query: dict[str, str], unused: list[str]
) -> None:
    """Named once, then gone: a link copied from the page does not carry them on."""
    at = on_page(page, **query)
    assert all(name not in at.query_params for name in unused), dict(at.query_params)
    assert all(
        at.query_params.get(name) == value for name, value in query.items() if name not in unused
    )


def test_a_value_a_link_gives_twice_is_named_and_the_last_one_counts() -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["enc"] = ["gpt2", "cl100k_base"]
    at.query_params["text"] = "hi"
    rerun(at)
    assert at.session_state["common.enc"] == "cl100k_base"
    notice = " ".join(w.value for w in at.warning)
    assert "enc=gpt2" in notice and "gives enc 2 times and the last one counts" in notice
    assert "enc=cl100k_base" not in notice
    assert at.query_params["enc"] == "cl100k_base"  # one value left in the address bar


@pytest.mark.parametrize(
    ("query", "key", "kept", "named"),
    [
        (
            {"encs": "gpt2,zzz,cl100k_base"},
            "compare.encs",
            ["gpt2", "cl100k_base"],
            "no `zzz` here",
        ),
        (
            {"encs": "gpt2,**B1** [L1](e.com),cl100k_base"},
            "compare.encs",
            ["gpt2", "cl100k_base"],
            "no `**B1** [L1](e.com)` here",  # as typed, in code: not bold, not a link
        ),
        (
            {"tab": "languages", "groups": "language,_I1_"},
            "compare.lang_groups",
            ["language"],
            "no sample group `_I1_` here",
        ),
        (
            {"tab": "languages", "groups": "language,yours,tricky"},
            "compare.lang_groups",
            ["language", "tricky"],
            "samples of your own are not in links",
        ),
    ],
)
def test_a_list_in_a_link_keeps_the_names_this_page_has(
    query: dict[str, str], key: str, kept: list[str], named: str
) -> None:
    """One unknown name (a vocabulary the server dropped, a sample group not made yet) is
    named and left out; the rest of the list is kept, not replaced by the default."""
    at = on_page("compare", **query)
    assert at.session_state[key] == kept
    notice = " ".join(w.value for w in at.warning)
    assert named in notice and f"showing {', '.join(kept)}" in notice


@pytest.mark.parametrize("page", ["playground", "merges", "compare"])
@pytest.mark.parametrize(("text", "in_link"), [("日本語" * 300, False), ("abc " * 450, True)])
def test_a_text_is_in_the_link_only_if_a_proxy_would_take_the_link(
    page: str, text: str, in_link: bool
) -> None:
    """900 CJK characters are 8,100 bytes once percent-encoded: more than nginx's default
    request line takes, though fewer than 2,000 characters."""
    at = on_page(page)
    at.session_state[f"{page}.text"] = text
    rerun(at)
    assert (at.query_params.get("text") == text) is in_link
    captions = " ".join(c.value for c in at.caption)
    assert (
        "This text is too long for a link, so a link or a reload leaves it out." in captions
    ) is (not in_link)
