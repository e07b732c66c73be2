"""The Train page under AppTest: every control, training, Cancel, replay, table, files, links."""

import json
import threading
import time
from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Dataframe

import tokenizer as tk
from tests.app.helpers import columns_reading_none, open_app, rerun
from tests.ui.payloads import drawn
from tokenizer import formats, hf
from tokenizer.train_record import TrainStep
from ui.common import registry, state, vocab_files
from ui.common.limits import (
    MAX_CORPUS_BYTES,
    MAX_NAME_CHARS,
    MAX_REPLAY_SAMPLE_CHARS,
    MAX_TEXT_CHARS,
    MAX_TRAIN_VOCAB,
)
from ui.common.messages import download_label
from ui.common.samples import corpus_sha256, text_sha256
from ui.common.uploads import NOT_TEXT
from ui.common.vocab_store import STORE, Stored, VocabStore
from ui.train import session as train_session
from ui.train.jobs import TrainingPool
from ui.train.state import DEFAULT_SPECIALS, PENDING_KEY

CORPUS = "the cat sat on the mat. the dog sat on the log. " * 30 + "naïve café 👋🏽 " * 10


def open_train(**query: str) -> AppTest:
    at = open_app(**query)
    at.switch_page("pages/train.py")
    return rerun(at)


def paste(at: AppTest, text: str) -> AppTest:
    at.segmented_control(key="train.source").set_value("paste")
    rerun(at)
    at.text_area(key="train.paste").input(text)
    return rerun(at)


def wait_for_training(at: AppTest) -> AppTest:
    deadline = time.monotonic() + 30
    while "train.pending" in at.session_state and time.monotonic() < deadline:
        time.sleep(0.1)
        rerun(at)  # AppTest does not run the progress fragment's timer: rerun by hand
    assert "train.pending" not in at.session_state
    return at


def train(at: AppTest, vocab: int = 300, name: str = "") -> AppTest:
    at.number_input(key="train.vocab").set_value(vocab)
    if name:
        at.text_input(key="train.name").input(name)
    rerun(at)
    at.button(key="train.train").click()
    rerun(at)
    return wait_for_training(at)


def held(at: AppTest) -> dict[str, tk.Encoding]:
    """The session's vocabularies: names and ids in the session, vocabularies in the store."""
    return {
        name: STORE.get(vocab_id).enc
        for name, vocab_id in at.session_state["common.vocabularies"].items()
    }


def metric(at: AppTest, label: str) -> str:
    (value,) = [m.value for m in at.metric if m.label == label]
    return value


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def expected(vocab: int = 300, text: str = CORPUS) -> tk.Encoding:
    return tk.train(text, vocab)


@pytest.fixture
def trained() -> AppTest:
    """A session that trained "cats" (function-scoped: conftest's AppTest patch is too)."""
    return train(paste(open_train(), CORPUS), name="cats")


def test_a_vocabulary_keeps_the_hash_of_the_text_it_learned_from(trained: AppTest) -> None:
    """How Compare knows one trained on its own samples, whatever the corpus is called."""
    entries = [STORE.get(i) for i in trained.session_state["common.vocabularies"].values()]
    assert [e.corpus_sha256 for e in entries if e is not None] == [text_sha256(CORPUS)]
    on_samples = train(open_train())  # the bundled "Languages & code samples"
    entries = [STORE.get(i) for i in on_samples.session_state["common.vocabularies"].values()]
    assert [e.corpus_sha256 for e in entries if e is not None] == [corpus_sha256()]


def test_the_page_opens_ready_to_train_on_a_bundled_corpus() -> None:
    at = open_train()
    assert at.segmented_control(key="train.source").value == "bundled"
    assert at.selectbox(key="train.bundled").value == "samples"
    assert at.number_input(key="train.vocab").value == 1024
    assert at.selectbox(key="train.pattern").value == "gpt2"
    assert at.multiselect(key="train.specials").value == ["<|endoftext|>"]
    assert not at.error
    assert not at.button(key="train.train").disabled
    assert any("SHA-256" in c.value for c in at.caption)


def test_a_train_this_link_fills_in_the_corpus_and_every_setting() -> None:
    at = open_train(
        source="paste",
        text="abc abc abd",
        size="300",
        pattern="cl100k_base",
        specials="<|fim_prefix|>,<|mine|>",
        name="class demo",
    )
    assert at.segmented_control(key="train.source").value == "paste"
    assert at.text_area(key="train.paste").value == "abc abc abd"
    assert at.number_input(key="train.vocab").value == 300
    assert at.selectbox(key="train.pattern").value == "cl100k_base"
    assert at.multiselect(key="train.specials").value == ["<|fim_prefix|>", "<|mine|>"]
    assert at.text_input(key="train.name").value == "class demo"
    assert at.query_params["size"] == "300" and at.query_params["pattern"] == "cl100k_base"
    bad = open_train(size="99999999", corpus="nope")
    notice = " ".join(w.value for w in bad.warning)
    assert "size=99999999" in notice and "corpus=nope" in notice


def test_special_tokens_with_commas_and_edge_spaces_come_back_whole_from_the_link() -> None:
    specials = ["<|endoftext|>", "<|a,b|>", " <pad>", "50%", "<|fim_prefix|>"]
    at = open_train(source="paste", text="abc abc abd")
    at.multiselect(key="train.specials").set_value(specials)
    rerun(at)
    link = at.query_params["specials"]
    assert link.split(",")[0] == "<|endoftext|>"  # a name without commas reads as before
    again = open_train(source="paste", text="abc abc abd", specials=link)
    assert again.multiselect(key="train.specials").value == specials
    assert not again.warning


def test_a_special_token_that_is_an_ordinary_word_of_the_corpus_is_warned_of() -> None:
    """`low` as a special token cuts "lower" and "slowly": allowed, but said, with an example;
    a marked token the corpus holds (a separator between documents) is what it is for."""
    text = "lower and slowly<|endoftext|>low"
    at = open_train(source="paste", text=text, specials="<|endoftext|>,low")
    (warning,) = [w.value for w in at.warning]
    assert "`low` 3 times (as in `lower`)" in warning
    assert "ordinary text" in warning and "<|endoftext|>` is." in warning
    assert not at.button(key="train.train").disabled
    at.multiselect(key="train.specials").set_value(["<|endoftext|>"])
    assert not rerun(at).warning


def test_training_adds_a_named_vocabulary_equal_to_the_trainers(trained: AppTest) -> None:
    (notice,) = at_success(trained)
    assert ("`cats`" in notice and "Made all" in notice) or "Stopped early" in notice
    enc = held(trained)["cats"]
    assert enc.merges == expected().merges
    assert "cats" in trained.selectbox(key="common.enc").options[-1]  # the sidebar picker offers it
    assert trained.selectbox(key="train.selected").value == "cats"
    assert any(p.value == 100 and p.text.startswith("Finished") for p in trained.get("progress"))
    # The link names it by id (for a reload); the one on show is the default, so not named.
    vocab_id = trained.session_state["common.vocabularies"]["cats"]
    assert trained.query_params["vocabs"] == vocab_id and "show" not in trained.query_params


