"""The merges page, driven headless with AppTest: every control, the link, the walkthrough."""

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

import tokenizer as tk
from tests.app.helpers import APP, rerun
from tests.ui.html_probe import probe
from tokenizer import Encoding
from ui.common.registry import TRAINED_KEY
from ui.merges.state import LINE, MAX_CHARS

TEXT = "GPT2 was created by OpenAI"
OPENAI = 5  # index of the chunk " OpenAI"
OPENAI_STOPS = [0, 4, 11, 15, 16, 18]  # global steps where " OpenAI" merges (and both ends)


def open_merges(**query: str) -> AppTest:
    """A fresh session on the merges page, opened with `query` as its URL parameters."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("pages/merges.py")
    for key, value in query.items():
        at.query_params[key] = value
    return rerun(at)


def blocks(at: AppTest) -> list[str]:
    """The HTML the page draws: `st.html` blocks and the whole text's escaped-HTML block."""
    drawn = [h.value for h in at.html]
    drawn += [json.loads(c.proto.json)["html"] for c in at.get("bidi_component")
              if c.proto.component_name == "bpe_lens.merges_block"]  # fmt: skip
    return drawn


def block(at: AppTest, kind: str) -> str:
    """The HTML of one of the page's blocks: "mg-chunk", "mg-text" or "mg-pattern"."""
    (html,) = [html for html in blocks(at) if f'class="mg {kind}"' in html]
    return html


def best_ranks(at: AppTest) -> list[int]:
    return [int(r) for r in re.findall(r'data-best="(\d+)"', block(at, "mg-chunk"))]


def table_rows(at: AppTest) -> int:
    return len(re.findall(r'<tr class="mg-row', block(at, "mg-chunk")))


def lookup_ids(at: AppTest) -> list[int]:
    return [int(e.text) for e in probe(block(at, "mg-chunk")).with_class("mg-id")]


def text_ids(at: AppTest) -> list[int]:
    """The ids pane of the whole text (stage 3)."""
    return [int(e.text) for e in probe(block(at, "mg-text")).with_class("tid")]


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    return rerun(at)


def step(at: AppTest) -> int:
    return at.slider(key="merges.step").value


def test_opens_with_the_walkthrough_text_every_merge_done() -> None:
    at = open_merges()
    assert at.session_state["merges.text"] == TEXT
    assert at.button_group(key="merges.chunk").value == OPENAI  # most merges, several tokens
    assert step(at) == 18
    assert text_ids(at) == [38, 11571, 17, 373, 2727, 416, 4946, 20185]
    assert dict(at.query_params) == {}  # defaults stay out of the link


def test_clicking_openai_shows_the_walkthrough_ranks_and_ids() -> None:
    at = open_merges()
    at.button_group(key="merges.chunk").set_value(OPENAI)
    rerun(at)
    assert best_ranks(at) == [12, 184, 3361, 4690, 19929]
    assert "no pair left to merge" in block(at, "mg-chunk")
    assert lookup_ids(at) == [4946, 20185]
    assert text_ids(at) == [38, 11571, 17, 373, 2727, 416, 4946, 20185]
    assert "chunk" not in at.query_params  # the default chunk stays out of the link
    assert any("pattern alternative 8 (letters)" in c.value for c in at.caption)
    at.button_group(key="merges.chunk").set_value(3)
    rerun(at)
    assert at.query_params["chunk"] == "3"


def test_first_next_back_last_walk_the_selected_chunk() -> None:
    at = open_merges(chunk=str(OPENAI))
    click(at, "merges.first")
    assert (step(at), table_rows(at), best_ranks(at)) == (0, 1, [12])
    assert text_ids(at) == tk.get_encoding("gpt2").encode(TEXT[0]) + text_ids(at)[1:]
    assert len(text_ids(at)) == len(TEXT)  # one token per byte
    seen = [step(at)]
    for _ in OPENAI_STOPS[1:]:
        click(at, "merges.next")
        seen.append(step(at))
    assert seen == OPENAI_STOPS
    assert best_ranks(at) == [12, 184, 3361, 4690, 19929]
    click(at, "merges.next")  # already at the end: stays
    assert step(at) == 18
    click(at, "merges.back")
    assert (step(at), table_rows(at)) == (16, 5)
    click(at, "merges.first")
    click(at, "merges.back")  # already at the start: stays
    assert step(at) == 0
    click(at, "merges.last")
    assert step(at) == 18 and at.query_params.get("step") is None


