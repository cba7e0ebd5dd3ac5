"""Where the player knows an objective leads: its shown place, and the sight reports count by.

The structured view shows an objective's `point` only once the player knows that place,
and a report built for the player (`PlayerSight`) counts walkable-distance progress only
toward such places (issue 34): both read `objective_place`, so what the view shows and
what the progress figure counts cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable

from world.level.model import Objective
from world.objectives.route import PLACE_AREA, PLACE_OBJECTIVE, Place
from world.objectives.system import ObjectivesSystem, revealed
from world.observe.knowledge import Knowledge
from world.sim.items import look_alikes
from world.sim.world import World

Point3 = tuple[float, float, float]


def area_of_point(world: World, point: tuple[float, ...]) -> str | None:
    """The area at a 3D point: on the storey whose floor height is nearest the point's."""
    storeys = world.level.storeys
    storey = storeys[0] if len(storeys) == 1 else min(
        storeys, key=lambda s: (abs(s.y - point[1]), s.id))
    return world.area_at(point[0], point[2], storey.id)


def objective_place(world: World, obj: Objective, known: Knowledge) -> Point3 | None:
    """The fixed place an open objective leads to next, if the player knows it.

    Its judge's target (an object's spot, an area, the next waypoint), or None where
    there is none, where the player does not know that place yet (its area, or the thing
    it names), or knows the thing gone from it (seen taken: where it went is not known).
    A thing taken unseen still lies where it was seen, as far as the player knows.

    Args:
        world: The world now (its objectives system installed).
        obj: The objective.
        known: The player's knowledge.

    Returns:
        (x, y, z), or None.
    """
    judge = world.judge
    state = judge.states.get(obj.id) if isinstance(judge, ObjectivesSystem) else None
    if state is None or state.status != "todo":
        return None
    if obj.object and (obj.object not in known.objects or obj.object in known.gone):
        return None
    if not revealed(world, obj) or (obj.object and obj.object in look_alikes(world.level)):
        # Not known of yet; or one of look-alikes, whose spot would say which is real.
        return None
    if obj.characters and not any(c in known.characters for c in obj.characters):
        return None
    point: Point3 | None = state.verifier.target(world)
    if point is None or area_of_point(world, point) not in known.areas:
        return None
    return point


class PlayerSight:
    """The places the player has located, as `world.objectives.route.Sight` asks."""

    def __init__(self, world: World, known: Knowledge) -> None:
        """Read the player's knowledge of one episode's world."""
        self.world = world
        self.known = known
        # Place kind -> whether the player has located one of that kind.
        self._located: dict[str, Callable[[str], bool]] = {
            PLACE_OBJECTIVE: self._objective,
            PLACE_AREA: lambda area: area in self.known.areas,
        }

    def located(self, place: Place) -> bool:
        """Whether the player knows where a place is (an objective's, or an area)."""
        kind, ident = place
        return self._located[kind](ident)

    def _objective(self, objective_id: str) -> bool:
        obj = self.world.level.objective(objective_id)
        return objective_place(self.world, obj, self.known) is not None
