"""Planning a walk: which route, which doors to open on it, or why there is none.

Three questions are asked in turn, each with fewer doors treated as walls:
1. Is there a route through doors that are open now? Walk it.
2. Is there one through doors the player could open by pressing use (closed doors, locks
   whose key is carried)? With use_on_way, walk it opening them; otherwise the first
   such door is reported as closed.
3. Is there one with every door open? Then the first door on it that the player cannot
   open is reported (locked, panel-operated, one-way), with its key and panel.
With no route at all, the caller decides between snapping the target and unreachable.

Where the session has said what the player knows (`plan_over`), every question is
asked over that floor only, and of the doors as the player last perceived them (a door
seen open and shut since out of sight is still open to the plan; the walk finds out
when it comes into sight): a target that only unknown rooms lead to ends the walk as
`no_known_route` and nothing moves.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from world.actions.driver import Finish, perceive_now
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
from world.navmesh.build import build_navmesh_full
from world.sim.layout import point_in_polygon
from world.sim.mind import PlayerMind
from world.sim.world import World

_NONE: frozenset[str] = frozenset()
EDGE_REACH = 2.0  # a target this near a known area's outline is on it (a doorway's middle)
KNOWN_INSET = 20.0  # how far inside a known outline a target moved onto it is put
_PLACE_GROUP = "place:"  # prefix of the mesh's edge groups that wall off one place
NO_KNOWN_ROUTE = ("No known route leads there: it lies beyond the floor you have seen; "
                  "explore further (go_to_area through a listed way out).")


# What the player knows, as planning reads it (declared with the world's planning state).
KnownFloor = PlayerMind


def plan_over(world: World, known: KnownFloor) -> None:
    """Make every later plan in this world keep to the floor the player knows."""
    world.planning.mind = known
    world.planning.entering.clear()


def known_of(world: World) -> KnownFloor | None:
    """What the player knows, when the session has said so (else None: no limit)."""
    return world.planning.mind


@contextmanager
def entering(world: World, area: str) -> Iterator[None]:
    """Let plans made meanwhile use one more area: the one a listed way out leads into."""
    planning = world.planning
    if planning.mind is None:
        yield
        return
    planning.entering.add(area)
    try:
        yield
    finally:
        planning.entering.discard(area)


def _place_groups(world: World) -> frozenset[str] | None:
    # Registers, once per world's path finder, one edge group per place (area or stairs)
    # holding every mesh edge between it and another place; the places, or None when the
    # mesh was not built from this level's areas.
    planning = world.planning
    if planning.place_groups is not None:
        return planning.place_groups[0]
    finder = pathfinder(world)
    places = build_navmesh_full(world.level).places
    mesh = finder.mesh
    if len(places) != mesh.polygon_count:
        planning.place_groups = (None,)
        return None
    edges: dict[str, list[tuple[int, int]]] = {p: [] for p in places}
    for p, row in enumerate(mesh.neighbours):
        for k, q in enumerate(row):
            if q >= 0 and places[p] != places[q]:
                edges[places[p]].append((p, k))
                edges[places[q]].append((p, k))
    for place, group in edges.items():
        finder.search.add_group(_PLACE_GROUP + place, group)
    planning.place_groups = (frozenset(edges),)
    return planning.place_groups[0]


def _hidden(world: World) -> frozenset[str]:
    return frozenset(i for i, d in world.doors.items() if not d.revealed)


def _closed(world: World) -> frozenset[str]:
    # The edge groups walling off every place the player does not know (an area, or
    # stairs with neither end known); empty without a limit.
    known = known_of(world)
    places = None if known is None else _place_groups(world)
    if known is None or places is None:
        return _NONE
    open_ = set(known.areas) | world.planning.entering | visited_areas(world)
    open_ |= {s.id for s in world.level.stairs if {s.bottom.area, s.top.area} & open_}
    return frozenset(_PLACE_GROUP + p for p in places - open_)


def blocked_doors(world: World, player_opens: bool = False) -> frozenset[str]:
    """Gates the player takes for shut: with a session's knowledge, as last perceived.

    Args:
        world: The world.
        player_opens: Leave out the doors the player expects to open by pressing use.

    Returns:
        Gate ids: hidden passages not revealed, and doors that looked shut.
    """
    known = known_of(world)
    if known is None:
        return world.blocked_doors(world.player.id if player_opens else None)
    doors, player = world.doors_system, world.player
    out = []
    for gid in sorted(world.doors):
        gate = world.doors[gid]
        if not gate.revealed:
            out.append(gid)
            continue
        if gate.exit.door is None:
            continue
        state = known.door_state(world, gid)
        if state != "open" and not (
                player_opens and doors.refusal(player, gid, state) is None):
            out.append(gid)
    return frozenset(out)


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

    A key or a panel is named only once the player has seen it (without a session's
    knowledge: a key's whereabouts once its area was stood in); otherwise the sentence
    says it has not been seen.

    Args:
        world: The world.
        door_id: The door in the way.

    Returns:
        The finish, with its `DoorBlock`.
    """
    runtime = world.doors[door_id]
    door = world.level.exit(door_id).door
    known = known_of(world)
    if known is not None:
        perceive_now(world)  # a door just tried is known as it stands
    # With a session's knowledge, the door as the player perceives it: a lock it has
    # not found looks like a shut door.
    looks = runtime.state if known is None else known.door_state(world, door_id)
    state = "locked" if looks == "locked" else "closed"

    def seen(object_id: str) -> bool:
        # A key or panel is named only once the player has seen it.
        return known is None or object_id in known.objects

    refs = {"door": door_id}
    key_area = None
    if door is None or not runtime.revealed:
        text = "The way leads through {door}, which is still a wall (a hidden passage)."
    elif door.panel is not None and looks in ("closed", "locked") and not seen(door.panel):
        text = "The door {door} has no handle; a panel opens it, not seen so far."
    elif door.panel is not None and looks in ("closed", "locked"):
        refs["panel"] = door.panel
        text = "The door {door} has no handle; the panel {panel} opens it."
    elif state == "locked" and door.key is not None and not seen(door.key):
        text = "The door {door} is locked; it needs a key, not seen so far."
    elif state == "locked" and door.key is not None:
        refs["key"] = door.key
        key_area, gone = _key_place(world, door.key)
        if gone is not None:
            # Seen taken or broken: where it went is not known.
            refs["target"] = door.key
            text = "The door {door} is locked; it needs the key {key}, but " + gone + "."
        elif key_area is not None:
            refs["key_area"] = key_area
            text = "The door {door} is locked; it needs the key {key}, which lies in {key_area}."
        else:
            text = "The door {door} is locked; it needs the key {key}, not seen so far."
    elif state == "locked":
        text = "The door {door} is locked from the other side."
    elif door.one_way_from is not None:
        text = "The door {door} opens only from the other side."
    else:
        text = "The door {door} is closed; walk with use_on_way or use it to open it."
    key = door.key if door is not None and door.key is not None and seen(door.key) else None
    panel = door.panel if door is not None and door.panel is not None and seen(
        door.panel) else None
    block = DoorBlock(door_id, state, key=key, key_area=key_area, panel=panel)
    return Finish("door_closed", text, refs, block)


