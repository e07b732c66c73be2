"""How busy this server process is, so live text boxes can pace themselves when a class types.

A live box sends its text on every keystroke while the text is short (ui/common/live_text.py):
one user gets tokens at typing speed. A class typing at once asks for more script runs than one
process can make (each costs milliseconds of Streamlit's own work, under one GIL), and every run
then waits in a queue. So the server measures its own CPU use, and when a class keeps it busy
the boxes send at most one text per *pace*: fewer, fresher runs, each served at once.

Only a class is paced: one user alone, however fast, never queues behind anyone, so below
`CLASS_SIZE` sessions active in the last `ACTIVE_S` seconds the pace is nothing.

>>> [pace_ms(u, CLASS_SIZE) for u in (0.2, 0.25, 0.425, 0.6, 1.5)]
[0, 0, 1000, 2000, 2000]
>>> pace_ms(1.0, 1)  # one user alone
0
"""

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ui.common.limits import ACTIVE_S, BUSY_FROM, BUSY_FULL, CLASS_SIZE, MAX_PACE_MS

WINDOW_S = 1.0  # how often the CPU use is re-read: long enough to mean something, short to react
SMOOTHING = 0.3  # the weight of the latest window in the figure


def pace_ms(utilisation: float, active: int) -> int:
    """The least time between two sends of a live box, for a process using `utilisation` of a
    core with `active` sessions: nothing up to `BUSY_FROM` (or for fewer than `CLASS_SIZE`
    sessions), then growing to `MAX_PACE_MS` at `BUSY_FULL`."""
    if active < CLASS_SIZE:
        return 0
    busy = (utilisation - BUSY_FROM) / (BUSY_FULL - BUSY_FROM)
    return round(MAX_PACE_MS * min(1.0, max(0.0, busy)))


@dataclass
class LoadMeter:
    """This process's CPU time over wall time, re-read at most every `WINDOW_S`, and the
    sessions that asked lately.

    The CPU figure is smoothed (`SMOOTHING` of the last window, the rest from the ones before),
    so one slow run does not pace a class, and the pace does not swing back and forth: a pace
    that fell to nothing at once would let a whole class send in the same second.
    """

    wall: Callable[[], float] = time.monotonic
    cpu: Callable[[], float] = time.process_time  # every thread of the process
    utilisation: float = 0.0
    _since: tuple[float, float] | None = None
    _seen: dict[str, float] = field(default_factory=dict)  # session -> when it last asked
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self, session: str) -> tuple[float, int]:
        """The smoothed share of one core this process used lately (0 idle, about 1
        saturated), and how many sessions were active, `session` (asking now) included."""
        with self._lock:
            now = (self.wall(), self.cpu())
            self._seen[session] = now[0]
            if self._since is None:
                self._since = now
            elapsed = now[0] - self._since[0]
            if elapsed >= WINDOW_S:
                latest = (now[1] - self._since[1]) / elapsed
                self.utilisation += SMOOTHING * (latest - self.utilisation)
                self._since = now
                self._seen = {s: t for s, t in self._seen.items() if now[0] - t <= ACTIVE_S}
            return self.utilisation, len(self._seen)


METER = LoadMeter()


def current_pace_ms(session: str) -> int:
    """The pace live boxes of `session` (any id that stays the same for a session) keep now."""
    return pace_ms(*METER.read(session))
