"""Walking actions: go_to, go_to_area and go_to_object."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

from world.actions.approach import (
    facing,
    known_gone,
    plan_approach,
    target_gone,
    walk_within_reach,
    where_it_lay,
)
from world.actions.driver import Finish, Run, Script, decided, drive
from world.actions.follow import HEIGHT_TOLERANCE, Walker, ground_distance, reached, walk
from world.actions.places import (
    FLOOR_TOLERANCE,
    Point3,
    finite_args,
    floor_near,
    floor_under,
    on_floor,
    pathfinder,
    required_args,
    segment_mid,
    segment_normal,
    storey_y,
)
from world.actions.result import ActionResult
from world.actions.returnfire import holds_gun
from world.actions.routes import (
    NO_KNOWN_ROUTE,
    Route,
    beyond_known_floor,
    describe_door,
    entering,
    known_of,
    onto_known_floor,
    plan,
)
from world.actions.timing import Limit, limit_for, route_limit
from world.errors import UnknownIdError
from world.sim.clock import ticks_to_seconds
from world.sim.world import PlayerIntent, World

ARRIVE_RADIUS = 20.0  # how close counts as at a point
SNAP_RADIUS = 300.0  # how far an off-floor target may be moved to the nearest floor
INSIDE = 80.0  # how far past a way out "just inside" the next area is
USE_EXTRA_S = 1.0  # time allowed beyond the walk for pressing use

_NONE: frozenset[str] = frozenset()


def gave_up(run: Run) -> Finish:
    """The end of a walk whose time ran out while it was still getting closer."""
    left = run.progress
    where = f" with {left:.0f} units still to go" if left is not None else ""
    return Finish(
        "gave_up",
        f"Time ran out after {ticks_to_seconds(run.ticks):.1f} s{where}; walking again continues.",
    )


def _unreachable(action: str, args: Mapping[str, Any], why: str) -> ActionResult:
    return decided(action, args, Finish("unreachable", why))


def _walk_result(
    world: World, action: str, args: Mapping[str, Any], goal: Point3, planned: Any,
    adjusted: tuple[Point3, float] | None, script_for: Any,
) -> ActionResult:
    # Shared by go_to and go_to_area: turn a plan into a run, or a decided result.
    extra = {} if adjusted is None else {"adjusted_target": adjusted[0], "adjusted_by": adjusted[1]}
    if planned is None:
        return decided(action, args, Finish("unreachable", "No floor route leads there."), **extra)
    if isinstance(planned, Finish):
        return decided(action, args, planned, **extra)
    limit = limit_for(args, route_limit(planned.path.length, world.player.speed))
    return drive(world, action, args, script_for(planned), limit, gave_up, adjusted)


def _fire_on_way(world: World):
    def extra(intent: PlayerIntent) -> PlayerIntent:
        player = world.player
        if not holds_gun(world, player):
            return intent
        reach = world.combat.weapon_of(player).range
        best = None
        for cid, ch in world.characters.items():
            if ch.side != "hostile" or not ch.alive or ch.storey != player.storey:
                continue
            d = math.hypot(ch.x - player.x, ch.z - player.z)
            if d <= reach and (best is None or d < best[0]) and world.line_of_sight(
                player.position, ch.position, player.storey
            ):
                best = (d, cid)
        return intent if best is None else dataclasses.replace(intent, fire_at=best[1])

    return extra


def go_to(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Walk along the floor to a point, moving a target off known floor onto the nearest.

    A target off the floor the player knows is moved onto the nearest known floor within
    `SNAP_RADIUS` (farther: no_known_route), whatever lies there, so the answer never
    tells floor never seen from a secret room or from no floor at all (34).

    Args:
        world: The world.
        args: x, z, optional y, use_on_way, fire_on_way, time_limit_s.

    Returns:
        The result.
    """
    player = world.player
    x, z = required_args(args, "x", "z")
    (given_y,) = finite_args(args, "y")
    target = (x, given_y if given_y is not None else player.y, z)
    start = on_floor(world, player.position)
    # Off the floor the player knows, the target is moved onto the nearest known floor,
    # whatever lies there (no floor, floor never seen, a secret room): one answer (34).
    aim = onto_known_floor(world, target, SNAP_RADIUS)
    if aim is None:
        return decided("go_to", args, Finish("no_known_route", NO_KNOWN_ROUTE))
    # The floor right at the target, on the storey its y picks (without y, the floor
    # there nearest the player's height): arriving there needs no adjustment.
    # With what the player knows, whether that floor connects to the player's is the
    # plan's to answer, over known floor only: asked of the whole mesh here, it would
    # tell what unseen floor joins.
    joined = start if known_of(world) is None else None
    goal = floor_under(world, aim[0], aim[2], aim[1], joined,
                       FLOOR_TOLERANCE if given_y is not None else None)
    snapped = aim is not target
    if goal is None:
        snap = pathfinder(world).nearest_reachable(aim, joined, SNAP_RADIUS)
        if snap is None:
            return _unreachable("go_to", args, f"No floor within {SNAP_RADIUS:g} units of the "
                                "target can be reached from here.")
        goal, snapped = snap[0], True
    if beyond_known_floor(world, goal, 0.0):
        return decided("go_to", args, Finish("no_known_route", NO_KNOWN_ROUTE))
    adjusted = None
    moved = math.dist(goal, target) if given_y is not None else ground_distance(goal, target)
    if snapped and moved > 1.0:
        adjusted = (goal, moved)
    under = (given_y is not None and abs(goal[1] - target[1]) > HEIGHT_TOLERANCE
             and ground_distance(goal, target) <= INSIDE)
    use_on_way = bool(args.get("use_on_way", False))
    extra = _fire_on_way(world) if args.get("fire_on_way") else None

    def script_for(route: Route):
        def script(run: Run) -> Script:
            walker = Walker(world, goal, route, use_on_way)

            def done() -> Finish | None:
                if run.ticks == 0 and ground_distance(player.position, goal) > ARRIVE_RADIUS:
                    return None
                if not reached(run, goal, ARRIVE_RADIUS):
                    return None
                if under:
                    side = "below" if goal[1] < target[1] else "above"
                    return Finish("wrong_storey", f"In place horizontally but {side} the "
                                  f"target by {abs(goal[1] - target[1]):.0f} units; no floor "
                                  "route leads to its storey from here.")
                if adjusted is not None:
                    return Finish("arrived", f"Arrived at the nearest reachable point, "
                                  f"{adjusted[1]:.0f} units from the target.")
                return Finish("arrived", "Arrived at the target.")

            return (yield from walk(run, walker, done, extra))

        return script

    planned = plan(world, player.position, goal, use_on_way)
    return _walk_result(world, "go_to", args, goal, planned, adjusted, script_for)


