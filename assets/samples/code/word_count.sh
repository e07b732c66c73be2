#!/usr/bin/env bash
# Print the three most frequent words of a file, or of standard input.
set -euo pipefail

top_words() {
  local n="${1:-3}"
  # awk, not head, takes the first lines: it reads everything, so sort never gets SIGPIPE.
  tr -cs '[:alpha:]' '\n' \
    | tr '[:upper:]' '[:lower:]' \
    | sed '/^$/d' \
    | sort \
    | uniq -c \
    | sort -k1,1nr -k2,2 \
    | awk -v n="$n" 'NR <= n { printf "%s: %s\n", $2, $1 }'
}

if [[ $# -gt 0 ]]; then
  top_words 3 < "$1"
else
  top_words 3
fi
