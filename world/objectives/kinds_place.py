"""Verifiers for objectives about places and things: areas, items, objects, secrets.

Partial credit for acts done at an object (collect, use, gadget) is the approach share
times the route progress toward the object: getting there is half the job, the act
is the other half and only the act completes the objective.
"""

from __future__ import annotations

from collections.abc import Sequence

from world.level.model import Objective
from world.objectives.base import (
    DONE,
    EVENTS,
    FAILED,
    PLAYER,
    Point3,
    Verifier,
    WorldView,
    clamp01,
    position,
)
from world.objectives.route import PLACE_OBJECTIVE, RouteMeter, area_anchor, object_point
from world.sim.actors import PLAYER_ID
from world.sim.events import Event
from world.sim.items import PICKUP_KINDS

# Share of an object objective's credit earned by walking up to the object.
APPROACH_SHARE = 0.5


class ReachArea(Verifier):
    """Judge of `reach_area` objectives; `description` says what finishes one."""

    kind = "reach_area"
    wakes = EVENTS
    reads = frozenset({"area_entered"})
    description = "Be inside an area: done on any tick the player stands in it while ready."

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.area = objective.area or ""
        self.meter = RouteMeter(area_anchor(world.level, self.area), position(world.player),
                                (PLACE_OBJECTIVE, objective.id))

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Done while ready and the player's area is the target (re-checked state)."""
        return DONE if ready and world.player.area == self.area else None

    def progress(self, world: WorldView) -> float:
        """Route progress from the player's start toward the area."""
        return self.meter.progress(world, position(world.player))

    def target(self, world: WorldView) -> Point3 | None:
        """An interior point of the area."""
        return self.meter.goal


class _AtObject(Verifier):
    """Shared part of objectives done at one placed object."""

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.object = objective.object or ""
        spot = object_point(world.level, self.object)
        self.meter = None if spot is None else RouteMeter(
            spot, position(world.player), (PLACE_OBJECTIVE, objective.id))

    def progress(self, world: WorldView) -> float:
        """The approach share of the route progress toward the object."""
        if self.meter is None:
            return 0.0
        return APPROACH_SHARE * self.meter.progress(world, position(world.player))

    def target(self, world: WorldView) -> Point3 | None:
        """Where the object stands."""
        return None if self.meter is None else self.meter.goal


class CollectItem(_AtObject):
    """Judge of `collect_item` objectives; `description` says what finishes one.

    The pickup counts on its own so that an item consumed on pickup or used up later
    (a key spent on its lock) still completes an objective that was ready for it.
    """

    kind = "collect_item"
    object_kinds = PICKUP_KINDS
    wakes = EVENTS
    reads = frozenset({"item_picked_up"})
    description = ("Hold an item: the inventory is re-checked, and a pickup while ready "
                   "also counts. Taking one of its decoys (`decoy_of`), ready or not, "
                   "fails it.")

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.decoys = frozenset(o.id for o in world.level.objects
                                if o.decoy_of == self.object)

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Failed on taking a decoy; done while ready and the item is held or taken."""
        if self.decoys and any(e.kind == "item_picked_up" and e.subject == PLAYER_ID
                               and e.other in self.decoys for e in events):
            return FAILED
        if not ready:
            return None
        if self.object in world.player.inventory:
            return DONE
        picked = any(
            e.kind == "item_picked_up" and e.subject == PLAYER_ID and e.other == self.object
            for e in events
        )
        return DONE if picked else None


class UseObject(_AtObject):
    """Judge of `use_object` objectives; `description` says what finishes one."""

    kind = "use_object"
    object_kinds = frozenset({"panel", "switch", "computer", "secret_trigger", "alarm"})
    wakes = EVENTS
    reads = frozenset({"object_used"})
    description = "Press use on an object: a one-off act that counts only while ready."

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Done on a press by the player on the object while ready."""
        used = any(
            e.kind == "object_used" and e.subject == PLAYER_ID and e.other == self.object
            for e in events
        )
        return DONE if ready and used else None


