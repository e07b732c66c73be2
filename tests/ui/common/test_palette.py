"""Token colours: readable under both themes' text, distinct by id, assigned the documented way."""

import itertools
import math

import pytest

from ui.common import palette

# (page background, text colour) of .streamlit/config.toml's light and dark themes.
THEMES = {
    "light": ((0xFF, 0xFF, 0xFF), (0x1F, 0x23, 0x30)),
    "dark": ((0x12, 0x14, 0x1A), (0xE8, 0xEA, 0xF0)),
}


def _luminance(rgb: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _oklab(rgb: tuple[float, ...]) -> tuple[float, float, float]:
    """Björn Ottosson's OKLab, where distances follow what the eye sees (0.02 is about a step)."""

    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    l_ = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m_ = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s_ = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (
        0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
        1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
        0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_,
    )


def _on(theme: str, tint: tuple[int, int, int, float]) -> tuple[float, ...]:
    """The colour a tint shows over the theme's page."""
    *rgb, alpha = tint
    background, _ = THEMES[theme]
    return tuple(alpha * c + (1 - alpha) * b for c, b in zip(rgb, background, strict=True))


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("tint", palette.tints())
def test_text_on_every_tint_passes_wcag_aa(theme: str, tint: tuple[int, int, int, float]) -> None:
    assert _contrast(_on(theme, tint), THEMES[theme][1]) >= 4.5


@pytest.mark.parametrize("theme", THEMES)
def test_id_colours_are_24_that_tell_apart_on_both_themes(theme: str) -> None:
    shown = [_oklab(_on(theme, tint)) for tint in palette.ID_TINTS]
    page = _oklab(THEMES[theme][0])
    assert len(set(palette.ID_TINTS)) == len(palette.ID_TINTS) >= 24
    assert min(math.dist(a, b) for a, b in itertools.combinations(shown, 2)) > 0.06
    assert min(math.dist(colour, page) for colour in shown) > 0.06  # every tint shows


@pytest.mark.parametrize("tint", palette.tints())
def test_every_colour_stands_lighter_than_the_dark_page(tint: tuple[int, int, int, float]) -> None:
    """A projector keeps lightness and washes out hue: a deep maroon was lost on the dark page."""
    page_lightness = _oklab(THEMES["dark"][0])[0]
    assert _oklab(_on("dark", tint))[0] - page_lightness >= 0.12


def test_colour_by_id_uses_every_id_colour_and_no_position_colour() -> None:
    used = {palette.by_id(i) for i in range(5_000)}
    first_id_class = len(palette.HUES)
    assert used == set(range(first_id_class, first_id_class + len(palette.ID_TINTS)))


def test_adjacent_positions_never_share_a_colour() -> None:
    assert all(palette.by_position(i) != palette.by_position(i + 1) for i in range(100))


def test_same_id_same_colour_and_neighbouring_ids_spread() -> None:
    assert palette.by_id(995) == palette.by_id(995)
    assert len({palette.by_id(i) for i in range(1000, 1024)}) >= 12  # neighbours spread


def test_css_has_one_rule_per_colour_class() -> None:
    css = palette.css_rules(".bpl ")
    assert css.count("{background:rgba(") == len(palette.HUES) + len(palette.ID_TINTS)
    assert ".bpl .c0{" in css
    assert ".bpl .c31{background:rgba(0,191,255,0.45)}" in css