def test_every_merge_mode_steps_through_the_whole_text() -> None:
    at = open_merges(chunk=str(OPENAI), step="0")
    at.button_group(key="merges.by").set_value("text")
    rerun(at)
    click(at, "merges.next")
    assert step(at) == 1
    assert table_rows(at) == 1  # rank 4 merged "re" in " created"; " OpenAI" is unchanged
    assert 'rank <b class="mg-rank">4</b>' in block(at, "mg-text")
    assert at.query_params["by"] == "text"


def test_the_slider_scrubs_to_any_step() -> None:
    at = open_merges(chunk=str(OPENAI))
    at.slider(key="merges.step").set_value(11)
    rerun(at)
    assert (table_rows(at), best_ranks(at)) == (3, [12, 184, 3361])
    assert at.query_params["step"] == "11"


@pytest.mark.parametrize(("style", "shown"), [("symbols", "ĠOpen"), ("hex", "20 4F 70 65 6E")])
def test_pieces_as_symbols_or_hex(style: str, shown: str) -> None:
    at = open_merges(chunk=str(OPENAI))
    at.button_group(key="merges.pieces").set_value(style)
    rerun(at)
    assert shown in block(at, "mg-chunk")
    assert at.query_params["pieces"] == style


def test_play_ticks_to_the_next_stop_and_stops_at_the_end() -> None:
    at = open_merges(chunk=str(OPENAI))
    click(at, "merges.play")  # at the end: play starts over
    assert step(at) == 0 and at.session_state["merges.playing"]
    assert at.button(key="merges.play").label == "Pause"
    rerun(at)  # a run nobody asked for: the fragment's timer
    assert step(at) == 4
    click(at, "merges.play")  # pause
    assert not at.session_state["merges.playing"]
    rerun(at)
    assert step(at) == 4
    at.slider(key="merges.step").set_value(16)
    rerun(at)
    click(at, "merges.play")
    rerun(at)
    assert step(at) == 18 and not at.session_state["merges.playing"]  # the end stops playing
    assert at.button(key="merges.play").label == "Play"


def test_speed_is_a_setting_of_the_timer() -> None:
    at = open_merges()
    at.button_group(key="merges.speed").set_value("4")
    rerun(at)
    assert at.session_state["merges.speed"] == "4"
    assert step(at) == 18  # changing speed is not a step


def test_presentation_mode_hides_the_sidebar_and_is_in_the_link() -> None:
    at = open_merges()
    assert not [h for h in at.html if "--present-fg" in h.value]
    at.toggle(key="merges.present").set_value(True)
    rerun(at)
    (css,) = [h.value for h in at.html if "--present-fg" in h.value]
    assert '[data-testid="stSidebar"]' in css
    assert at.query_params["present"] == "1"


def test_presenting_the_settings_pick_the_encoding_the_hidden_sidebar_holds() -> None:
    """A teacher switching vocabulary mid-lesson had to leave presentation mode for the sidebar."""
    at = open_merges(present="1", chunk=str(OPENAI), step="4")
    picker = at.selectbox(key="merges.present_enc")
    assert picker.value == "gpt2"
    picker.set_value("cl100k_base")
    rerun(at)
    assert at.selectbox(key="common.enc").value == "cl100k_base"
    assert at.query_params["enc"] == "cl100k_base"
    assert at.button_group(key="merges.chunk").value == OPENAI  # cl100k_base cuts " OpenAI" too
    at.selectbox(key="common.enc").set_value("o200k_base")  # as from the link or another page
    rerun(at)
    assert at.selectbox(key="merges.present_enc").value == "o200k_base"


def test_presenting_a_paste_past_the_limit_keeps_its_start_and_says_so() -> None:
    """The one-line box takes any paste (a ``maxlength`` would refuse it whole): it keeps the first
    `MAX_CHARS` characters, with the toast every box with a limit shows."""
    at = open_merges(present="1")
    pasted = "ab " * MAX_CHARS
    at.text_area(key=LINE).set_value(pasted)
    rerun(at)
    assert at.session_state[LINE] == pasted[:MAX_CHARS]
    assert at.session_state["merges.text"] == pasted[:MAX_CHARS]
    (said,) = [t.value for t in at.toast]
    assert f"the first {MAX_CHARS:,} of the {len(pasted):,} given are kept" in said


