"""Planning a walk: which route, which doors to open on it, or why there is none.

Three questions are asked in turn, each with fewer doors treated as walls:
1. Is there a route through doors that are open now? Walk it.
2. Is there one through doors the player could open by pressing use (closed doors, locks
   whose key is carried)? With use_on_way, walk it opening them; otherwise the first
   such door is reported as closed.
3. Is there one with every door open? Then the first door on it that the player cannot
   open is reported (locked, panel-operated, one-way), with its key and panel.
With no route at all, the caller decides between snapping the target and unreachable.
"""

from __future__ import annotations

from dataclasses import dataclass

from world.actions.driver import Finish
from world.actions.places import (
    Point3,
    crossing_order,
    door_segment,
    on_floor,
    pathfinder,
    storey_y,
    visited_areas,
)
from world.actions.result import DoorBlock
from world.navmesh import Path
from world.sim.world import World

_NONE: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Route:
    """A route to follow.

    Attributes:
        path: The navmesh path.
        opens: Doors on the path that are closed now and that the player will open.
        blocked: The doors that were blocking when it was planned.
    """

    path: Path
    opens: tuple[str, ...]
    blocked: frozenset[str]


def doors_crossed(world: World, path: Path, candidates: frozenset[str]) -> tuple[str, ...]:
    """The candidate doors a path passes through, in the order it meets them.

    The mesh records the doors whose edges a path crosses; a door the geometry test
    misses (a path through the very end of a door line) is still reported, after the
    others.
    """
    hits = []
    for door_id in sorted(candidates):
        exit_ = world.level.exit(door_id)
        y = storey_y(world, world.level.area(exit_.areas[0]).storey)
        at = crossing_order(path.waypoints, door_segment(world, door_id), y)
        if at is not None:
            hits.append((at, door_id))
    found = [d for _, d in sorted(hits)]
    found += [d for d in path.doors if d in candidates and d not in found]
    return tuple(found)


def describe_door(world: World, door_id: str) -> Finish:
    """A door_closed end naming the door and what it would take to pass it.

    The key's whereabouts are told only when the key lies in an area the player has
    stood in (so the player could have seen it); otherwise the sentence says so.

    Args:
        world: The world.
        door_id: The door in the way.

    Returns:
        The finish, with its `DoorBlock`.
    """
    runtime = world.doors[door_id]
    door = world.level.exit(door_id).door
    state = "locked" if runtime.state == "locked" else "closed"
    refs = {"door": door_id}
    key_area = None
    if door is None or not runtime.revealed:
        text = "The way leads through {door}, which is still a wall (a hidden passage)."
    elif door.panel is not None and runtime.state in ("closed", "locked"):
        refs["panel"] = door.panel
        text = "The door {door} has no handle; the panel {panel} opens it."
    elif state == "locked" and door.key is not None:
        refs["key"] = door.key
        key = world.objects.get(door.key)
        if key is not None and key.present and key.storey is not None and key.x is not None:
            key_area = world.area_at(key.x, key.z, key.storey)
        if key_area is not None and key_area in visited_areas(world):
            refs["key_area"] = key_area
            text = "The door {door} is locked; it needs the key {key}, which lies in {key_area}."
        else:
            key_area = None
            text = "The door {door} is locked; it needs the key {key}, not seen so far."
    elif state == "locked":
        text = "The door {door} is locked from the other side."
    elif door.one_way_from is not None:
        text = "The door {door} opens only from the other side."
    else:
        text = "The door {door} is closed; walk with use_on_way or use it to open it."
    block = DoorBlock(
        door_id,
        state,
        key=door.key if door is not None else None,
        key_area=key_area,
        panel=door.panel if door is not None else None,
    )
    return Finish("door_closed", text, refs, block)


def plan(world: World, start: Point3, goal: Point3, use_on_way: bool) -> Route | Finish | None:
    """Plan a walk from start to goal under the doors' current states.

    Args:
        world: The world.
        start: Where the walk starts.
        goal: Where it ends (on the mesh).
        use_on_way: Whether closed doors on the way may be opened.

    Returns:
        A route, a door_closed finish naming the door in the way, or None when there
        is no route even with every door open.
    """
    finder = pathfinder(world)
    start = on_floor(world, start)
    blocking = world.blocked_doors(None)
    path = finder.path(start, goal, blocking)
    if path is not None:
        return Route(path, (), blocking)
    mine = world.blocked_doors(world.player.id)
    path = finder.path(start, goal, mine)
    if path is not None:
        closed = doors_crossed(world, path, blocking - mine)
        if use_on_way:
            return Route(path, closed, blocking)
        if closed:
            return describe_door(world, closed[0])
    path = finder.path(start, goal, _NONE)
    if path is None:
        return None
    in_way = doors_crossed(world, path, mine)
    if not in_way:
        # The route crosses no door we can find: treat the target as out of reach.
        return None
    return describe_door(world, in_way[0])
