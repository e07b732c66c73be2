"""Train (url "/train"): train a byte-level BPE vocabulary, replay it, take it with you.

Corpus and settings in (ui/train/sections.py), or, presenting (``?present=1``), only the replay
of the vocabulary on show; the shared training pool (ui/train/session.py)
trains in the background while a fragment shows progress; ui/train/panels.py draws the replay,
table and export / import.
"""

from ui.common.navigation import require_frame
from ui.train import sections

require_frame()

presented = sections.presented()
if presented is not None:  # presentation mode: the replay on one screen
    sections.presentation_section(presented)
else:
    sections.title_row()
    corpus = sections.corpus_section()
    sections.train_section(corpus)
    sections.vocabularies_section(corpus)
