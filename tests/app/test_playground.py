"""Each playground control changes what it should (AppTest, no browser)."""

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import live_view, metric, open_app, rerun, shown_ids, token_view
from tests.oracles import oracle_ids
from ui.common.examples import DEFAULT_TEXT, EXAMPLES
from ui.common.limits import MAX_DECODED_SHOWN, MAX_IDS, MAX_URL_TEXT_CHARS, RENDER_LIMIT


def test_opens_with_the_default_text_tokenized_exactly() -> None:
    at = open_app()
    assert shown_ids(at) == oracle_ids("gpt2", DEFAULT_TEXT)
    assert metric(at, "Tokens") == str(len(oracle_ids("gpt2", DEFAULT_TEXT)))
    assert dict(at.query_params) == {}  # defaults stay out of the link


@pytest.mark.parametrize("enc", ["gpt2", "cl100k_base", "o200k_base"])
def test_link_prefills_text_and_encoding(enc: str) -> None:
    text = "Hello 👋 wörld, 你好!\n    indented  "
    at = open_app(text=text, enc=enc)
    assert at.session_state["playground.text"] == text
    assert shown_ids(at) == oracle_ids(enc, text)


def test_new_text_updates_counts_and_the_link() -> None:
    at = open_app()
    at.session_state["playground.text"] = "naïve café 你好"
    rerun(at)
    assert [metric(at, k) for k in ("Tokens", "Characters", "UTF-8 bytes", "Words")] == [
        str(len(oracle_ids("gpt2", "naïve café 你好"))),
        "13",
        "19",
        "3",
    ]
    assert metric(at, "Chars / token") == f"{13 / len(shown_ids(at)):.2f}"
    assert at.query_params["text"] == "naïve café 你好"
    # What each count counts is said where it is shown: a figure cited must mean one thing.
    helps = {m.label: m.help for m in at.metric}
    assert "Unicode code points in the text" in helps["Characters"]
    assert "one word" in helps["Words"]


def sent(text: str) -> dict[str, dict[str, object]]:
    """The live box's state after it sent `text` (ui/components/live_textarea.js)."""
    return {"sent": {"text": text, "stamp": 1.0}}


def test_a_sent_text_whose_callback_was_dropped_is_taken_by_the_next_run() -> None:
    """Streamlit drops a widget's callback when the browser's next message lands while it runs,
    and the run after sees no change to call it for: the box's text is in the session, never
    heard (a megabyte paste under load). The next full run takes it."""
    at = open_app()
    at.session_state["playground.text_box"] = sent("sent, never heard")  # no callback
    rerun(at)
    assert at.session_state["playground.text"] == "sent, never heard"
    assert shown_ids(at) == oracle_ids("gpt2", "sent, never heard")


@pytest.mark.parametrize("heard", [True, False])
def test_what_the_box_sent_before_an_example_does_not_come_back(heard: bool) -> None:
    """Whether or not its callback ran, the box's last text is older than the example."""
    at = open_app()
    at.session_state["playground.text_box"] = sent("typed")
    if heard:
        rerun(at)
    at.selectbox(key="playground.example").set_value("Code indentation")
    rerun(at)
    rerun(at)  # the box still holds "typed": the example stays
    assert at.session_state["playground.text"] == EXAMPLES["Code indentation"]


def test_encoding_picker_changes_tokens_and_link() -> None:
    at = open_app(text="hello world")
    assert shown_ids(at) == [31373, 995]
    at.selectbox(key="common.enc").set_value("cl100k_base")
    rerun(at)
    assert shown_ids(at) == [15339, 1917]
    assert at.query_params["enc"] == "cl100k_base"


def test_special_tokens_toggle() -> None:
    at = open_app(text="a<|endoftext|>b")
    assert 50256 not in shown_ids(at)
    at.toggle(key="playground.special").set_value(True)
    rerun(at)
    assert shown_ids(at) == oracle_ids("gpt2", "a<|endoftext|>b", "all")
    assert 50256 in shown_ids(at)
    assert at.query_params["special"] == "1"


def test_whitespace_toggle() -> None:
    at = open_app(text="a b")
    assert 'class="ws"' not in token_view(at)
    at.toggle(key="playground.ws").set_value(True)
    rerun(at)
    assert '<span class="ws">·</span>' in token_view(at)
    assert at.query_params["ws"] == "1"


def test_chunks_toggle() -> None:
    at = open_app(text="GPT2 was")
    assert 'class="bpl-chunks"' not in token_view(at)
    at.toggle(key="playground.chunks").set_value(True)
    rerun(at)
    assert token_view(at).count('class="chunk ') == 3


def test_colour_by_toggle() -> None:
    at = open_app(text="the the")
    assert "bpl-by-position" in token_view(at)
    at.button_group(key="playground.color").set_value("id")
    rerun(at)
    assert "bpl-by-id" in token_view(at)
    assert at.query_params["color"] == "id"