def test_a_link_restores_the_exact_view() -> None:
    query = {
        "text": "Hello world, hello BPE",
        "enc": "cl100k_base",
        "chunk": "3",
        "step": "5",
        "by": "text",
        "pieces": "hex",
        "speed": "2",
        "present": "1",
    }
    at = open_merges(**query)
    assert at.session_state["merges.text"] == query["text"]
    assert at.selectbox(key="common.enc").value == "cl100k_base"
    assert (at.button_group(key="merges.chunk").value, step(at)) == (3, 5)
    assert at.button_group(key="merges.by").value == "text"
    assert at.button_group(key="merges.pieces").value == "hex"
    assert at.button_group(key="merges.speed").value == "2"  # a lesson's pace: it was lost
    assert at.toggle(key="merges.present").value
    assert dict(at.query_params) == query


@pytest.mark.parametrize(("chunk", "step_param"), [("99", "-1"), ("x", "999"), ("", "1.5")])
def test_a_bad_link_falls_back_to_the_defaults(chunk: str, step_param: str) -> None:
    at = open_merges(chunk=chunk, step=step_param)
    assert (at.button_group(key="merges.chunk").value, step(at)) == (OPENAI, 18)


def test_new_text_starts_over_at_its_most_merged_chunk() -> None:
    at = open_merges(chunk=str(OPENAI), step="4")
    at.session_state["merges.text"] = "tokenization"
    rerun(at)
    assert (at.button_group(key="merges.chunk").value, step(at)) == (
        0,
        at.slider(key="merges.step").max,
    )
    assert at.query_params["text"] == "tokenization"


def test_the_examples_menu_loads_an_example() -> None:
    at = open_merges()
    at.selectbox(key="merges.example").set_value("Repeated letters")
    rerun(at)
    assert at.session_state["merges.text"].startswith("aaaa")
    assert at.selectbox(key="merges.example").value is None


def test_the_special_tokens_example_says_its_tokens_are_traced_as_text() -> None:
    """The example the Playground shows as one id each was traced here as text, without a word."""
    at = open_merges(enc="llama3")
    at.selectbox(key="merges.example").set_value("Special tokens")
    rerun(at)
    assert "<|end_of_text|>" in at.session_state["merges.text"]
    (note,) = [c.value for c in at.caption if "read here as ordinary text" in c.value]
    assert note.startswith(":material/info: `<|end_of_text|>` is a special token of `llama3`")
    assert "never merged" in note
    presenting = open_merges(enc="llama3", present="1", text=at.session_state["merges.text"])
    assert not [c for c in presenting.caption if "read here as ordinary text" in c.value]


def test_the_encoding_picker_changes_the_merges() -> None:
    at = open_merges(chunk=str(OPENAI))
    at.selectbox(key="common.enc").set_value("o200k_base")
    rerun(at)
    assert text_ids(at) == tk.get_encoding("o200k_base").encode(TEXT)
    assert "pattern of o200k_base" in " ".join(e.label for e in at.expander)


def test_another_encoding_or_text_keeps_the_chunk_it_also_cuts() -> None:
    at = open_merges(chunk="3", step="2")  # " created"
    at.selectbox(key="common.enc").set_value("cl100k_base")
    rerun(at)
    assert at.button_group(key="merges.chunk").value == 3
    assert at.session_state["merges.seen"][2] == " created"
    assert "step" not in at.query_params  # its last step: where a new encoding opens
    assert at.query_params["chunk"] == "3"  # not cl100k_base's default chunk
    at.session_state["merges.text"] = "Tokenization was created"  # a word before it: chunk 2
    rerun(at)
    assert at.button_group(key="merges.chunk").value == 2
    assert at.session_state["merges.seen"][2] == " created"
    at.session_state["merges.text"] = "Tokenization was made"  # without it: the default chunk
    rerun(at)
    assert "chunk" not in at.query_params

    trained = Encoding.from_merges(
        name="tiny",
        pattern=tk.PATTERNS["gpt2"],
        merges=[(97, 97), (256, 97)],
        special_tokens={},
    )
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page("pages/merges.py")
    at.session_state[TRAINED_KEY] = {"tiny": trained}
    at.query_params["enc"] = "tiny"
    at.query_params["text"] = "aaaa aaa"
    rerun(at)
    assert text_ids(at) == trained.encode("aaaa aaa")
    assert any("tiny · trained or imported here" in c.value for c in at.caption)


