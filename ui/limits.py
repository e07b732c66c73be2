"""Every size limit the playground enforces, in one place, so the README and the UI agree."""

# Tokens drawn as spans per "page" of the view; "Show more" adds this many again. Chromium lays out
# about 10,000 spans a second, so 5,000 keeps a rerun's repaint near half a second.
RENDER_LIMIT = 5_000

# Characters accepted in the text box (1 MB of ASCII). Counts stay exact up to this size.
MAX_TEXT_CHARS = 1_000_000

# Ids accepted in decode mode.
MAX_IDS = 200_000

# Longest text kept in the shareable link; browsers and proxies truncate long URLs.
MAX_URL_TEXT_CHARS = 2_000

# Pause after the last keystroke before the text is sent to the server.
DEBOUNCE_MS = 200

# Texts up to this size have their tokens cached for all sessions (a class shares examples);
# longer ones are remembered only by the session that typed them.
SHARED_CACHE_MAX_CHARS = 20_000

# ---- Train and Compare pages (pages/train.py, pages/compare.py) ----

# Uploaded training corpora, in bytes (the server's maxUploadSize is 10 MB too).
MAX_CORPUS_BYTES = 10 * 1024 * 1024

# Vocabulary sizes the Train page offers: from the 256 bytes up to GPT-2's size.
MAX_TRAIN_VOCAB = 50_257

# Trainings running at once on the server; more wait their turn. Pure-Python training shares one
# interpreter lock with every session's page runs, so more threads would only slow everyone down.
MAX_PARALLEL_TRAININGS = 2

# Finished trainings kept for whoever asks for the same corpus and settings next (a class).
MAX_SHARED_TRAININGS = 16

# Vocabularies one session may hold (each keeps its merges and training record in memory).
MAX_SESSION_VOCABS = 12

# Tokenizers side by side on the Compare page.
MAX_COMPARE = 4

# Your own samples on the Languages & code tab: how many, and how big each (bundled ones are
# capped at 16 KiB too, so the whole tab stays fast).
MAX_CUSTOM_SAMPLES = 8
MAX_CUSTOM_SAMPLE_BYTES = 16 * 1024
