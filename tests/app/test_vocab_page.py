"""The Vocabulary page in AppTest: searching, listing, selecting, curiosities, links."""

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

import tokenizer as tk
from tests.app.helpers import APP, columns_reading_none, rerun
from tests.cases import slow_if
from tests.ui.payloads import drawn
from ui.common import registry
from ui.common.limits import MAX_URL_TEXT_CHARS
from ui.common.messages import SELECT_A_ROW
from ui.common.vocab_store import STORE, Stored, VocabStore
from ui.vocab.widgets import PAGE_SIZE


def open_vocab(**query: str) -> AppTest:
    """A fresh session on /vocab, opened with `query` as its URL parameters."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page("pages/vocab.py")
    return rerun(at)


def listed_ids(at: AppTest) -> list[int]:
    return at.dataframe[0].value["id"].tolist()


def shown_token(at: AppTest) -> int | None:
    """The id in the selected token's heading, or None when nothing is selected."""
    heads = [h.value for h in at.header if h.value.startswith("Token ")]
    return int(heads[0].removeprefix("Token ")) if heads else None


def search(at: AppTest, mode: str, text: str) -> AppTest:
    at.segmented_control(key="vocab.find").set_value(mode)
    at.text_input(key="vocab.q").input(text)
    return rerun(at)


# A first visit indexes the vocabulary (about 2 s for each big one): the inner loop opens gpt2's.
@pytest.mark.parametrize("enc", [slow_if(name != "gpt2", name) for name in tk.list_encodings()])
def test_a_permalink_opens_the_token_in_any_bundled_encoding(enc: str) -> None:
    at = open_vocab(enc=enc, id="300")
    assert shown_token(at) == 300
    card = next(h.value for h in at.html if 'class="vocab"' in h.value)
    assert 'data-token-id="300"' in card
    assert at.query_params["id"] == ["300"] or at.query_params["id"] == "300"


def test_with_no_query_every_token_is_listed_a_page_at_a_time() -> None:
    at = open_vocab()
    assert listed_ids(at) == list(range(PAGE_SIZE))
    at.number_input(key="vocab.page").set_value(3)
    assert listed_ids(rerun(at)) == list(range(2 * PAGE_SIZE, 3 * PAGE_SIZE))
    assert shown_token(at) is None


def test_a_page_typed_past_the_end_shows_the_last_and_says_so() -> None:
    at = open_vocab(q="ing")
    said = " ".join(m.value for m in at.markdown)
    assert "the exact match first, then those starting with it, then the rest" in said
    (download,) = at.get("download_button")  # the whole list, not the page (tests/ui/vocab)
    (count,) = re.findall(r"([\d,]+) tokens contain", said)
    assert download.proto.label == f"Download all {count} tokens as CSV"
    assert any("under Curiosities" in c.value for c in at.caption)
    at.number_input(key="vocab.page").set_value(9999)
    rerun(at)
    last = at.number_input(key="vocab.page").value
    assert last > 1 and listed_ids(at)  # the last page, not an empty table
    note = next(c.value for c in at.caption if "There is no page" in c.value)
    assert note.startswith("There is no page 9,999; the last is shown.")
    assert f"({last:,} pages of {PAGE_SIZE})" in note
    at.number_input(key="vocab.page").set_value(last - 1)
    assert not any("There is no page" in c.value for c in rerun(at).caption)
    # Below the first page likewise, and the word on the page typed before goes (it stayed).
    for typed in (0, -3):
        at.number_input(key="vocab.page").set_value(typed)
        notes = [c.value for c in rerun(at).caption if "There is no page" in c.value]
        assert notes == [
            f"There is no page {typed}; the first is shown. Tokens 1–100 of {count}"
            f" ({last:,} pages of {PAGE_SIZE}). A column's header sorts this page only"
            "; the whole vocabulary's longest or last learned tokens are under "
            "Curiosities."
        ]
        assert at.number_input(key="vocab.page").value == 1


def test_the_page_is_in_the_link_and_survives_a_trip_to_another_page() -> None:
    at = open_vocab(q="ing")
    at.number_input(key="vocab.page").set_value(5)
    fifth = listed_ids(rerun(at))
    assert at.query_params["page"] == "5"
    again = open_vocab(q="ing", page="5")  # a reload, or whoever opens the link
    assert listed_ids(again) == fifth
    at.switch_page("pages/playground.py")
    rerun(at)
    at.switch_page("pages/vocab.py")
    assert listed_ids(rerun(at)) == fifth
    assert at.number_input(key="vocab.page").value == 5


