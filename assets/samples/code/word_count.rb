# Print the three most frequent words of the text on standard input.
def top_words(text, n = 3)
  text.downcase
      .scan(/\p{L}+/)
      .tally
      .sort_by { |word, count| [-count, word] }
      .first(n)
end

top_words($stdin.read).each do |word, count|
  puts "#{word}: #{count}"
end
