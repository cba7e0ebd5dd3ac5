"""Firing rhythm per character kind: bosses fire in bursts, everyone else at weapon rate.

A boss is a character of kind "boss": the level gives it high health and a heavy
weapon; here it gains a pattern the player can learn: a quick burst, then a pause in
which it is safe to break cover.
"""

from __future__ import annotations

from dataclasses import dataclass

from world.sim.clock import seconds_to_ticks


@dataclass(frozen=True)
class Rhythm:
    """How a kind of character spaces its shots.

    Attributes:
        burst: Shots per burst (1: plain fire at the weapon's rate).
        gap_s: Seconds between shots inside a burst (None: the weapon's own rate).
        pause_s: Seconds of pause after a burst (None: the weapon's own rate).
    """

    burst: int = 1
    gap_s: float | None = None
    pause_s: float | None = None


PLAIN = Rhythm()
# One entry per kind with a pattern of its own; kinds not listed fire plainly.
RHYTHMS: dict[str, Rhythm] = {
    "boss": Rhythm(burst=4, gap_s=0.12, pause_s=1.6),
}


def next_shot_delay(kind: str, shots_per_s: float, burst_left: int) -> tuple[int, int]:
    """Ticks until the next shot and the burst count after a shot was fired.

    Args:
        kind: The shooter's kind.
        shots_per_s: The weapon's rate of fire.
        burst_left: Shots left in the burst before this one was fired.

    Returns:
        (ticks to wait, shots left in the burst afterwards).
    """
    rhythm = RHYTHMS.get(kind, PLAIN)
    plain = max(1, seconds_to_ticks(1.0 / max(shots_per_s, 1e-3)))
    if rhythm.burst <= 1:
        return plain, 0
    left = (burst_left if burst_left > 0 else rhythm.burst) - 1
    if left > 0:
        gap = plain if rhythm.gap_s is None else seconds_to_ticks(rhythm.gap_s)
        return max(1, gap), left
    pause = plain if rhythm.pause_s is None else seconds_to_ticks(rhythm.pause_s)
    return max(1, pause), 0
