"""A block for HTML this app escaped itself and redraws at every merge step: the whole text.

`st.html` sanitizes and rebuilds its whole block in the browser on every run; for a page of
tokens that cost more than everything else a step does. This Custom Components v2 block keeps
its nodes and patches in only those that changed (ui/components/merges_block.js), which is what
keeps a step of a 2,000-character text fast. Its HTML must come from ui/merges/view.py, which
escapes all user text (tests/ui/merges/test_view.py checks it): nothing sanitizes it here.
"""

from collections.abc import Sequence
from hashlib import blake2b

from ui.components import component

# Page-wide styles (presentation mode) must reach the block, hence isolate_styles=False.
_block = component("merges_block", isolate_styles=False)


def escaped_html_block(html: str, key: str, *, mark: Sequence[int] = ()) -> None:
    """Draw `html` (escaped by ui/merges/view.py) under a stable `key`, so steps patch it.

    The tokens at positions `mark` (``.tok`` and ``.tid`` with those ``data-i``) get the class
    ``mg-made``, and the first is scrolled into view in its pane. A style rule naming them
    would do the same, but a new style sheet at every step restyles every token.
    """
    digest = blake2b(html.encode("utf-8"), digest_size=8).hexdigest()
    _block(key=key, data={"html": html, "digest": digest, "mark": list(mark)})
