"""The server's pace for live boxes: nothing while idle, more as the process nears a core."""

from hypothesis import given
from hypothesis import strategies as st

from ui.common.limits import BUSY_FROM, BUSY_FULL, MAX_PACE_MS
from ui.common.server_load import SMOOTHING, WINDOW_S, LoadMeter, pace_ms


@given(st.floats(0, 4), st.floats(0, 4))
def test_pace_grows_with_load_within_its_bounds(low: float, high: float) -> None:
    low, high = sorted((low, high))
    assert 0 <= pace_ms(low) <= pace_ms(high) <= MAX_PACE_MS


def test_idle_paces_nothing_and_a_full_core_paces_most() -> None:
    assert pace_ms(BUSY_FROM) == 0
    assert pace_ms(BUSY_FULL) == MAX_PACE_MS


class Clock:
    """Wall and CPU time the test moves by hand."""

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0


def meter(clock: Clock) -> LoadMeter:
    return LoadMeter(wall=lambda: clock.wall, cpu=lambda: clock.cpu)


def test_the_meter_reads_cpu_over_wall_time_once_a_window_has_passed() -> None:
    clock = Clock()
    load = meter(clock)
    assert load.read() == 0.0
    clock.wall, clock.cpu = WINDOW_S / 2, WINDOW_S / 2
    assert load.read() == 0.0  # not a whole window yet: the last figure stands
    clock.wall, clock.cpu = WINDOW_S * 2, WINDOW_S * 2  # a full core for two windows
    first = load.read()
    assert first == SMOOTHING  # the new window weighs SMOOTHING, the old figure (0) the rest
    clock.wall += WINDOW_S
    clock.cpu += WINDOW_S
    assert first < load.read() < 1.0


def test_an_idle_window_brings_the_figure_down() -> None:
    clock = Clock()
    load = meter(clock)
    load.read()
    clock.wall = clock.cpu = WINDOW_S
    busy = load.read()
    clock.wall += WINDOW_S  # no CPU used
    assert load.read() == busy * (1 - SMOOTHING)