def test_examples_menu_loads_the_text_and_resets() -> None:
    at = open_app()
    at.selectbox(key="playground.example").set_value("Numbers")
    rerun(at)
    assert at.session_state["playground.text"] == EXAMPLES["Numbers"]
    assert at.selectbox(key="playground.example").value is None
    assert shown_ids(at) == oracle_ids("gpt2", EXAMPLES["Numbers"])


def test_special_tokens_example_turns_special_tokens_on() -> None:
    at = open_app()
    at.selectbox(key="playground.example").set_value("Special tokens")
    rerun(at)
    assert at.toggle(key="playground.special").value is True
    assert 50256 in shown_ids(at)


def test_decode_mode_decodes_and_names_bad_ids() -> None:
    at = open_app(mode="decode", ids="31373, 995, 99999999, -3, hello")
    assert shown_ids(at) == [31373, 995]
    errors = " ".join(e.value for e in at.error)
    assert "`hello`" in errors
    assert "`99999999`" in errors
    assert "`-3`" in errors
    assert at.code[0].value == "hello world"


@pytest.mark.parametrize(("ids", "n_bytes"), [("19526", 2), ("19526 254", 3), ("31373 995", 11)])
def test_decode_mode_counts_the_tokens_bytes(ids: str, n_bytes: int) -> None:
    """gpt2's 19526 is 2 of the 3 bytes of 你: the text shows U+FFFD, 3 bytes, and the page
    said "UTF-8 bytes 3" and 3.00 bytes per token for a 2-byte token (QA round 18)."""
    at = open_app(mode="decode", ids=ids)
    n_tokens = len(ids.split())
    assert metric(at, "UTF-8 bytes") == str(n_bytes)
    assert metric(at, "Bytes / token") == f"{n_bytes / n_tokens:.2f}"


def test_decode_mode_reads_brackets_nested_past_pythons_stack() -> None:
    """json.loads raises RecursionError there (the page showed its traceback): a plain list."""
    at = open_app(mode="decode", ids="[" * 1_500 + "31373, x")
    assert shown_ids(at) == [31373]
    assert "`x`" in " ".join(e.value for e in at.error)


def test_decode_mode_follows_the_box() -> None:
    at = open_app()
    at.button_group(key="playground.mode").set_value("decode")
    rerun(at)
    at.session_state["playground.ids"] = "[15339, 1917]"
    at.selectbox(key="common.enc").set_value("cl100k_base")
    rerun(at)
    assert shown_ids(at) == [15339, 1917]
    assert at.query_params["mode"] == "decode"
    assert at.query_params["ids"] == "[15339, 1917]"
    assert not at.error


@pytest.mark.parametrize("special", [False, True])
def test_decode_mode_starts_with_the_ids_of_the_text(special: bool) -> None:
    """The first switch to ids → text shows the text's own ids, which decode back to it."""
    text = "naïve 👋 <|endoftext|> café"
    at = open_app(text=text, special="1" if special else "0")
    at.button_group(key="playground.mode").set_value("decode")
    rerun(at)
    ids = oracle_ids("gpt2", text, "all" if special else ())
    assert at.session_state["playground.ids"] == ", ".join(map(str, ids))
    assert shown_ids(at) == ids
    assert at.code[0].value == text


def switch_mode(at: AppTest, mode: str) -> None:
    at.button_group(key="playground.mode").set_value(mode)
    rerun(at)


def test_decode_mode_follows_the_text_until_its_ids_are_edited() -> None:
    """Back in ids → text after an edit of the text, the box holds the new text's ids; once
    the user changes the ids, they stay through any later switch."""
    at = open_app(text="first text")
    switch_mode(at, "decode")
    switch_mode(at, "encode")
    at.session_state["playground.text"] = "second text"
    rerun(at)
    switch_mode(at, "decode")
    assert shown_ids(at) == oracle_ids("gpt2", "second text")
    at.session_state["playground.ids"] = "31373"
    rerun(at)
    switch_mode(at, "encode")
    at.session_state["playground.text"] = "third text"
    rerun(at)
    switch_mode(at, "decode")
    assert at.session_state["playground.ids"] == "31373"
    assert shown_ids(at) == [31373]


def test_decode_mode_starts_empty_for_a_text_with_too_many_ids() -> None:
    at = open_app()
    at.session_state["playground.text"] = "a " * (MAX_IDS + 1)
    rerun(at)
    at.button_group(key="playground.mode").set_value("decode")
    rerun(at)
    assert at.session_state["playground.ids"] == ""


