"""How busy this server process is, so live text boxes can pace themselves when a class types.

A live box sends its text on every keystroke while the text is short (ui/common/live_text.py):
one user gets tokens at typing speed. A class typing at once asks for more script runs than one
process can make (each costs a few milliseconds of Streamlit's own work, under one GIL), and
every run then waits in a queue. So the server measures its own CPU use, and when it nears a
full core the boxes send at most one text per *pace* instead: fewer, fresher runs, each served
at once. An idle server paces nothing.

>>> pace_ms(0.3), pace_ms(0.5), pace_ms(0.7), pace_ms(0.9), pace_ms(1.7)
(0, 0, 1000, 2000, 2000)
"""

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ui.common.limits import BUSY_FROM, BUSY_FULL, MAX_PACE_MS

WINDOW_S = 1.0  # how often the CPU use is re-read: long enough to mean something, short to react
SMOOTHING = 0.3  # the weight of the latest window in the figure


def pace_ms(utilisation: float) -> int:
    """The least time between two sends of a live box, for a process using `utilisation` of a
    core: nothing up to `BUSY_FROM`, then growing to `MAX_PACE_MS` at `BUSY_FULL`."""
    busy = (utilisation - BUSY_FROM) / (BUSY_FULL - BUSY_FROM)
    return round(MAX_PACE_MS * min(1.0, max(0.0, busy)))


@dataclass
class LoadMeter:
    """This process's CPU time over wall time, re-read at most every `WINDOW_S`.

    The figure is smoothed (`SMOOTHING` of the last window, the rest from the ones before), so
    one slow run does not pace a class, and the pace it sets does not swing back and forth: a
    pace that fell to nothing at once would let a whole class send in the same second.
    """

    wall: Callable[[], float] = time.monotonic
    cpu: Callable[[], float] = time.process_time  # every thread of the process
    utilisation: float = 0.0
    _since: tuple[float, float] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self) -> float:
        """The smoothed share of one core this process used lately (0 idle, about 1 saturated)."""
        with self._lock:
            now = (self.wall(), self.cpu())
            if self._since is None:
                self._since = now
            elapsed = now[0] - self._since[0]
            if elapsed >= WINDOW_S:
                latest = (now[1] - self._since[1]) / elapsed
                self.utilisation += SMOOTHING * (latest - self.utilisation)
                self._since = now
            return self.utilisation


METER = LoadMeter()


def current_pace_ms() -> int:
    """The pace live boxes should keep now (0: send every keystroke)."""
    return pace_ms(METER.read())
