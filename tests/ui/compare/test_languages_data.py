"""Figures of the Languages & code tab: counts from the core, premium, ratios, table, chart."""

import itertools
import math
import re

import pandas as pd
import pytest

import tokenizer as tk
from ui.common.samples import load_samples
from ui.compare.languages.chart import (
    DOT_WIDTH,
    ENCODING_COLOURS,
    LEGEND,
    ROW_PIXELS,
    SHAPES,
    languages_chart,
    nested_widths,
)
from ui.compare.languages.data import (
    BASELINE_ID,
    GROUPS,
    METRICS,
    PREMIUM_COLUMN,
    custom_sample,
    long_frame,
    panel_metric,
    sample_order,
    table_csv,
    unique_labels,
    wide_frame,
)


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    samples = [*load_samples(), custom_sample(1, "<img src=x onerror=alert(1)>", "hi 👋")]
    counts = {
        name: [len(tk.get_encoding(name).encode_ordinary(s.text)) for s in samples]
        for name in tk.list_encodings()
    }
    return long_frame(samples, counts)


def test_every_sample_and_encoding_has_a_row_with_the_cores_count(frame: pd.DataFrame) -> None:
    samples = [*load_samples()]
    assert len(frame) == (len(samples) + 1) * len(tk.list_encodings())
    for name in tk.list_encodings():
        enc = tk.get_encoding(name)
        mine = frame[frame["encoding"] == name].set_index("id")["tokens"]
        for sample in samples:
            assert mine[sample.id] == len(enc.encode_ordinary(sample.text)), (name, sample.id)


def test_premium_is_relative_to_english_in_the_same_encoding(frame: pd.DataFrame) -> None:
    for name in tk.list_encodings():
        rows = frame[frame["encoding"] == name].set_index("id")
        english = rows.loc[BASELINE_ID, "tokens"]
        assert rows.loc[BASELINE_ID, "premium"] == 1.0
        assert rows.loc["lang-ko", "premium"] == pytest.approx(
            rows.loc["lang-ko", "tokens"] / english
        )


def test_only_translations_of_the_paragraph_have_a_premium(frame: pd.DataFrame) -> None:
    has = frame.groupby("group")["premium"].apply(lambda column: column.notna().all())
    lacks = frame.groupby("group")["premium"].apply(lambda column: column.isna().all())
    assert has[GROUPS["language"]]
    assert all(lacks[GROUPS[g]] for g in ("code", "tricky", "yours"))
    assert panel_metric("premium", GROUPS["code"]) == "chars_per_token"
    assert panel_metric("tokens", GROUPS["code"]) == "tokens"
    assert panel_metric("premium", GROUPS["language"]) == "premium"


def test_ratios(frame: pd.DataFrame) -> None:
    row = frame[(frame["id"] == "lang-en") & (frame["encoding"] == "gpt2")].iloc[0]
    assert row["chars_per_token"] == pytest.approx(row["chars"] / row["tokens"])
    assert row["bytes_per_token"] == pytest.approx(row["bytes"] / row["tokens"])
    assert set(frame["group"]) == set(GROUPS.values())


def test_the_wide_table_has_one_row_per_sample_and_every_figure(frame: pd.DataFrame) -> None:
    wide = wide_frame(frame)
    assert len(wide) == len(load_samples()) + 1
    for name in tk.list_encodings():
        for figure in ("tokens", PREMIUM_COLUMN, "chars/token", "bytes/token"):
            assert f"{name} {figure}" in wide.columns
    english = wide[wide["Sample"] == "English"].iloc[0]
    assert english["gpt2 tokens"] == len(
        tk.get_encoding("gpt2").encode_ordinary(load_samples()[0].text)
    )
    csv = table_csv(wide).decode("utf-8-sig")
    assert csv.splitlines()[0].startswith("Sample,Group,Language,Script,Characters,Bytes")
    assert "<img src=x onerror=alert(1)>" in csv


def test_samples_sort_most_expensive_first_by_the_first_encoding(frame: pd.DataFrame) -> None:
    gpt2 = frame[frame["encoding"] == "gpt2"].set_index("sample")
    order = sample_order(frame, "tokens", "gpt2")
    assert [gpt2.loc[s, "tokens"] for s in order] == sorted(gpt2["tokens"], reverse=True)
    order = sample_order(frame, "chars_per_token", "gpt2")  # fewest characters a token first
    assert [gpt2.loc[s, "chars_per_token"] for s in order] == sorted(gpt2["chars_per_token"])