def test_a_linked_token_opens_its_list_on_the_page_that_holds_it() -> None:
    row = open_vocab(q="ing", page="5")
    token = listed_ids(row)[7]
    at = open_vocab(q="ing", id=str(token))
    assert token in listed_ids(at) and shown_token(at) == token
    assert at.number_input(key="vocab.page").value == 5
    assert "page" not in at.query_params  # the token's own page goes without saying
    search(at, "text", "tion")  # another list starts at its first page
    assert at.number_input(key="vocab.page").value == 1


def test_a_page_beyond_the_list_is_named() -> None:
    at = open_vocab(q="Magikarp", page="4")
    assert listed_ids(at) == [41538, 42202, 43453]
    notice = " ".join(w.value for w in at.warning)
    assert "page=4" in notice and "this list has 1 page;" in notice


def test_text_search_lists_the_magikarps_with_their_parents() -> None:
    at = search(open_vocab(), "text", "Magikarp")
    table = at.dataframe[0].value
    assert table["id"].tolist() == [41538, 42202, 43453]
    assert table["token"].tolist() == ["Magikarp", "GoldMagikarp", "·SolidGoldMagikarp"]
    assert table["left"].tolist()[2] == "·Solid (#15831)"
    assert at.query_params["q"] == "Magikarp"


def test_a_tokens_missing_rank_and_parents_are_blank_not_none() -> None:
    """The first page lists single bytes: no merge rank, no parents; those cells read "None"."""
    (table,) = open_vocab().dataframe
    assert table.value[["rank", "left", "right"]].isna().all().all()  # there is nothing to show
    assert columns_reading_none(table) == []


def test_a_typed_glyph_is_a_space() -> None:
    at = search(open_vocab(), "text", "·the")
    assert listed_ids(at)[0] == 262  # " the", not "the"
    at.toggle(key="vocab.glyphs").set_value(False)
    rerun(at)
    assert at.markdown[0].value.startswith("No token contains")  # no token has a real "·the"
    assert not at.dataframe


def test_an_id_search_with_one_result_opens_it_and_a_bad_id_is_named() -> None:
    at = search(open_vocab(), "id", "995")
    assert listed_ids(at) == [995]
    assert shown_token(at) == 995
    at = search(at, "id", "995 99999")
    assert [w.value for w in at.warning] == ["No token of gpt2 has the id `99999`."]
    at = search(at, "id", "abc, -1 995 50257 60000")
    assert [w.value for w in at.warning] == [
        "Not ids: `abc`, `-1`. An id is a whole number from 0 to 50,256; a range is two, as in "
        "50250-50256.",
        "No token of gpt2 has the ids `50257`, `60000`.",
    ]


@pytest.mark.parametrize(
    ("query", "said", "invalid"),
    [
        ("(unclosed", "missing )", True),
        ("(?:" * 300 + "a" + ")" * 300, "nested more than 50 deep", False),
        ("(?R)", "calls a group (recursion)", False),
        ("a{99999}", "come to 99,999 copies; at most 10,000", False),
    ],
    ids=["unclosed", "nested past the parser's stack", "recursion", "repeats past the limit"],
)
def test_a_bad_regex_is_a_message_not_a_crash(query: str, said: str, invalid: bool) -> None:
    """Only a pattern the engine cannot read is called invalid: `a{99999}` is valid regex, over
    a limit of ours, and was called "not a valid regular expression"."""
    at = search(open_vocab(), "regex", query)
    said_here = drawn(at.error[0].value)
    assert said_here.startswith("Cannot search: ")
    assert ("not a valid regular expression" in said_here) == invalid
    assert said in said_here
    assert not at.dataframe


def test_a_regex_nested_as_deep_as_allowed_searches() -> None:
    """The limit leaves the regex parser room within a page's own call stack."""
    at = search(open_vocab(), "regex", "(?:" * 50 + "^ the$" + ")" * 50)
    assert not at.error
    assert listed_ids(at) == [262]


