"""An HTML block for HTML this app escaped itself, redrawn often: the merges page's whole text.

`st.html` runs every block through a sanitizer in the browser, which on a page of tokens costs
more than everything else a merge step does. The merges page's HTML is built by
ui/merges_view.py, which escapes all user text (tests/ui/test_merges_view.py checks it), so
this Custom Components v2 block sets it directly. Never pass it HTML that is not built that way.
"""

from hashlib import blake2b
from pathlib import Path

import streamlit as st

_block = st.components.v2.component(
    "bpe_lens.merges_block",
    js=(Path(__file__).parent / "components" / "merges_block.js").read_text(encoding="utf-8"),
    isolate_styles=False,  # page-wide styles (presentation mode) must reach the block
)


def escaped_html_block(html: str, key: str, *, mark_token: int | None = None) -> None:
    """Draw `html` (already escaped by this app) under a stable `key`, so steps patch it.

    Tokens (``.tok``) with id `mark_token` get the class ``mg-made``. A style rule naming the
    id would do the same, but a new style sheet at every step restyles every token.
    """
    digest = blake2b(html.encode("utf-8"), digest_size=8).hexdigest()
    _block(key=key, data={"html": html, "digest": digest, "mark": mark_token})
