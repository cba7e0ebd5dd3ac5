"""Walking up to a thing (object, door, character) until it is within reach."""

from __future__ import annotations

import math
from collections.abc import Callable, Generator

from world.actions.driver import Finish, Run
from world.actions.follow import HEIGHT_TOLERANCE, Walker, walk
from world.actions.places import (
    Point3,
    Spot,
    door_segment,
    floor_near,
    locate,
    on_floor,
    pathfinder,
    segment_mid,
    segment_normal,
    storey_y,
)
from world.actions.routes import Route, blocked_doors, known_of, plan
from world.sim.world import PlayerIntent, World

# Doors are approached from a point this far in front of their line.
DOOR_STANDOFF = 60.0
# How far from a thing's spot the floor point to walk to may be, as a share of reach.
REACH_SHARE = 0.8

_REACHED = Finish("arrived", "")
# Why an object can no longer be worked on (templates with {target}).
BROKEN_WHY = "{target} is broken"
TAKEN_WHY = "{target} is no longer lying there (it was taken)"


def _door_goal(world: World, door_id: str) -> Point3 | None:
    finder, player = pathfinder(world), world.player
    seg = door_segment(world, door_id)
    (mx, mz), (nx, nz) = segment_mid(seg), segment_normal(seg)
    y = locate(world, door_id).point[1]
    sides = [(mx + nx * DOOR_STANDOFF, y, mz + nz * DOOR_STANDOFF),
             (mx - nx * DOOR_STANDOFF, y, mz - nz * DOOR_STANDOFF)]
    sides.sort(key=lambda p: math.hypot(p[0] - player.x, p[2] - player.z))
    # The side reachable through doors the player can open itself (the walk opens
    # them), so a shut door on the way does not send it to the door's far side.
    blocking = blocked_doors(world, player_opens=True)
    start = on_floor(world, player.position)
    for side in sides:
        snap = finder.nearest_reachable(side, start, DOOR_STANDOFF, blocking)
        # A side reached only by snapping onto the door line is the far side.
        if snap is not None and snap[1] < DOOR_STANDOFF / 2 \
                and abs(snap[0][1] - y) <= HEIGHT_TOLERANCE:
            return snap[0]
    return sides[0]


def approach_goal(world: World, thing_id: str) -> Point3 | None:
    """The floor point to walk to so that a thing is within reach, or None.

    Args:
        world: The world.
        thing_id: An object, door or character id.

    Returns:
        A point on the navigation mesh, on the thing's own storey, or None when no floor
        of that storey near it can be reached (the floor right above or below does not
        count: the thing would still be out of reach from there).
    """
    if thing_id in world.doors:
        return _door_goal(world, thing_id)
    spot = where_it_lay(world, thing_id)
    start = on_floor(world, world.player.position)
    return floor_near(world, spot.point, world.reach * REACH_SHARE, start)


def out_of_reach(world: World, thing_id: str) -> Finish:
    """Why no walk can bring a thing within reach: wrong_storey or unreachable.

    wrong_storey when the player stands within reach horizontally but on another floor,
    unreachable otherwise; both say how far above or below the thing is, where the
    player last perceived it.
    """
    spot, player = where_it_lay(world, thing_id), world.player
    rise = spot.point[1] - player.y
    refs = {"target": thing_id}
    if abs(rise) <= HEIGHT_TOLERANCE:
        return Finish("unreachable", "No floor within reach of {target} can be reached "
                      "from here.", refs)
    side = "above" if rise > 0 else "below"
    where = f"{{target}} is {abs(rise):.0f} units {side} the player"
    if math.hypot(spot.point[0] - player.x, spot.point[2] - player.z) <= world.reach:
        return Finish("wrong_storey", f"In place horizontally, but {where}; no floor route "
                      "leads within reach of it from here.", refs)
    return Finish("unreachable", f"No floor within reach of {{target}} can be reached from "
                  f"here ({where}).", refs)


def gone_why(world: World, thing_id: str) -> str | None:
    """Why a target can no longer be worked on (a template with {target}), or None.

    Gone means a pickup taken (by anyone: pickups like ammo stay unheld when taken), an
    object broken or a character down.
    """
    obj = world.objects.get(thing_id)
    if obj is not None and not obj.present:
        return BROKEN_WHY if obj.broken else TAKEN_WHY
    actor = world.characters.get(thing_id)
    if actor is not None and not actor.alive:
        return "{target} is down"
    return None