def _known_rings(world: World, storey: str) -> list[tuple[tuple[float, float], ...]]:
    # The outlines of the floor the player knows on a storey (with a limit): known areas
    # and the stairs with a known end.
    known = known_of(world)
    assert known is not None  # asked only with a limit
    areas = set(known.areas) | world.planning.entering | visited_areas(world)
    rings = [tuple(a.polygon) for a in world.level.areas if a.id in areas and a.storey == storey]
    rings += [(s.bottom.edge[0], s.bottom.edge[1], s.top.edge[1], s.top.edge[0])
              for s in world.level.stairs if s.bottom.area in areas or s.top.area in areas]
    return rings


def _storey_at(world: World, point: Point3) -> str:
    return min(world.level.storeys, key=lambda s: (abs(s.y - point[1]), s.id)).id


def beyond_known_floor(world: World, point: Point3, reach: float = 0.0) -> bool:
    """Whether a point lies off the floor the player knows (never without a limit).

    Known floor is a known area's outline (within `reach`, at most `EDGE_REACH`, so a
    doorway's middle counts) or stairs with a known end, on the storey nearest the
    point's height. The answer comes from known geometry alone.
    """
    known = known_of(world)
    if known is None:
        return False
    reach = min(reach, EDGE_REACH)
    storey = _storey_at(world, point)
    here = world.area_at(point[0], point[2], storey)
    if here is not None and here in (set(known.areas) | world.planning.entering
                                     | visited_areas(world)):
        return False
    return not any(_near_ring(point[0], point[2], ring, reach)
                   for ring in _known_rings(world, storey))


