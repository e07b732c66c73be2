"""The "Languages & code" charts: one row per sample, sorted, a dot per encoding.

A builder (frame in, Vega-Lite spec out), tested on its spec. One chart per group of samples
(the translations, the code, the tricky cases, yours), each a dot plot: a row per sample, most
expensive at the top, a dot per encoding (its colour and shape fixed per encoding:
ui/compare/colours.py), a thin bar from the cheapest to the dearest encoding of that sample.
62 samples × 3 encodings read at 1280×720 this way, where bars made a 1,500-pixel wall. Dots
of one row that sit on one another (encodings that tie) are nested, each a few pixels narrower
than the one drawn before it, so every shape shows rather than one hiding the rest; a dot that
ties with none has the one size. Plain dicts, not altair: its validation
cost about 100 ms a chart per rerun. Colours are ui/common/palette.py's hues, which read on
both themes; Streamlit's theme colours axes and labels. Sample titles reach the chart as data:
Vega draws them as text, never as HTML.
"""

from typing import Any

import pandas as pd

from ui.common.palette import HUES, css_colour
from ui.compare.colours import slots
from ui.compare.languages.data import METRICS

ENCODING_COLOURS = [css_colour(rgb) for rgb in HUES]
# One shape per slot of ui/compare/colours.py, as many as there are hues.
SHAPES = ["circle", "square", "diamond", "triangle-up", "cross", "triangle-down",
          "triangle-right", "triangle-left"]  # fmt: skip
LABEL_LIMIT = 150  # pixels of sample title before Vega cuts it with "…"
DOT_WIDTH = 11  # pixels across a dot that ties with none (Vega's size is the width squared)
# Dots that tie are nested, each NEST_STEP narrower than the one before: a ring of 2 px shows
# around a circle's or a square's inner dot. With an area per encoding (130, 80 and 30
# square pixels for three), a square's corners reached past the circle under it, which
# showed as a sliver of a pixel. Many ties at once take smaller steps, from at most
# NEST_WIDEST down to NEST_NARROWEST.
NEST_STEP, NEST_WIDEST, NEST_NARROWEST = 4, 16, 5
# Values closer than this share of the axis count as a tie: at 1280x720 the languages' plot is
# about 300 px wide, where 1% is 3 px. Dots further apart show at least a crescent each; with
# 3%, neighbours chained into groups of four or five that were drawn as large as 15 px.
TIE_SHARE = 0.01
ROW_PIXELS = 14  # a row per sample: at 12 the 11 px labels touched and the first one overlapped
# Pixels around the plot (Vega's default is 5 on every side). The last tick label and the axis
# title end at the plot's right edge: with 0 there, Vega's fit put their last pixel or two
# outside the chart. A padding that names only one side sets the others to 0, which pressed the
# first row against the top edge.
PADDING = {"top": 8, "bottom": 5, "left": 5, "right": 4}

Spec = dict[str, Any]

# Each chart's key, in the chart, so that its PNG (the chart's menu) says which dot is which:
# an HTML key above the charts was lost in the picture. Below the plot, in as many columns as
# the chart's width holds, so a narrow chart wraps it rather than cutting it (Vega's default
# legend, in fixed columns, lost the third encoding at 1024 px).
LEGEND = {
    "orient": "bottom",
    "direction": "horizontal",
    "title": None,
    "columns": {"expr": "max(1, floor(width / 105))"},
    "labelLimit": 90,
    "labelFontSize": 11,
    "symbolSize": 90,
    "rowPadding": 2,
    "columnPadding": 12,
}

