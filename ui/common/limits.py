"""Every limit the app enforces, in one place, so the README and the UI agree.

Limits of the pure-Python core (tokenizer/) stay there, because the core never imports the UI;
they are re-exported here so this module is still the one list to read.

Sizes are in decimal units, KB = 1,000 and MB = 1,000,000 bytes, because that is how Streamlit's
uploader names a limit ("Limit 10MB per file") and how the browser checks it. (On Windows the
browser counts 1,048,576 bytes per MB and lets slightly bigger files through; the page's own check
then refuses them, naming the same "10 MB".) So a size in a message is the size under the box.
"""

# ---- From the core (defined in tokenizer/, re-exported: the core cannot import ui) ----
from tokenizer.formats import MAX_FILE_BYTES  # largest tokenizer file an import reads
from tokenizer.train import (
    MAX_UNSPLIT_BYTES,  # a corpus trained without a pattern is one chunk
    MAX_VOCAB_SIZE,  # the trainer's and importers' absolute ceiling
)
from tokenizer.train_record import RIVALS  # runner-up pairs kept per step of the training record
from tokenizer.vocab import REGEX_BUDGET_S  # a Vocabulary-page regex search stops after this

__all__ = [  # the re-exports above are part of this module's interface
    "MAX_FILE_BYTES",
    "MAX_UNSPLIT_BYTES",
    "MAX_VOCAB_SIZE",
    "REGEX_BUDGET_S",
    "RIVALS",
]

KB = 1_000
MB = 1_000_000

# Tokens drawn as spans per "page" of the view; "Show more" adds this many again. Chromium lays out
# about 10,000 spans a second, so 5,000 keeps a rerun's repaint near half a second.
RENDER_LIMIT = 5_000

# Characters accepted in the text box (1 MB of ASCII). Counts stay exact up to this size.
MAX_TEXT_CHARS = 1_000_000

# Ids accepted in decode mode.
MAX_IDS = 200_000

# Characters of decoded text its box holds (200,000 long tokens decode to megabytes, which the
# browser lays out slowly); the whole text is a download away.
MAX_DECODED_SHOWN = 100_000

# Longest text kept in the shareable link; browsers and proxies truncate long URLs.
MAX_URL_TEXT_CHARS = 2_000

# ...and its most bytes once percent-encoded, as the address bar holds it: a proxy refuses a
# longer request line (nginx's default buffer is 8 KB, Apache's limit 8,190 bytes), which
# 2,000 characters of CJK (18,000 bytes) or emoji would exceed. The rest of a link gets 2 KB.
MAX_URL_VALUE_BYTES = 6_000

# Pause after the last keystroke before the text is sent to the server.
DEBOUNCE_MS = 200

# A live box that asks for it (the Playground's) sends a text up to this long on every keystroke,
# with no pause: its page redraws only the tokens, in a few tens of milliseconds. A longer text
# waits 1 ms per `INSTANT_CHARS // 8` characters after the last keystroke, at most DEBOUNCE_MS,
# so a big text is not re-encoded on every key; a paste goes at once.
INSTANT_CHARS = 2_000

# When the server process uses more than BUSY_FROM of a core, live boxes keep a pace between
# sends, growing to MAX_PACE_MS at BUSY_FULL (ui/common/server_load.py): a class typing at once
# gets fewer, fresher script runs instead of a queue of stale ones.
BUSY_FROM = 0.25
BUSY_FULL = 0.6
MAX_PACE_MS = 2_000

# Only a class is paced: below CLASS_SIZE sessions that ran a script in the last ACTIVE_S seconds,
# however busy the process, the pace is nothing (one user alone never queues behind anyone).
CLASS_SIZE = 4
ACTIVE_S = 5.0

# Views derived from texts (tokens, chunks, merge walkthroughs, counts), shared by all sessions and
# bounded by their estimated size (ui/common/cache.py): a class of 100 pasting 1 MB each would
# otherwise hold gigabytes. A megabyte's tokens are about 75 MB, so this keeps a few big texts
# and thousands of small ones.
DERIVED_CACHE_BYTES = 256 * MB

# ---- The Playground's Chat view (ui/playground/chat.py) ----