def test_duplicate_titles_get_distinct_labels() -> None:
    assert unique_labels(["a", "a", "a (2)", "b"]) == ["a", "a (2)", "a (2) (2)", "b"]


@pytest.mark.parametrize("metric", list(METRICS))
def test_the_chart_is_a_row_per_sample_with_a_dot_per_encoding(
    frame: pd.DataFrame, metric: str
) -> None:
    encodings = tk.list_encodings()
    languages = frame[frame["group"] == GROUPS["language"]]
    order = sample_order(languages, metric, "gpt2")
    spec = languages_chart(languages, metric, order, encodings, "Languages")
    span, dots = spec["layer"][:2]
    assert dots["mark"]["type"] == "point" and span["mark"]["type"] == "rule"
    assert dots["encoding"]["x"]["field"] == METRICS[metric].column
    # Vega's default, a tick per 40 px, pressed 46 labels onto a 1,900 px chart.
    assert dots["encoding"]["x"]["axis"]["tickCount"] == {"expr": "ceil(width / 80)"}
    assert dots["encoding"]["y"]["sort"] == order
    assert dots["encoding"]["color"]["scale"]["range"] == ENCODING_COLOURS[: len(encodings)]
    assert dots["encoding"]["shape"]["scale"]["domain"] == encodings  # not colour alone
    fields = {t["field"] for t in dots["encoding"]["tooltip"]}
    assert {"sample", "encoding", "tokens", "premium", "chars_per_token"} <= fields
    assert (len(spec["layer"]) == 3) == (metric == "premium")  # the 1× rule
    assert len(spec["data"]["values"]) == len(languages)
    assert spec["height"] == {"step": ROW_PIXELS}
    assert len(order) * ROW_PIXELS < 600  # 40 translations fit a 720-pixel-high window


def exponent(value: float) -> int:
    """The power of ten of `value`'s first significant digit (0 for 0), as d3 reckons it."""
    return 0 if value == 0 else math.floor(math.log10(abs(value)))


def tick_label(spec: str, value: float, step: float, top: float) -> str:
    """A tick as Vega writes it with one of the d3-format specifiers the axes use.

    A specifier without a precision gets one from the tick step and the domain's largest value
    (`top`), as d3-scale's `tickFormat` does: `precisionRound(step, top)` significant digits.
    """
    if spec == ",d":
        return f"{round(value):,}"
    if spec == "~r":
        digits = max(0, exponent(top - step) - exponent(step)) + 1
        rounded = float(f"{value:.{digits - 1}e}")
        text = f"{rounded:.{max(0, digits - 1 - exponent(rounded))}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    if match := re.fullmatch(r"\.(\d)f", spec):
        return f"{value:.{match[1]}f}"
    raise AssertionError(f"no emulation of d3 format {spec!r}: it may write an exponent")


@pytest.mark.parametrize("metric", list(METRICS))
def test_axis_ticks_never_share_a_label(frame: pd.DataFrame, metric: str) -> None:
    """Vega puts ticks 1, 2 or 5 × 10^k apart, however narrow the range (two samples of yours
    at 1.65 and 1.95 characters per token got ticks 0.05 apart). Every tick of every such
    spacing must read differently, or a dot sits over a label that is not its value."""
    gpt2 = frame[frame["encoding"] == "gpt2"]
    spec = languages_chart(gpt2, metric, sample_order(gpt2, metric, "gpt2"), ["gpt2"])
    axis = spec["layer"][1]["encoding"]["x"]["axis"]
    steps = [m * 10.0**k for k in range(-3, 4) for m in (1, 2, 5)]
    for step in [s for s in steps if s >= axis.get("tickMinStep", 0)]:
        for start in (0.0, 1.0, 1.6, 3.3, 9.9, 47.0):
            first = math.floor(start / step)
            for count in range(2, 13):  # a narrow chart (1024 px) has two or three ticks
                ticks = [(first + i) * step for i in range(count)]
                labels = [tick_label(axis["format"], t, step, ticks[-1]) for t in ticks]
                assert len(set(labels)) == len(labels), (metric, step, labels)
                assert all(float(label.replace(",", "")) == pytest.approx(t)
                           for label, t in zip(labels, ticks, strict=True)), labels  # fmt: skip


