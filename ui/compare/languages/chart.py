"""The "Languages & code" charts: one row per sample, sorted, a dot per encoding.

A builder (frame in, Vega-Lite spec out), tested on its spec. One chart per group of samples
(the translations, the code, the tricky cases, yours), each a dot plot: a row per sample, most
expensive at the top, a dot per encoding (its colour and shape fixed per encoding:
ui/compare/colours.py), a thin bar from the cheapest to the dearest encoding of that sample.
62 samples × 3 encodings read at 1280×720 this way, where bars made a 1,500-pixel wall. Each
encoding's dot is a size smaller than the one before, so encodings that tie show as shapes
nested in one another rather than one hiding the rest. Plain dicts, not altair: its validation
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
DOT_AREA_MAX, DOT_AREA_MIN = 130, 30  # square pixels: the first encoding's dot, the last's
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
    values = [
        {key: (None if pd.isna(value) else value) for key, value in record.items()}
        | {"drawn": encodings.index(record["encoding"])}
        for record in rows.to_dict("records")
    ]
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
        "scale": {"zero": metric in ("tokens", "premium") or rows[spec.column].nunique() < 2},
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
            # Equal values must not hide one another: each encoding's dot is smaller than the
            # one before and drawn after it, so a tie shows as a shape inside a shape.
            "size": {
                "field": "encoding",
                "type": "nominal",
                "scale": {"domain": encodings, "range": dot_sizes(len(encodings))},
                "legend": None,
            },
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


def dot_sizes(n: int) -> list[int]:
    """Areas (square pixels) of the encodings' dots, largest first, each a step smaller.

    >>> dot_sizes(3)
    [130, 80, 30]
    """
    return [
        DOT_AREA_MAX - round(i * (DOT_AREA_MAX - DOT_AREA_MIN) / max(n - 1, 1)) for i in range(n)
    ]
