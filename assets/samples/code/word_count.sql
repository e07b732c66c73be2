-- The three most frequent words in the body of one document (PostgreSQL).
WITH words AS (
    SELECT regexp_split_to_table(lower(body), '[^[:alpha:]]+') AS word
    FROM documents
    WHERE id = 42
)
SELECT word, count(*) AS occurrences
FROM words
WHERE word <> ''
GROUP BY word
ORDER BY occurrences DESC, word
LIMIT 3;
