"""A Hugging Face tokenizer.json imported through Compare's file panel, in Chromium (issue 16).

The tokenizer is trained here by Hugging Face `tokenizers` (tests/formats/hf_oracle.py, the format
tests' oracle), saved, and uploaded as a user would. The page must then draw tokens whose ids are
Hugging Face's for the same text, with the result message by the Import button; files BPE Lens
cannot reproduce are refused with a message naming why, and the page goes on working.
"""

import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect
from tokenizers import Tokenizer, models

from tests.e2e.harness import keyed, rerun, screenshot, wait_idle
from tests.e2e.playground_page import paste
from tests.e2e.test_compare_page import open_compare
from tests.formats.hf_oracle import edited, hf_ids, hf_trained

# Accents, an emoji, digits, a special token of the trained file and runs of spaces.
TEXT = "Imported from Hugging Face: naïve café 🙂 2024-11-23<|endoftext|>x   end"
IMPORTED = "imported"  # the name a file called tokenizer.json gets (its stem is generic)


def drawn_ids(column: Locator) -> list[int]:
    """The ids of the tokens drawn in one Compare column, in order."""
    return column.locator(".tok[data-token-id]").evaluate_all(
        "els => els.map(e => Number(e.dataset.tokenId))"
    )


def upload(page: Page, path: Path) -> Locator:
    """Put `path` alone in the import panel's uploader (removing the files it holds, as the
    uploader adds to them), press Import; return the result box by the button."""
    uploader = keyed(page, "compare.import_files")
    held = uploader.get_by_role("button", name=re.compile("^Remove "))
    while held.count():
        with rerun(page):
            held.first.click()
    with rerun(page):
        uploader.locator("input[type=file]").set_input_files(path)
    with rerun(page):  # a button with help is drawn twice, one copy hidden
        keyed(page, "compare.import").locator("button:visible").click()
    box = keyed(page, "compare.import_result_box")
    expect(box).to_be_visible()
    return box


def save(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_a_hugging_face_tokenizer_json_is_imported_and_compared(
    open_app, page: Page, tmp_path: Path
) -> None:
    hf = hf_trained("bytelevel")
    expected = hf_ids(hf, TEXT)
    good = tmp_path / "good" / "tokenizer.json"
    good.parent.mkdir()
    hf.save(str(good))

    open_compare(open_app)
    with rerun(page):
        paste(page, TEXT)  # the live box sends it by itself
    with rerun(page):
        page.get_by_text("Vocabulary files: export or import").click()
    box = upload(page, good)
    expect(box).to_contain_text(f"Imported {IMPORTED} (Hugging Face tokenizer.json")
    wait_idle(page)  # the page done drawing the new column: measured mid-run, it was 19 px off
    # The message sits right under the Import button, in the same column.
    button = keyed(page, "compare.import").locator("button:visible").bounding_box()
    shown = box.bounding_box()
    assert button is not None and shown is not None
    assert 0 <= shown["y"] - (button["y"] + button["height"]) < 60
    assert abs(shown["x"] - button["x"]) < 40

    # The new vocabulary joined the comparison: its column draws Hugging Face's ids.
    named = page.get_by_role("code").filter(has_text=re.compile(f"^{IMPORTED}$"))
    column = page.locator("[class*='st-key-compare-col_']").filter(has=named)
    expect(column).to_have_count(1)
    expect(column.locator(".tok[data-token-id]")).to_have_count(len(expected))
    assert drawn_ids(column) == expected
    screenshot(page, "compare-hf-import")

    # Refused: a WordPiece tokenizer.json, then a byte-level one missing a merge.
    wordpiece = Tokenizer(models.WordPiece({"[UNK]": 0, "a": 1, "##b": 2}, unk_token="[UNK]"))
    refused = save(tmp_path / "wordpiece" / "tokenizer.json", wordpiece.to_str().encode())
    box = upload(page, refused)
    expect(box.locator("[data-testid='stAlertContentError']")).to_contain_text(
        "holds a WordPiece model; BPE Lens reads byte-level BPE only"
    )
    screenshot(page, "compare-hf-import-refused")

    def drop_a_merge(document: dict) -> None:
        document["model"]["merges"].pop(5)

    gap = save(tmp_path / "gap" / "tokenizer.json", edited("bytelevel", drop_a_merge))
    box = upload(page, gap)
    expect(box.locator("[data-testid='stAlertContentError']")).to_contain_text(
        "the merge list never builds it"
    )

    # The page keeps working: the imported column is still there and follows new text.
    again = "after a refusal: still café"
    with rerun(page):
        paste(page, again)
    wait_idle(page)
    expect(column.locator(".tok[data-token-id]")).to_have_count(len(hf_ids(hf, again)))
    assert drawn_ids(column) == hf_ids(hf, again)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