def where_it_lay(world: World, thing_id: str) -> Spot:
    """Where a thing is to be looked for: where the player last perceived it.

    A walk to an object someone took unseen goes to the spot the player knows, never
    after the one who carries it; a character is looked for where it was last seen
    (with a session's knowledge; it is brought up to date every few ticks in view).
    """
    obj = world.objects.get(thing_id)
    if obj is not None and obj.holder is not None and obj.x is not None \
            and obj.storey is not None:
        x, z, storey = obj.spot
        return Spot((x, storey_y(world, storey), z), storey)
    known = known_of(world)
    seen = None if known is None else known.characters.get(thing_id)
    if seen is not None and thing_id in world.characters:
        return Spot(tuple(seen.position), _storey_at(world, seen.area, seen.position[1]))
    return locate(world, thing_id)


def _storey_at(world: World, area: str | None, y: float) -> str:
    # A sighting's storey: its area's, else the storey whose floor is nearest its height.
    if area is not None:
        return world.level.area(area).storey
    return min(world.level.storeys, key=lambda s: (abs(s.y - y), s.id)).id


def known_gone(world: World, thing_id: str) -> str | None:
    """Why the player knows a target can no longer be worked on (a template), or None.

    With a session's knowledge only what the player perceived counts (it saw the spot
    empty, the thing broken, or took it itself); an errand to a thing gone unseen runs
    and ends as target_gone when its spot comes into sight.
    """
    known = known_of(world)
    if known is None:
        return gone_why(world, thing_id)
    return known.gone.get(thing_id)


def _spot_in_sight(world: World, thing_id: str) -> bool:
    # Whether the player can see where the thing lies or stands (a taken object's spot
    # is where it lay, never where its holder went).
    player = world.player
    obj = world.objects.get(thing_id)
    if obj is not None:
        if obj.x is None or obj.storey != player.storey:
            return False
        spot: tuple[float, float] = obj.spot[:2]
    else:
        actor = world.characters[thing_id]
        if actor.storey != player.storey:
            return False
        spot = (actor.x, actor.z)
    return world.line_of_sight(player.position, spot, player.storey)


def target_gone(world: World, thing_id: str) -> Finish | None:
    """How an errand under way ends when its target went away, or None while it is there.

    The player learns it only on seeing the spot: until then the walk goes on, so the
    result tells the agent nothing the player could not have seen.
    """
    why = gone_why(world, thing_id)
    if why is None or not _spot_in_sight(world, thing_id):
        return None
    return Finish("target_gone", f"Stopped: {why}.", {"target": thing_id})


def plan_approach(
    world: World, thing_id: str
) -> tuple[Point3 | None, Route | Finish | None]:
    """Plan a walk that ends within reach of a thing.

    Returns:
        (goal, route): the route to follow, None when the thing is within reach
        already, or a Finish saying why no walk will do (door_closed naming the door,
        wrong_storey or unreachable); goal is None when no floor is near.
    """
    if world.within_reach(world.player, thing_id):
        return world.player.position, None
    goal = approach_goal(world, thing_id)
    if goal is None:
        return None, out_of_reach(world, thing_id)
    planned = plan(world, world.player.position, goal, use_on_way=True)
    return goal, out_of_reach(world, thing_id) if planned is None else planned


def walk_within_reach(
    run: Run,
    walker: Walker | None,
    thing_id: str,
    gone: Callable[[], Finish | None] = lambda: None,
) -> Generator[PlayerIntent, None, Finish | None]:
    """Walk until the thing is within reach.

    Args:
        run: The action's run.
        walker: The walker toward the approach point (None when already in reach).
        thing_id: The thing to reach.
        gone: Checked before each tick: a Finish when the job ended on its own (a
            pickup taken on the way, a target down).

    Yields:
        The intent for each tick.

    Returns:
        None once in reach, else how the walk ended.
    """
    world = run.world

    def ready() -> Finish | None:
        early = gone()
        if early is not None:
            return early
        if world.within_reach(world.player, thing_id):
            return _REACHED
        if walker is not None and walker.progress is not None and walker.progress < 1.0:
            if world.player.storey != where_it_lay(world, thing_id).storey:
                return out_of_reach(world, thing_id)
            return Finish(
                "unreachable",
                "Reached the nearest floor point, but {target} is still out of reach.",
                {"target": thing_id},
            )
        return None

    if walker is None:
        finish = ready()
        return None if finish is None or finish is _REACHED else finish
    finish = yield from walk(run, walker, ready)
    return None if finish is _REACHED else finish


def facing(world: World, point: tuple[float, float]) -> float:
    """Heading from the player toward a ground point, in radians."""
    p = world.player
    return math.atan2(point[1] - p.z, point[0] - p.x)