def at_success(at: AppTest) -> list[str]:
    return [s.value for s in at.success]


def test_a_new_training_clears_the_last_ones_outcome(
    trained: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    pool = TrainingPool(workers=1, keep=2, train_fn=held_back(gate))
    monkeypatch.setattr(train_session, "training_pool", lambda: pool)
    trained.number_input(key="train.vocab").set_value(280)
    rerun(trained)
    trained.button(key="train.train").click()
    rerun(trained)
    assert not any(p.text.startswith("Finished") for p in trained.get("progress"))
    assert not at_success(trained)
    gate.set()
    wait_for_training(trained)
    assert any(p.text.startswith("Finished") for p in trained.get("progress"))


def test_replay_steps_mean_merges_applied(trained: AppTest) -> None:
    record = expected().training
    n = record.n_merges
    assert f"**Step {n:,} of {n:,}** — merge of rank {n - 1:,} made id {255 + n:,}" in markdown(
        trained
    )
    trained.slider(key="train.step").set_value(1)
    rerun(trained)
    assert f"**Step 1 of {n:,}** — merge of rank 0 made id 256" in markdown(trained)
    assert "**A sample, tokenized with the first merge**" in markdown(trained)  # not "1 merges"
    assert metric(trained, "Pair count") == f"{record.counts[0]:,}"
    assert metric(trained, "Corpus tokens") == f"{record.tokens_after[0]:,}"
    assert trained.query_params["step"] == "1"  # the step is in the link
    sample = trained.text_area(key="train.sample").value
    assert sample == CORPUS[: len(sample)] and sample  # the start of the corpus it learned from
    after_one = tk.Encoding.from_merges(
        name="x", pattern=tk.PATTERNS["gpt2"], merges=record.merges[:1], special_tokens={}
    )
    caption = next(c.value for c in trained.caption if "tokens for" in c.value)
    assert caption.startswith(f"{len(after_one.encode(sample)):,} tokens for {len(sample):,}")
    assert any('data-token-id="' in h.value for h in trained.html)
    trained.slider(key="train.step").set_value(0)
    rerun(trained)
    assert f"**Step 0 of {n:,}** — single bytes" in markdown(trained)
    assert metric(trained, "Pair count") == "–"
    caption = next(c.value for c in trained.caption if "tokens for" in c.value)
    assert caption.startswith(f"{len(sample.encode()):,} tokens")  # one per byte


def test_the_step_buttons_walk_the_replay_and_carry_the_merges_keys(trained: AppTest) -> None:
    """A class steps through a training from the keyboard, as on Merges: Home ← → End are the
    step buttons' shortcuts, Space plays. At either end the buttons stay enabled and a press
    changes nothing: disabled, the focused one dropped the keyboard's focus to the page."""
    n = expected().training.n_merges
    buttons = {k: trained.button(key=f"train.step_{k}") for k in ("first", "back", "next", "last")}
    assert [b.proto.shortcut for b in buttons.values()] == ["home", "left", "right", "end"]
    assert trained.button(key="train.play").proto.shortcut == "space"
    assert not any(b.disabled for b in buttons.values())  # at the last step, where it opens
    walk = [("next", n), ("back", n - 1), ("back", n - 2), ("next", n - 1), ("first", 0)]
    for button, step in [*walk, ("back", 0), ("next", 1), ("last", n)]:
        trained.button(key=f"train.step_{button}").click()
        rerun(trained)
        assert trained.slider(key="train.step").value == step, button
        assert f"**Step {step:,} of {n:,}**" in markdown(trained)
        assert not any(trained.button(key=f"train.step_{k}").disabled for k in buttons)


def test_arrows_counted_in_the_browser_step_the_replay_once_each(trained: AppTest) -> None:
    """← → go through the shared stepper (ui/common/steps.py): the page takes the step the
    browser worked out, once, and the slider is free again afterwards."""
    n = expected().training.n_merges

    def stepper() -> dict[str, object]:
        (data,) = [
            json.loads(e.proto.json)
            for e in trained.get("bidi_component")
            if e.proto.component_name == "bpe_lens.steps"
        ]
        return data  # type: ignore[no-any-return]

    data = stepper()
    words = data.pop("words")  # what a screen reader is told when the step changes
    stepped = {"name": "train.steps", "step": n, "last": n, "stops": None}
    assert data == stepped | {"area": "st-key-train-replay"}  # the keys step it while in sight
    assert str(words).startswith(f"Step {n} of {n}: merge of rank {n - 1}, ")
    trained.session_state["train.steps"] = {"target": {"mount": "m", "seq": 1, "step": 3}}
    assert rerun(trained).slider(key="train.step").value == 3
    assert str(stepper()["words"]).startswith(f"Step 3 of {n}: merge of rank 2, ")
    trained.slider(key="train.step").set_value(5)
    assert rerun(trained).slider(key="train.step").value == 5  # the target is taken only once
    trained.session_state["train.steps"] = {"target": {"mount": "m", "seq": 2, "step": n + 9}}
    assert rerun(trained).slider(key="train.step").value == n  # at most the last step


def test_replay_sample_speed_and_play(trained: AppTest) -> None:
    trained.text_area(key="train.sample").input("the cat")
    trained.selectbox(key="train.speed").set_value(10)
    rerun(trained)
    assert any("tokens for 7 characters" in c.value for c in trained.caption)
    trained.button(key="train.play").click()
    rerun(trained)
    assert trained.session_state["train.playing"] is True
    assert trained.button(key="train.play").label == "Pause"
    trained.button(key="train.play").click()
    rerun(trained)
    assert trained.session_state["train.playing"] is False
    trained.text_area(key="train.sample").input("")
    rerun(trained)
    assert not any("0 tokens for 0 characters" in c.value for c in trained.caption)
    assert any("Type a sample" in c.value for c in trained.caption)


def cut_toasts(at: AppTest) -> list[str]:
    return [t.value for t in at.toast if "This box holds at most" in t.value]


def test_a_paste_past_a_boxs_limit_keeps_its_start_and_says_so(trained: AppTest) -> None:
    """Given `max_chars`, Streamlit's box refused such a paste whole: the box kept what it had,
    and nothing said why (the corpus box then said "Choose, paste or upload a corpus first")."""
    trained.text_area(key="train.sample").input("ab" * MAX_REPLAY_SAMPLE_CHARS)
    rerun(trained)
    assert trained.text_area(key="train.sample").value == "ab" * (MAX_REPLAY_SAMPLE_CHARS // 2)
    (said,) = cut_toasts(trained)
    assert said == (
        f"This box holds at most {MAX_REPLAY_SAMPLE_CHARS:,} characters: the first "
        f"{MAX_REPLAY_SAMPLE_CHARS:,} of the {2 * MAX_REPLAY_SAMPLE_CHARS:,} given are kept."
    )
    at = paste(open_train(), "cat " * (MAX_TEXT_CHARS // 4) + "and the rest")
    assert at.text_area(key="train.paste").value == "cat " * (MAX_TEXT_CHARS // 4)
    assert f"at most {MAX_TEXT_CHARS:,} characters" in cut_toasts(at)[0]
    assert "corpus first" not in " ".join(e.value for e in [*at.error, *at.info, *at.warning])


def test_back_during_the_replay_shows_the_entrys_step_and_pauses(
    trained: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The browser's Back (a run Streamlit marks) goes to the step of the history entry and
    stays there: a replay that went on playing would write new entries over the way forward."""
    trained.slider(key="train.step").set_value(3)
    rerun(trained)
    trained.button(key="train.play").click()
    rerun(trained)
    assert trained.session_state["train.playing"] is True
    trained.query_params["step"] = "1"
    monkeypatch.setattr(state, "history_navigation", lambda: True)
    rerun(trained)
    assert trained.session_state["train.playing"] is False
    assert trained.slider(key="train.step").value == 1
    assert trained.query_params["step"] == "1"


@pytest.mark.slow  # two trainings
def test_the_sample_follows_the_vocabulary_on_show() -> None:
    at = train(paste(open_train(), CORPUS), name="cats")
    other = "zebras quietly graze. " * 40
    at = train(paste(at, other), vocab=270, name="zebras")
    assert at.text_area(key="train.sample").value.startswith("zebras quietly")
    at.selectbox(key="train.selected").set_value("cats")
    rerun(at)
    assert at.text_area(key="train.sample").value.startswith("the cat sat")


def vocab_table(at: AppTest) -> Dataframe:
    """The Vocabulary tab's table (its key names the listing it shows)."""
    (table,) = [d for d in at.dataframe if d.key.startswith("train.table")]
    return table


def select_row(at: AppTest, row: int) -> AppTest:
    """Select a row of the table, as a click on it does."""
    selection = {"rows": [row], "columns": [], "cells": []}
    at.session_state[vocab_table(at).key] = {"selection": selection}
    return rerun(at)


def tree_shown(at: AppTest) -> int | None:
    """The token whose merge tree is on show, if any."""
    titles = [m.value for m in at.markdown if m.value.startswith("**Merge tree of token ")]
    if not titles:
        return None
    (title,) = titles
    return int(title.split("token ")[1].split("**")[0].replace(",", ""))


def search_tokens(at: AppTest, query: str) -> AppTest:
    at.text_input(key="train.search").input(query)
    return rerun(at)


def test_vocabulary_table_search_and_merge_tree(trained: AppTest) -> None:
    enc = held(trained)["cats"]
    trained.session_state["train.tab"] = "Vocabulary"
    rerun(trained)
    assert len(vocab_table(trained).value) == enc.n_vocab
    search_tokens(trained, " cat")
    listing = vocab_table(trained).value
    assert 0 < len(listing) < enc.n_vocab
    assert all("·cat" in t for t in listing["token"])
    token_id = int(listing.iloc[0]["id"])
    select_row(trained, 0)
    assert tree_shown(trained) == token_id
    tree = next(h.value for h in trained.html if 'class="mtree"' in h.value)
    assert "· rank " in tree and "· merge " not in tree
    download = trained.download_button(key="train.csv")
    assert download.label == download_label(len(listing))  # the search's, not every token
    search_tokens(trained, "no token holds this")
    assert trained.download_button(key="train.csv").disabled
    assert trained.download_button(key="train.csv").label == "No tokens to download"
    assert "No token matches `no token holds this`." in [c.value for c in trained.caption]
    search_tokens(trained, "99999")
    said = f"No token matches `99999`: the ids run from 0 to {enc.n_vocab - 1:,}."
    assert said in [c.value for c in trained.caption]
    assert trained.query_params["view"] == "vocabulary"


def test_a_bytes_missing_parents_and_count_are_blank_not_none(trained: AppTest) -> None:
    trained.session_state["train.tab"] = "Vocabulary"
    table = vocab_table(rerun(trained))
    bytes_ = table.value[table.value["kind"] == "byte"]
    assert bytes_[["left", "right", "count"]].isna().all().all()  # a byte has no parents
    assert columns_reading_none(table) == []


def test_a_new_search_keeps_the_selected_token_never_the_row(trained: AppTest) -> None:
    """A table's selection is a row's position; after another search that row is another
    token, whose merge tree the page showed as if it were the one selected."""
    trained.session_state["train.tab"] = "Vocabulary"
    select_row(rerun(trained), 0)  # id 0, a byte: no " cat" in it
    assert tree_shown(trained) == 0
    search_tokens(trained, " cat")
    first = int(vocab_table(trained).value.iloc[0]["id"])
    assert tree_shown(trained) is None, f"row 0 of the new listing, token {first}, is selected"
    last = len(vocab_table(trained).value) - 1
    token_id = int(vocab_table(trained).value.iloc[last]["id"])
    select_row(trained, last)
    search_tokens(trained, "")  # every token: the one selected is in another row now
    assert vocab_table(trained).value.iloc[last]["id"] != token_id
    assert tree_shown(trained) == token_id


def test_the_search_and_pick_outlast_another_tab_and_a_search_without_the_token(
    trained: AppTest,
) -> None:
    """The Replay tab drew no search box, so Streamlit dropped its text; and a search that did
    not list the picked token forgot the pick for the next one that did."""
    trained.session_state["train.tab"] = "Vocabulary"
    search_tokens(rerun(trained), "at")
    token_id = int(vocab_table(trained).value.iloc[0]["id"])
    select_row(trained, 0)
    trained.session_state["train.tab"] = "Replay"
    rerun(trained)
    trained.session_state["train.tab"] = "Vocabulary"
    rerun(trained)
    assert trained.text_input(key="train.search").value == "at"
    assert tree_shown(trained) == token_id
    search_tokens(trained, "zzzq")  # lists nothing
    assert tree_shown(trained) is None
    search_tokens(trained, "at")
    assert tree_shown(trained) == token_id


def test_export_offers_every_format_the_core_writes(trained: AppTest) -> None:
    trained.session_state["train.tab"] = "Export"
    rerun(trained)
    labels = [
        trained.download_button(key=key).label
        for key in (
            "train.export_hf_0",
            "train.export_gpt2_0",
            "train.export_gpt2_1",
            "train.export_tiktoken_0",
            "train.export_bundle_0",
        )
    ]
    assert labels == [
        "Hugging Face tokenizer.json",
        "cats-encoder.json",
        "cats-vocab.bpe",
        "tiktoken .tiktoken",
        "BPE Lens bundle .json",
    ]


def import_result(at: AppTest, key: str = "train.import") -> str:
    """The import's message, drawn next to its button."""
    held_result = at.session_state[f"{key}_result"]
    return held_result[1]


def test_an_imported_tokenizer_json_with_one_added_token_says_it_in_the_singular() -> None:
    at = open_train()
    enc = tk.train(CORPUS, 280, name="one", special_tokens=["<|endoftext|>"])
    at.file_uploader(key="train.import_files").set_value(
        ("one-tokenizer.json", hf.dump_tokenizer_json(enc), "application/json")
    )
    rerun(at)
    at.button(key="train.import").click()
    rerun(at)
    assert "Its 1 added token is a special token, as in Hugging Face" in import_result(at)
    # Only Compare reads them so by default: "the pages" read them so, it said (QA round 14).
    assert "Compare reads it in text as single tokens" in import_result(at)
    assert "the Playground with **Special tokens** on" in import_result(at)


def test_import_a_bundle_the_message_stays_until_dismissed_and_a_bad_file() -> None:
    at = open_train()
    enc = tk.train(CORPUS, 280, name="from disk")
    at.file_uploader(key="train.import_files").set_value(
        ("from-disk.bpe-lens.json", formats.dump_bundle(enc), "application/json")
    )
    rerun(at)
    at.button(key="train.import").click()
    rerun(at)
    vocabularies = held(at)
    assert list(vocabularies) == ["from disk"]
    assert vocabularies["from disk"].merges == enc.merges
    assert "Imported" in import_result(at) and any("Imported" in s.value for s in at.success)
    rerun(rerun(at))
    assert any("Imported" in s.value for s in at.success)  # still there after other runs
    at.button(key="train.import_dismiss").click()
    rerun(at)
    assert not any("Imported" in s.value for s in at.success)
    at.file_uploader(key="train.import_files").set_value(("broken.json", b"{nope", "x"))
    rerun(at)
    at.button(key="train.import").click()
    rerun(at)
    assert any("not valid JSON" in e.value for e in at.error)
    assert not at.exception


def import_panel_open(at: AppTest) -> bool:
    (panel,) = [e for e in at.expander if e.label == "Import a vocabulary"]
    return panel.proto.expanded


def test_the_first_import_keeps_its_panel_open_with_what_it_says() -> None:
    """The panel is open while there is no vocabulary; the first import adds one, which used to
    fold the panel at once, its success message and any warning inside, out of sight."""
    at = open_train()
    assert import_panel_open(at)
    at.file_uploader(key="train.import_files").set_value(
        ("cats.bpe-lens.json", formats.dump_bundle(tk.train(CORPUS, 270, name="cats")), "x")
    )
    rerun(at).button(key="train.import").click()
    rerun(rerun(at))
    assert list(held(at)) == ["cats"]
    assert import_panel_open(at), "the import's panel folded away, its message inside"
    assert any("Imported `cats`" in s.value for s in at.success)
    at.session_state["train.import_panel"] = False  # the user folds it: it stays folded
    rerun(at)
    assert not import_panel_open(at) and not at.success


def test_import_gpt2_files_with_a_pattern_and_a_name() -> None:
    at = open_train()
    enc = tk.train(CORPUS, 280)
    files = formats.dump_gpt2(enc)
    at.file_uploader(key="train.import_files").set_value(
        [("encoder.json", files.encoder_json, "x"), ("vocab.bpe", files.vocab_bpe, "x")]
    )
    rerun(at)
    at.text_input(key="train.import_name").input("gpt2 files, named at length " * 3)
    rerun(at)  # the name box keeps a long paste's start, as every box with a limit does
    assert (
        at.text_input(key="train.import_name").value
        == ("gpt2 files, named at length " * 3)[:MAX_NAME_CHARS]
    )
    assert cut_toasts(at)
    at.text_input(key="train.import_name").input("gpt2 files")
    at.selectbox(key="train.import_pattern").set_value("cl100k_base")
    rerun(at)
    at.button(key="train.import").click()
    rerun(at)
    imported = held(at)["gpt2 files"]
    assert imported.pattern == tk.PATTERNS["cl100k_base"]
    assert imported.encode_ordinary(CORPUS) == tk.Encoding.from_merges(
        name="x", pattern=tk.PATTERNS["cl100k_base"], merges=enc.merges, special_tokens={}
    ).encode_ordinary(CORPUS)
    assert any("no training record" in i.value for i in at.info)  # replay needs the bundle


def test_a_re_imported_export_is_named_after_the_vocabulary(trained: AppTest) -> None:
    """Its files are named after the vocabulary and the format's fixed name: an export of
    "cats" came back as "cats-tokenizer" from tokenizer.json but "cats-2" from the bundle."""
    names = []
    trained.session_state["train.import_panel"] = True  # open it, as the user does
    rerun(trained)
    for fmt in ("hf", "tiktoken"):
        (export,) = [e for e in vocab_files.exports(held(trained)["cats"]) if e.fmt == fmt]
        uploads = [(name, data, "x") for name, data in export.files]
        trained.file_uploader(key="train.import_files").set_value(uploads)
        rerun(trained)
        trained.button(key="train.import").click()
        rerun(trained)
        names.append(list(held(trained))[-1])
    assert names == ["cats-2", "cats-3"]


def test_remove_a_vocabulary(trained: AppTest) -> None:
    at = train(paste(open_train(), CORPUS[:400]), vocab=270, name="tiny")
    at.button(key="train.remove").click()
    rerun(at)
    assert "tiny" not in at.session_state["common.vocabularies"]
    assert any("Removed" in i.value for i in at.info)


def test_a_refused_regex_is_quoted_as_typed_not_as_markdown() -> None:
    """The error quotes the regex: as Markdown, `__init__` became a bold "init", and the
    position it named no longer matched what was shown."""
    pattern = r" ?\p{L}+|__init__|**kwargs|\*"
    at = open_train(pattern="custom", regex=pattern)
    (refused,) = [e.value for e in at.error if "This regex is refused" in e.value]
    assert "nothing to repeat at position 18" in refused
    assert f"pattern {pattern!r} does not compile" in drawn(refused)


def test_a_custom_regex_is_checked_live() -> None:
    at = open_train()
    at.selectbox(key="train.pattern").set_value("custom")
    rerun(at)
    at.text_input(key="train.regex").input("(unclosed")
    rerun(at)
    errors = [e.value for e in at.error]
    assert sum("does not compile" in e for e in errors) == 1  # by the box; the button points up
    assert "Fix the custom regex above to train." in errors
    assert at.button(key="train.train").disabled
    at.text_input(key="train.regex").input(r"\p{L}+")
    rerun(at)
    assert any("match nothing" in w.value for w in at.warning)
    at.text_input(key="train.regex").input(r" ?\p{L}+|.")
    rerun(at)
    (warning,) = [w.value for w in at.warning]
    assert "1 character of the test line matches nothing (`↵`)" in warning
    assert r"`|[\s\S]`" in warning
    assert not at.button(key="train.train").disabled
    at.text_input(key="train.regex").input(r" ?\p{L}+|\s+|.")
    rerun(at)
    assert not at.warning and any("Splits the test line" in c.value for c in at.caption)
    at.text_input(key="train.regex").input(r"(?=a)")  # no chunk: no colon before nothing
    rerun(at)
    assert "Splits the test line into 0 chunks." in [c.value for c in at.caption]
    at.text_input(key="train.regex").input(r"\b")  # empty matches only: nothing to learn from
    rerun(at)
    assert any("finds no text in" in e.value for e in at.error)
    assert at.button(key="train.train").disabled


def test_a_link_with_a_recursive_regex_opens_with_a_message() -> None:
    """`regex` ran out of memory on (?R): the page showed a MemoryError's traceback."""
    at = open_train(pattern="custom", regex="(?R)")
    assert any("calls a group (recursion)" in drawn(e.value) for e in at.error)
    assert at.button(key="train.train").disabled


def alerts(at: AppTest) -> list[str]:
    return [a.value for kind in ("success", "info", "warning", "error") for a in at.get(kind)]


def test_a_training_that_made_no_merge_says_so_in_the_replay() -> None:
    at = paste(open_train(), "abc abc")
    at.selectbox(key="train.pattern").set_value("custom")
    rerun(at)
    at.text_input(key="train.regex").input(".")  # one character per chunk: no pair to merge
    train(rerun(at), vocab=300)
    said = " ".join(alerts(at))
    assert "training made no merge" in said and said.count("Stopped before the first merge") == 1
    assert "any more" not in said  # no pair ever occurred twice
    assert "no training record" not in said


def test_a_size_with_no_room_for_a_merge_says_so_once() -> None:
    """Size 256 without special tokens asks for no merge: the page said "Made all 0 merges." in
    the training's outcome and again in the replay."""
    at = paste(open_train(), CORPUS)
    at.multiselect(key="train.specials").set_value([])
    train(rerun(at), vocab=256, name="bytes")
    said = alerts(at)
    assert not any("Made all 0" in a for a in said), said
    why = "a size of 256 holds only the 256 bytes"
    assert sum(why in a for a in said) == 1, said
    assert any(a.startswith("Nothing to replay: training made no merge") for a in said)
    again = open_train(**at.query_params)  # a reload: the outcome is gone, the replay says why
    assert any(why in i.value for i in again.info)


def test_no_pattern_is_refused_for_a_big_corpus() -> None:
    at = paste(open_train(), "ab cd " * 20_000)
    at.selectbox(key="train.pattern").set_value("none")
    rerun(at)
    assert any("Without a pattern" in e.value for e in at.error)
    assert at.button(key="train.train").disabled


def test_settings_are_checked() -> None:
    at = open_train()
    at.text_input(key="train.name").input("gpt2")
    rerun(at)
    assert any("built-in encoding" in e.value for e in at.error)
    at.text_input(key="train.name").input("ok name")
    at.multiselect(key="train.specials").set_value([" "])
    at.number_input(key="train.vocab").set_value(256)
    rerun(at)
    errors = " ".join(e.value for e in at.error)
    assert "the token `U+0020` draws nothing" in errors
    assert "With 1 special token the size must be at least 257." in errors
    assert at.button(key="train.train").disabled


def test_a_size_out_of_bounds_is_named_and_nothing_trains() -> None:
    """The box has no bounds of its own: with them the browser kept a size typed out of bounds
    to itself (a red box) and Train, clicked at once, trained the old size without a word."""
    at = paste(open_train(), CORPUS)
    at.number_input(key="train.vocab").set_value(MAX_TRAIN_VOCAB + 1)
    at.button(key="train.train").click()  # in the same run, as a click right after typing
    rerun(at)
    assert f"The vocabulary size is at most {MAX_TRAIN_VOCAB:,} (GPT-2's)." in [
        e.value for e in at.error
    ]
    assert at.button(key="train.train").disabled
    assert PENDING_KEY not in at.session_state, "a training started"
    at.number_input(key="train.vocab").set_value(0)
    rerun(at)
    assert "the size must be at least 257" in " ".join(e.value for e in at.error)


def test_a_special_token_of_invisible_characters_is_refused_and_nothing_else_lost() -> None:
    """A zero-width space alone is an empty chip in the picker: refused, with the rule and the
    token named, like the other setting problems; the other settings stay as they were."""
    at = paste(open_train(), CORPUS)
    at.number_input(key="train.vocab").set_value(300)
    at.selectbox(key="train.pattern").set_value("cl100k_base")
    rerun(at)
    chosen = ["<|endoftext|>", "\u200b", "<|pad|>"]
    at.multiselect(key="train.specials").set_value(chosen)
    rerun(at)
    errors = [e.value for e in at.error]
    assert any(
        "needs at least one visible character: the token `U+200B` draws nothing" in e
        for e in errors
    ), errors
    assert at.button(key="train.train").disabled
    assert at.multiselect(key="train.specials").value == chosen
    assert at.number_input(key="train.vocab").value == 300
    assert at.selectbox(key="train.pattern").value == "cl100k_base"
    assert at.text_area(key="train.paste").value == CORPUS


def upload(at: AppTest, files: list[tuple[str, bytes, str]]) -> AppTest:
    at.segmented_control(key="train.source").set_value("upload")
    rerun(at)
    at.file_uploader(key="train.upload").set_value(files)
    return rerun(at)


def test_a_non_utf8_upload_is_read_as_windows_1252_and_the_user_is_told() -> None:
    at = upload(open_train(), [("latin.txt", b"caf\xe9 " * 200, "text/plain")])
    assert any("200 byte sequences could not be read as UTF-8" in w.value for w in at.warning)
    assert any("Windows-1252" in w.value for w in at.warning)
    assert any("1,000 characters" in c.value for c in at.caption)
    at = train(at, vocab=260)
    assert "latin-260" in held(at)
    assert held(at)["latin-260"].encode("café") == tk.train("café " * 200, 260).encode("café")


def test_an_empty_upload_is_named_as_empty_not_as_missing() -> None:
    """The page said both "This corpus is empty." and "Upload a .txt corpus first" (QA round 11)."""
    at = upload(open_train(), [("empty.txt", b"", "text/plain")])
    errors = [e.value for e in at.error] + [w.value for w in at.warning]
    assert errors == [
        "No text to train on in the file `empty.txt`.",
        "`empty.txt` is empty: nothing from it.",
    ]
    assert at.button(key="train.train").disabled


def test_a_binary_upload_is_named_and_left_out() -> None:
    """A picture renamed .txt was read as Windows-1252 and trained on as text."""
    picture = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    at = upload(open_train(), [("pic.txt", picture, "text/plain")])
    errors = [e.value for e in at.error] + [w.value for w in at.warning]
    assert errors == [
        "No text to train on in the file `pic.txt`.",
        f"`pic.txt` {NOT_TEXT}: nothing from it.",
    ]
    assert at.button(key="train.train").disabled
    at = upload(at, [("a.txt", b"first " * 50, "x"), ("pic.txt", picture, "x")])
    assert any("`pic.txt` is not text" in w.value for w in at.warning)
    assert any(f"{len('first ' * 50):,} characters" in c.value for c in at.caption)


def test_several_uploaded_files_are_one_corpus() -> None:
    files = [("a.txt", b"first file " * 50, "text/plain"), ("b.txt", b"second " * 50, "x")]
    at = upload(open_train(), files)
    chars = len("first file " * 50) + 2 + len("second " * 50)
    assert any(f"{chars:,} characters" in c.value for c in at.caption)
    at = train(at, vocab=270)
    assert list(held(at)) == ["a-and-1-270"]


def test_an_empty_file_among_several_is_named_and_left_out() -> None:
    """It added only a blank line between the others, without a word."""
    files = [
        ("a.txt", b"first " * 50, "x"),
        ("none.txt", b"", "x"),
        ("b.txt", b"second " * 50, "x"),
    ]
    at = upload(open_train(), files)
    assert any("`none.txt` is empty: nothing from it." in w.value for w in at.warning)
    chars = len("first " * 50) + 2 + len("second " * 50)  # one blank line between the two
    assert any(f"{chars:,} characters" in c.value for c in at.caption)
    at = train(at, vocab=260)
    assert list(held(at)) == ["a-and-1-260"]  # the two files it holds, not the three given
    assert any("on 2 files (`a.txt` and more)" in s.value for s in at.success)


def test_an_upload_over_the_limit_gets_our_message_naming_the_limit() -> None:
    big = b"x" * (MAX_CORPUS_BYTES // 2 + 1)
    at = upload(open_train(), [("a.txt", big, "text/plain"), ("b.txt", big, "text/plain")])
    (error,) = [e.value for e in at.error if "the limit is" in e.value]
    assert "These 2 files are 10 MB together; the limit is 10 MB" in error


def test_before_an_upload_the_page_names_the_limit_the_box_enforces() -> None:
    """A file over the limit never reaches the app (the browser box refuses it): the page's
    own hint must say what the limit is."""
    at = open_train(source="upload")
    (hint,) = [e.value for e in at.error if "corpus first" in e.value]
    assert "at most 10 MB" in hint


def test_identical_trainings_are_shared_between_sessions(trained: AppTest) -> None:
    other = train(paste(open_train(), CORPUS), name="cats again")
    mine = held(trained)["cats"]
    theirs = held(other)["cats again"]
    assert theirs.training is mine.training  # one training, two named copies
    assert theirs is not mine


def slow_train(delay: float, started: threading.Event | None = None) -> Callable:
    """The real trainer with a pause after every merge, so a test can cancel it midway."""

    def fn(text: str, vocab_size: int, *, on_step: Callable[[TrainStep], object], **kw: object):
        def step(s: TrainStep) -> object:
            if started is not None and s.index >= 5:
                started.set()
            time.sleep(delay)
            return on_step(s)

        return tk.train(text, vocab_size, on_step=step, **kw)

    return fn


def held_back(gate: threading.Event) -> Callable:
    def fn(text: str, vocab_size: int, **kwargs: object) -> tk.Encoding:
        gate.wait(10)
        return tk.train(text, vocab_size, **kwargs)

    return fn


def train_cats(pool: TrainingPool, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The page training the test corpus as "cats" in `pool`, Train just pressed."""
    monkeypatch.setattr(train_session, "training_pool", lambda: pool)
    at = paste(open_train(), CORPUS)
    at.text_input(key="train.name").input("cats")
    rerun(at)
    at.button(key="train.train").click()
    return rerun(at)


def test_cancel_keeps_a_usable_partial_vocabulary(monkeypatch: pytest.MonkeyPatch) -> None:
    started = threading.Event()
    pool = TrainingPool(workers=1, keep=2, train_fn=slow_train(0.02, started))
    at = train_cats(pool, monkeypatch)
    assert at.button(key="train.train").disabled  # one training at a time per session
    assert started.wait(10)
    rerun(at)
    at.button(key="train.cancel").click()
    rerun(at)
    wait_for_training(at)
    partial = held(at)["cats-partial"]
    record = partial.training
    assert record.stop == "cancelled" and 5 <= record.n_merges < 1024 - 257
    full = tk.train(CORPUS, 1024)
    assert partial.merges == full.merges[: record.n_merges]
    assert partial.decode(partial.encode(CORPUS)) == CORPUS  # usable
    assert len(partial.encode(CORPUS)) < len(CORPUS.encode())  # and it learned something
    assert any(f"Cancelled after {record.n_merges:,}" in i.value for i in at.info)
    assert at.selectbox(key="train.selected").value == "cats-partial"
    captions = " ".join(c.value for c in at.caption)
    assert "partial" in captions
    assert ".." not in captions  # the record's sentence ends the caption once


def test_cancel_while_another_session_trains_the_same_takes_the_merges_seen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = threading.Event()
    pool = TrainingPool(workers=1, keep=2, train_fn=slow_train(0.005, started))
    monkeypatch.setattr(train_session, "training_pool", lambda: pool)
    # Each AppTest is its own session, with its own id (ui.common.state.session_id): the pool
    # tells the two watchers apart by it.
    mine = paste(open_train(), CORPUS)
    theirs = paste(open_train(), CORPUS)
    for at in (mine, theirs):
        at.button(key="train.train").click()
        rerun(at)
    assert started.wait(10)
    mine.button(key="train.cancel").click()
    rerun(mine)
    assert "train.pending" not in mine.session_state  # free to train something else
    assert any("goes on for them" in i.value for i in mine.info)
    wait_for_training(theirs)
    rerun(mine)
    (name,) = [n for n in held(mine) if n.endswith("-partial")]
    partial = held(mine)[name]
    whole = next(iter(held(theirs).values()))
    n = partial.training.n_merges
    assert 1 <= n < whole.training.n_merges
    assert partial.merges == whole.merges[:n]


def test_a_cancel_that_arrives_after_the_last_merge_keeps_the_whole_vocabulary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The training ended between the page's last run and the click: nothing was cut short."""
    gate = threading.Event()
    pool = TrainingPool(workers=1, keep=2, train_fn=held_back(gate))
    at = train_cats(pool, monkeypatch)
    job = at.session_state["train.pending"].job
    gate.set()
    assert job.finished.wait(30) and job.state == "done"
    at.button(key="train.cancel").click()  # drawn while it was still running
    wait_for_training(rerun(at))
    assert list(held(at)) == ["cats"]
    assert held(at)["cats"].training.stop != "cancelled"
    assert not any("Kept as" in i.value for i in at.info)


def test_train_again_on_the_same_corpus_and_settings_adds_no_copy(trained: AppTest) -> None:
    """A second click made `cats-2`, identical, and said the server "was already training"
    it for a reload or someone else."""
    trained.button(key="train.train").click()
    wait_for_training(rerun(trained))
    assert list(held(trained)) == ["cats"]
    (note,) = [i.value for i in trained.info if "already holds exactly this" in i.value]
    assert "`cats`" in note
    assert not [s for s in trained.success if "already training" in s.value]
    trained.text_input(key="train.name").input("dogs")  # a name of its own asks for a copy
    rerun(trained)
    trained.button(key="train.train").click()
    wait_for_training(rerun(trained))
    assert list(held(trained)) == ["cats", "dogs"]


def test_train_again_on_an_edited_corpus_that_makes_the_same_merges_keeps_both() -> None:
    """ "t already holds exactly this training": an edited corpus can learn the same merges,
    and its replay (counts, sample) was lost behind the old one (QA round 50)."""
    first, edited = "abc abc abcd abcd abcde xyz xyz", "abc abc abcd abcd abcde xyz xyz more text"
    assert tk.train(first, 260).merges == tk.train(edited, 260).merges  # the same 4 merges
    at = train(paste(open_train(), first), vocab=260, name="t")
    at = train(paste(at, edited), vocab=260, name="t")
    assert not [i for i in at.info if "already holds" in i.value]
    assert list(held(at)) == ["t", "t-2"]
    assert [held(at)[name].training.tokens_before for name in ("t", "t-2")] == [
        len(first),
        len(edited),
    ]


def test_a_reload_finds_the_vocabularies_again_from_the_link(trained: AppTest) -> None:
    link = dict(trained.query_params)
    again = open_train(**link)  # a new session: what a reload is
    assert list(held(again)) == ["cats"]
    assert held(again)["cats"] is held(trained)["cats"]  # the server's one copy
    assert again.selectbox(key="train.selected").value == "cats"


def test_a_vocabulary_the_server_dropped_is_named_with_how_to_get_it_back() -> None:
    at = open_train(vocabs="vocab-0123456789abcdef")
    notice = " ".join(w.value for w in at.warning)
    assert "vocab-0123456789abcdef" in notice and "train it again" in notice
    assert "import the file you exported" in notice
    assert "vocabs" not in at.query_params


def test_a_vocabulary_the_server_drops_leaves_the_list_with_a_notice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small = VocabStore(max_bytes=int(1.5 * 1024 * 1024), max_gone=10)  # room for one
    monkeypatch.setattr(registry, "STORE", small)
    at = open_train()
    at.session_state["common.vocabularies"] = {"mine": tk.train(CORPUS, 262, name="mine")}
    rerun(at)
    assert at.selectbox(key="train.selected").value == "mine"
    small.put(Stored(tk.train(CORPUS, 263, name="theirs")))  # another session's pushes it out
    rerun(at)
    notice = " ".join(w.value for w in at.warning)
    assert "`mine` is no longer on this server" in notice and "train it again" in notice
    assert not at.session_state["common.vocabularies"] and "vocabs" not in at.query_params
    at.button(key="common_lost_close").click()
    rerun(at)
    assert "no longer on this server" not in " ".join(w.value for w in at.warning)


def test_a_corpus_of_whitespace_alone_trains_and_one_character_is_singular() -> None:
    text = " \t\n  " * 200
    at = paste(open_train(), text)
    assert not at.warning
    assert any(c.value.startswith("1,000 characters") for c in at.caption)
    trained = held(train(at, 270, "spaces"))["spaces"]
    assert trained.encode_ordinary(text) == expected(270, text).encode_ordinary(text)
    one = paste(open_train(), "x")
    assert any(c.value.startswith("1 character ·") for c in one.caption)


def test_a_reload_during_a_training_shows_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reload is a new session with the same link: the page waits again for the training the
    server is still running for that link (it ran on unseen, and Train joined it as another's)."""
    gate = threading.Event()
    pool = TrainingPool(workers=1, keep=2, train_fn=held_back(gate))
    before = train_cats(pool, monkeypatch)
    job = before.session_state["train.pending"].job
    reloaded = open_train(**dict(before.query_params))
    assert reloaded.session_state["train.pending"].job is job
    assert reloaded.button(key="train.train").disabled
    assert any("when the page opened" in c.value for c in reloaded.caption)
    gate.set()
    wait_for_training(reloaded)
    assert list(held(reloaded)) == ["cats"]
    assert held(reloaded)["cats"].merges == job.result.merges
    assert any("before a reload" in s.value for s in reloaded.success)

    again = open_train(**dict(reloaded.query_params))  # over now: its vocabulary is in the link
    assert "train.pending" not in again.session_state
    assert list(held(again)) == ["cats"]


def test_a_training_that_ends_during_the_reload_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The training finished while the page reloaded: the reloaded page takes its vocabulary
    (it was lost without a word). Long after it ended, a page opened on the same corpus and
    settings starts from nothing, as for anyone else."""
    now = [0.0]
    gate = threading.Event()
    pool = TrainingPool(workers=1, keep=2, train_fn=held_back(gate), clock=lambda: now[0])
    before = train_cats(pool, monkeypatch)
    job = before.session_state["train.pending"].job
    gate.set()
    assert job.finished.wait(10)
    now[0] += train_session.RESUME_SECONDS
    reloaded = wait_for_training(open_train(**dict(before.query_params)))
    assert list(held(reloaded)) == ["cats"]
    assert held(reloaded)["cats"].merges == job.result.merges
    now[0] += 1
    later = open_train(**dict(before.query_params))
    assert "train.pending" not in later.session_state and not held(later)


def test_too_many_special_tokens_is_said_once_with_the_count() -> None:
    """40 special tokens read "At most 16 special tokens." beside "With 40 special tokens the
    size must be at least 296", a size that could not help (QA round 15)."""
    at = open_train(source="paste", text="abc abc abd", size="260")
    at.multiselect(key="train.specials").set_value([f"<|s{n}|>" for n in range(40)])
    shown = [e.value for e in rerun(at).error]
    assert any("At most 16 special tokens; this list has 40." in e for e in shown), shown
    assert not [e for e in shown if "the size must be at least" in e]
    assert at.button(key="train.train").disabled


def test_a_link_naming_thousands_of_special_tokens_is_named_not_drawn() -> None:
    """20,000 names in `specials=` were 20,000 chips sent to the browser (a hostile link could
    stall the tab); the page keeps its default and says why."""
    specials = ",".join(f"<|s{n}|>" for n in range(20_000))
    at = open_train(source="paste", text="abc abc abd", specials=specials)
    picker = at.multiselect(key="train.specials")
    assert picker.value == DEFAULT_SPECIALS and len(picker.options) < 10
    notice = " ".join(w.value for w in at.warning)
    assert "it names 20,000 special tokens; a training takes at most 16" in notice
    assert "specials" not in at.query_params  # the default, so the link no longer holds it


def test_a_link_to_a_vocabulary_the_server_lost_opens_at_its_step_once_trained_again(
    trained: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A class's link after the server restarted: the page names the lost vocabulary and how
    to get it back, and keeps the link's step, tab and choice for it, so Train again (the
    link's corpus and settings) opens the replay where the link was, not at its last step."""
    trained.slider(key="train.step").set_value(5)
    link = dict(rerun(trained).query_params)
    assert link["step"] == "5" and link["vocabs"]
    # A restart: an empty store, and no finished training to find for the link.
    monkeypatch.setattr(registry, "STORE", VocabStore(max_bytes=64 * 1024 * 1024, max_gone=10))
    pool = TrainingPool(workers=1, keep=2)
    monkeypatch.setattr(train_session, "training_pool", lambda: pool)
    at = open_train(**link)
    notice = " ".join(w.value for w in at.warning)
    assert link["vocabs"] in notice and "train it again" in notice
    assert (
        "the Train page's link from its training holds them" in notice
    )  # a Playground link does not
    assert "step" in at.query_params  # kept for the vocabulary to come
    at.button(key="train.train").click()
    wait_for_training(rerun(at))
    assert at.slider(key="train.step").value == 5
    assert at.query_params["step"] == "5"


def test_each_chart_is_named_by_what_it_shows(trained: AppTest) -> None:
    """Named for a screen reader (Streamlit's `alt`), not by the first of its tick labels."""
    enc = expected()
    n, won = enc.training.n_merges, enc.training.counts[-1]
    charts = [c.proto.alt for c in trained.get("vega_lite_chart")]
    assert len(charts) == 3, charts  # the race, the two curves
    race, tokens, per_token = charts
    assert race.startswith(f"Bar chart: the pairs of step {n:,} by count in the corpus; ")
    assert race.endswith(f" won with {won:,}.")
    now = len(enc.encode_ordinary(CORPUS))
    assert (
        tokens
        == f"Line chart: corpus tokens after each step; {now:,} at step {n:,} (the red mark)."
    )
    ratio = len(CORPUS.encode()) / now
    assert per_token == (
        f"Line chart: bytes / token after each step; {ratio:.2f} at step {n:,} (the red mark)."
    )


# ---- presentation mode ---------------------------------------------------------------------


def presenting(at: AppTest) -> bool:
    """Whether the page presents: the presentation style sheet is on it."""
    return any("--present-fg" in h.value for h in at.html)


def headers(at: AppTest) -> list[str]:
    return [h.value for h in at.header]


def test_presentation_mode_is_the_replay_alone_and_gives_the_page_back(trained: AppTest) -> None:
    """Turned on, the page is the replay of the vocabulary on show, for a projector: no corpus,
    settings or tabs, no metrics (their figures are one line), the same step the class was on.
    Turned off, the page is back as it was, with the vocabulary and the step."""
    n = expected().training.n_merges
    assert not presenting(trained)
    assert headers(trained) == ["1 · Corpus", "2 · Settings", "3 · Your vocabularies"]
    trained.toggle(key="train.present").set_value(True)
    rerun(trained)
    assert presenting(trained)
    assert trained.query_params["present"] == "1"
    assert headers(trained) == []
    assert trained.title[0].value == "Train · `cats`"
    assert trained.selectbox(key="train.selected").value == "cats"
    assert not trained.metric
    record = expected().training
    figures = f"Corpus: {record.tokens_after[-1]:,} tokens ("
    assert any(c.value.startswith(figures) for c in trained.caption)
    assert f"**Step {n:,} of {n:,}**" in markdown(trained)
    assert not trained.get("vega_lite_chart")  # the race in the page's type, no curves
    assert sum('<ol class="race">' in h.value for h in trained.html) == 1
    assert any('data-token-id="' in h.value for h in trained.html)  # the sample's tokens
    trained.button(key="train.step_back").click()
    rerun(trained)
    assert trained.slider(key="train.step").value == n - 1
    trained.toggle(key="train.present").set_value(False)
    rerun(trained)
    assert not presenting(trained)
    assert "present" not in trained.query_params
    assert headers(trained) == ["1 · Corpus", "2 · Settings", "3 · Your vocabularies"]
    assert trained.slider(key="train.step").value == n - 1
    assert metric(trained, "Pair count") == f"{record.counts[n - 2]:,}"


def test_a_presentation_link_opens_at_step_0_ready_to_play(trained: AppTest) -> None:
    """A teacher's link (``?vocabs=…&present=1``) opens the replay at the start, as a Merges
    presentation does; a step in the link wins, and each step is in the link."""
    n = expected().training.n_merges
    link = {"vocabs": trained.query_params["vocabs"], "present": "1"}
    at = open_train(**link)
    assert presenting(at)
    assert at.slider(key="train.step").value == 0
    assert f"**Step 0 of {n:,}** — single bytes" in markdown(at)
    assert "step" not in at.query_params
    assert at.button(key="train.play").label == "Play"
    at.button(key="train.step_next").click()
    rerun(at)
    assert at.query_params["step"] == "1"
    assert f"**Step 1 of {n:,}** — merge of rank 0 made id 256" in markdown(at)
    assert presenting(rerun(open_train(**link, step="7")))
    assert open_train(**link, step="7").slider(key="train.step").value == 7


def test_presentation_mode_waits_for_a_vocabulary_to_replay() -> None:
    """With nothing to replay yet, a presentation link shows the page as usual, with the toggle
    on and a sentence that says when presenting starts; the first training starts it."""
    at = open_train(present="1")
    assert not presenting(at)
    assert at.toggle(key="train.present").value is True
    assert any("Presentation mode shows the replay" in i.value for i in at.info)
    assert headers(at)[0] == "1 · Corpus"
    train(paste(at, CORPUS), name="cats")
    rerun(at)
    assert presenting(at)
    assert at.slider(key="train.step").value == 0


def test_presenting_a_vocabulary_without_a_training_says_to_pick_one_that_has_it(
    trained: AppTest,
) -> None:
    """Imported GPT-2 files keep no training: picked while presenting, the page is as usual and
    names it; picking the trained one presents again."""
    enc = tk.train(CORPUS, 280)
    files = formats.dump_gpt2(enc)
    trained.session_state["train.import_panel"] = True  # open it, as the user does
    rerun(trained)
    trained.file_uploader(key="train.import_files").set_value(
        [("encoder.json", files.encoder_json, "x"), ("vocab.bpe", files.vocab_bpe, "x")]
    )
    rerun(trained)
    trained.text_input(key="train.import_name").input("files")
    rerun(trained)
    trained.button(key="train.import").click()
    rerun(trained)
    trained.selectbox(key="train.selected").set_value("cats")
    trained.toggle(key="train.present").set_value(True)
    rerun(trained)
    assert presenting(trained)
    trained.selectbox(key="train.selected").set_value("files")
    rerun(trained)
    assert not presenting(trained)
    (waits,) = [i.value for i in trained.info if "Presentation mode" in i.value]
    assert "`files` has none to replay" in waits
    trained.selectbox(key="train.selected").set_value("cats")
    rerun(trained)
    assert presenting(trained)
