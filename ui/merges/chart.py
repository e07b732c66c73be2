"""The line of the whole text's token count falling, merge step by merge step, and where the
player stands on it."""

from collections.abc import Sequence

from ui.common.limits import MAX_CURVE_POINTS
from ui.common.step_curve import Measure, Spec, marked_curve, sampled_steps

TITLE = "Tokens in the whole text after each merge step"
STEP = Measure("step", "Merge step")
TOKENS = Measure("tokens", "Tokens")


def count_points(
    counts: Sequence[int], max_points: int = MAX_CURVE_POINTS
) -> list[dict[str, float]]:
    """The line's points: every step of a short walk, an even sample of a long one.

    >>> count_points([9, 7, 6])
    [{'step': 0.0, 'tokens': 9.0}, {'step': 1.0, 'tokens': 7.0}, {'step': 2.0, 'tokens': 6.0}]
    """
    steps = sampled_steps(len(counts) - 1, max_points)
    return [{STEP.field: float(k), TOKENS.field: float(counts[k])} for k in steps]


def token_count_chart(
    points: Sequence[dict[str, float]], counts: Sequence[int], step: int, height: int = 260
) -> Spec:
    """Tokens after each global merge step, from one per byte down to `encode`'s count, with a
    red mark at `step`.

    `counts[g]` is the token count after g steps; `points` are `count_points(counts)`. Every
    step's point is drawn as stairs, since a count changes only when a merge happens; a sampled
    line is drawn straight between its points. `height` is the element's whole height:
    Streamlit fits the title and the axes in it, and at 180 px the plot itself was 57 px, the
    fall hard to see.
    """
    every_step = len(points) == len(counts)
    spec = marked_curve(
        points, STEP, TOKENS, (step, counts[step]), height=height, zero=True, stepped=every_step
    )
    return {**spec, "title": TITLE}
