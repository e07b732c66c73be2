"""Charts of a training replay: the race one merge won, and the compression curve.

Plain Vega-Lite specs (dicts in, drawn by ``st.vega_lite_chart``), not altair: a replay redraws
them at every step, and altair's validation of a spec took about 100 ms of each step (the whole
replay of 143 merges: 15 s), where building the dict takes microseconds. Colours come from
ui/common/palette.py's hues, which read on the light and the dark theme; axes and labels take
the theme's own colours from Streamlit (``theme="streamlit"``).
"""

from ui.common.palette import HUES, css_colour
from ui.common.step_curve import LINE, WHOLE_TICKS, Measure, Spec, marked_curve

WINNER = css_colour(HUES[1])  # amber
RIVAL = LINE  # blue


def race_chart(rows: list[dict[str, object]], *, large: bool = False) -> Spec:
    """Horizontal bars: the merged pair on top in amber, its runners-up below in blue.

    `rows` are `ui.train.replay.race_rows`: label, pair, ids, count, result, place. `large`:
    type and bars for a projector (presentation mode), read from the back of a classroom, on
    the presenting page's own background.
    """
    font = 16 if large else 13
    sized = {"labelFontSize": font, "titleFontSize": font} if large else {}  # else the theme's
    order = [row["label"] for row in sorted(rows, key=lambda row: int(str(row["place"])))]
    y = {
        "field": "label",
        "type": "nominal",
        "sort": order,
        "title": None,
        "axis": {"labelLimit": 260, "labelOverlap": False, "labelFontSize": font},
    }
    x = {
        "field": "count",
        "type": "quantitative",
        "title": "Occurrences in the corpus",
        "axis": {**WHOLE_TICKS, **sized},
    }
    colour = {
        "field": "result",
        "type": "nominal",
        "scale": {"domain": ["merged", "runner-up"], "range": [WINNER, RIVAL]},
        "legend": {"title": None, "orient": "bottom", **sized},
    }
    bars = {
        "mark": {"type": "bar", "cornerRadiusEnd": 3},
        "encoding": {
            "y": y,
            "x": x,
            "color": colour,
            "tooltip": [
                {"field": "pair", "type": "nominal", "title": "Pair"},
                {"field": "ids", "type": "nominal", "title": "Ids"},
                {"field": "count", "type": "quantitative", "title": "Count", "format": ","},
                {"field": "result", "type": "nominal", "title": "Result"},
            ],
        },
    }
    # Each count in its bar's colour, which reads on both themes (Vega's default text is black,
    # lost on the dark one); the right padding keeps the longest bar's count inside the chart.
    labels = {
        "mark": {"type": "text", "align": "left", "dx": 3, "fontSize": font},
        "encoding": {
            "y": y,
            "x": x,
            "text": {"field": "count", "type": "quantitative", "format": ","},
            "color": colour,
        },
    }
    spec: Spec = {
        "data": {"values": rows},
        "layer": [bars, labels],
        "height": {"step": 22 if large else 20},
        "padding": {"left": 5, "top": 5, "bottom": 5, "right": 56},
    }
    if large:  # on the presenting page's black, the dark theme's grey chart was a panel of its own
        spec["background"] = "transparent"
    return spec


CURVES = {
    "tokens": "Corpus tokens",
    "bytes_per_token": "Bytes / token",
}


def curve_chart(points: list[dict[str, float]], column: str, step: int, value: float) -> Spec:
    """One compression curve against steps, with a red rule and dot at `step` (y = `value`).

    `points` are `ui.train.replay.curve_frame(record)`'s rows (merges, tokens, bytes_per_token).
    """
    fmt = ",.0f" if column == "tokens" else ".2f"
    return marked_curve(
        points,
        Measure("merges", "Step (merges applied)"),
        Measure(column, CURVES[column], fmt),
        (step, value),
        height=165,
    )
