"""Odd and oversized input on every page (AppTest): a clear message, never a traceback.

Each case also checks that what the user had is still there afterwards (the text in its box,
the vocabularies trained or imported this session): a bad input must cost nothing but a message.
"""

import json

import pytest
from streamlit.testing.v1 import AppTest

import tokenizer as tk
from tests.app.helpers import open_app, rerun
from tests.ui.payloads import ODD_TEXTS, XSS_TEXT
from tokenizer import formats
from ui.common import limits
from ui.common.glyphs import without_lone_surrogates
from ui.common.uploads import size_label

# About 120 cases of a full app run each (~2 minutes): CI runs them, the inner loop does not.
pytestmark = pytest.mark.slow

PAGES = {
    "playground": "pages/playground.py",
    "merges": "pages/merges.py",
    "train": "pages/train.py",
    "compare": "pages/compare.py",
    "vocab": "pages/vocab.py",
}
TEXT_KEYS = {"playground": "playground.text", "merges": "merges.text", "compare": "compare.text"}
# Real prose, so a megabyte tokenizes in well under a second (one 1 MB chunk would not).
MEGABYTE = ("Hello wörld, 你好! 123 " * 50_000)[: limits.MAX_TEXT_CHARS]
VOCAB_CORPUS = "the cat sat on the mat. the dog sat on the log. " * 20


def messages(at: AppTest) -> str:
    """Everything the page said to the user in error, warning and info boxes."""
    return "\n".join(m.value for m in [*at.error, *at.warning, *at.info])


def on_page(page: str, **query: str) -> AppTest:
    """A fresh session showing `page`, opened through app.py with `query` in the URL."""
    at = open_app(**query)
    if page != "playground":
        at.switch_page(PAGES[page])
        rerun(at)
    return at


def with_vocabulary(page: str) -> AppTest:
    """A session on `page` that holds one imported vocabulary, to check that it survives."""
    at = on_page("train")
    bundle = formats.dump_bundle(tk.train(VOCAB_CORPUS, 270, name="mine"))
    at.file_uploader(key="train.import_files").set_value(("mine.json", bundle, "application/json"))
    rerun(at)
    at.button(key="train.import").click()
    rerun(at)
    assert list(at.session_state["common.vocabularies"]) == ["mine"]
    if page != "train":
        at.switch_page(PAGES[page])
        rerun(at)
    return at


@pytest.mark.parametrize("page", list(TEXT_KEYS))
def test_carriage_returns_are_kept_and_said_once_not_to_survive_an_edit(page: str) -> None:
    """A browser's box holds no CR: an edit turned a link's CR LF line ends into LF, silently."""
    at = on_page(page)
    at.session_state[TEXT_KEYS[page]] = "a\r\nb\r\nc"
    rerun(at)
    assert at.session_state[TEXT_KEYS[page]] == "a\r\nb\r\nc"  # tokenized as given
    (said,) = [t.value for t in at.toast if "carriage return" in t.value]
    assert "holds 2 carriage returns" in said and "turns them into line feeds" in said
    rerun(at)
    assert not [t for t in at.toast if "carriage return" in t.value]  # once per text


def still_has_vocabulary(at: AppTest) -> bool:
    return list(at.session_state["common.vocabularies"]) == ["mine"]


# ---- text boxes on every page ----------------------------------------------------------------


@pytest.mark.parametrize("odd", [*ODD_TEXTS, "hostile"])
@pytest.mark.parametrize("page", list(TEXT_KEYS))
def test_odd_text_is_shown_and_kept(page: str, odd: str) -> None:
    text = XSS_TEXT if odd == "hostile" else ODD_TEXTS[odd]
    at = on_page(page)
    at.session_state[TEXT_KEYS[page]] = text
    rerun(at)
    repaired, count = without_lone_surrogates(text)
    assert at.session_state[TEXT_KEYS[page]] == repaired  # as the tokenizer reads it
    if count:
        assert any("lone surrogate" in toast.value for toast in at.toast)
    if not text:
        hint = {
            "playground": "No tokens yet: type or paste text",
            "merges": "Type some text",
            "compare": "",
        }[page]
        assert hint in " ".join([*(c.value for c in at.caption), messages(at)])


