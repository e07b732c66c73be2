"""Every widget of every page has what it holds as its default too (ui/common/state.py, step 2).

A browser that draws a widget anew with no value of its own shows its default and sends it with
the next run; that emptied a chat message typed just before leaving the Chat view, and trained
without the special tokens the user had picked. So on pages opened with links that set values
other than the defaults, each widget's default must be the value it has.
"""

import re
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Widget

from tests.app.helpers import APP, rerun

ICON = re.compile(r"^:material/[a-z_]+: ")

# (page, the link's values): every widget a link can set, set away from its default.
LINKS = [
    ("playground", {"enc": "gpt2", "color": "id", "ws": "1", "special": "1", "chunks": "1"}),
    ("playground", {"mode": "decode", "ids": "15339 1917", "ws": "1"}),
    ("playground", {"mode": "chat", "template": "llama3", "prompt": "0"}),
    ("merges", {"text": "hello there", "by": "text", "pieces": "hex", "chunk": "1", "step": "2"}),
    ("merges", {"text": "hello there", "present": "1", "chunk": "1"}),
    ("vocab", {"find": "regex", "q": "ab", "ic": "1"}),
    ("vocab", {"find": "curious", "list": "last_learned"}),
    ("compare", {"ws": "1", "encs": "gpt2,o200k_base"}),
    ("compare", {"tab": "languages", "metric": "tokens", "groups": "code", "langs": "gpt2"}),
    ("train", {"source": "paste", "text": "aaa bbb", "size": "300", "name": "mine"}),
    ("train", {"pattern": "custom", "regex": "\\w+|[\\s\\S]", "specials": "<|x|>"}),
]


def value_and_default(widget: Widget) -> tuple[Any, Any]:
    """The widget's value and its default in the same terms (indices for a choice)."""
    proto: Any = widget.proto
    kind = type(widget).__name__
    if kind in ("Selectbox", "Radio"):
        held: Any = widget.index  # type: ignore[attr-defined]
        return held, proto.default if proto.HasField("default") else None
    if kind == "ButtonGroup":  # a label's leading icon is an option's icon, not its content
        contents = [option.content for option in proto.options]
        shown = [ICON.sub("", v) for v in widget.formatted_values]  # type: ignore[attr-defined]
        return [contents.index(v) for v in shown], list(proto.default)
    if kind == "Multiselect":
        return list(widget.indices), list(proto.default)  # type: ignore[attr-defined]
    if kind == "Slider":
        value = widget.value
        return list(value) if isinstance(value, tuple) else [value], list(proto.default)
    return widget.value, proto.default


def widgets(at: AppTest) -> list[Widget]:
    kinds = ("text_input", "text_area", "toggle", "checkbox", "selectbox", "multiselect",
             "button_group", "number_input", "slider", "radio")  # fmt: skip
    return [w for kind in kinds for w in getattr(at, kind)]


@pytest.mark.parametrize(("page", "link"), LINKS, ids=lambda v: str(v))
def test_each_widget_has_its_value_as_its_default(page: str, link: dict[str, str]) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page(f"pages/{page}.py")
    for key, value in link.items():
        at.query_params[key] = value
    rerun(at)
    assert not at.warning, [w.value for w in at.warning]  # the link's values are all valid
    held = {w.key or w.label: value_and_default(w) for w in widgets(at)}
    assert held, "no widgets drawn"
    differ = {key: pair for key, pair in held.items() if pair[0] != pair[1]}
    assert not differ, f"(value, default) of each widget whose default is not its value: {differ}"