# Messages in one conversation, and characters in one message's content. 50 messages of 20,000
# characters is a long chat (about 250,000 tokens) that still renders and counts in about a second.
MAX_CHAT_MESSAGES = 50
MAX_CHAT_MESSAGE_CHARS = 20_000

# ---- Train and Compare pages (pages/train.py, pages/compare.py) ----

# Uploaded training corpora, in bytes: all the files of one training together.
MAX_CORPUS_BYTES = 10 * MB

# Vocabulary sizes the Train page offers: from the 256 bytes up to GPT-2's size.
MAX_TRAIN_VOCAB = 50_257

# Trainings running at once on the server; more wait their turn. Pure-Python training shares one
# interpreter lock with every session's page runs, so more threads would only slow everyone down.
MAX_PARALLEL_TRAININGS = 2

# Finished trainings kept for whoever asks for the same corpus and settings next (a class).
MAX_SHARED_TRAININGS = 16

# Vocabularies one session lists (their ids travel in every page's link, ``?vocabs=``).
MAX_SESSION_VOCABS = 12

# Vocabularies users trained or imported, held by the server for every session and link
# (ui/common/vocab_store.py), bounded by their estimated size: a 50,000-token vocabulary with its
# training record is about 25 MB, a small one well under 1 MB. Least recently used first out.
VOCAB_STORE_BYTES = 512 * MB

# Vocabularies the store remembers by name after dropping them, so a link to one can say what it
# was and how to get it back rather than "unknown".
MAX_GONE_VOCABS = 4_096

# Tokenizers side by side on the Compare page.
MAX_COMPARE = 4

# Your own samples on the Languages & code tab: how many, and the characters of a title.
MAX_CUSTOM_SAMPLES = 8
MAX_SAMPLE_TITLE_CHARS = 60

# Bytes of any sample, bundled (assets/samples, checked when they load) or your own: every sample
# is tokenized live for every chosen encoding on every render of the tab, so this keeps it fast.
MAX_SAMPLE_BYTES = 16 * KB

# ---- Train page settings (checked by ui/train/settings.py before anything runs) ----

# A custom pre-tokenizer regex is tried on this much of the corpus, and refused if it takes longer
# than this: a regex that backtracks catastrophically would otherwise hold a trainer forever.
REGEX_TRIAL_SECONDS = 1.0
REGEX_TRIAL_CHARS = 100_000

# Special tokens per training, and characters per special token and per vocabulary name.
MAX_SPECIAL_TOKENS = 16
MAX_SPECIAL_CHARS = 64
MAX_NAME_CHARS = 40

# Points drawn on a replay's compression curve; a 50,000-merge record is sampled down to this.
MAX_CURVE_POINTS = 600

# Characters of a replay's sample text (traced once, then shown at every step).
MAX_REPLAY_SAMPLE_CHARS = 10_000

# ---- Display caps: what one view draws at most (the data behind it is complete) ----

# Characters of the boundary diff on the Compare page.
MAX_DIFF_CHARS = 20_000

# Encodings charted at once on the Languages & code tab, and the size of an uploaded sample file.
MAX_LANGUAGE_ENCODINGS = 6
MAX_SAMPLE_UPLOAD_MB = 1

# Merges page: chunks drawn as chips (a 2,000-character text has about 450), and rows of one
# chunk's merge table drawn, ending at the current step.
MAX_CHIPS = 300
MAX_TABLE_ROWS = 40

# Pieces drawn per row of a merge table (a 2,000-letter chunk starts as 2,000 pieces).
MAX_ROW_PIECES = 120

# Nodes of a drawn merge tree.
MAX_TREE_NODES = 255

# Merge trees are drawn with one column per byte; a longer token (only trained vocabularies have
# them) is drawn down to pieces of about total / MAX_TREE_COLUMNS bytes, and at most
# MAX_TREE_DEPTH levels deep.
MAX_TREE_COLUMNS = 128
MAX_TREE_DEPTH = 40

# Values a link's notice names one by one; a link naming thousands of unknown vocabularies
# made a notice of megabytes. The rest are counted.
MAX_LINK_NOTICES = 8

# Vocabulary page: tokens listed under "used in" (the tokens a token is part of).
USED_IN_SHOWN = 60