_TOOLTIP = [
    {"field": "sample", "type": "nominal", "title": "Sample"},
    {"field": "encoding", "type": "nominal", "title": "Encoding"},
    {"field": "tokens", "type": "quantitative", "title": "Tokens", "format": ","},
    {"field": "premium", "type": "quantitative", "title": "vs English (×)", "format": ".2f"},
    {"field": "chars_per_token", "type": "quantitative", "title": "Chars / token", "format": ".2f"},
    {"field": "bytes_per_token", "type": "quantitative", "title": "Bytes / token", "format": ".2f"},
    {"field": "chars", "type": "quantitative", "title": "Characters", "format": ","},
    {"field": "bytes", "type": "quantitative", "title": "UTF-8 bytes", "format": ","},
    {"field": "language", "type": "nominal", "title": "Language"},
    {"field": "script", "type": "nominal", "title": "Script"},
]


def languages_chart(
    frame: pd.DataFrame,
    metric: str,
    order: list[str],
    encodings: list[str],
    title: str = "",
) -> Spec:
    """A dot plot of `metric` for the samples in `order` (top to bottom), one dot per encoding.

    `frame` is `ui.compare.languages.data.long_frame`'s, filtered to one group's samples and the
    encodings shown. For the token premium, a dashed rule marks 1× (as expensive as English).
    Each chart has its key below the plot (`LEGEND`), so its exported PNG has it too.
    """
    spec = METRICS[metric]
    slot = slots(encodings)
    rows = frame[frame["sample"].isin(order)]
    values: list[Spec] = [
        {str(key): (None if pd.isna(value) else value) for key, value in record.items()}
        | {"drawn": encodings.index(record["encoding"])}
        for record in rows.to_dict("records")
    ]
    _size_dots(values, spec.column, zero=_from_zero(rows[spec.column], metric))
    y = {
        "field": "sample",
        "type": "nominal",
        "sort": order,
        "title": None,
        "axis": {"labelLimit": LABEL_LIMIT, "labelOverlap": False, "labelFontSize": 11},
        "scale": {"padding": 0.5},  # half a row above the first and below the last
    }
    x = {
        "field": spec.column,
        "type": "quantitative",
        "title": spec.axis,
        # The title ends where the plot does. Centred, a title wider than a narrow plot (the
        # tricky cases' beside their long labels, at 1024 px) overhung it, and Vega's fit to
        # the column cut its last letter.
        "axis": {
            "format": spec.ticks,
            # A tick every 80 px or so (Vega's default is 40): a 1,900 px chart of counts had 46
            # labels, 20 apart, pressed together.
            "tickCount": {"expr": "ceil(width / 80)"},
            "grid": True,
            "titleAnchor": "end",
            **({} if spec.tick_min_step is None else {"tickMinStep": spec.tick_min_step}),
        },
        # One value alone (a sample of one's own, in one encoding) made a domain of one point
        # and a single tick written "3.16667"; from zero the axis gets ordinary ticks.
        "scale": {"zero": _from_zero(rows[spec.column], metric)},
    }
    span = {
        "transform": [
            {
                "aggregate": [
                    {"op": "min", "field": spec.column, "as": "low"},
                    {"op": "max", "field": spec.column, "as": "high"},
                ],
                "groupby": ["sample"],
            }
        ],
        "mark": {"type": "rule", "color": "#8a8f9c", "strokeWidth": 2, "opacity": 0.5},
        "encoding": {
            "y": y,
            "x": {"field": "low", "type": "quantitative"},
            "x2": {"field": "high"},
        },
    }
    dots = {
        "mark": {"type": "point", "filled": True, "opacity": 0.95},
        "encoding": {
            "y": y,
            "x": x,
            # Colour and shape share one legend (the same definition merges them).
            "color": {
                "field": "encoding",
                "type": "nominal",
                "scale": {"domain": encodings, "range": [ENCODING_COLOURS[i] for i in slot]},
                "legend": LEGEND,
            },
            "shape": {
                "field": "encoding",
                "type": "nominal",
                "scale": {"domain": encodings, "range": [SHAPES[i] for i in slot]},
                "legend": LEGEND,
            },
            # Equal values must not hide one another: in a tie each dot is narrower than the
            # one before and drawn after it, so it shows as a shape inside a shape.
            "size": {"field": "dot", "type": "quantitative", "scale": None, "legend": None},
            "order": {"field": "drawn", "type": "quantitative"},
            "tooltip": _tooltip(rows),
        },
    }
    layers: list[Spec] = [span, dots]
    if metric == "premium":
        layers.append(
            {
                "data": {"values": [{"premium": 1.0}]},
                "mark": {"type": "rule", "strokeDash": [4, 3], "color": "gray"},
                "encoding": {
                    "x": {"field": "premium", "type": "quantitative"},
                    "tooltip": {"value": "1× = as many tokens as the English paragraph"},
                },
            }
        )
    chart: Spec = {
        "data": {"values": values},
        "layer": layers,
        "height": {"step": ROW_PIXELS},
        "padding": PADDING,
    }
    if title:
        chart["title"] = {"text": title, "anchor": "start", "fontSize": 13}
    return chart