class GadgetOnObject(_AtObject):
    """Judge of `gadget_on_object` objectives; `description` says what finishes one."""

    kind = "gadget_on_object"
    wakes = EVENTS
    reads = frozenset({"gadget_used"})
    description = "Photograph, copy or plant: use a gadget of the named kind on the object."

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Done on a use of the right gadget kind on the object while ready."""
        used = any(
            e.kind == "gadget_used" and e.subject == PLAYER_ID and e.other == self.object
            and e.detail == self.objective.gadget
            for e in events
        )
        return DONE if ready and used else None


class DestroyObject(Verifier):
    """Judge of `destroy_object` objectives; `description` says what finishes one."""

    kind = "destroy_object"
    wakes = EVENTS
    reads = frozenset({"object_broken", "damage_taken"})
    description = "Break an object: its destruction is a lasting state, so it counts once ready."

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.object = objective.object or ""
        self.health = world.level.object(self.object).health or 0.0
        self.damage = 0.0
        self.broken = False

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Track damage and breaking from events; done once broken and ready."""
        for e in events:
            if e.subject != self.object:
                continue
            if e.kind == "object_broken":
                self.broken = True
            elif e.kind == "damage_taken" and e.amount:
                self.damage += e.amount
        return DONE if ready and self.broken else None

    def progress(self, world: WorldView) -> float:
        """The fraction of the object's health shot away."""
        if self.broken:
            return 1.0
        return clamp01(self.damage / self.health) if self.health > 0 else 0.0

    def steps(self, world: WorldView) -> float:
        """The fraction of the object's health shot away: the object is the target."""
        return self.progress(world)

    def target(self, world: WorldView) -> Point3 | None:
        """Where the object stands."""
        return object_point(world.level, self.object)


class FindSecrets(Verifier):
    """Judge of `find_secrets` objectives; `description` says what finishes one."""

    kind = "find_secrets"
    wakes = EVENTS
    reads = frozenset({"secret_found", "area_entered"})
    description = "Enter at least `count` of the level's secret areas (finds are kept for good)."

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        self.secrets = frozenset(a.id for a in world.level.areas if a.secret)
        self.count = objective.count or 1
        self.found: set[str] = set()

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Note secret areas the player stands in or is told it found; done at count."""
        if world.player.area in self.secrets:
            self.found.add(world.player.area)
        for e in events:
            if e.kind == "secret_found" and e.subject == PLAYER_ID and e.other in self.secrets:
                self.found.add(e.other)
        return DONE if ready and len(self.found) >= self.count else None

    def progress(self, world: WorldView) -> float:
        """Secrets found over the count asked for."""
        return clamp01(len(self.found) / self.count)

    def steps(self, world: WorldView) -> float:
        """Secrets found over the count asked for."""
        return self.progress(world)


class Waypoints(Verifier):
    """Judge of `waypoints` objectives; `description` says what finishes one."""

    kind = "waypoints"
    wakes = PLAYER  # passed by walking within a radius
    reads = None
    description = "Pass points in order, each within `radius` on its storey, while ready."

    def __init__(self, objective: Objective, world: WorldView) -> None:
        super().__init__(objective, world)
        level = world.level
        self.radius = objective.radius or 0.0
        self.points = tuple(
            (p.at[0], p.at[1], level.area(p.area).storey) for p in objective.points
        )
        self.passed = 0

    def observe(self, world: WorldView, events: Sequence[Event], ready: bool) -> str | None:
        """Advance past every next point the player is within radius of; done at the end."""
        if not ready:
            return None
        player = world.player
        while self.passed < len(self.points):
            x, z, storey = self.points[self.passed]
            if storey != player.storey or player.distance_to(x, z) > self.radius:
                break
            self.passed += 1
        return DONE if self.passed == len(self.points) else None

    def progress(self, world: WorldView) -> float:
        """Points passed over points in the list."""
        return clamp01(self.passed / len(self.points))

    def steps(self, world: WorldView) -> float:
        """Points passed over points in the list."""
        return self.progress(world)

    def target(self, world: WorldView) -> Point3 | None:
        """The next point to pass."""
        if self.passed >= len(self.points):
            return None
        x, z, storey = self.points[self.passed]
        return (x, world.level.storey(storey).y, z)
