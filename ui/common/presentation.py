"""Presentation mode: a page on one screen for a projector at the back of a classroom.

A presenting page draws `style` once in its run: a page-wide style sheet that hides the sidebar,
header and toolbar, takes the full width and sets the text in pure black on white (white on
black in the dark theme), then the page's own sheet, which lays out its one screen. Merges
presents a text's merges; Train a training's replay.
"""

from pathlib import Path

_COMMON = Path(__file__).with_name("presentation.css").read_text(encoding="utf-8")

TOGGLE_HELP = "One screen for a projector: large type, no sidebar, high contrast."


def style(page_css: str, *, dark: bool) -> str:
    """The ``<style>`` of a presenting page: the common sheet, then `page_css`, in the contrast
    of the theme (`dark`); `--present-pick` is the strong highlight of a chosen pair.

    >>> "--present-fg:#ffffff" in style("", dark=True)
    True
    """
    fg, bg, pick = ("#ffffff", "#000000", "#9a5c00") if dark else ("#000000", "#ffffff", "#ffc24d")
    colours = f":root{{--present-fg:{fg};--present-bg:{bg};--present-pick:{pick}}}"
    return f"<style>{colours}{_COMMON}{page_css}</style>"