@pytest.mark.parametrize("page", ["playground", "compare"])
def test_a_megabyte_paste_is_counted_whole_and_drawn_in_part(page: str) -> None:
    at = on_page(page)
    at.session_state[TEXT_KEYS[page]] = MEGABYTE
    rerun(at)
    assert at.session_state[TEXT_KEYS[page]] == MEGABYTE
    shown = " ".join([*(c.value for c in at.caption), messages(at)])
    assert f"{limits.RENDER_LIMIT:,}" in shown  # the render cap is named where it bites
    if page == "playground":
        assert "too long for a link" in shown
        assert "text" not in at.query_params


def test_the_merges_page_caps_its_text_and_says_so() -> None:
    at = on_page("merges")
    at.session_state["merges.text"] = "ab " * limits.MAX_URL_TEXT_CHARS
    rerun(at)
    assert f"{limits.MAX_URL_TEXT_CHARS:,}" in messages(at)


# ---- playground decode mode -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("31373 x 995 2.5 0x10", "Not token ids"),
        ("31373, 50257, 99999999999999999999999, -1", "Not ids of"),
        ('[1, true, null, "x", 2.5, [3]]', "Not token ids"),
        ("[[[[", ""),
        ("\x00 \ud800 ﹣1", "Not token ids"),
        (" ".join(["995"] * 100_000), ""),
        (" ".join(["995"] * (limits.MAX_IDS + 1)), f"first {limits.MAX_IDS:,} ids"),
    ],
    ids=["garbage", "unknown", "json junk", "broken json", "controls", "100k", "over the cap"],
)
def test_decode_mode_names_what_it_cannot_use(raw: str, said: str) -> None:
    at = open_app(mode="decode")
    at.session_state["playground.ids"] = raw
    rerun(at)
    assert said in messages(at)
    if not raw.strip("[ "):
        assert any("No tokens yet: type or paste token ids" in c.value for c in at.caption)
    assert at.session_state["playground.ids"] == without_lone_surrogates(raw)[0]


# ---- URL parameters ---------------------------------------------------------------------------

BAD_QUERIES = [
    {"enc": "nope"},
    {"enc": XSS_TEXT},
    {"mode": "explode", "color": "<b>", "ws": "maybe", "special": "2"},
    {"text": "x" * (limits.MAX_URL_TEXT_CHARS * 3)},
    {"ids": "-1 99999999999999999999", "mode": "decode"},
    {"chunk": "-1", "step": "99999999999999999999999"},
    {"chunk": "1e9", "step": "NaN", "by": "<script>", "pieces": "", "speed": "0"},
    {"id": "-5"},
    {"id": "99999999999999999999999999"},
    {"id": XSS_TEXT},
    {"q": XSS_TEXT, "find": "regex"},
    {"q": "(((", "find": "regex"},
    {"q": "zz 0x", "find": "bytes"},
    {"q": "5-1 99999999999999999999 abc", "find": "ids"},
    {"find": "nope", "list": "nope", "ic": "x"},
    {"compare.tab": "nope"},
    {"present": "yes please"},
]


@pytest.mark.parametrize("query", BAD_QUERIES, ids=lambda q: ",".join(q))
@pytest.mark.parametrize("page", list(PAGES))
def test_bad_url_parameters_never_break_a_page(page: str, query: dict[str, str]) -> None:
    at = on_page(page, **query)
    headings = [h.value for h in (*at.title, *at.header)]
    assert headings, "the page drew nothing"
    assert not at.exception


@pytest.mark.parametrize("page", list(PAGES))
def test_a_link_naming_thousands_of_unknown_vocabularies_gets_a_short_notice(page: str) -> None:
    """Each unknown id was a sentence of 440 characters: 10,000 of them made a 4 MB notice."""
    ids = ",".join(f"vocab-{n:032x}" for n in range(10_000))
    at = on_page(page, vocabs=ids)
    (notice,) = [w.value for w in at.warning if "Some values in this link" in w.value]
    assert f"`vocabs=vocab-{0:032x}`" in notice and f"vocab-{7:032x}" in notice
    assert f"vocab-{8:032x}" not in notice and "and 9,992 more values it cannot use." in notice
    assert len(notice) < 8_000


