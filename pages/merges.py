"""Merges (url "/merges"): every BPE merge of a text, step by step, with every pair's rank.

Stage 1 (the regex chunks, ui/merges/chunks.py) is drawn with the page; stages 2 and 3 are the
player, a fragment, so that stepping redraws only them (ui/merges/player.py). Presentation mode
(``?present=1``) lays the same parts out on one screen.
"""

import streamlit as st

from ui.common.copy_button import copy_link_button
from ui.common.navigation import require_frame
from ui.common.sidebar import current_encoding
from ui.common.tokens import normalised_note, specials_as_text
from ui.merges import chunks, player
from ui.merges.head import head
from ui.merges.keys import player_keys
from ui.merges.state import CHUNK, SPECIALS_HERE

require_frame()

enc = current_encoding()
text, presenting = head(enc)
walk = player.walkthrough(enc, text)
if not presenting and (note := normalised_note(enc, text, walk.text)):
    st.caption(note)  # Qwen's NFC: the chunks and the whole text below are of the composed text
if not presenting and (note := specials_as_text([enc], walk.text, SPECIALS_HERE)):
    st.caption(note)
if not walk.chunks:
    # Not st.stop(): the link's notices are drawn above the page once it has run.
    player.unused_selection("there is no text here to step through")
    st.info("Type some text above to see it merge.")
else:
    player.sync_selection(walk, enc, presenting)
    chunks.chunk_picker(walk, enc, presenting=presenting)
    if presenting:
        player.presentation_player(walk, enc)
    else:
        player.player(walk, enc)
        copy_link_button("merges.copy_link")
    player_keys(CHUNK.value)
