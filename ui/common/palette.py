"""Token colours that read in both themes, and the two ways of assigning them.

Every colour is a translucent tint: over a white page it becomes a pastel under dark text, over a
dark page a deep tint under light text, so one palette serves both themes and the theme's own
text colour always stays on top (tests/ui/common/test_palette.py checks the contrast on both).

Two sets, one CSS class each (``.c0`` ...):

- `HUES`, classes ``c0``-``c7``: eight hues far apart, for colouring by position (neighbours
  only have to differ) and for charts, which take the plain hue.
- `ID_TINTS`, classes ``c8``-``c31``: 24 tints for colouring by token id, where any two tokens
  of a text may meet, so every pair must tell apart. They were picked from a grid of OKLCH
  colours and five opacities, keeping those that leave the theme's text at 5:1 or more on both
  backgrounds, then taking each next tint as far as possible (in OKLab, on the worse of the two
  themes) from those already taken. Their smallest pairwise OKLab distance is about 0.068 on both
  themes, some three times what an eye tells apart (the test holds it above 0.06).

On the dark page every colour is at least 0.12 lighter (OKLab L) than the page: a projector
keeps lightness and washes out hue, and three deep tints (maroon, red, teal) and the purple hue
were lost against the page there, a token's edges with them.
"""

# (red, green, blue) of each hue; neighbours in this order are far apart on the colour wheel, so
# colouring by position never puts two similar hues side by side.
HUES: tuple[tuple[int, int, int], ...] = (
    (66, 133, 244),  # blue
    (244, 160, 0),  # amber
    (52, 168, 83),  # green
    (234, 67, 53),  # red
    (176, 80, 200),  # purple
    (0, 172, 193),  # teal
    (255, 112, 67),  # orange
    (124, 179, 66),  # lime
)
ALPHA = 0.30  # opacity of the position hues

# (red, green, blue, opacity) of each colour-by-id tint, most distinct first.
ID_TINTS: tuple[tuple[int, int, int, float], ...] = (
    (238, 86, 12, 0.65),
    (0, 113, 223, 0.65),
    (11, 139, 0, 0.65),
    (61, 116, 109, 0.35),
    (173, 54, 167, 0.65),
    (44, 128, 124, 0.55),
    (255, 187, 0, 0.35),
    (208, 18, 111, 0.35),
    (145, 114, 254, 0.65),
    (119, 75, 0, 0.55),
    (255, 148, 246, 0.25),
    (204, 36, 61, 0.65),
    (145, 114, 254, 0.45),
    (0, 113, 223, 0.45),
    (71, 133, 0, 0.45),
    (240, 144, 128, 0.45),
    (0, 179, 148, 0.55),
    (238, 74, 115, 0.65),
    (233, 94, 0, 0.45),
    (90, 48, 185, 0.55),
    (193, 129, 0, 0.65),
    (207, 87, 200, 0.65),
    (151, 128, 180, 0.65),
    (0, 191, 255, 0.45),
)


def tints() -> tuple[tuple[int, int, int, float], ...]:
    """Every colour class in order: ``tints()[k]`` is the (r, g, b, opacity) of ``.c{k}``."""
    return tuple((r, g, b, ALPHA) for r, g, b in HUES) + ID_TINTS


def css_rules(selector_prefix: str) -> str:
    """One CSS rule per colour class: ``{prefix}.c0{background:rgba(...)}`` and so on."""
    return "".join(
        f"{selector_prefix}.c{k}{{background:rgba({r},{g},{b},{alpha})}}"
        for k, (r, g, b, alpha) in enumerate(tints())
    )


def by_position(index: int) -> int:
    """Colour of the token at `index`: adjacent tokens always differ (``by_position(9) -> 1``)."""
    return index % len(HUES)


def by_id(token_id: int) -> int:
    """Colour class of a token id (``c8``-``c31``): the same id always gets the same colour, so
    repeats stand out.

    Knuth's multiplicative hash spreads neighbouring ids (a word and its capitalised twin often
    have close ids) over different colours.
    """
    return len(HUES) + (((token_id * 2654435761) & 0xFFFFFFFF) >> 16) % len(ID_TINTS)


def css_colour(rgb: tuple[int, int, int]) -> str:
    """A palette hue as a colour string both CSS and Vega read: ``css_colour((1, 2, 3)) ==
    "#010203"``. Charts and diffs on every page use it, so all pages share one palette."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)