def test_tick_labels_are_read_as_vega_writes_them() -> None:
    """The emulation above, on what Vega drew: "0 5 10 15" at 1280 px, "1.65 1.7" for ticks
    0.05 apart, and at 1024 px, where "~g" wrote 10 as "1e+1", "0 10"."""
    assert [tick_label("~r", t, 5, 15) for t in (0, 5, 10, 15)] == ["0", "5", "10", "15"]
    assert [tick_label("~r", t, 0.05, 1.75) for t in (1.65, 1.7)] == ["1.65", "1.7"]
    assert [tick_label("~r", t, 10, 10) for t in (0, 10)] == ["0", "10"]


@pytest.mark.parametrize("metric", ["chars_per_token", "bytes_per_token"])
def test_an_axis_over_one_value_starts_at_zero(frame: pd.DataFrame, metric: str) -> None:
    """A single value (one sample of one's own, one encoding) is a domain of one point, which
    Vega marks with one tick written to six digits; ratios otherwise start near their values."""
    mine = frame[(frame["id"] == "yours-1") & (frame["encoding"] == "gpt2")]
    assert len(mine) == 1
    one = languages_chart(mine, metric, list(mine["sample"]), ["gpt2"])
    assert one["layer"][1]["encoding"]["x"]["scale"]["zero"] is True
    gpt2 = frame[frame["encoding"] == "gpt2"]
    many = languages_chart(gpt2, metric, sample_order(gpt2, metric, "gpt2"), ["gpt2"])
    assert many["layer"][1]["encoding"]["x"]["scale"]["zero"] is False


def test_tooltips_leave_out_what_a_group_does_not_have(frame: pd.DataFrame) -> None:
    """Code and the tricky cases have no premium (and no script): their tooltips read
    "vs English (×) null" and empty lines. The 1× rule names what it marks."""
    for group in ["language", "code", "tricky", "yours"]:
        part = frame[(frame["group"] == GROUPS[group]) & (frame["encoding"] == "gpt2")]
        metric = panel_metric("premium", GROUPS[group])
        spec = languages_chart(part, metric, sample_order(part, metric, "gpt2"), ["gpt2"])
        fields = [line["field"] for line in spec["layer"][1]["encoding"]["tooltip"]]
        assert {"sample", "encoding", "tokens", "chars_per_token", "bytes"} <= set(fields)
        assert ("premium" in fields) == (group == "language"), (group, fields)
        for field in fields:
            assert (part[field].dropna().astype(str) != "").any(), (group, field)
        if metric == "premium":
            assert "English paragraph" in spec["layer"][2]["encoding"]["tooltip"]["value"]


def dot_widths(spec: dict) -> dict[tuple[str, str], float]:
    """Each dot's width in pixels, by (sample, encoding): Vega draws a symbol √size wide."""
    encoding = spec["layer"][1]["encoding"]
    assert encoding["size"] == {"field": "dot", "type": "quantitative", "scale": None,
                                "legend": None}  # fmt: skip
    return {(v["sample"], v["encoding"]): math.sqrt(v["dot"]) for v in spec["data"]["values"]}


