"""A curve over a player's steps with the current step marked: Train's compression curves and
the token count on Merges.

A plain Vega-Lite spec (a dict, drawn by ``st.vega_lite_chart``), not altair: a player redraws it
at every step, and altair's validation of a spec took about 100 ms of each step, where building
the dict takes microseconds. The line may be sampled (`sampled_steps`); the mark is exact.
Colours come from ui/common/palette.py's hues, which read on the light and the dark theme; axes
and labels take the theme's own colours from Streamlit.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ui.common.palette import HUES, css_colour

LINE = css_colour(HUES[0])  # blue
MARK = css_colour(HUES[3])  # red: the current step

Spec = dict[str, Any]

WHOLE_TICKS = {"tickMinStep": 1, "format": ",d"}
"""An axis of counts or steps: no 0.5 tick for a class to ask about."""

POINTS_UP_TO = 60
"""A line of at most this many points shows each one: a short walk's steps can be counted."""

Y_LABEL_PIXELS = 52
"""Room for the y axis's labels, wide enough for "1,000,000": Train's two curves, one above
the other over the same steps, then start at the same x, and their red marks line up (their
labels, "1,500" and "3", put the marks 20 px apart)."""


@dataclass(frozen=True)
class Measure:
    """One axis of the curve: the points' field, its title, and how a tooltip prints it."""

    field: str
    title: str
    format: str = ","


def sampled_steps(last: int, max_points: int) -> list[int]:
    """Steps 0 … `last`, evenly thinned to about `max_points`; the first and last always in.

    A long walk has more steps than a chart has pixels, and every point is sent at every step.

    >>> sampled_steps(10, 4)
    [0, 3, 6, 9, 10]
    >>> sampled_steps(3, 600)
    [0, 1, 2, 3]
    """
    stride = max(1, -(-last // max_points))  # ceiling division
    return sorted({*range(0, last + 1, stride), last})


def marked_curve(
    points: Sequence[dict[str, float]],
    x: Measure,
    y: Measure,
    at: tuple[float, float],
    *,
    height: int,
    zero: bool = False,
    stepped: bool = False,
) -> Spec:
    """The line through `points` with a red rule and dot at `at` (x, y).

    `stepped` draws a count that changes only at each step as stairs (every step a point);
    `zero` starts the y axis at 0, so a fall reads at its true size.
    """
    last = max((point[x.field] for point in points), default=0)
    x_channel = {
        "field": x.field,
        "type": "quantitative",
        "title": x.title,
        "axis": WHOLE_TICKS,
        "scale": {"domain": [0, max(last, 1)]},
    }
    line = {
        "data": {"values": list(points)},
        "mark": {
            "type": "line",
            "color": LINE,
            "strokeWidth": 2,
            "interpolate": "step-after" if stepped else "linear",
            "point": len(points) <= POINTS_UP_TO,
        },
        "encoding": {
            "x": x_channel,
            "y": {
                "field": y.field,
                "type": "quantitative",
                "title": y.title,
                "scale": {"zero": zero},
                "axis": {"minExtent": Y_LABEL_PIXELS},
            },
            "tooltip": [
                {"field": x.field, "type": "quantitative", "title": x.title, "format": x.format},
                {"field": y.field, "type": "quantitative", "title": y.title, "format": y.format},
            ],
        },
    }
    marker = {x.field: float(at[0]), y.field: float(at[1])}
    rule = {
        "data": {"values": [marker]},
        "mark": {"type": "rule", "color": MARK, "strokeDash": [4, 3]},
        "encoding": {"x": x_channel},
    }
    dot = {
        "data": {"values": [marker]},
        "mark": {"type": "point", "color": MARK, "filled": True, "size": 70},
        "encoding": {"x": x_channel, "y": {"field": y.field, "type": "quantitative"}},
    }
    return {"layer": [line, rule, dot], "height": height}
