"""Verifiers for objectives about conduct over time: survive, stay unseen, no alarm.

Stay-unseen and no-alarm are standing conditions: held while nothing breaks them and
judged done only when the mission succeeds with them still held. Being seen is read
from the perception events the characters and cameras emit.
"""

from __future__ import annotations

from collections.abc import Sequence

from world.level.model import Objective
from world.objectives.base import CLOCK, DONE, EVENTS, FAILED, Verifier, WorldView, clamp01
from world.sim.actors import PLAYER_ID
from world.sim.clock import seconds_to_ticks
from world.sim.events import Event

# Event kinds that mean the player has been seen, and whether the event must name the
# player as its `other` to count.
SEEN_BY: dict[str, bool] = {
    "player_spotted": False,  # a character or camera saw the player
    "alarm_raised": True,  # an alarm raised because of the player (a camera's sighting)
}


class Survive(Verifier):
    """Judge of `survive` objectives; `description` says what finishes one.

    Without `after` the clock starts with the episode; with it, on the tick its
    predecessors are all done ("hold out for a minute after the alarm").
    Passive: an agent that stands still while its gun answers attackers may survive.
    """

    kind = "survive"
    wakes = CLOCK  # a timer
    reads = None
    description = "Stay alive for `seconds` of game time, counted from when it becomes ready."
    passive = True

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.need = max(1, seconds_to_ticks(objective.seconds or 0.0))
        self.since: int | None = None
        self.tick = world.tick

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Failed if the player is down first; done once alive for the whole span."""
        self.tick = world.tick
        if not world.player.alive:
            return FAILED
        if not ready:
            return None
        if self.since is None:
            self.since = world.tick
        return DONE if world.tick - self.since >= self.need else None

    def progress(self, world: WorldView) -> float:
        """Time survived so far over the time asked for."""
        if self.since is None:
            return 0.0
        return clamp01((self.tick - self.since) / self.need)

    def steps(self, world: WorldView) -> float:
        """Time survived over the time asked for (a stage only where it is the only work)."""
        return self.progress(world)


class StayUnseen(Verifier):
    """Judge of `stay_unseen` objectives; `description` says what finishes one."""

    kind = "stay_unseen"
    wakes = EVENTS
    reads = frozenset({"player_spotted", "alarm_raised"})
    description = "Never be seen by a hostile or a camera while the objective is ready."

    standing = True

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Failed on the first sighting while ready."""
        if not ready:
            return None
        for e in events:
            needs_player = SEEN_BY.get(e.kind)
            if needs_player is None:
                continue
            if not needs_player or e.other == PLAYER_ID:
                return FAILED
        return None


class NoAlarm(Verifier):
    """Judge of `no_alarm` objectives; `description` says what finishes one."""

    kind = "no_alarm"
    wakes = EVENTS
    reads = frozenset({"alarm_raised"})
    description = "Raise no alarm while the objective is ready (whoever or whatever raised it)."

    standing = True

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Failed on the first alarm raised while ready."""
        if ready and any(e.kind == "alarm_raised" for e in events):
            return FAILED
        return None

