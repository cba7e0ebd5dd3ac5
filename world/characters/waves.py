"""Waves: characters that arrive at spawn points on the level's schedule.

The whole schedule is laid out when the episode starts (count times the difficulty's
reinforcement multiplier, one character every interval, spawn points taken in turn), so
the update is a pointer walking along a sorted list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.characters.tuning import Tuning
from world.level.model import Wave
from world.sim.clock import seconds_to_ticks

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem
    from world.sim.world import World


@dataclass(frozen=True)
class Arrival:
    """One scheduled character: when, which wave, which one of it, and where."""

    tick: int
    wave: Wave
    number: int
    spawn_point: str


class Waves:
    """The level's waves at this difficulty, as one schedule."""

    def __init__(self, world: World, tuning: Tuning) -> None:
        """Lay out the schedule of every wave that comes at this difficulty.

        Args:
            world: The world.
            tuning: The difficulty's tuning (rank and reinforcement multiplier).
        """
        arrivals = []
        for wave in world.level.waves:
            if world.level.difficulty_rank(wave.min_difficulty) > tuning.rank:
                continue
            for i in range(tuning.scaled_count(wave.count)):
                tick = seconds_to_ticks(wave.at_s + i * wave.interval_s)
                point = wave.spawn_points[i % len(wave.spawn_points)]
                arrivals.append(Arrival(tick, wave, i + 1, point))
        self.schedule = sorted(arrivals, key=lambda a: (a.tick, a.wave.id, a.number))
        self.next = 0

    def update(self, sys: CharactersSystem, world: World) -> None:
        """Bring in every character whose time has come."""
        while self.next < len(self.schedule) and self.schedule[self.next].tick <= world.tick:
            arrival = self.schedule[self.next]
            self.next += 1
            actor_id = f"{arrival.wave.id}_{arrival.number}"
            actor = sys.spawn_at(actor_id, arrival.wave.character, arrival.spawn_point,
                                 world.player.position)
            if actor is not None:
                world.emit("character_spawned", actor_id, arrival.wave.id,
                           detail=arrival.spawn_point)

    def state_items(self) -> tuple:
        """How far along the schedule the episode is."""
        return (self.next,)
