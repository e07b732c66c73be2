"""Keeping big, read-only, process-wide data out of the garbage collector's way."""

import gc
from typing import TypeVar

T = TypeVar("T")


def keep_for_good(value: T) -> T:
    """Return `value` after moving everything alive now into the collector's permanent generation.

    A loaded vocabulary or its explorer index is millions of objects that live as long as the
    server. Left in the tracked generations, every full collection walks them all again (tens of
    milliseconds, felt by whoever is typing at that moment); frozen, they are never scanned, and
    reference counting still frees whatever is dropped later.
    """
    gc.freeze()
    return value