def test_bad_link_values_fall_back_to_defaults() -> None:
    at = open_app(enc="no-such", color="rainbow", ws="maybe", mode="sideways")
    assert at.selectbox(key="common.enc").value == "gpt2"
    assert at.button_group(key="playground.color").value == "position"
    assert at.toggle(key="playground.ws").value is False
    assert shown_ids(at) == oracle_ids("gpt2", DEFAULT_TEXT)


def test_a_link_text_longer_than_a_link_holds_is_cut_with_a_notice() -> None:
    text = "abc " * 1_000
    at = open_app(text=text)
    assert at.session_state["playground.text"] == text[:MAX_URL_TEXT_CHARS]
    (notice,) = [w.value for w in at.warning]
    assert "4,000 characters, more than a link holds; showing the first 2,000" in notice


def test_big_text_counts_everything_draws_a_page_and_shows_more() -> None:
    text = "The quick brown fox jumps over the lazy dog. " * 1_200  # 12,001 tokens
    at = open_app()
    at.session_state["playground.text"] = text
    rerun(at)
    assert metric(at, "Tokens") == f"{len(oracle_ids('gpt2', text)):,}"
    assert len(shown_ids(at)) == RENDER_LIMIT
    assert any("Showing the first 5,000 of 12,001 tokens" in c.value for c in at.caption)
    assert "text" not in at.query_params  # too long for a link
    assert len(text) > MAX_URL_TEXT_CHARS
    at.button[0].click()
    rerun(at)
    assert len(shown_ids(at)) == 2 * RENDER_LIMIT


def test_show_more_and_colours_stay_while_the_text_is_edited() -> None:
    text = "The quick brown fox jumps over the lazy dog. " * 1_200
    at = open_app(color="id")
    at.session_state["playground.text"] = text
    rerun(at)
    at.button[0].click()
    rerun(at)
    at.session_state["playground.text"] = text + "And one more sentence."
    rerun(at)
    assert len(shown_ids(at)) == 2 * RENDER_LIMIT
    assert "bpl-by-id" in token_view(at)
    assert at.button_group(key="playground.color").value == "id"


def test_an_example_starts_again_from_one_page_of_tokens() -> None:
    at = open_app()
    at.session_state["playground.text"] = "word " * 12_000
    rerun(at)
    at.button[0].click()
    rerun(at)
    at.selectbox(key="playground.example").set_value("Numbers")
    rerun(at)
    assert "playground.limit" not in at.session_state


def test_a_pinned_token_shows_its_merge_and_follows_edits() -> None:
    at = open_app(text="hello world")
    at.session_state["playground.pin"] = (1, 995)
    rerun(at)
    view = live_view(at)
    assert view["pinned"] == 1
    assert "merge rank 739: " in view["pin"]
    assert 'href="vocab?enc=gpt2&amp;id=995"' in view["pin_actions"]
    at.session_state["playground.text"] = "oh hello world"  # a token before it: it moves on
    rerun(at)
    assert live_view(at)["pinned"] == shown_ids(at).index(995)
    at.session_state["playground.text"] = "hello"  # gone: unpinned
    rerun(at)
    view = live_view(at)
    assert view["pinned"] is None and view["pin"] == view["pin_actions"] == ""
    assert at.session_state["playground.pin"] is None


def test_the_copy_buttons_get_every_id_not_only_those_drawn() -> None:
    text = "The quick brown fox jumps over the lazy dog. " * 1_200
    at = open_app()
    at.session_state["playground.text"] = text
    rerun(at)
    assert live_view(at)["ids_text"] == ",".join(map(str, oracle_ids("gpt2", text)))


def test_special_token_text_read_as_text_gets_a_hint() -> None:
    at = open_app(text="a<|endoftext|>b")
    (hint,) = [c.value for c in at.caption if "read here as ordinary text" in c.value]
    assert "`<|endoftext|>` is a special token of `gpt2`, read here as ordinary text" in hint
    assert "turn on **Special tokens** to see it as one id" in hint
    at.toggle(key="playground.special").set_value(True)
    rerun(at)
    assert not [c for c in at.caption if "read here as ordinary text" in c.value]


def test_decoding_part_of_a_character_gives_one_replacement_character_and_says_why() -> None:
    at = open_app(mode="decode", ids="64 41840 65")  # "a", 3 of the 4 bytes of 👋, "b"
    assert at.code[0].value == "a\ufffdb"
    (why,) = [c.value for c in at.caption if "not UTF-8" in c.value]
    assert why == (
        "1 byte sequence of these ids is not UTF-8 (the ids split a character, or end inside "
        "one): it shows as U+FFFD �."
    )
    real = " ".join(map(str, oracle_ids("gpt2", "a\ufffdb")))  # a U+FFFD that is text
    at = open_app(mode="decode", ids=real)
    assert at.code[0].value == "a\ufffdb"
    assert not [c for c in at.caption if "not UTF-8" in c.value]


