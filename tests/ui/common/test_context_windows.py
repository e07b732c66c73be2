"""The context-window table and sentence."""

from pathlib import Path

import tokenizer as tk
from ui.common import context_windows
from ui.common.context_windows import WINDOWS, share, window, window_sentence, windows_of


def test_every_row_is_a_positive_size_named_once_and_sourced() -> None:
    keys = [(w.encoding, w.model) for w in WINDOWS]
    assert len(keys) == len(set(keys))
    assert all(w.tokens > 0 for w in WINDOWS)
    source = Path(context_windows.__file__).read_text(encoding="utf-8")
    table = source[source.index("WINDOWS:") : source.index("\n)\n")].splitlines()[1:]
    # Every row follows a comment saying where its size comes from (rows of one source share it).
    last = ""
    for line in map(str.strip, table):
        if line.startswith("ContextWindow("):
            assert last.startswith(("#", "ContextWindow(")), line
        last = line
    assert sum(line.strip().startswith("ContextWindow(") for line in table) == len(WINDOWS)


def test_every_bundled_encoding_has_a_preset() -> None:
    for name in tk.list_encodings():
        assert windows_of(name), name


def test_the_preset_is_the_first_model_and_another_can_be_asked_for() -> None:
    assert window("o200k_base") == WINDOWS[5]
    assert window("o200k_base", "o3") is not None and window("o200k_base", "o3").tokens == 200_000
    assert window("trained-here") is None and window_sentence(5, "trained-here") is None


def test_shares_read_well_from_one_token_to_many_windows() -> None:
    assert [share(n, 1_000) for n in (0, 1, 5, 25, 999, 1_000, 12_345)] == [
        "0%",
        "0.1%",
        "0.5%",
        "2.5%",
        "100%",
        "100%",
        "1,234%",
    ]
    assert share(1, 1_047_576) == "<0.01%"
    assert window_sentence(1, "gpt2") == "1 token — 0.1% of GPT-2's context window (1,024)"
