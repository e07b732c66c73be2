"""Print the three most frequent words of the text on standard input."""

import re
import sys
from collections import Counter


def top_words(text: str, n: int = 3) -> list[tuple[str, int]]:
    # [^\W\d_] is "a letter" in any script: \w without digits and underscores.
    words = re.findall(r"[^\W\d_]+", text.lower())
    return Counter(words).most_common(n)


if __name__ == "__main__":
    for word, count in top_words(sys.stdin.read()):
        print(f"{word}: {count}")
