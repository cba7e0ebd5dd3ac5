"""What can change an objective's verdict between events: the per-tick shortcut's table.

Most objectives are decided by what the world records as events (a pickup, a death, an
area entered, an alarm) or by states that only change together with such an event (the
player's area, inventory, who is alive). Their judges give the same answer on a tick
with no new events as on the tick before, so the objectives system skips those ticks.
A few kinds also watch the player's position, or the clock and other characters'
positions, which change without events; while one of them is open, the system judges
every tick (or every tick the player moved).

Most events of a fight (shots, reloads, alertness) change nothing an objective reads,
so each verifier class declares in `reads` the event kinds after which its verdict can
differ: the events it scans, and those that come with every change of the state it
re-checks. A tick whose events are all of other kinds counts as a tick with no events.
The tables here are derived from those class facts.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from world.objectives.base import CLOCK, EVENTS, PLAYER, TODO
from world.objectives.outcome import ObjectiveState
from world.objectives.registry import VERIFIERS

__all__ = ["CLOCK", "EVENTS", "PLAYER", "READS", "SYSTEM_READS", "WAKES", "reads", "wakes"]

# Objective kind -> what can change its verdict, target or progress besides events
# (each verifier class declares its `wakes`).
WAKES: MappingProxyType[str, int] = MappingProxyType(
    {kind: verifier.wakes for kind, verifier in VERIFIERS.items()})

# Objective kind -> the event kinds that can change its verdict; None: any event
# (each verifier class declares its `reads`).
READS: MappingProxyType[str, frozenset[str] | None] = MappingProxyType(
    {kind: verifier.reads for kind, verifier in VERIFIERS.items()})

# What the system itself reads on every judgement: readiness (statuses, a note read that
# reveals an objective), the end rules (the player down, the world or a countdown ended,
# the exit area entered).
SYSTEM_READS = frozenset({
    "objective_changed", "note_read", "mission_ended", "episode_ended", "countdown_started",
    "countdown_expired", "actor_down", "area_entered",
})


def reads(states: Iterable[ObjectiveState]) -> frozenset[str] | None:
    """The event kinds that can change a verdict of the open objectives or the end.

    Args:
        states: Every objective's state.

    Returns:
        The union of the open objectives' kinds and the system's own, or None when
        any event can (an open objective of a kind reading every event, or not in
        the table).
    """
    kinds = set(SYSTEM_READS)
    for s in states:
        if s.status != TODO:
            continue
        own = READS.get(s.objective.kind)
        if own is None:
            return None
        kinds |= own
    return frozenset(kinds)


def wakes(states: Iterable[ObjectiveState]) -> int:
    """The strongest trigger among the open objectives (a kind not in the table: CLOCK).

    Args:
        states: Every objective's state.

    Returns:
        EVENTS, PLAYER or CLOCK.
    """
    return max(
        (WAKES.get(s.objective.kind, CLOCK) for s in states if s.status == TODO),
        default=EVENTS,
    )
