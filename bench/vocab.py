"""Vocabulary explorer speed on the biggest vocabulary (o200k_base, 200k tokens).

Run: python bench/vocab.py   (prints times; the target is search under 300 ms)

Building the index (parents recovered by BPE for ranks-only vocabularies) happens once per
process; every search after that must stay interactive.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tokenizer as tk
from tokenizer import vocab

SEARCHES = [
    ("text", "the"),
    ("text", " the"),
    ("text", "e"),
    ("text", "Magikarp"),
    ("regex", r"^\s\w+ing$"),
    ("regex", r"\p{Han}{2}"),
    ("regex", "."),
    ("bytes", "F0 9F"),
    ("bytes", "20"),
    ("id", "0-200018"),
]


def timed(fn: object, runs: int) -> list[float]:
    """Seconds per run."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    for name in ["cl100k_base", "o200k_base"]:
        enc = tk.get_encoding(name)
        seconds = min(timed(lambda enc=enc: vocab.parents_from_ranks(enc), 2))
        print(f"{name:12} parents of every token recovered in {seconds:.2f} s")
    enc = tk.get_encoding("o200k_base")
    start = time.perf_counter()
    index = vocab.build_vocabulary(enc)
    print(
        f"o200k_base   whole index built in {time.perf_counter() - start:.2f} s (once per process)"
    )
    worst = 0.0
    for mode, query in SEARCHES:
        times = timed(lambda mode=mode, query=query: vocab.search(index, mode, query), 5)
        hits = len(vocab.search(index, mode, query).ids)
        median = statistics.median(times)
        worst = max(worst, median)
        print(
            f"  search {mode:5} {query!r:16} {hits:7} hits  median {median * 1000:5.0f} ms"
            f"  max {max(times) * 1000:5.0f} ms"
        )
    print(f"worst median search {worst * 1000:.0f} ms (target < 300 ms)")


if __name__ == "__main__":
    main()
