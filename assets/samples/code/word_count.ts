// Print the three most frequent words of the text on standard input.
import { readFileSync } from "node:fs";

interface WordCount {
  word: string;
  count: number;
}

export function topWords(text: string, n = 3): WordCount[] {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return Array.from(counts, ([word, count]): WordCount => ({ word, count }))
    .sort((a, b) => b.count - a.count || a.word.localeCompare(b.word))
    .slice(0, n);
}

const text: string = readFileSync(0, "utf8");
for (const { word, count } of topWords(text)) {
  console.log(`${word}: ${count}`);
}
