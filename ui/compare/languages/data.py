"""Figures for the "Languages & code" tab: what the same content costs in each encoding.

Pure (pandas, no Streamlit). Counts come in from the core (one list per encoding, in sample order);
this module turns them into one long frame (sample × encoding) for the charts and one wide frame
(one row per sample) for the table and its CSV.

The "token premium" is a sample's tokens divided by the English sample's tokens in the same
encoding: the same paragraph in Korean costs N× English. It only means something for the
translations of that paragraph, so only the language samples have one; code, tricky cases and your
own samples are read in characters (or bytes) per token instead (`panel_metric`).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from ui.common.messages import quote_some
from ui.common.samples import Sample
from ui.common.spreadsheet import csv_bytes

BASELINE_ID = "lang-en"
"""The sample every "token premium" is relative to."""

CUSTOM_KIND = "yours"

PREMIUM_COLUMN = "premium (× English)"
"""The table's name for an encoding's premium: a ratio, which a bare "premium" of 2.35 hid."""

GROUPS: dict[str, str] = {
    "language": "Languages",
    "code": "Code",
    "tricky": "Tricky cases",
    CUSTOM_KIND: "Your samples",
}


@dataclass(frozen=True)
class Metric:
    """One way to read the counts: its column in the long frame, its words and number formats."""

    column: str
    label: str  # on the control
    title: str  # in a chart's title, after the group: "Code · characters per token"
    axis: str  # the chart's axis title
    fmt: str  # d3 format for tooltips and the table
    ticks: str  # d3 format for the axis
    explain: str
    tick_min_step: float | None = None  # counts: no tick between two whole numbers


TICKS = "~r"
"""A ratio's tick labels: significant digits, insignificant zeros dropped, never an exponent.
Vega gives a format without a precision the one the tick step needs, so ticks 0.05 apart read
"1.65 1.7 1.75" (".1f" wrote "1.6 1.6 1.7 1.8 1.8"); with "~g", two ticks 10 apart on a narrow
chart (1024 px) read "0" and "1e+1"."""

METRICS: dict[str, Metric] = {
    "tokens": Metric(
        "tokens",
        "Tokens",
        "tokens",
        "Tokens",
        ",d",
        ",d",
        "How many tokens each sample takes (fewer is cheaper).",
        tick_min_step=1,
    ),
    "premium": Metric(
        "premium",
        "Premium vs English",
        "token premium vs English",
        "Tokens relative to English (×)",
        ".2f",
        TICKS,
        "Token premium: a translation's tokens divided by the English paragraph's in the same "
        "encoding (2× costs twice as much). Code and tricky cases are no translation, so "
        "their charts show characters per token.",
    ),
    "chars_per_token": Metric(
        "chars_per_token",
        "Characters / token",
        "characters per token",
        "Characters per token",
        ".2f",
        TICKS,
        "How much text one token holds, in characters (more is cheaper).",
    ),
    "bytes_per_token": Metric(
        "bytes_per_token",
        "Bytes / token",
        "UTF-8 bytes per token",
        "UTF-8 bytes per token",
        ".2f",
        TICKS,
        "How much text one token holds, in UTF-8 bytes: 1.00 means a token per byte.",
    ),
}


def groups_not_here(names: list[str]) -> str:
    """Why a link's sample groups are not shown. Samples of one's own stay in the session that
    added them, so a link to them finds none ("no yours samples here" said nothing useful).

    >>> groups_not_here(["yours"])
    'samples of your own are not in links: they stay in the session that added them'
    >>> groups_not_here(["poems", "yours"])
    'no sample group `poems` here, and samples of your own ... added them'
    """
    unknown = [name for name in names if name != CUSTOM_KIND]
    said = [f"no sample group {quote_some(unknown)} here"] if unknown else []
    if CUSTOM_KIND in names:
        said.append(
            "samples of your own are not in links: they stay in the session that added them"
        )
    return ", and ".join(said)


def custom_sample(index: int, title: str, text: str) -> Sample:
    """A sample the user added, labelled as theirs (the title is shown as typed, escaped)."""
    return Sample(
        id=f"yours-{index}",
        kind=CUSTOM_KIND,
        title=title.strip() or f"Your sample {index}",
        language="",
        code="",
        script="",
        text=text,
        description="added by you",
    )


def long_frame(samples: Sequence[Sample], counts: Mapping[str, Sequence[int]]) -> pd.DataFrame:
    """One row per (sample, encoding) with every figure; `counts[name][i]` is sample i's tokens.

    >>> en = Sample("lang-en", "language", "English", "English", "en", "Latn", "Hi there")
    >>> ko = Sample("lang-ko", "language", "Korean", "Korean", "ko", "Hang", "안녕하세요")
    >>> f = long_frame([en, ko], {"gpt2": [2, 8]})
    >>> f[["sample", "tokens", "premium", "chars_per_token"]].values.tolist()
    [['English', 2, 1.0, 4.0], ['Korean', 8, 4.0, 0.625]]
    """
    ids = [s.id for s in samples]
    base = ids.index(BASELINE_ID) if BASELINE_ID in ids else None
    labels = unique_labels([s.title for s in samples])
    sizes = [(len(s.text), len(s.text.encode("utf-8", "surrogatepass"))) for s in samples]
    rows = []
    for name, tokens in counts.items():
        english = tokens[base] if base is not None else None
        for sample, label, (chars, n_bytes), n in zip(samples, labels, sizes, tokens, strict=True):
            rows.append(
                {
                    "id": sample.id,
                    "sample": label,
                    "group": GROUPS.get(sample.kind, sample.kind),
                    "language": sample.language,
                    "script": sample.script_name or sample.script,
                    "encoding": name,
                    "chars": chars,
                    "bytes": n_bytes,
                    "tokens": n,
                    "premium": n / english if english and sample.kind == "language" else None,
                    "chars_per_token": chars / n if n else None,
                    "bytes_per_token": n_bytes / n if n else None,
                }
            )
    return pd.DataFrame(rows)


def unique_labels(titles: Sequence[str]) -> list[str]:
    """Titles made distinct for a chart axis: ``["a", "a"] -> ["a", "a (2)"]``."""
    used: set[str] = set()
    out = []
    for title in titles:
        label, n = title, 1
        while label in used:
            n += 1
            label = f"{title} ({n})"
        used.add(label)
        out.append(label)
    return out


# For these, more is cheaper: the most expensive sample has the least.
_MORE_IS_CHEAPER = ("chars_per_token", "bytes_per_token")


def panel_metric(metric: str, group: str) -> str:
    """What a group's chart shows for the chosen metric: no premium outside the languages.

    >>> panel_metric("premium", "Languages"), panel_metric("premium", "Code")
    ('premium', 'chars_per_token')
    """
    if metric == "premium" and group != GROUPS["language"]:
        return "chars_per_token"
    return metric


def sample_order(frame: pd.DataFrame, metric: str, encoding: str) -> list[str]:
    """Sample titles, most expensive in `encoding` first (by `metric`): a chart's sort order."""
    cheaper = metric in _MORE_IS_CHEAPER
    chosen = frame[frame["encoding"] == encoding].sort_values(
        [METRICS[metric].column, "sample"], ascending=[cheaper, True]
    )
    return chosen["sample"].tolist()


