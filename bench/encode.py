"""Encoding speed of the pure-Python core against tiktoken / quicktok, in one process.

Run: python bench/encode.py   (prints MB/s and ratios; no asserts, no timing in tests)

"cold" clears our chunk cache first (a fresh process, without the one-time vocabulary load);
"warm" is a second pass over the same text. The oracle's time is its best of the same runs.
"""

import random
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tokenizer as tk
from bench.corpora import describe, english_prose, python_code, shared_corpus
from tests.oracles import ORACLES, o200k_tiktoken

# Who we are timed against: tiktoken for all three (o200k_base through quicktok's ranks, as
# tiktoken's own file would be downloaded); quicktok (C++) is printed too for o200k_base.
TIMED_AGAINST = {
    "gpt2": ORACLES["gpt2"],
    "cl100k_base": ORACLES["cl100k_base"],
    "o200k_base": o200k_tiktoken,
}


def best_of(fn, runs: int = 5) -> float:
    """The fastest of a few runs, in seconds: the least disturbed by the rest of the machine."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def throughput(name: str, label: str, text: str) -> None:
    """Print our cold and warm MB/s beside tiktoken's and the regex floor; check the ids agree."""
    enc, tiktoken_enc = tk.get_encoding(name), TIMED_AGAINST[name]()
    megabytes = len(text.encode("utf-8")) / 1e6
    ours = enc.encode_ordinary(text)
    assert ours == ORACLES[name]().encode_ordinary(text) == tiktoken_enc.encode_ordinary(text)

    def cold() -> None:
        enc._cache.clear()
        enc.encode_ordinary(text)

    t_cold = best_of(cold)
    enc.encode_ordinary(text)
    t_warm = best_of(lambda: enc.encode_ordinary(text))
    t_ref = best_of(lambda: tiktoken_enc.encode_ordinary(text))
    t_regex = best_of(lambda: enc._regex.findall(text))
    print(
        f"{name:12} {label:8} {megabytes:4.2f} MB | tiktoken {megabytes / t_ref:5.1f} MB/s"
        f" | regex alone {megabytes / t_regex:5.1f} MB/s"
        f" | ours cold {megabytes / t_cold:4.1f} MB/s = {t_cold / t_ref:4.2f}x tiktoken's time"
        f" | warm {megabytes / t_warm:4.1f} MB/s = {t_warm / t_ref:4.2f}x"
    )
    if name == "o200k_base":
        t_quick = best_of(lambda: ORACLES[name]().encode_ordinary(text))
        print(f"{'':12} {label:8} (quicktok, C++: {megabytes / t_quick:5.1f} MB/s)")


def long_chunks() -> None:
    """The inputs that are quadratic for a naive merge loop: one chunk of 1 MB and the like."""
    rng = random.Random(0)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    cases = {
        "1 MB of one letter": "a" * 1_000_000,
        "1 MB of spaces": " " * 1_000_000,
        "200 KB base64 blob": "".join(rng.choice(alphabet) for _ in range(200_000)),
        "100k repeats of one emoji": "👋" * 100_000,
    }
    for name in tk.list_encodings():
        enc = tk.get_encoding(name)
        for label, text in cases.items():
            enc._cache.clear()
            seconds = best_of(partial(enc.encode_ordinary, text), runs=1)
            print(f"{name:12} {label:26} {seconds:5.2f} s (target < 2 s)")


def trace_speed() -> None:
    """Trace of a 10,000-character text, the merges page's worst interactive case."""
    text = english_prose()[:10_000]
    for name in tk.list_encodings():
        enc = tk.get_encoding(name)
        seconds = best_of(partial(enc.trace, text))
        print(f"{name:12} trace of 10,000 chars {seconds * 1000:6.1f} ms (target < 100 ms)")


def main() -> None:
    inputs = {
        "corpus": shared_corpus(),
        "english": english_prose(),
        "code": python_code(),
    }
    for label, text in inputs.items():
        print(describe(label, text))
    for name in tk.list_encodings():
        for label, text in inputs.items():
            throughput(name, label, text)
    long_chunks()
    trace_speed()


if __name__ == "__main__":
    main()
