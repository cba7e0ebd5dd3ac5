"""Turn pacing: the next message goes out no earlier than a time the agent can compute (34).

The harness's own time per turn grows with what the world simulates, seen or not (every
character ticks, in view or not), so the gap between an agent's action and the next
observation tells how busy the unseen world is. With a pace, the message that follows an
agent's line (the first observation after the hello, each next observation, the
summary) is held until `read + floor + ms_per_tick * ticks`: the moment the line was
read, plus a fixed floor, plus a time per game tick the action took. The agent knows
all of these (it learns the ticks from the next observation), so whenever the harness
finished within that time the gap it measures carries nothing else. When the harness
takes longer (an overrun) the message goes out at once, and the record's end line
counts the overruns, so an operator sees whether the pace held.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Longest single sleep: a stop signal is noted, not raised, while the episode holds a
# message, so the wait looks for it this often.
_SLICE_S = 0.1


@dataclass(frozen=True)
class Pace:
    """How long a turn lasts at least, in wall milliseconds.

    Attributes:
        ms_per_tick: Milliseconds per game tick the action took.
        floor_ms: Milliseconds every turn lasts at least, whatever its ticks.
    """

    ms_per_tick: float = 0.0
    floor_ms: float = 0.0

    @property
    def on(self) -> bool:
        """Whether any pacing is asked for."""
        return self.ms_per_tick > 0 or self.floor_ms > 0

    def delay_s(self, ticks: int) -> float:
        """Wall seconds from reading a line to releasing the next message, for `ticks`."""
        return (self.floor_ms + self.ms_per_tick * max(0, ticks)) / 1000.0


class Pacer:
    """Holds each message until its release time; counts the releases the harness overran.

    Args:
        pace: The pace; an unpaced Pacer (`pace.on` false) never waits and counts nothing.
        clock: The monotonic clock (`time.monotonic`; a test may pass its own).
        sleep: How to wait (`time.sleep`).
        stopped: Whether the harness was asked to stop; the wait ends early then.
    """

    def __init__(self, pace: Pace, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 stopped: Callable[[], bool] = lambda: False) -> None:
        self.pace, self._clock, self._sleep, self._stopped = pace, clock, sleep, stopped
        self._due: float | None = None
        self.released = 0
        self.overruns = 0
        self.worst_overrun_s = 0.0

    def arm(self, read_at: float, ticks: int) -> None:
        """The agent's line was read at `read_at` and its action took `ticks` game ticks."""
        if self.pace.on:
            self._due = read_at + self.pace.delay_s(ticks)

    def hold(self) -> float:
        """Wait until the armed release time (if any) and return the seconds waited.

        Called just before the message is sent, once everything it needs is built.
        Without an armed time (pacing off, or no line was read) it returns 0 at once;
        a stop asked for while waiting ends the wait.
        """
        due, self._due = self._due, None
        if due is None:
            return 0.0
        self.released += 1
        start = self._clock()
        if start >= due:
            self.overruns += 1
            self.worst_overrun_s = max(self.worst_overrun_s, start - due)
            return 0.0
        now = start
        while now < due and not self._stopped():
            self._sleep(min(due - now, _SLICE_S))
            now = self._clock()
        return now - start

    def summary(self) -> dict[str, Any] | None:
        """The end line's `pace` block, or None when pacing is off."""
        if not self.pace.on:
            return None
        return {"ms_per_tick": self.pace.ms_per_tick, "floor_ms": self.pace.floor_ms,
                "released": self.released, "overruns": self.overruns,
                "worst_overrun_ms": round(self.worst_overrun_s * 1000, 3)}