def _tooltip(rows: pd.DataFrame) -> list[Spec]:
    """The tooltip's lines that have something to say for these rows: code and the tricky cases
    have no premium, language or script, and a line for them read "vs English (×) null"."""
    return [line for line in _TOOLTIP if _has_values(rows[line["field"]])]


def _has_values(column: pd.Series) -> bool:
    """Whether any row holds a value (not missing, not an empty string)."""
    present = column.dropna()
    return bool((present.astype(str) != "").any())


def _from_zero(column: pd.Series, metric: str) -> bool:
    """Whether the axis starts at zero: counts and the premium do, and so does one value alone."""
    return metric in ("tokens", "premium") or column.nunique() < 2


def _size_dots(values: list[Spec], column: str, zero: bool) -> None:
    """Give each dot its width squared (Vega's size) in the field "dot": `nested_widths` for
    the dots of a sample that tie, in the order they are drawn; `DOT_WIDTH` for the rest."""
    shown = [v[column] for v in values if v[column] is not None]
    low = min([*shown, 0.0] if zero else shown, default=0.0)
    tolerance = TIE_SHARE * (max(shown, default=0.0) - low)
    rows: dict[str, list[Spec]] = {}
    for value in sorted(values, key=lambda v: v["drawn"]):
        rows.setdefault(value["sample"], []).append(value)
    for dots in rows.values():
        placed = [dot for dot in dots if dot[column] is not None]
        for group in ties([dot[column] for dot in placed], tolerance):
            for index, width in zip(group, nested_widths(len(group)), strict=True):
                placed[index]["dot"] = round(width**2)
        for dot in dots:
            dot.setdefault("dot", DOT_WIDTH**2)


def ties(values: list[float], tolerance: float) -> list[list[int]]:
    """The indices of `values` in groups that lie on one another: sorted, a value within
    `tolerance` of the one before joins its group. Each group lists its indices in order.

    >>> ties([1.0, 3.0, 1.02, 2.0], tolerance=0.05)
    [[0, 2], [3], [1]]
    """
    groups: list[list[int]] = []
    last = None
    for index in sorted(range(len(values)), key=values.__getitem__):
        if last is None or values[index] - last > tolerance:
            groups.append([])
        groups[-1].append(index)
        last = values[index]
    return [sorted(group) for group in groups]


def nested_widths(count: int) -> list[float]:
    """Widths in pixels of `count` dots that tie, widest first, each `NEST_STEP` narrower (less
    when many tie, so the last is still `NEST_NARROWEST`); one dot alone is `DOT_WIDTH` wide.

    >>> nested_widths(1), nested_widths(2), nested_widths(3)
    ([11.0], [12.0, 8.0], [13.0, 9.0, 5.0])
    >>> nested_widths(5)
    [15.0, 12.5, 10.0, 7.5, 5.0]
    """
    if count == 1:
        return [float(DOT_WIDTH)]
    widest = min(NEST_WIDEST, DOT_WIDTH + count - 1)
    step = min(NEST_STEP, (widest - NEST_NARROWEST) / (count - 1))
    return [float(widest - i * step) for i in range(count)]
