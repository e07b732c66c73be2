"""Vocabulary (url "/vocab"): search any vocabulary, see how each token was built and used.

The index comes from tokenizer/vocab.py (built once per vocabulary, ui/vocab/data.py), the
widgets from ui/vocab/widgets.py, the token card and merge tree from ui/vocab/view.py.
"""

from ui.common.copy_button import copy_link_button
from ui.common.heading import page_head
from ui.common.messages import inline_code
from ui.common.navigation import require_frame
from ui.common.registry import encoding_label
from ui.common.sidebar import current_encoding
from ui.vocab.data import vocabulary
from ui.vocab.widgets import (
    files_panel,
    find_panel,
    results_table,
    selected_token,
    token_panel,
)

require_frame()

SOURCES = {
    "merges": "read from its merge list",
    "ranks": "recovered by running BPE on each token's bytes with only the earlier ranks, "
    "as this vocabulary ships ranks, not merges",
}

enc = current_encoding()
vocab = vocabulary(enc)
head = page_head(
    "Vocabulary",
    f"Every token of {inline_code(encoding_label(enc.name), 80)}, the two tokens it was merged "
    f"from ({SOURCES[vocab.source]}), and the tokens it is part of.",
)
with head:
    copy_link_button("vocab.copy_link")  # the search, the token shown
token_id = selected_token(vocab)
listing = find_panel(vocab)
if listing is not None:
    token_id = results_table(vocab, listing, token_id)
token_panel(vocab, token_id, listed=listing is not None and bool(listing.ids))
files_panel(enc)