def _ways_out(world: World, area: str) -> dict[str, tuple[str, tuple, str]]:
    # Way-out id -> (area beyond, its line in that area, kind). Exits and stairs alike.
    ways: dict[str, tuple[str, tuple, str]] = {}
    for e in world.level.exits:
        if area in e.areas:
            ways[e.id] = (e.areas[1] if e.areas[0] == area else e.areas[0], e.segment, e.kind)
    for s in world.level.stairs:
        if s.bottom.area == area:
            ways[s.id] = (s.top.area, s.top.edge, "stairs")
        elif s.top.area == area:
            ways[s.id] = (s.bottom.area, s.bottom.edge, "stairs")
    return ways


def _inside_point(world: World, area: str, line: tuple) -> Point3:
    # A point INSIDE units beyond the line's midpoint on the area's side.
    storey = world.level.area(area).storey
    (mx, mz), (nx, nz) = segment_mid(line), segment_normal(line)
    y = storey_y(world, storey)
    for sign in (1.0, -1.0):
        x, z = mx + sign * nx * INSIDE, mz + sign * nz * INSIDE
        if world.area_at(x, z, storey) == area:
            return (x, y, z)
    return (mx, y, mz)


def go_to_area(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Walk through a way out of the current area and stop just inside the next.

    Args:
        world: The world.
        args: exit_id (an exit or stairs id of the current area), time_limit_s.

    Returns:
        The result.

    Raises:
        UnknownIdError: when the id is not a way out of the player's area.
    """
    player = world.player
    here = world.actor_area(player) or player.area
    ways = _ways_out(world, here)
    way = args["exit_id"]
    if way not in ways:
        raise UnknownIdError(f"way out of area {here}", way, sorted(ways))
    beyond, line, kind = ways[way]
    if kind == "window":
        return decided("go_to_area", args, Finish(
            "refused", "{way} is a window; it cannot be walked through.", {"way": way}))
    target = _inside_point(world, beyond, line)
    # Floor just inside, on the storey of the area beyond (never the floor below it).
    goal = floor_near(world, target, INSIDE, on_floor(world, player.position))
    if goal is None:
        return decided("go_to_area", args, Finish(
            "unreachable", "No floor route leads into {area}.", {"area": beyond}))
    storey = world.level.area(beyond).storey

    def script_for(route: Route):
        def script(run: Run) -> Script:
            walker = Walker(world, goal, route, use_on_way=False)

            def done() -> Finish | None:
                inside = world.actor_area(player) == beyond
                close = reached(run, goal, INSIDE / 2) or (walker.progress is not None
                                                          and walker.progress < INSIDE / 2)
                if inside and close:
                    return Finish("arrived", "Entered {area} and stopped just inside.",
                                  {"area": beyond})
                if player.storey != storey and walker.progress is not None and (
                    walker.progress < 1.0
                ):
                    side = "below" if player.y < goal[1] else "above"
                    return Finish("wrong_storey", f"In place horizontally but {side} "
                                  "{area}; it was not entered.", {"area": beyond})
                return None

            return (yield from walk(run, walker, done))

        return script

    # Walking through a listed way out is how the player explores: the area beyond may
    # be planned over while this action runs, known or not.
    with entering(world, beyond):
        planned = plan(world, player.position, goal, use_on_way=False)
        return _walk_result(world, "go_to_area", args, goal, planned, None, script_for)


@dataclasses.dataclass(frozen=True)
class Approach:
    """A planned walk to within reach of a thing, and the time it is given."""

    goal: Point3 | None
    route: Route | None  # None: already within reach
    limit: Limit

    def walker(self, world: World) -> Walker | None:
        """The walker that follows the route (None when there is no walk to make)."""
        if self.route is None or self.goal is None:
            return None
        return Walker(world, self.goal, self.route, use_on_way=True)


def approach_thing(world: World, action: str, args: Mapping[str, Any], thing: str,
                   refs: dict[str, str]) -> Approach | ActionResult:
    """The walk an action on a thing begins with, or the action's answer without one.

    A thing known gone is refused and one no known route reaches is answered as the
    plan says, before any tick passes; the walk's time is its length at the player's
    speed plus `USE_EXTRA_S` for the press, unless the agent gave a limit.
    """
    gone = known_gone(world, thing)
    if gone is not None:
        return decided(action, args, Finish("refused", gone + ".", refs))
    goal, planned = plan_approach(world, thing)
    if isinstance(planned, Finish):
        return decided(action, args, planned)
    length = 0.0 if planned is None else planned.path.length
    return Approach(goal, planned,
                    limit_for(args, route_limit(length, world.player.speed, USE_EXTRA_S)))


def go_to_object(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Walk up to an object or door and press use on it once.

    Args:
        world: The world.
        args: object_id, time_limit_s.

    Returns:
        The result.
    """
    thing = args["object_id"]
    refs = {"target": thing}
    walk_to = approach_thing(world, "go_to_object", args, thing, refs)
    if not isinstance(walk_to, Approach):
        return walk_to
    pid = world.player.id
    seen = [len(world.events)]

    def taken() -> Finish | None:
        # Taken by the player on the way (walking over a pickup takes it), else gone?
        new = world.events.since(seen[0])
        seen[0] = len(world.events)
        if any(e.kind == "item_picked_up" and e.subject == pid and e.other == thing
               for e in new):
            return Finish("arrived", "Picked up {target} on the way.", refs)
        return target_gone(world, thing)

    def script(run: Run) -> Script:
        finish = yield from walk_within_reach(run, walk_to.walker(world), thing, taken)
        if finish is not None:
            return finish
        mark = len(world.events)
        yield PlayerIntent(use=thing, face=facing(world, where_it_lay(world, thing).xz))
        if any(e.kind == "door_refused" and e.subject == thing
               for e in world.events.since(mark)):
            return describe_door(world, thing)
        return Finish("arrived", "Pressed use on {target}.", refs)

    return drive(world, "go_to_object", args, script, walk_to.limit, gave_up)


__all__ = ["go_to", "go_to_area", "go_to_object"]