def test_an_unknown_encoding_in_a_link_says_where_such_names_come_from() -> None:
    """``enc=`` naming a vocabulary the server no longer holds read "not one of gpt2, …", as if
    mistyped: it now points at the link's own sentence on it, or says where names come from."""
    at = on_page("playground", vocabs=f"vocab-{0:032x}", enc="my-text-280")
    notice = messages(at)
    assert "`enc=my-text-280`: the vocabulary of this name came with the link's vocabs=" in notice
    assert "not one of" not in notice
    at = on_page("playground", enc="gtp2")
    notice = messages(at)
    assert "no encoding or vocabulary of this name here: the bundled ones are gpt2," in notice
    assert at.session_state["common.enc"] == "gpt2"


def test_a_link_to_a_missing_token_says_so() -> None:
    at = on_page("vocab", id="99999999999999999999")
    assert "does not have" in messages(at)


def test_an_invalid_search_regex_is_an_error_not_a_traceback() -> None:
    at = on_page("vocab", q="(((", find="regex")
    assert "Cannot search" in messages(at)
    assert at.session_state["vocab.q"] == "((("


# ---- Train: corpus, settings, uploads, imports --------------------------------------------------


def paste_corpus(at: AppTest, text: str) -> AppTest:
    at.segmented_control(key="train.source").set_value("paste")
    rerun(at)
    at.text_area(key="train.paste").input(text)
    return rerun(at)


def upload_corpus(at: AppTest, name: str, data: bytes) -> AppTest:
    at.segmented_control(key="train.source").set_value("upload")
    rerun(at)
    at.file_uploader(key="train.upload").set_value((name, data, "text/plain"))
    return rerun(at)


@pytest.mark.parametrize(("text", "refused"), [("", True), (" ", False), ("\n\t \n", False)])
def test_an_empty_corpus_is_refused_with_a_message(text: str, refused: bool) -> None:
    """Nothing pasted is no corpus; whitespace is one (its runs of spaces merge too)."""
    at = with_vocabulary("train")
    at.segmented_control(key="train.source").set_value("paste")
    rerun(at)
    if text:
        paste_corpus(at, text)
    assert ("corpus first" in messages(at)) is refused
    assert at.button(key="train.train").disabled is refused
    assert still_has_vocabulary(at)


@pytest.mark.parametrize(
    "data",
    [bytes(range(256)) * 64, b"\xff\xfe" + b"\x00\xd8" * 10, b""],
    ids=["binary", "utf16 lone surrogates", "empty"],
)
def test_binary_and_non_utf8_uploads_are_read_or_refused_with_a_message(data: bytes) -> None:
    at = upload_corpus(with_vocabulary("train"), "weird.txt", data)
    said = messages(at)
    assert any(word in said for word in ("could not be read", "empty", "is not text (not UTF-8"))
    assert still_has_vocabulary(at)


def test_nul_bytes_are_valid_utf8_text_and_train_like_any_other() -> None:
    at = upload_corpus(on_page("train"), "nuls.txt", b"\x00" * 5000)
    assert any("5,000 characters" in c.value for c in at.caption)
    assert not at.button(key="train.train").disabled


