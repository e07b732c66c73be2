"""Charts of a training replay: the race one merge won, and the compression curve.

Plain Vega-Lite specs (dicts in, drawn by ``st.vega_lite_chart``), not altair: a replay redraws
them at every step, and altair's validation of a spec took about 100 ms of each step (the whole
replay of 143 merges: 15 s), where building the dict takes microseconds. Colours come from
ui/common/palette.py's hues, which read on the light and the dark theme; axes and labels take
the theme's own colours from Streamlit (``theme="streamlit"``).
"""

from html import escape

from ui.common.palette import HUES, css_colour
from ui.common.step_curve import LINE, WHOLE_TICKS, Measure, Spec, marked_curve

WINNER = css_colour(HUES[1])  # amber
RIVAL = LINE  # blue


def race_chart(rows: list[dict[str, object]]) -> Spec:
    """Horizontal bars: the merged pair on top in amber, its runners-up below in blue.

    `rows` are `ui.train.replay.race_rows`: label, pair, ids, count, result, place.
    """
    font = 13
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
        "axis": WHOLE_TICKS,
    }
    colour = {
        "field": "result",
        "type": "nominal",
        "scale": {"domain": ["merged", "runner-up"], "range": [WINNER, RIVAL]},
        "legend": {"title": None, "orient": "bottom"},
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
        "height": {"step": 20},
        "padding": {"left": 5, "top": 5, "bottom": 5, "right": 56},
    }
    return spec


def race_bars(rows: list[dict[str, object]]) -> str:
    """The race as HTML bars, for a projector (presentation mode): `race_chart`'s bars, colours
    and counts, in the page's type.

    Presenting, the page's type grows with the screen (ui/common/presentation.css), and Vega
    draws in pixels fixed when the spec is made: at 1920x1080 the chart kept 16 px labels
    beside 38 px tokens. These bars are sized in the page's units, so they grow with the rest.
    Each row reads as text too ("1. h + e 34, merged"), for a screen reader. The colours' key
    comes first: when a tie's sentence takes the headline three lines, the last rivals scroll
    in the race's pane, not the key.

    >>> "width:50.0%" in race_bars([{"label": "1. a + b", "pair": "a + b", "ids": "97 + 98",
    ...     "count": 2, "result": "merged", "place": 1}, {"label": "2. <", "pair": "<",
    ...     "ids": "60 + 60", "count": 1, "result": "runner-up", "place": 2}])
    True
    """
    most = max((int(str(row["count"])) for row in rows), default=0) or 1
    colour = {"merged": WINNER, "runner-up": RIVAL}
    items = []
    for row in sorted(rows, key=lambda row: int(str(row["place"]))):
        count = int(str(row["count"]))
        result = str(row["result"])
        ids = escape(f"ids {row['ids']}")
        bar = f"width:{100 * count / most:.1f}%;background:{colour[result]}"
        items.append(
            f'<li class="race-row" title="{ids}">'
            f'<span class="race-label">{escape(str(row["label"]))}</span>'
            f'<span class="race-track"><span class="race-bar" style="{bar}"></span>'
            f'<span class="race-count">{count:,}</span>'
            f'<span class="race-said">, {escape(result)}</span></span></li>'
        )
    key = "".join(
        f'<span class="race-key" style="--key:{colour[name]}">{name}</span>' for name in colour
    )
    return (
        f'<p class="race-keys" aria-hidden="true">{key}</p><ol class="race">{"".join(items)}</ol>'
    )


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
