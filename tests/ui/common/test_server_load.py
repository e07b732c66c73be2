"""The server's pace for live boxes: nothing while idle, more as the process nears a core."""

from hypothesis import given
from hypothesis import strategies as st

from ui.common.limits import ACTIVE_S, BUSY_FROM, BUSY_FULL, CLASS_SIZE, MAX_PACE_MS
from ui.common.server_load import (
    SMOOTHING,
    WINDOW_S,
    LoadMeter,
    pace_ms,
)


@given(st.floats(0, 4), st.floats(0, 4), st.integers(0, 200))
def test_pace_grows_with_load_within_its_bounds(low: float, high: float, active: int) -> None:
    low, high = sorted((low, high))
    assert 0 <= pace_ms(low, active) <= pace_ms(high, active) <= MAX_PACE_MS


def test_idle_paces_nothing_and_a_busy_class_most() -> None:
    assert pace_ms(BUSY_FROM, CLASS_SIZE) == 0
    assert pace_ms(BUSY_FULL, CLASS_SIZE) == MAX_PACE_MS


def test_one_user_alone_is_never_paced() -> None:
    assert pace_ms(BUSY_FULL, CLASS_SIZE - 1) == 0


class Clock:
    """Wall and CPU time the test moves by hand."""

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0


def meter(clock: Clock) -> LoadMeter:
    return LoadMeter(wall=lambda: clock.wall, cpu=lambda: clock.cpu)


def test_the_meter_reads_cpu_over_wall_time_once_a_window_has_passed() -> None:
    clock = Clock()
    load = meter(clock)
    assert load.read("a") == (0.0, 1)
    clock.wall, clock.cpu = WINDOW_S / 2, WINDOW_S / 2
    assert load.read("a") == (0.0, 1)  # not a whole window yet: the last figure stands
    clock.wall, clock.cpu = WINDOW_S * 2, WINDOW_S * 2  # a full core for two windows
    first, _ = load.read("a")
    assert first == SMOOTHING  # the new window weighs SMOOTHING, the old figure (0) the rest
    clock.wall += WINDOW_S
    clock.cpu += WINDOW_S
    assert first < load.read("a")[0] < 1.0


def test_an_idle_window_brings_the_figure_down() -> None:
    clock = Clock()
    load = meter(clock)
    load.read("a")
    clock.wall = clock.cpu = WINDOW_S
    busy, _ = load.read("a")
    clock.wall += WINDOW_S  # no CPU used
    assert load.read("a")[0] == busy * (1 - SMOOTHING)


def test_sessions_count_while_they_are_active() -> None:
    clock = Clock()
    load = meter(clock)
    for name in "abc":
        load.read(name)
    assert load.read("a")[1] == 3
    clock.wall = ACTIVE_S + WINDOW_S  # b and c fell silent; a asks again
    assert load.read("a")[1] == 1