def test_text_where_nothing_merges() -> None:
    at = open_merges(text="2")
    assert not at.slider
    assert any("Nothing in this text merges" in i.value for i in at.info)
    assert "no pair left to merge" in block(at, "mg-chunk")
    assert any("at step 0: no pair in it merges · 1 token" in c.value for c in at.caption)
    at = open_merges(text=TEXT, chunk="1")  # "2": one byte, in a text where others merge
    (said,) = [c.value for c in at.caption if c.value.startswith("Chunk 2 of")]
    assert "1 byte · at step 18: no pair in it merges · 1 token at the end" in said
    assert "0 of its" not in said


def test_empty_text() -> None:
    at = open_merges(text="")
    at.session_state["merges.text"] = ""
    rerun(at)
    assert any("Type some text" in i.value for i in at.info)
    assert not [html for html in blocks(at) if "mg-chunk" in html]


def test_emptying_the_text_takes_the_selection_out_of_the_link_quietly() -> None:
    at = open_merges(chunk=str(OPENAI - 1), step="11")
    at.session_state["merges.text"] = ""
    rerun(at)
    assert "chunk" not in at.query_params and "step" not in at.query_params
    assert not at.warning  # the user emptied it: nothing to tell them about their link


def test_chips_show_each_chunk_literally() -> None:
    """Chip labels are Markdown: every punctuation character arrives escaped, spaces as ·. A
    repeat gets an invisible word joiner: Streamlit reads a chip back by its label."""
    at = open_merges(text="**b** <i>")
    assert at.button_group(key="merges.chunk").options == [
        "\\*\\*",
        "b",
        "\\*\\*\u2060",
        "·\\<",
        "i",
        "\\>",
    ]


def test_a_step_or_chunk_beyond_the_text_is_named_with_its_range() -> None:
    at = open_merges(text="hello world", step="9999", chunk="7")
    gpt2 = tk.get_encoding("gpt2")
    chunks = gpt2.split("hello world")
    merges = sum(len(c.encode()) - len(gpt2.encode_ordinary(c)) for c in chunks)  # one a step
    notice = " ".join(w.value for w in at.warning)
    assert "step=9999" in notice and "chunk=7" in notice
    assert f"this text has {len(chunks)} chunks (0 to {len(chunks) - 1})" in notice
    assert f"this text has {merges + 1} steps (0 to {merges})" in notice
    assert "step" not in at.query_params and "chunk" not in at.query_params


def test_the_step_buttons_say_where_a_press_goes_in_each_stepping() -> None:
    """Following the selected chunk, → from step 0 jumps to that chunk's first merge (step 22
    on a helper's text) while its tooltip said "One step forward"."""
    words = {}
    for by in ("chunk", "text"):
        at = open_merges(by=by)
        words[by] = (at.button(key="merges.back").help, at.button(key="merges.next").help)
    assert words["chunk"] == (
        "The selected chunk's merge before (←)",
        "The selected chunk's next merge (→)",
    )
    assert words["text"] == ("One step back (←)", "One step forward (→)")


def test_the_token_count_chart_is_named_by_what_it_shows_and_marks_the_step() -> None:
    """Named for a screen reader (Streamlit's `alt`), from the core's counts; its red mark
    follows the player (it had none: the chart was drawn once, outside the player)."""
    at = open_merges(enc="gpt2", text=TEXT, step="0")
    enc = tk.get_encoding("gpt2")
    ids = enc.encode(TEXT)
    # A step applies one merge rule wherever it occurs: as many steps as distinct ranks used.
    steps = len({s.best for chunk in enc.trace(TEXT) for s in chunk.steps if s.best is not None})
    named = (
        f"Line chart: tokens in the whole text after each merge step, from {len(TEXT.encode())} "
        f"at step 0 to {len(ids)} at step {steps}; "
    )
    (chart,) = at.get("vega_lite_chart")
    assert chart.proto.alt == named + f"{len(TEXT.encode())} at step 0 (the red mark)."
    click(at, "merges.last")
    (chart,) = at.get("vega_lite_chart")
    assert chart.proto.alt == named + f"{len(ids)} at step {steps} (the red mark)."
    (mark,) = json.loads(chart.proto.spec)["layer"][1]["data"]["values"]
    assert mark == {"step": steps, "tokens": len(ids)}
