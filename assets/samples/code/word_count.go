// Wordcount prints the three most frequent words of the text on standard input.
package main

import (
	"fmt"
	"io"
	"log"
	"os"
	"sort"
	"strings"
	"unicode"
)

type wordCount struct {
	word  string
	count int
}

func isSeparator(r rune) bool { return !unicode.IsLetter(r) }

func topWords(text string, n int) []wordCount {
	counts := make(map[string]int)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), isSeparator) {
		counts[w]++
	}
	result := make([]wordCount, 0, len(counts))
	for w, c := range counts {
		result = append(result, wordCount{w, c})
	}
	sort.Slice(result, func(i, j int) bool {
		if result[i].count != result[j].count {
			return result[i].count > result[j].count
		}
		return result[i].word < result[j].word
	})
	return result[:min(n, len(result))]
}

func main() {
	text, err := io.ReadAll(os.Stdin)
	if err != nil {
		log.Fatal(err)
	}
	for _, wc := range topWords(string(text), 3) {
		fmt.Printf("%s: %d\n", wc.word, wc.count)
	}
}