def test_a_decoded_text_longer_than_its_box_is_said_and_offered_whole() -> None:
    """200,000 ids can decode to megabytes; the box showed its first 100,000 characters and
    nothing said the rest was missing, or where to get it (its copy button copies the box)."""
    at = open_app(mode="decode")
    at.session_state["playground.ids"] = "1321 " * 20_000  # " information": 12 characters
    rerun(at)
    assert at.code[0].value == (" information" * 20_000)[:MAX_DECODED_SHOWN]
    (note,) = [c.value for c in at.caption if "The box shows" in c.value]
    assert note == f"The box shows {MAX_DECODED_SHOWN:,} of 240,000 characters."
    assert at.download_button(key="playground.decoded").label == "Download all"
    at.session_state["playground.ids"] = "1321 " * 8_000
    rerun(at)
    assert not [c for c in at.caption if "The box shows" in c.value]
    assert not at.get("download_button")


def test_a_text_of_more_tokens_than_copy_ids_copies_offers_every_id() -> None:
    """The "Copy ids" buttons copy the first 200,000 ids, and their tooltip said "every id": it says
    how many now, and the page offers all of them as a download."""
    at = open_app()
    assert live_view(at)["copy_labels"] == ["every id", "Copied ✓"]
    assert not at.get("download_button")
    text = "a " * 250_000
    count = len(oracle_ids("gpt2", text))
    at.session_state["playground.text"] = text
    rerun(at)
    what, copied = live_view(at)["copy_labels"]
    assert what == f"the first {MAX_IDS:,} of {count:,} ids, as many as Ids → text reads"
    assert copied == f"Copied {MAX_IDS:,} ✓"
    assert len(live_view(at)["ids_text"].split(",")) == MAX_IDS
    assert at.download_button(key="playground.all_ids").label == f"Download all {count:,} ids"


def test_every_problem_with_the_ids_is_said_in_one_box() -> None:
    """Two boxes (not ids, and ids of no token) squeezed the ids pane to half a line of ids at
    1280x720: one box says both, a line each, and the valid ids are still decoded."""
    at = open_app(mode="decode", ids="15339, 1917, 100257, 9999999, abc", enc="cl100k_base")
    (error,) = [e.value for e in at.error]
    assert not at.warning
    first, second = error.split("  \n")
    assert first.startswith("Not token ids: `abc`.") and second.startswith("Not ids of `cl100k")
    assert shown_ids(at) == [15339, 1917, 100257]


def test_unknown_ids_are_named_with_the_exact_valid_range() -> None:
    at = open_app(mode="decode", ids="15339 199998 200018 200019", enc="o200k_base")
    (error,) = [e.value for e in at.error]
    assert "Not ids of `o200k_base`: `199998`, `200019`." in error
    assert "has the ids 0 to 200,018, except 199,998 and 200,000–200,017 (unused)" in error
    assert shown_ids(at) == [15339, 200018]


@pytest.mark.parametrize(
    ("enc", "model", "size"), [("gpt2", "GPT-2", "1,024"), ("o200k_base", "GPT-4o", "128,000")]
)
def test_the_counts_say_how_much_of_the_context_window_the_text_fills(
    enc: str, model: str, size: str
) -> None:
    at = open_app(text="hello world", enc=enc)
    captions = [c.value for c in at.caption]
    share = "0.2%" if enc == "gpt2" else "<0.01%"
    assert f"2 tokens — {share} of {model}'s context window ({size})" in captions


def test_a_text_longer_than_the_window_says_so() -> None:
    at = open_app()
    at.session_state["playground.text"] = "hello world " * 600  # 1,200 gpt2 tokens
    rerun(at)
    assert any(
        "of GPT-2's context window (1,024): more than it can read" in c.value for c in at.caption
    )


def test_a_page_opened_in_decode_mode_keeps_a_text_for_the_way_back() -> None:
    """The link's text fills the ids box and comes back in text mode; without one, the text is
    what the link's ids decode to (a reload of an ids link lost the text to the default)."""
    at = open_app(text="hello there", mode="decode")
    assert at.session_state["playground.ids"] == ", ".join(
        map(str, oracle_ids("gpt2", "hello there"))
    )
    switch_mode(at, "encode")
    assert at.session_state["playground.text"] == "hello there"
    assert shown_ids(at) == oracle_ids("gpt2", "hello there")

    at = open_app(mode="decode", ids="15339 1917", enc="cl100k_base")
    switch_mode(at, "encode")
    assert at.session_state["playground.text"] == "hello world"

    for ids in ["64 41840 65", "31373 x", "99999999", ""]:  # not whole UTF-8, bad, unknown, none
        at = open_app(mode="decode", ids=ids)
        switch_mode(at, "encode")
        assert at.session_state["playground.text"] == DEFAULT_TEXT