def test_a_search_too_long_for_a_link_says_so() -> None:
    at = search(open_vocab(), "regex", "x" * (MAX_URL_TEXT_CHARS + 1))
    assert "q" not in at.query_params
    (said,) = [c.value for c in at.caption if "too long for a link" in c.value]
    # Marked for "Copy link", which then says it copies a link without the search.
    assert said == (
        '<span data-link-leaves-out="search">This search is too long for a link, so a link or a '
        "reload leaves it out.</span>"
    )


def test_bytes_search() -> None:
    at = search(open_vocab(), "bytes", "20 74 68 65")
    assert listed_ids(at)[0] == 262
    assert "`20 74 68 65`" in at.markdown[0].value


def test_parent_buttons_open_the_parent_and_update_the_link() -> None:
    at = open_vocab(id="43453")
    at.button(key="vocab.parent_42202").click()
    rerun(at)
    assert shown_token(at) == 42202
    assert at.query_params["id"] in ("42202", ["42202"])
    at.button(key="vocab.used_in_43453").click()  # "GoldMagikarp" is used in " SolidGold..."
    assert shown_token(rerun(at)) == 43453


def test_the_table_follows_a_parent_or_child_to_its_page_and_keeps_a_page_turned_by_hand() -> None:
    """Every token is listed: opening a parent on another page left the table where it was,
    without the token shown (and ``?page=`` kept the old page in the link)."""
    at = open_vocab(id="41538")  # "ikarp" is 36850: another page
    assert 41538 in listed_ids(at)
    at.button(key="vocab.parent_36850").click()
    rerun(at)
    assert shown_token(at) == 36850 and 36850 in listed_ids(at)
    assert at.number_input(key="vocab.page").value == 36850 // PAGE_SIZE + 1
    assert "page" not in at.query_params
    at.number_input(key="vocab.page").set_value(3)
    rerun(at)  # a page turned by hand stays, the token shown or not
    assert at.number_input(key="vocab.page").value == 3 and shown_token(at) == 36850


def test_switching_encoding_follows_the_same_token() -> None:
    at = open_vocab(id="262")  # " the" in GPT-2
    at.sidebar.selectbox(key="common.enc").set_value("cl100k_base")
    rerun(at)
    assert shown_token(at) == tk.get_encoding("cl100k_base").encode(" the")[0]


def test_a_token_the_other_encoding_lacks_shows_again_on_the_way_back() -> None:
    """ " SolidGoldMagikarp" is one token of GPT-2's only: cl100k_base shows none and says why,
    and back on gpt2 the page shows it again (it used to forget it on the way)."""
    at = open_vocab(id="43453")
    choose = at.sidebar.selectbox(key="common.enc")
    choose.set_value("cl100k_base")
    assert shown_token(rerun(at)) is None
    assert "id" not in at.query_params
    said = [c.value for c in at.caption if "is not a token of" in c.value]
    assert said == [
        "The token shown before, `·SolidGoldMagikarp` (id 43,453 of `gpt2`), is not a token "
        "of `cl100k_base`."
    ]
    at.sidebar.selectbox(key="common.enc").set_value("gpt2")
    assert shown_token(rerun(at)) == 43453
    assert at.query_params["id"] in ("43453", ["43453"])


def test_the_hint_to_select_a_row_needs_a_row_to_select() -> None:
    hint = SELECT_A_ROW
    at = open_vocab()
    assert hint in [c.value for c in at.caption]
    search(at, "text", "SolidGoldMagikarpZZZ")
    assert len(at.dataframe) == 0  # no table: nothing found
    assert hint not in [c.value for c in at.caption]
    search(at, "regex", "(")  # an error in place of the table
    assert at.error or at.warning
    assert hint not in [c.value for c in at.caption]


def test_the_length_column_says_it_counts_bytes() -> None:
    at = open_vocab()
    columns = json.loads(at.dataframe[0].proto.columns)
    assert "In bytes" in columns["length"]["help"]


def test_long_cells_cap_their_columns_on_that_page_only() -> None:
    at = open_vocab(find="curious")  # longest first: a 128-byte token and its parents
    widths = {name: c.get("width") for name, c in json.loads(at.dataframe[0].proto.columns).items()}
    assert [widths[name] for name in ("token", "left", "right")] == ["medium"] * 3
    at = search(open_vocab(), "text", "Magikarp")  # short cells: columns as wide as they are
    widths = {name: c.get("width") for name, c in json.loads(at.dataframe[0].proto.columns).items()}
    assert [widths[name] for name in ("token", "left", "right")] == [None] * 3


