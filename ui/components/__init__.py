"""The app's Custom Components v2, each a few small HTML / CSS / JS files in this folder."""

from pathlib import Path
from typing import Any

import streamlit as st

_HERE = Path(__file__).parent


def script(stem: str) -> str:
    """The text of ``<stem>.js`` here: a script several components put in front of their own."""
    return (_HERE / f"{stem}.js").read_text(encoding="utf-8")


def component(stem: str, **options: Any) -> Any:
    """Declare component ``bpe_lens.<stem>`` from ``<stem>.html``, ``.css`` and ``.js`` here.

    A part whose file does not exist is left out (a component may be script only); a part given
    in `options` replaces its file (a component that adds a shared script to its own). The
    script's ``export default function`` becomes ``render``, which `_ONE_RUN` exports wrapped
    so that each run of it undoes the previous one (one_run.js says why).
    """
    parts: dict[str, Any] = {
        kind: (_HERE / f"{stem}.{kind}").read_text(encoding="utf-8")
        for kind in ("html", "css", "js")
        if (_HERE / f"{stem}.{kind}").exists()
    }
    parts |= options
    if "js" in parts:
        parts["js"] = one_run(parts["js"])
    return st.components.v2.component(f"bpe_lens.{stem}", **parts)


def one_run(js: str) -> str:
    """A component's script with its default export undoing its previous run first."""
    if js.count(_EXPORT) != 1:
        raise ValueError(f"a component's script needs exactly one '{_EXPORT}'")
    return js.replace(_EXPORT, "const render = function") + _ONE_RUN


_EXPORT = "export default function"
_ONE_RUN = (_HERE / "one_run.js").read_text(encoding="utf-8")
