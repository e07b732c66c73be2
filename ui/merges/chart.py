"""The line of the whole text's token count falling, merge step by merge step."""

from collections.abc import Sequence

import altair as alt
import pandas as pd


def token_count_chart(counts: Sequence[int], height: int = 260) -> alt.Chart:
    """Tokens after each global merge step: from one per byte down to `encode`'s count.

    `counts[g]` is the token count after g steps. Drawn as steps, since a count only changes
    when a merge happens. `height` is the element's whole height: Streamlit fits the title and
    the axes in it, and at 180 px the plot itself was 57 px, the fall hard to see.
    """
    data = pd.DataFrame({"step": range(len(counts)), "tokens": counts})
    return (
        alt.Chart(data)
        .mark_line(interpolate="step-after", point=len(counts) <= 60)
        .encode(
            x=alt.X(
                "step:Q",
                title="Merge step",
                scale=alt.Scale(domain=[0, max(len(counts) - 1, 1)]),
                axis=alt.Axis(format="d", tickMinStep=1),
            ),
            y=alt.Y("tokens:Q", title="Tokens", scale=alt.Scale(zero=True)),
            tooltip=[alt.Tooltip("step:Q", title="Step"), alt.Tooltip("tokens:Q", title="Tokens")],
        )
        .properties(height=height, title="Tokens in the whole text after each merge step")
    )
