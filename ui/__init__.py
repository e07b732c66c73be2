"""Rendering and Streamlit glue for BPE Lens.

Pure modules (no Streamlit import; unit-tested in tests/ui): `palette`, `glyphs`, `token_view`,
`ids_input`, `stats`, `examples`, `limits`. Streamlit-aware modules: `encodings` (loading and the
encoding list), `sidebar`, `live_input` and `copy_link` (Custom Components v2 widgets).
"""