def wide_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per sample: its facts, then tokens / premium / chars / bytes per token per encoding.

    >>> en = Sample("lang-en", "language", "English", "English", "en", "Latn", "Hi there")
    >>> wide_frame(long_frame([en], {"gpt2": [2], "o200k_base": [2]})).columns.tolist()[5:8]
    ['Bytes', 'gpt2 tokens', 'gpt2 premium (× English)']
    """
    facts = (
        frame.drop_duplicates("id")[["sample", "group", "language", "script", "chars", "bytes"]]
        .rename(
            columns={
                "sample": "Sample",
                "group": "Group",
                "language": "Language",
                "script": "Script",
                "chars": "Characters",
                "bytes": "Bytes",
            }
        )
        .reset_index(drop=True)
    )
    parts = [facts]
    for name in frame["encoding"].unique():
        one = frame[frame["encoding"] == name].reset_index(drop=True)
        parts.append(
            pd.DataFrame(
                {
                    f"{name} tokens": one["tokens"],
                    f"{name} {PREMIUM_COLUMN}": one["premium"],
                    f"{name} chars/token": one["chars_per_token"],
                    f"{name} bytes/token": one["bytes_per_token"],
                }
            )
        )
    return pd.concat(parts, axis=1)


def table_csv(wide: pd.DataFrame) -> bytes:
    """The table as CSV for spreadsheets (`ui.common.spreadsheet`)."""
    return csv_bytes(wide, float_format="%.4f")