def onto_known_floor(world: World, point: Point3, reach: float) -> Point3 | None:
    """A target moved onto the floor the player knows: the point itself when on it.

    Off it, the nearest point of a known outline within `reach`, stepped `KNOWN_INSET`
    inside; None when no known floor is that near. Floor never seen, a secret room and no
    floor at all are treated alike: only known outlines are consulted, so the answer
    (and where the walk ends) never tells what lies off them (34).
    """
    if not beyond_known_floor(world, point, EDGE_REACH):
        return point
    x, z = point[0], point[2]
    best: tuple[float, float, float, tuple] | None = None
    for ring in _known_rings(world, _storey_at(world, point)):
        for (ax, az), (bx, bz) in zip(ring, [*ring[1:], ring[0]], strict=True):
            dx, dz = bx - ax, bz - az
            t = max(0.0, min(1.0, ((x - ax) * dx + (z - az) * dz) / (dx * dx + dz * dz or 1.0)))
            px, pz = ax + t * dx, az + t * dz
            d = math.hypot(x - px, z - pz)
            if best is None or d < best[0]:
                best = (d, px, pz, ring)
    if best is None or best[0] > reach:
        return None
    d, px, pz, ring = best
    # Step on along the line from the target, into the outline it crossed.
    ix, iz = px + (px - x) / max(d, 1e-9) * KNOWN_INSET, pz + (pz - z) / max(d, 1e-9) * KNOWN_INSET
    if not point_in_polygon(ix, iz, tuple(ring)):
        ix, iz = px, pz
    return (ix, point[1], iz)


def _near_ring(x: float, z: float, ring: Sequence[tuple[float, float]], reach: float) -> bool:
    if point_in_polygon(x, z, tuple(ring)):
        return True
    for (ax, az), (bx, bz) in zip(ring, [*ring[1:], ring[0]], strict=True):
        dx, dz = bx - ax, bz - az
        t = max(0.0, min(1.0, ((x - ax) * dx + (z - az) * dz) / (dx * dx + dz * dz or 1.0)))
        if math.hypot(x - ax - t * dx, z - az - t * dz) <= reach:
            return True
    return False


def _key_place(world: World, key_id: str) -> tuple[str | None, str | None]:
    # (area, why gone) of a key as the player last perceived it. With a session's
    # knowledge: where it was seen lying, unless it was seen taken or broken (a key taken
    # unseen still lies there as far as the player knows); without one: where it lies
    # now, once that area was stood in.
    known = known_of(world)
    key = world.objects.get(key_id)
    if key is None or key.x is None or key.storey is None:
        return None, None
    x, z, storey = key.spot
    if known is not None:
        gone = known.gone.get(key_id)
        return (None, gone) if gone is not None else (world.area_at(x, z, storey), None)
    area = world.area_at(x, z, storey) if key.present else None
    return (area if area in visited_areas(world) else None), None


def plan(world: World, start: Point3, goal: Point3, use_on_way: bool) -> Route | Finish | None:
    """Plan a walk from start to goal under the doors as the player perceives them.

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
    unknown = _closed(world)
    blocking = blocked_doors(world)
    path = finder.path(start, goal, blocking | unknown)
    if path is not None:
        return Route(path, (), blocking)
    mine = blocked_doors(world, player_opens=True)
    path = finder.path(start, goal, mine | unknown)
    if path is not None:
        closed = doors_crossed(world, path, blocking - mine)
        if use_on_way:
            return Route(path, closed, blocking)
        if closed:
            return describe_door(world, closed[0])
    # A hidden passage the player has not found is a wall to it, and is never named.
    hidden = _hidden(world) if known_of(world) is not None else _NONE
    path = finder.path(start, goal, unknown | hidden)
    if path is None:
        # No way over the floor the player knows, even with every door open. Whether
        # floor it has not seen (or a passage it has not found) leads there is not the
        # player's to learn: one answer either way (34).
        if known_of(world) is not None:
            return Finish("no_known_route", NO_KNOWN_ROUTE)
        return None
    in_way = doors_crossed(world, path, mine)
    if not in_way:
        # The route crosses no door we can find: treat the target as out of reach.
        return None
    return describe_door(world, in_way[0])
