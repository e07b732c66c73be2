"""Upload sizes: one unit, the one Streamlit's uploader names its limits in and checks them by."""

import pytest

from ui.common.limits import MAX_CORPUS_BYTES, MAX_FILE_BYTES, MAX_SAMPLE_BYTES
from ui.common.uploads import size_label, upload_mb

# Bytes per MB in the browser's check of `max_upload_size` and in its "File must be 10.0MB or
# smaller": Streamlit's frontend counts 1,000 (1,024 on Windows only; FileHelper.ts).
STREAMLIT_MB = 1_000_000


@pytest.mark.parametrize(
    ("n", "label"),
    [(999, "999 bytes"), (1_000, "1 KB"), (1_500_000, "1.5 MB"), (32_000_000, "32 MB")],
)
def test_sizes_are_named_in_decimal_units(n: int, label: str) -> None:
    assert size_label(n) == label


@pytest.mark.parametrize("limit", [MAX_FILE_BYTES, MAX_CORPUS_BYTES])
def test_an_uploaders_limit_is_the_pages_limit_to_the_byte(limit: int) -> None:
    """The box refuses exactly the files the page's own check would, and both name one size."""
    mb = upload_mb(limit)
    assert mb * STREAMLIT_MB == limit
    assert size_label(limit) == f"{mb} MB"  # the box says "Limit {mb}MB per file"


def test_the_sample_limit_is_a_round_size() -> None:
    assert size_label(MAX_SAMPLE_BYTES) == "16 KB"  # as the README and assets/samples say
