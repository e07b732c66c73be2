"""BPE Lens: see how byte-level BPE turns text into tokens.

A thin router: the frame (page config, navigation over pages/, the sidebar's encoding picker that
every page reads, notices about the link) lives in ui/common/navigation.py.

Streamlit runs this file as ``__main__``. The guard matters for the training process
(ui/train/worker.py): "spawn" imports the parent's main module again, as ``__mp_main__``, and
without it every training would first draw the whole app there, outside any Streamlit run.
"""

from ui.common.navigation import frame

if __name__ == "__main__":
    frame()
