"""What the app's data grids (``st.dataframe``) show in a cell that has no value.

A missing value (None, NaN or pd.NA alike) is drawn as the word "None" unless the grid is given a
`placeholder`, and there it reads like a value: a byte's parents, a code sample's premium over
English. Every ``st.dataframe`` passes ``placeholder=EMPTY_CELL``; its CSV download writes such a
cell empty too (`ui.common.spreadsheet`).
"""

EMPTY_CELL = ""
