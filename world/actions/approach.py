"""Walking up to a thing (object, door, character) until it is within reach."""

from __future__ import annotations

import math
from collections.abc import Callable, Generator

from world.actions.driver import Finish, Run
from world.actions.follow import Walker, walk
from world.actions.places import (
    Point3,
    door_segment,
    locate,
    pathfinder,
    segment_mid,
    segment_normal,
)
from world.actions.routes import Route, plan
from world.sim.world import PlayerIntent, World

# Doors are approached from a point this far in front of their line.
DOOR_STANDOFF = 60.0
# How far from a thing's spot the floor point to walk to may be, as a share of reach.
REACH_SHARE = 0.8

_REACHED = Finish("arrived", "")


def _door_goal(world: World, door_id: str) -> Point3 | None:
    finder, player = pathfinder(world), world.player
    seg = door_segment(world, door_id)
    (mx, mz), (nx, nz) = segment_mid(seg), segment_normal(seg)
    y = locate(world, door_id).point[1]
    sides = [(mx + nx * DOOR_STANDOFF, y, mz + nz * DOOR_STANDOFF),
             (mx - nx * DOOR_STANDOFF, y, mz - nz * DOOR_STANDOFF)]
    sides.sort(key=lambda p: math.hypot(p[0] - player.x, p[2] - player.z))
    blocking = world.blocked_doors(None)
    for side in sides:
        snap = finder.nearest_reachable(side, player.position, DOOR_STANDOFF, blocking)
        if snap is not None:
            return snap[0]
    return sides[0]


def approach_goal(world: World, thing_id: str) -> Point3 | None:
    """The floor point to walk to so that a thing is within reach, or None.

    Args:
        world: The world.
        thing_id: An object, door or character id.

    Returns:
        A point on the navigation mesh, or None when no floor near it can be reached.
    """
    if thing_id in world.doors:
        return _door_goal(world, thing_id)
    spot = locate(world, thing_id)
    snap = pathfinder(world).nearest_reachable(
        spot.point, world.player.position, world.reach * REACH_SHARE
    )
    return None if snap is None else snap[0]


def plan_approach(
    world: World, thing_id: str
) -> tuple[Point3 | None, Route | Finish | None]:
    """Plan a walk that ends within reach of a thing.

    Returns:
        (goal, route): the route to follow, a Finish saying why there is none
        (door_closed) or None (unreachable); goal is None when no floor is near.
    """
    goal = approach_goal(world, thing_id)
    if goal is None:
        return None, None
    if world.within_reach(world.player, thing_id):
        return goal, None
    return goal, plan(world, world.player.position, goal, use_on_way=True)


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
