"""A match's wall clock: every player due at a moment asked at once, messages on a schedule.

What an agent can measure is the wall time between the messages it gets and its own
lines. In a match that time would also hold the other agents' thinking (game time stands
still while anyone decides), so an agent could tell from its clock that another player
decided meanwhile and how long it took. Two rules close it (PROTOCOL.md, "Matches"):

- Every player whose decision is due at the same moment (the start, or actions that
  ended on the same tick) is sent its observation at once and thinks while the others
  do; the decisions are then played in player order, as before. (A player's
  observation is its own view of the moment its action ended, which no other player's
  decision at that moment changes.) A line that comes while another is awaited or a
  message is held is kept with the time it came.
- With a pace (`--turn-pace MS_PER_TICK`, `--turn-floor MS`) game time keeps a fixed
  wall-clock schedule: a message of game tick T goes out no earlier than
  `start + floor + ms_per_tick * T`, the start being the moment every hello was read.
  An agent knows T and, from its first observation, the start, so the times it
  measures are the schedule and its own thinking, nothing else. When the others'
  thinking and the harness's work do not fit in the schedule (an overrun), the message
  goes out as soon as it can and the record's end line counts the overruns per player.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.agent.pacing import Pace, Pacer
from harness.agent.process import ChannelEvent, Timeout
from harness.core.messages import ObservationMessage

# How often the other asked agents' pipes are looked at while one agent's line is awaited.
POLL_S = 0.005


@dataclass
class SeatClock:
    """One seat's timing: its pacer, the match's start, an observation out unanswered.

    Attributes:
        pace: The schedule its messages keep (an unpaced clock never waits).
        start: When every hello had been read (the schedule's origin); None before.
        asked: The observation sent and not yet answered, or None.
        t_sent: When that observation went out.
        extra: Extra lines drained before it was sent.
        early: A line (or end of stream) that came while another seat was awaited, and
            when it came.
    """

    pace: Pace = field(default_factory=Pace)
    start: float | None = None
    asked: ObservationMessage | None = None
    t_sent: float = 0.0
    extra: int = 0
    early: tuple[ChannelEvent, float] | None = None
    pacer: Pacer = field(init=False)
    _others: Sequence[tuple[Any, SeatClock]] = ()

    def __post_init__(self) -> None:
        self.pacer = Pacer(self.pace, sleep=self._nap)

    def _nap(self, seconds: float) -> None:
        # While a message is held, the lines of the seats already asked are kept with the
        # time they came, as while a line is awaited.
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            keep_early_lines(self._others)
            time.sleep(min(left, POLL_S))

    def due(self, tick: int) -> float:
        """When its message of game tick `tick` may go out (0: at once)."""
        if self.start is None or not self.pace.on:
            return 0.0
        return self.start + self.pace.delay_s(tick)

    def release(self, tick: int, others: Sequence[tuple[Any, SeatClock]] = (),
                after: float | None = None) -> None:
        """Hold its message of game tick `tick` until the schedule's time for that tick.

        Args:
            tick: The game tick now.
            others: The seats asked already and not yet answered (their lines are kept).
            after: When another seat's message was due that has just gone out: one due
                no later goes out with it, on time.
        """
        if self.start is not None and self.pace.on and after is not None and (
                self.due(tick) <= after):
            self.pacer.released += 1
            return
        if self.start is not None:
            self.pacer.arm(self.start, tick)  # as if one line at the start, then `tick` ticks
        self._others = others
        try:
            self.pacer.hold()
        finally:
            self._others = ()


def await_line(proc: Any, clock: SeatClock, deadline: float,
               others: Sequence[tuple[Any, SeatClock]] = ()) -> tuple[ChannelEvent, float]:
    """A seat's next line and when it came; the other asked seats' lines are kept meanwhile.

    Args:
        proc: The seat's agent process (or a channel like it).
        clock: Its clock (a line kept earlier is taken from it).
        deadline: The `time.monotonic()` time to give up.
        others: The other seats asked at this moment and not yet answered.
    """
    if clock.early is not None:
        early, clock.early = clock.early, None
        return early
    while True:
        event = proc.read_line(min(deadline, time.monotonic() + POLL_S) if others else deadline)
        now = time.monotonic()
        if not isinstance(event, Timeout) or now >= deadline:
            return event, now
        keep_early_lines(others)


def keep_early_lines(others: Sequence[tuple[Any, SeatClock]]) -> None:
    """Keep each asked seat's line that has come (with when it came), without waiting."""
    for other, theirs in others:
        if theirs.early is None and theirs.asked is not None:
            got = other.read_line(time.monotonic())
            if not isinstance(got, Timeout):
                theirs.early = (got, time.monotonic())
