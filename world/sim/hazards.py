"""Hazard volumes that drain or kill, and level-wide countdowns that end the world."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.errors import UnknownIdError
from world.sim.clock import TICKS_PER_SECOND, seconds_to_ticks
from world.sim.layout import point_in_polygon

if TYPE_CHECKING:
    from world.sim.world import World


@dataclass(eq=False)
class HazardRuntime:
    """One hazard with a bounding box and the actors standing in it."""

    id: str
    storey: str
    ring: tuple
    box: tuple[float, float, float, float]
    drain_per_tick: float
    kills: bool
    inside: set[str]

    def contains(self, x: float, z: float) -> bool:
        """Whether a ground point is inside the hazard."""
        x0, z0, x1, z1 = self.box
        return x0 <= x <= x1 and z0 <= z <= z1 and point_in_polygon(x, z, self.ring)


@dataclass(eq=False)
class CountdownRuntime:
    """One countdown: when it started and when it runs out."""

    id: str
    seconds: float
    started: int | None = None
    expires: int | None = None
    expired: bool = False

    def remaining_s(self, tick: int) -> float | None:
        """Seconds left, or None while it has not started."""
        if self.expires is None:
            return None
        return max(0, self.expires - tick) / TICKS_PER_SECOND


class Hazards:
    """Hazard volumes and countdowns of one world."""

    def __init__(self, world: World) -> None:
        """Index hazards by storey and start the countdowns that run from the beginning."""
        self.world = world
        self.hazards: dict[str, HazardRuntime] = {}
        for h in sorted(world.level.hazards, key=lambda h: h.id):
            xs = [p[0] for p in h.polygon]
            zs = [p[1] for p in h.polygon]
            self.hazards[h.id] = HazardRuntime(
                h.id, h.storey, h.polygon, (min(xs), min(zs), max(xs), max(zs)),
                h.damage_per_s / TICKS_PER_SECOND, h.kills, set(),
            )
        self._by_storey: dict[str, list[HazardRuntime]] = {}
        for live in self.hazards.values():
            self._by_storey.setdefault(live.storey, []).append(live)
        self.countdowns = {
            c.id: CountdownRuntime(c.id, c.seconds)
            for c in sorted(world.level.countdowns, key=lambda c: c.id)
        }
        self._running: list[CountdownRuntime] = []
        for c in world.level.countdowns:
            if c.starts_after is None:
                self.start_countdown(c.id)

    def start_countdown(self, countdown_id: str) -> None:
        """Start a countdown now (objectives call this when its objective is done).

        Raises:
            UnknownIdError: if the level has no such countdown.
        """
        if countdown_id not in self.countdowns:
            raise UnknownIdError("countdown", countdown_id, sorted(self.countdowns))
        c = self.countdowns[countdown_id]
        if c.started is not None:
            return
        c.started = self.world.tick
        c.expires = self.world.tick + seconds_to_ticks(c.seconds)
        self.world.emit("countdown_started", countdown_id, amount=c.seconds)
        self._running = [c for c in self.countdowns.values() if c.started is not None]

    def update(self) -> None:
        """Drain or kill actors in hazards; expire countdowns whose time ran out."""
        world = self.world
        if self._by_storey:
            for actor in world.all_actors():
                if not actor.alive:
                    continue
                for h in self._by_storey.get(actor.storey, ()):
                    if h.contains(actor.x, actor.z):
                        if actor.id not in h.inside:
                            h.inside.add(actor.id)
                            world.emit("hazard_entered", actor.id, h.id)
                            if h.kills:
                                world.combat.down(actor, h.id)
                                break
                        if h.drain_per_tick > 0.0:
                            world.combat.damage(actor, h.drain_per_tick, h.id, through_armour=True)
                            if not actor.alive:
                                break
                    else:
                        h.inside.discard(actor.id)
        for c in self._running:
            if not c.expired and c.expires is not None and world.tick >= c.expires:
                c.expired = True
                world.emit("countdown_expired", c.id)
                world.end("countdown_expired")

    def state_items(self) -> tuple:
        """Hazard occupancy and countdown timing for the state hash."""
        return (
            tuple((h.id, tuple(sorted(h.inside))) for h in self.hazards.values()),
            tuple((c.id, c.started, c.expires, c.expired) for c in self.countdowns.values()),
        )
