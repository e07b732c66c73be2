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
    in `options` replaces its file (a component that adds a shared script to its own).
    """
    parts: dict[str, Any] = {
        kind: (_HERE / f"{stem}.{kind}").read_text(encoding="utf-8")
        for kind in ("html", "css", "js")
        if (_HERE / f"{stem}.{kind}").exists()
    }
    return st.components.v2.component(f"bpe_lens.{stem}", **(parts | options))
