/* Print the three most frequent words of the text on standard input. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORD 64

struct entry {
    char word[MAX_WORD];
    int count;
};

static int by_count(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;

    if (x->count != y->count)
        return y->count - x->count;
    return strcmp(x->word, y->word);
}

int main(void)
{
    struct entry *entries = NULL;
    size_t len = 0, cap = 0;
    char word[MAX_WORD];
    int c, n = 0;

    do {
        c = getchar();
        if (isalpha(c)) {
            if (n < MAX_WORD - 1)
                word[n++] = (char)tolower(c);
            continue;
        }
        if (n == 0)
            continue;
        word[n] = '\0';
        n = 0;

        /* A linear search keeps the example short; use a hash table for big inputs. */
        size_t i = 0;
        while (i < len && strcmp(entries[i].word, word) != 0)
            i++;
        if (i == len) {
            if (len == cap) {
                cap = cap ? cap * 2 : 64;
                struct entry *grown = realloc(entries, cap * sizeof *grown);
                if (grown == NULL) {
                    free(entries);
                    return EXIT_FAILURE;
                }
                entries = grown;
            }
            strcpy(entries[len].word, word);
            entries[len++].count = 0;
        }
        entries[i].count++;
    } while (c != EOF);

    qsort(entries, len, sizeof *entries, by_count);
    for (size_t i = 0; i < len && i < 3; i++)
        printf("%s: %d\n", entries[i].word, entries[i].count);
    free(entries);
    return EXIT_SUCCESS;
}