def test_a_link_to_an_id_the_encoding_lacks_says_so() -> None:
    at = open_vocab(id="50257")
    assert "50257" in at.warning[0].value
    assert shown_token(at) is None


def test_curiosities_and_the_glitch_token_search() -> None:
    at = open_vocab(find="curious")
    assert [m.label for m in at.metric][:2] == ["Longest token", "Not UTF-8 on their own"]
    longest = listed_ids(at)
    gpt2 = tk.get_encoding("gpt2")
    assert len(gpt2.token_bytes(longest[0])) >= len(gpt2.token_bytes(longest[-1]))
    pages_note = next(c.value for c in at.caption if "pages of" in c.value)
    assert "under Curiosities" not in pages_note  # said on the Curiosities lists themselves
    at.segmented_control(key="vocab.list").set_value("last_learned")
    assert listed_ids(rerun(at))[:2] == [50255, 50254]
    at.button(key="vocab.glitch_ SolidGoldMagikarp").click()
    rerun(at)
    assert at.text_input(key="vocab.q").value == "·SolidGoldMagikarp"
    assert listed_ids(at) == [43453]
    assert shown_token(at) == 43453


def test_a_trained_vocabulary_is_explored_from_its_merges() -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    trained = tk.Encoding.from_merges(
        name="mini", pattern=r"\w+|\W", merges=[(97, 97), (256, 98)], special_tokens={}
    )
    at.session_state["common.vocabularies"] = {"mini": trained}
    at.session_state["common.enc"] = "mini"
    at.query_params["id"] = "257"
    at.switch_page("pages/vocab.py")
    rerun(at)
    assert shown_token(at) == 257
    assert "read from its merge list" in at.caption[0].value
    assert at.dataframe[0].value["id"].tolist() == list(range(2 * PAGE_SIZE, 258))  # 257's page


def stored_vocabulary(name: str, store: VocabStore = STORE) -> str:
    """A vocabulary someone trained on this server: in the store; its id."""
    enc = tk.train("aaab aaab aab ab " * 20, 262, name=name)
    return store.put(Stored(enc, about="trained on a test corpus"))


def test_a_vocabulary_link_opens_it_in_a_fresh_session_by_id_or_name() -> None:
    vocab_id = stored_vocabulary("linked-vocab")
    for ref in (vocab_id, "linked-vocab"):
        at = open_vocab(vocab=ref, id="257")
        assert at.selectbox(key="common.enc").value == "linked-vocab"
        assert shown_token(at) == 257
        assert at.query_params["vocabs"] == vocab_id and "vocab" not in at.query_params
        assert not at.warning


def test_a_link_to_a_dropped_vocabulary_says_what_it_was_and_how_to_get_it_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    small = VocabStore(max_bytes=int(1.5 * 1024 * 1024), max_gone=10)  # room for one
    monkeypatch.setattr(registry, "STORE", small)
    vocab_id = stored_vocabulary("soon-gone", small)
    stored_vocabulary("newer", small)  # pushes it out
    at = open_vocab(vocab=vocab_id)
    notice = " ".join(w.value for w in at.warning)
    assert "no longer holds `soon-gone` (trained on a test corpus)" in notice
    assert "train it again" in notice and "import the file you exported" in notice
    assert at.selectbox(key="common.enc").value == "gpt2"


def test_export_this_vocabulary_and_import_one_to_explore() -> None:
    at = open_vocab(enc="cl100k_base")
    at.session_state["vocab.files"] = True
    rerun(at)
    assert at.download_button(key="vocab.export_tiktoken_0").label == "tiktoken .tiktoken"
    assert any("Not available" in c.value for c in at.caption)  # no merge list: no GPT-2 files
    trained = tk.train("the cat sat on the mat " * 30, 300)
    ((name, data),) = tk.dump(trained, "tiktoken").items()
    at.file_uploader(key="vocab.import_files").set_value((name, data, "text/plain"))
    rerun(at)
    at.selectbox(key="vocab.import_pattern").set_value("gpt2")
    at.text_input(key="vocab.import_name").input("cats")
    rerun(at)
    at.button(key="vocab.import").click()
    rerun(at)
    assert at.selectbox(key="common.enc").value == "cats"  # the page explores it now
    assert any("Imported `cats`" in m.value for m in at.success)
