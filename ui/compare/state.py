"""The Compare page's state: in the session under ``compare.*``, and in the link.

``?text=…&encs=gpt2,cl100k_base&ws=1`` is the side-by-side view;
``?tab=languages&langs=gpt2,o200k_base&metric=chars_per_token&groups=language,code`` the other
tab. Names in a link that this session does not offer are named in the page's notice and left
out; a vocabulary made on this server comes with the link's ``?vocabs=`` ids (ui/common/registry).
The samples a user adds cannot travel in a link.
"""

from ui.common import state
from ui.common.examples import DEFAULT_TEXT
from ui.compare.languages.data import GROUPS, METRICS

TABS = {"side": "Side by side", "languages": "Languages & code"}  # URL id -> tab label

TAB = state.Param(
    "compare.tab",
    "tab",
    TABS["side"],
    parse=lambda raw: TABS[raw] if raw in TABS else state.not_one_of(TABS),
    show=lambda label: next(k for k, v in TABS.items() if v == label),
)
TEXT = state.text("compare.text", "text", DEFAULT_TEXT)
ENCODINGS = state.names("compare.encs", "encs")
WHITESPACE = state.flag("compare.ws", "ws")
SAMPLE = "compare.sample"
EXPORT = "compare.export"  # which of the chosen tokenizers the export panel writes

# Languages & code.
LANG_ENCODINGS = state.names("compare.lang_encs", "langs")
METRIC = state.choice("compare.lang_metric", "metric", list(METRICS), "premium")
SAMPLE_GROUPS = state.names("compare.lang_groups", "groups")  # default: every group present
GROUP_IDS = list(GROUPS)
CUSTOM = "compare.lang_custom"  # list[Sample]: the samples this session added
NEW_TITLE = "compare.lang_new_title"  # the add-a-sample form's boxes
NEW_TEXT = "compare.lang_new_text"
UPLOAD_VERSION = "compare.lang_upload_version"  # bumped to empty the form's uploader
PROBLEM = "compare.lang_problem"  # why the last sample could not be added, shown once
