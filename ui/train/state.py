"""The Train page's state: in the session under ``train.*``, and in the link.

A teacher hands out "train this" as a link: ``?source=paste&text=…&size=512&pattern=gpt2
&specials=<|endoftext|>`` fills in the corpus and the settings (the Train button stays the
student's to press). Uploaded files cannot travel in a link.
"""

from ui.common import state
from ui.common.limits import MAX_TRAIN_VOCAB
from ui.train.corpora import BUNDLED
from ui.train.settings import PATTERN_CHOICES

SOURCES = {"bundled": "Bundled corpus", "paste": "Type or paste", "upload": "Upload a .txt"}
DEFAULT_VOCAB = 1_024
DEFAULT_REGEX = r" ?\p{L}+|\s+|."
DEFAULT_SPECIALS = ["<|endoftext|>"]

SOURCE = state.choice("train.source", "source", list(SOURCES), "bundled")
CORPUS = state.choice("train.bundled", "corpus", list(BUNDLED), next(iter(BUNDLED)))
PASTE = state.text("train.paste", "text")
VOCAB_SIZE = state.number("train.vocab", "size", DEFAULT_VOCAB, lowest=256)
PATTERN = state.choice("train.pattern", "pattern", list(PATTERN_CHOICES), "gpt2")
REGEX = state.text("train.regex", "regex", DEFAULT_REGEX)
SPECIALS = state.names("train.specials", "specials")
NAME = state.text("train.name", "name")

# The vocabulary on show (one of the session's, by name; its id is in ``?vocabs=``) and the
# replay's step: ``?show=verdict-1k&step=12`` is that vocabulary after its first 12 merges.
SELECTED = state.picked("train.selected", "show")
STEP = state.number("train.step", "step", 0)  # merges applied; its default is "all of them"
TABS = {"replay": "Replay", "vocabulary": "Vocabulary", "export": "Export"}
TAB = state.Param(
    "train.tab",
    "view",
    TABS["replay"],
    parse=lambda raw: TABS[raw] if raw in TABS else state.not_one_of(TABS),
    show=lambda label: next(k for k, v in TABS.items() if v == label),
)

# Presentation mode (``?present=1``): the replay of the vocabulary on show, on one screen.
PRESENT = state.flag("train.present", "present")

# Not in links: this session's training and the replay's player.
PENDING_KEY = "train.pending"  # the training this session waits for
NOTICE_KEY = "train.notice"
RESUME_KEY = "train.resume_checked"  # set once the page has looked for its running training
LAST_KEY = "train.last"  # the Outcome of the last training, shown until the next one starts
STEP_OF = "train.step_of"  # the vocabulary the replay's step belongs to
PLAYING_KEY = "train.playing"
SPEED_KEY = "train.speed"
STEPS_KEY = "train.steps"  # the replay's ← → Home End stepper (ui/common/steps.py)
REPLAY_KEY = "train.replay"  # the replay's container, which its step keys step while in sight
SAMPLE_KEY = "train.sample"  # the replay's sample text
SAMPLE_DEFAULT = "train.sample_default"  # the sample it was given, followed until edited
SEARCH_KEY = "train.search"  # the vocabulary table's search text
PICKED_KEY = "train.picked"  # the table's selected token: (its vocabulary's key, its id or None)
TABLE_OF_KEY = "train.table_of"  # the table's listing (vocabulary, search) and its number
IMPORT_PANEL_KEY = "train.import_panel"  # whether the import panel is open


def vocab_size_problem(size: int) -> str | None:
    """The page's upper bound for `VOCAB_SIZE`, for `Param.seed`."""
    return None if size <= MAX_TRAIN_VOCAB else f"at most {MAX_TRAIN_VOCAB:,}"