def test_an_upload_over_the_corpus_cap_is_refused_with_the_limit() -> None:
    at = upload_corpus(on_page("train"), "big.txt", b"a " * (limits.MAX_CORPUS_BYTES // 2 + 1))
    said = messages(at)
    assert f"the limit is {size_label(limits.MAX_CORPUS_BYTES)}" in said
    assert at.button(key="train.train").disabled


@pytest.mark.parametrize("size", [-1, 0, 255, limits.MAX_TRAIN_VOCAB + 1, 10**12])
def test_a_vocabulary_size_out_of_range_is_refused(size: int) -> None:
    """A value out of range (a crafted request included) is named, and nothing trains on it.

    The box has no bounds of its own (ui/train/sections.py says why), so the page's check is
    the one that refuses it."""
    at = with_vocabulary("train")
    at.number_input(key="train.vocab").set_value(size)
    at.button(key="train.train").click()  # sent with the size, as a click right after typing
    rerun(at)
    said = messages(at)
    if size > limits.MAX_TRAIN_VOCAB:
        assert f"The vocabulary size is at most {limits.MAX_TRAIN_VOCAB:,}" in said
    else:
        assert "the size must be at least 257" in said  # 256 bytes + <|endoftext|>
    assert at.button(key="train.train").disabled
    assert "train.pending" not in at.session_state, "a training started"
    assert f"at most {limits.MAX_TRAIN_VOCAB:,}" in at.number_input(key="train.vocab").help
    assert still_has_vocabulary(at)


def test_a_vocabulary_size_too_small_for_its_specials_is_named() -> None:
    at = on_page("train")
    at.multiselect(key="train.specials").set_value(["<|a|>", "<|b|>"])
    at.number_input(key="train.vocab").set_value(256)
    rerun(at)
    assert "at least 258" in messages(at)
    assert at.button(key="train.train").disabled


@pytest.mark.parametrize(
    ("regex", "said"),
    [
        ("(unclosed", "does not compile"),
        ("[", "does not compile"),
        ("(a)(b)", "non-capturing"),
        ("", "Type a regular expression"),
        ("(?P=missing)", "does not compile"),
        ("\\p{Nope}", "does not compile"),
    ],
)
def test_an_invalid_custom_regex_is_named(regex: str, said: str) -> None:
    at = with_vocabulary("train")
    at.selectbox(key="train.pattern").set_value("custom")
    rerun(at)
    at.text_input(key="train.regex").input(regex)
    rerun(at)
    assert said in messages(at)
    assert at.button(key="train.train").disabled
    assert still_has_vocabulary(at)


def test_a_catastrophic_regex_is_stopped_by_the_time_limit() -> None:
    at = paste_corpus(on_page("train"), "a" * 40 + "!")
    at.selectbox(key="train.pattern").set_value("custom")
    rerun(at)
    at.text_input(key="train.regex").input("(?:a|aa)+$|.")
    rerun(at)
    said = messages(at)  # the corpus is 41 characters, not the 100,000 the trial can take
    seconds = f"{limits.REGEX_TRIAL_SECONDS:g} s"
    assert f"needs more than {seconds} for the corpus (41 characters)" in said
    assert at.button(key="train.train").disabled


def test_a_hostile_vocabulary_name_is_refused() -> None:
    at = with_vocabulary("train")
    at.text_input(key="train.name").input('<img src=x onerror="alert(1)">')
    rerun(at)
    assert "Use letters" in messages(at)
    assert at.button(key="train.train").disabled


def _good_files() -> dict[str, bytes]:
    enc = tk.train(VOCAB_CORPUS, 270, name="other")
    gpt2 = formats.dump_gpt2(enc)
    return {
        "bundle.json": formats.dump_bundle(enc),
        "x.tiktoken": formats.dump_tiktoken(enc),
        "encoder.json": gpt2.encoder_json,
        "vocab.bpe": gpt2.vocab_bpe,
    }


def _broken_imports() -> dict[str, list[tuple[str, bytes]]]:
    good = _good_files()
    bundle = json.loads(good["bundle.json"])
    return {
        "truncated bundle": [("b.json", good["bundle.json"][: len(good["bundle.json"]) // 2])],
        "bundle of another format": [("b.json", b'{"format": "nope", "version": 1}')],
        "bundle with a bad merge": [
            ("b.json", json.dumps({**bundle, "merges": [[0, 10**9]]}).encode())
        ],
        "bundle with a bad pattern": [
            ("b.json", json.dumps({**bundle, "pattern": "(unclosed"}).encode())
        ],
        "binary as json": [("b.json", bytes(range(256)))],
        "deep json": [("b.json", b"[" * 100_000)],
        "truncated tiktoken": [("t.tiktoken", good["x.tiktoken"][:-7])],
        "garbage tiktoken": [("t.tiktoken", b"not base64!!! x\n\x00\xff 12")],
        "empty tiktoken": [("t.tiktoken", b"")],
        "truncated vocab.bpe": [
            ("encoder.json", good["encoder.json"]),
            ("vocab.bpe", good["vocab.bpe"][: len(good["vocab.bpe"]) // 2]),
        ],
        "encoder.json not an object": [
            ("encoder.json", b"[1, 2, 3]"),
            ("vocab.bpe", good["vocab.bpe"]),
        ],
        "two bundles": [("a.json", good["bundle.json"]), ("b.json", good["bundle.json"])],
        "unknown suffix": [("a.tiktoken", b""), ("b.bpe", b"")],
    }


@pytest.mark.parametrize("case", list(_broken_imports()))
def test_malformed_tokenizer_files_are_refused_and_vocabularies_kept(case: str) -> None:
    at = with_vocabulary("train")
    files = [(name, data, "application/octet-stream") for name, data in _broken_imports()[case]]
    at.file_uploader(key="train.import_files").set_value(files)
    rerun(at)
    at.button(key="train.import").click()
    rerun(at)
    refusals = ("Could not import", "Cannot tell", "only a pair makes one vocabulary")
    assert any(word in messages(at) for word in refusals)
    assert still_has_vocabulary(at)


# ---- Compare: custom samples --------------------------------------------------------------------


def languages_tab(at: AppTest) -> AppTest:
    at.switch_page(PAGES["compare"])
    rerun(at)
    at.session_state["compare.tab"] = "Languages & code"
    return rerun(at)


def add_sample(at: AppTest, title: str, text: str = "", upload: bytes | None = None) -> AppTest:
    at.text_input(key="compare.lang_new_title").input(title)
    at.text_area(key="compare.lang_new_text").input(text)
    if upload is not None:
        (uploader,) = [
            u for u in at.get("file_uploader") if u.key.startswith("compare.lang_new_file_")
        ]
        uploader.set_value(("s.txt", upload, "text/plain"))
    rerun(at)
    at.button(key="compare.lang_add").click()
    return rerun(at)


def test_custom_samples_refuse_empty_oversized_and_too_many() -> None:
    at = languages_tab(with_vocabulary("compare"))
    add_sample(at, "nothing", "   ")
    assert "The pasted text is only whitespace" in messages(at)
    add_sample(at, "huge", "x" * (limits.MAX_SAMPLE_BYTES + 1))
    assert size_label(limits.MAX_SAMPLE_BYTES) in messages(at)
    for n in range(limits.MAX_CUSTOM_SAMPLES):
        add_sample(at, f"{XSS_TEXT[:50]} {n}", ODD_TEXTS["NUL and C0/C1 controls"])
    assert len(at.session_state["compare.lang_custom"]) == limits.MAX_CUSTOM_SAMPLES
    add_sample(at, "one too many", "x")
    assert f"At most {limits.MAX_CUSTOM_SAMPLES}" in messages(at)
    assert still_has_vocabulary(at)


def test_a_sample_upload_that_is_not_utf8_is_read_with_a_notice_and_a_binary_one_refused() -> None:
    at = languages_tab(on_page("playground"))
    add_sample(at, "", upload=bytes(range(1, 256)))  # no NUL: a text in some other code page
    assert "could not be read" in messages(at)
    assert len(at.session_state["compare.lang_custom"]) == 1
    add_sample(at, "", upload=bytes(range(256)))
    assert "is not text (not UTF-8, and it holds NUL bytes" in messages(at)
    assert len(at.session_state["compare.lang_custom"]) == 1


# ---- Vocabulary page ---------------------------------------------------------------------------


@pytest.mark.parametrize("find", ["text", "regex", "bytes", "id"])
@pytest.mark.parametrize("odd", [k for k in ODD_TEXTS if k != "lone surrogates"])
def test_vocabulary_search_survives_odd_queries(find: str, odd: str) -> None:
    """Every odd text but lone surrogates, which a `st.text_input` cannot send (protobuf UTF-8)."""
    at = with_vocabulary("vocab")
    at.session_state["vocab.find"] = find
    at.session_state["vocab.q"] = ODD_TEXTS[odd]
    rerun(at)
    assert at.session_state["vocab.q"] == ODD_TEXTS[odd]
    assert still_has_vocabulary(at)