@pytest.mark.parametrize("count", [2, 3, 6])
def test_tied_encodings_stay_visible(frame: pd.DataFrame, count: int) -> None:
    """A dot per encoding even where encodings give the same value: each dot of a tie is
    narrower than the one drawn before it, by enough to leave a ring. Every encoding's dot had
    its own area (130, 80, 30), and cl100k_base's square covered all but a sliver of gpt2's
    circle on Armenian. A dot that ties with none keeps the one width."""
    encodings = tk.list_encodings()[:count]
    shown = frame[frame["encoding"].isin(encodings)]
    for metric in METRICS:
        column = METRICS[metric].column
        spec = languages_chart(shown, metric, sample_order(shown, metric, "gpt2"), encodings)
        widths = dot_widths(spec)
        drawn = {v["encoding"]: v[spec["layer"][1]["encoding"]["order"]["field"]]
                 for v in spec["data"]["values"]}  # fmt: skip
        assert [drawn[e] for e in encodings] == sorted(drawn.values())  # in the legend's order
        ring = 2 if count <= 3 else 1  # pixels of the wider dot left around the narrower
        top = shown[column].max()  # ties are within 1% of the axis, which ends there
        nested = 0
        for sample, rows in shown.dropna(subset=[column]).groupby("sample"):
            value = dict(zip(rows["encoding"], rows[column], strict=True))
            for first, later in itertools.combinations(encodings, 2):
                if value[first] == value[later]:
                    nested += 1
                    assert widths[sample, first] - widths[sample, later] >= 2 * ring, sample
            apart = [e for e in encodings if all(abs(value[e] - v) > 0.1 * top
                                                 for o, v in value.items() if o != e)]  # fmt: skip
            assert all(widths[sample, e] == DOT_WIDTH for e in apart), sample
        assert nested, metric  # the samples have ties in every metric (English's premium)


def test_a_tie_is_values_within_a_share_of_the_axis(frame: pd.DataFrame) -> None:
    """Dots that would sit on one another are nested even when their values differ a little;
    two dots far apart on the axis each keep the one width."""
    encodings = ["gpt2", "cl100k_base", "o200k_base"]
    rows = frame[frame["sample"].isin(["English", "French"]) & frame["encoding"].isin(encodings)]
    # Sorted: English, then French, each as cl100k_base, gpt2, o200k_base.
    rows = rows.sort_values(["sample", "encoding"]).copy()
    rows["tokens"] = [10.0, 10.1, 20.0, 0.0, 5.0, 20.0]
    widths = dot_widths(languages_chart(rows, "tokens", ["English", "French"], encodings))
    assert [widths["English", e] for e in encodings[:2]] == nested_widths(2)  # 0.1 apart of 20
    assert widths["English", "o200k_base"] == DOT_WIDTH
    assert {widths["French", e] for e in encodings} == {DOT_WIDTH}


def test_each_chart_keys_its_colours_and_shapes_for_its_png(frame: pd.DataFrame) -> None:
    """The key was HTML above the charts, so a chart's PNG (its menu) had dots and no names.
    Each chart has one legend now, colour and shape merged (the same definition), in as many
    columns as its width holds; the nested sizes are not keyed."""
    languages = frame[frame["group"] == GROUPS["language"]]
    encodings = tk.list_encodings()
    spec = languages_chart(
        languages, "tokens", sample_order(languages, "tokens", "gpt2"), encodings
    )
    encoding = spec["layer"][1]["encoding"]
    assert encoding["color"]["legend"] == encoding["shape"]["legend"] == LEGEND
    assert LEGEND["title"] is None and "width" in LEGEND["columns"]["expr"]
    assert encoding["size"]["legend"] is None
    assert encoding["color"]["scale"]["domain"] == encodings


def test_an_encoding_keeps_its_colour_and_shape_whatever_else_is_shown(
    frame: pd.DataFrame,
) -> None:
    """llama3 was a red triangle with four encodings before it and a blue circle when picked
    first: screenshots of one page disagreed. Every bundled encoding has its own."""
    languages = frame[frame["group"] == GROUPS["language"]]

    def style(encodings: list[str]) -> dict[str, tuple[str, str]]:
        shown = languages[languages["encoding"].isin(encodings)]
        order = sample_order(shown, "tokens", encodings[0])
        encoding = languages_chart(shown, "tokens", order, encodings)["layer"][1]["encoding"]
        colours, shapes = encoding["color"]["scale"], encoding["shape"]["scale"]
        assert colours["domain"] == shapes["domain"] == encodings
        pairs = zip(colours["range"], shapes["range"], strict=True)
        return dict(zip(encodings, pairs, strict=True))

    every = style(tk.list_encodings())
    assert len(set(every.values())) == len(every)
    for picked in (["llama3", "gpt2"], ["qwen3"], ["o200k_base", "cl100k_base", "llama3"]):
        assert style(picked) == {name: every[name] for name in picked}
    assert len(SHAPES) == len(ENCODING_COLOURS)  # a slot for every hue
