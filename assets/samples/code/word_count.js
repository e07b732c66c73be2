// Print the three most frequent words of the text on standard input.
const fs = require("node:fs");

function topWords(text, n = 3) {
  const counts = new Map();
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n);
}

const text = fs.readFileSync(0, "utf8");
for (const [word, count] of topWords(text)) {
  console.log(`${word}: ${count}`);
}
