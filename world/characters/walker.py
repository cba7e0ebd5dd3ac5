"""Walking over the navigation mesh: planning paths, steering, and opening doors.

Paths are planned only when a character decides (every few ticks) and only when its goal
moved noticeably; between decisions the per-tick work is handing the physics the next
waypoint once the current one is reached.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from world.characters.mind import Mind, Point3
from world.errors import WorldError
from world.sim.clock import TICKS_PER_SECOND

if TYPE_CHECKING:
    from world.sim.actors import Actor
    from world.sim.world import World

# A waypoint closer than this counts as reached (bodies jostle and rarely land exactly).
ARRIVE = 12.0
# A new goal closer than this to the old one keeps the current path.
REPLAN_SHIFT = 60.0
# A walker that has not come this much closer to its waypoint for STALL_TICKS is stuck
# (two walkers pushing head-on, a standing body on the line).
STALL_PROGRESS = 8.0
STALL_TICKS = TICKS_PER_SECOND
# How far a stuck walker steps aside, in body radii.
SIDESTEP_RADII = 3.0
# A walker asked again for the path it last planned, to the same goal with the same
# doors shut, from within this distance of where that path started (a guard turning
# back at the edge of earshot), walks that path again instead of searching anew.
REUSE_SHIFT = 2 * ARRIVE
# Paths a walker keeps for that, the latest first to stay (a patrol leg between two
# investigations must not push the investigation's path out).
KEPT_PLANS = 4


def goal_of(world: World, x: float, z: float, storey: str) -> Point3:
    """A 3D goal point on a storey, for path queries that must pick the right floor."""
    return (x, world.layout.storey_y[storey], z)


def plan(world: World, actor: Actor, mind: Mind, goal: Point3, force: bool = False) -> bool:
    """Give the mind a path to a goal, keeping the current one if the goal barely moved.

    Args:
        world: The world.
        actor: The walking actor.
        mind: Its mind; the path is stored there.
        goal: The goal (x, y, z).
        force: Plan again even when the goal did not move.

    Returns:
        True when the mind has a path to (near) the goal afterwards.
    """
    old = mind.path_goal
    if not force and old is not None and mind.waypoints and math.dist(old, goal) < REPLAN_SHIFT:
        return True
    blocked = world.blocked_doors(actor.id)
    key = (goal, blocked, actor.storey)
    memo = mind.plans.get(key)
    if (
        not force
        and memo is not None
        and math.hypot(actor.x - memo[0][0], actor.z - memo[0][1]) < REUSE_SHIFT
    ):
        _follow(actor, mind, goal, list(memo[1]), memo[2])
        return True
    path = world.paths.path(actor.position, goal, blocked)
    if path is None:
        near = world.paths.nearest_reachable(goal, actor.position, 400.0, blocked)
        if near is None:
            mind.clear_path()
            actor.move_to = None
            return False
        path = world.paths.path(actor.position, near[0], blocked)
        if path is None:
            mind.clear_path()
            actor.move_to = None
            return False
    waypoints = [(p[0], p[2]) for p in path.waypoints[1:]]
    if waypoints:
        plans = mind.plans
        plans.pop(key, None)
        if len(plans) >= KEPT_PLANS:
            del plans[next(iter(plans))]  # the least recently planned goes
        plans[key] = ((actor.x, actor.z), tuple(waypoints), path.doors)
    _follow(actor, mind, goal, waypoints, path.doors)
    return bool(waypoints)


def _follow(actor: Actor, mind: Mind, goal: Point3, waypoints: list[tuple[float, float]],
            doors: tuple[str, ...]) -> None:
    mind.waypoints = waypoints
    mind.path_goal = goal
    mind.doors = doors
    actor.move_to = waypoints[0] if waypoints else None


def stop(actor: Actor, mind: Mind) -> None:
    """Stand still and forget the path."""
    mind.clear_path()
    actor.move_to = None


def steer(actor: Actor, mind: Mind) -> bool:
    """Per-tick: move on to the next waypoint once the current one is reached.

    Args:
        actor: The walking actor.
        mind: Its mind, holding the remaining waypoints.

    Returns:
        True while the actor still has somewhere to go.
    """
    wps = mind.waypoints
    if not wps:
        return False
    wx, wz = wps[0]
    # The physics drops move_to once the waypoint is reached; near enough counts too.
    if actor.move_to is None or (actor.x - wx) ** 2 + (actor.z - wz) ** 2 < ARRIVE * ARRIVE:
        wps.pop(0)
        actor.move_to = wps[0] if wps else None
    return bool(wps)


def open_doors_ahead(world: World, actor: Actor, mind: Mind) -> None:
    """Press use on the next closed door of the path when standing at it."""
    for door_id in mind.doors:
        gate = world.doors.get(door_id)
        if gate is None or gate.state not in ("closed", "locked"):
            continue
        if world.within_reach(actor, door_id):
            try:
                world.use(actor.id, door_id)
            except WorldError:
                # Refusals are recorded as events by the world; the path is re-planned.
                mind.clear_path()
        return


def arrived(actor: Actor, mind: Mind, goal: Point3 | None = None, slack: float = 40.0) -> bool:
    """Whether the actor has no path left and stands near its (or the given) goal."""
    target = goal if goal is not None else mind.path_goal
    if mind.waypoints or target is None:
        return not mind.waypoints
    return math.hypot(actor.x - target[0], actor.z - target[2]) <= slack


def _door_wait(world: World, actor: Actor, mind: Mind) -> bool:
    # Standing at a door that is still opening is waiting, not being stuck.
    for door_id in mind.doors:
        gate = world.doors.get(door_id)
        if gate is not None and gate.state != "open" and world.within_reach(actor, door_id):
            return True
    return False


def unstick(world: World, actor: Actor, mind: Mind) -> None:
    """Per decision: notice a walker that has made no headway for a second; step aside.

    The first time on a walk the walker steps to its own right of the line to its
    waypoint, so two walkers meeting head-on part to opposite sides; later stalls pick
    the side with the world's generator. When neither side is open the path is planned
    again from where the walker stands.

    Args:
        world: The world.
        actor: The walking actor.
        mind: Its mind; the stall record and waypoints live there.
    """
    if not mind.waypoints or actor.move_to is None:
        mind.stall = None
        return
    wx, wz = mind.waypoints[0]
    dist = math.hypot(actor.x - wx, actor.z - wz)
    tick = world.tick
    stall = mind.stall
    count = 0 if stall is None else stall[4]
    if (
        stall is None
        or stall[0] != wx
        or stall[1] != wz
        or dist < stall[2] - STALL_PROGRESS
        or _door_wait(world, actor, mind)
    ):
        mind.stall = (wx, wz, dist, tick, count)
        return
    if tick - stall[3] < STALL_TICKS:
        return
    mind.stall = (wx, wz, dist, tick, count + 1)
    _sidestep(world, actor, mind, (wx - actor.x) / dist if dist else 1.0,
              (wz - actor.z) / dist if dist else 0.0, count)


def _sidestep(world: World, actor: Actor, mind: Mind, ux: float, uz: float, count: int) -> None:
    # Right of the heading (x right, z up read as a math plane) first, then left; a
    # repeated stall lets the generator choose, so two walkers that chose alike
    # once need not choose alike again.
    sides = [1.0, -1.0]
    if count and world.rng.random() < 0.5:
        sides.reverse()
    step = SIDESTEP_RADII * actor.radius
    y = actor.y
    blocked = world.blocked_doors(actor.id)
    for side in sides:
        px, pz = actor.x + uz * side * step, actor.z - ux * side * step
        path = world.paths.path(actor.position, (px, y, pz), blocked)
        if path is None or path.length > step * 1.5 or len(path.waypoints) > 2:
            continue
        mind.waypoints.insert(0, (px, pz))
        actor.move_to = (px, pz)
        return
    if mind.path_goal is not None:
        plan(world, actor, mind, mind.path_goal, force=True)
