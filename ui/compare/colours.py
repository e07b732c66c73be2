"""Which of the palette's hues (and the charts' shapes) stands for each encoding on Compare.

Fixed per encoding, not by the order picked: the Languages charts and the boundary diff gave
the first encoding picked the first hue, so one tokenizer was a red triangle in one view and a
green diamond in the next, and two screenshots of the page disagreed. Each bundled encoding
keeps its own slot; a vocabulary trained or imported here takes the first slot that no
encoding shown holds.
"""

from collections.abc import Sequence

import tokenizer as tk
from ui.common.palette import HUES


def slots(chosen: Sequence[str]) -> list[int]:
    """Each chosen encoding's slot: an index into `HUES` (and the charts' shapes).

    >>> slots(["llama3", "gpt2"]), slots(["gpt2", "llama3"])
    ([4, 0], [0, 4])
    >>> slots(["gpt2", "mine", "cl100k_base", "yours"])
    [0, 2, 1, 3]
    """
    fixed = {name: i for i, name in enumerate(tk.list_encodings())}
    taken = {fixed[name] for name in chosen if name in fixed}
    free = iter([i for i in range(len(HUES)) if i not in taken])
    return [fixed[name] if name in fixed else next(free) for name in chosen]
