"""Alarms: alert the hostiles of the level (or of a zone) and bring reinforcements.

Whether an alarm sounds is the world's object state (cameras and guards raise it; using
the alarm box or a panel that targets it switches it off). This module reacts to it:
when an alarm starts sounding every hostile in its zone is alerted toward the player,
and while it sounds a reinforcement appears at its spawn points every interval, up to
the level's count times the difficulty's multiplier. Shooting the alarm box to pieces
silences it for good.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.characters.tuning import Tuning
from world.level.model import given
from world.sim.clock import seconds_to_ticks

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem
    from world.sim.world import World

DEFAULT_INTERVAL_S = 10.0


@dataclass(eq=False)
class AlarmState:
    """Runtime state of one alarm, beside the world's own `active` flag.

    Attributes:
        id: The alarm object's id.
        limit: Reinforcements it may bring in the whole episode (difficulty applied).
        interval: Ticks between reinforcements.
        sounding: Whether it was sounding at the last update.
        spawned: Reinforcements brought so far.
        next_spawn: Tick of the next reinforcement while sounding.
    """

    id: str
    limit: int
    interval: int
    sounding: bool = False
    spawned: int = 0
    next_spawn: int = 0

    def state_items(self) -> tuple:
        """The alarm's state for the state hash."""
        return (self.id, self.sounding, self.spawned, self.next_spawn)


class Alarms:
    """Every alarm of a level."""

    def __init__(self, world: World, tuning: Tuning) -> None:
        """Index the level's alarms.

        Args:
            world: The world.
            tuning: The difficulty's tuning (reinforcement multiplier).
        """
        self.states: list[AlarmState] = []
        for spec in sorted(world.level.objects, key=lambda o: o.id):
            if spec.kind != "alarm":
                continue
            can_spawn = spec.reinforcement is not None and spec.spawn_points
            limit = tuning.scaled_count(spec.reinforcement_count or 0) if can_spawn else 0
            interval = seconds_to_ticks(spec.reinforcement_interval_s or DEFAULT_INTERVAL_S)
            self.states.append(AlarmState(spec.id, limit, max(1, interval)))

    def update(self, sys: CharactersSystem, world: World) -> None:
        """Follow each alarm's state; alert hostiles; bring reinforcements while it sounds."""
        for alarm in self.states:
            obj = world.objects[alarm.id]
            if obj.broken and obj.active:
                world.items.set_alarm(alarm.id, False, None)
            if obj.active and not alarm.sounding:
                alarm.sounding = True
                alarm.next_spawn = world.tick + alarm.interval
                sys.alert_zone(obj.spec.zone, world.player.position)
            elif not obj.active and alarm.sounding:
                alarm.sounding = False
            if alarm.sounding and alarm.spawned < alarm.limit and world.tick >= alarm.next_spawn:
                self._reinforce(sys, world, alarm)
                alarm.next_spawn = world.tick + alarm.interval

    def on_broken(self, world: World, object_id: str, by: str | None) -> None:
        """An object was shot to pieces: if it is a sounding alarm, it falls silent."""
        obj = world.objects.get(object_id)
        if obj is not None and obj.kind == "alarm" and obj.active:
            world.items.set_alarm(object_id, False, by)

    def _reinforce(self, sys: CharactersSystem, world: World, alarm: AlarmState) -> None:
        spec = world.level.object(alarm.id)
        point = spec.spawn_points[alarm.spawned % len(spec.spawn_points)]
        alarm.spawned += 1
        actor_id = f"{alarm.id}_reinforcement_{alarm.spawned}"
        actor = sys.spawn_at(actor_id, given(spec.reinforcement, spec.id, "reinforcement"),
                             point, world.player.position)
        if actor is not None:
            world.emit("reinforcement_spawned", actor_id, alarm.id, detail=point)

    def sounding(self) -> tuple[str, ...]:
        """Ids of the alarms sounding now."""
        return tuple(a.id for a in self.states if a.sounding)

    def state_items(self) -> tuple:
        """Every alarm's state for the state hash."""
        return tuple(a.state_items() for a in self.states)
