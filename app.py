"""BPE Lens: see how byte-level BPE turns text into tokens.

A thin router. Each page is one file in pages/; to add one, append an `st.Page` to PAGES.
The sidebar's encoding picker is drawn here so it is the same widget on every page; pages read
it with `ui.sidebar.current_encoding()`.
"""

import streamlit as st

from ui.sidebar import encoding_picker

st.set_page_config(
    page_title="BPE Lens",
    page_icon=":material/data_array:",
    layout="wide",
    initial_sidebar_state="expanded",
)

PAGES = [
    st.Page("pages/playground.py", title="Playground", icon=":material/keyboard:", default=True),
    st.Page("pages/merges.py", title="Merges", url_path="merges", icon=":material/merge:"),
    st.Page("pages/train.py", title="Train", url_path="train", icon=":material/model_training:"),
    st.Page("pages/compare.py", title="Compare", url_path="compare", icon=":material/compare:"),
    st.Page("pages/vocab.py", title="Vocabulary", icon=":material/menu_book:", url_path="vocab"),
]

page = st.navigation(PAGES)
encoding_picker()
page.run()
