"""Where things are, for actions: objects, doors, characters and points near them."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from world.errors import InvalidRequestError, UnknownIdError
from world.level.model import Segment
from world.navmesh import PathFinder
from world.sim.world import World

Point3 = tuple[float, float, float]

# A floor counts as the one a point stands on when its height is this close to the point's.
FLOOR_TOLERANCE = 60.0
# How far a start point that lies just off the mesh (pressed against a wall) may be moved.
START_SNAP = 60.0

_NO_DOORS: frozenset[str] = frozenset()


def pathfinder(world: World) -> PathFinder:
    """The world's path finder (built on the world's first path question)."""
    return world.paths


@dataclass(frozen=True)
class Spot:
    """A thing's place: a 3D point and its storey."""

    point: Point3
    storey: str

    @property
    def xz(self) -> tuple[float, float]:
        """The ground coordinates."""
        return (self.point[0], self.point[2])


def required_args(args: Mapping[str, Any], *names: str) -> tuple[float, ...]:
    """The named numeric arguments an action requires, as floats, checked finite.

    Raises:
        InvalidRequestError: naming a missing or non-finite argument, before anything
            changes (the action schema refuses a missing one first).
    """
    values = finite_args(args, *names)
    missing = [name for name, value in zip(names, values, strict=True) if value is None]
    if missing:
        raise InvalidRequestError(f"{missing[0]} is required")
    return tuple(value for value in values if value is not None)


def finite_args(args: Mapping[str, Any], *names: str) -> tuple[float | None, ...]:
    """The named numeric arguments as floats (None where absent), checked finite.

    Raises:
        InvalidRequestError: naming the argument and its value, before anything changes.
    """
    values = []
    for name in names:
        value = args.get(name)
        if value is not None and not (isinstance(value, int | float)
                                      and math.isfinite(float(value))):
            raise InvalidRequestError(f"{name} must be a finite number, got {value!r}")
        values.append(None if value is None else float(value))
    return tuple(values)


def storey_y(world: World, storey: str) -> float:
    """Floor height of a storey."""
    return world.level.storey(storey).y


def door_segment(world: World, door_id: str) -> Segment:
    """The line of a door or other exit."""
    return world.level.exit(door_id).segment


def segment_mid(seg: Segment) -> tuple[float, float]:
    """Midpoint of a ground segment."""
    (ax, az), (bx, bz) = seg
    return ((ax + bx) / 2, (az + bz) / 2)


def segment_normal(seg: Segment) -> tuple[float, float]:
    """A unit normal of a ground segment (either side)."""
    (ax, az), (bx, bz) = seg
    length = math.hypot(bx - ax, bz - az) or 1.0
    return (-(bz - az) / length, (bx - ax) / length)


def locate(world: World, thing_id: str) -> Spot:
    """Where a character, an object or a door is now.

    Args:
        world: The world.
        thing_id: A character, object or exit id.

    Returns:
        Its spot; a carried object is where its holder is.

    Raises:
        UnknownIdError: when the id names nothing the world knows.
    """
    if thing_id in world.characters:
        actor = world.characters[thing_id]
        return Spot(actor.position, actor.storey)
    if thing_id in world.objects:
        obj = world.objects[thing_id]
        if obj.holder is not None:
            holder = world.actor(obj.holder)
            return Spot(holder.position, holder.storey)
        if obj.x is None or obj.storey is None:
            raise UnknownIdError("placed object", thing_id, sorted(
                o for o, v in world.objects.items() if v.x is not None
            ))
        x, z, storey = obj.spot
        return Spot((x, storey_y(world, storey), z), storey)
    if thing_id in world.level.ids("exit"):
        exit_ = world.level.exit(thing_id)
        storey = world.level.area(exit_.areas[0]).storey
        mx, mz = segment_mid(exit_.segment)
        return Spot((mx, storey_y(world, storey), mz), storey)
    allowed = sorted(world.characters) + sorted(world.objects) + sorted(world.level.ids("exit"))
    raise UnknownIdError("object, door or character", thing_id, allowed)


def on_floor(world: World, point: Point3) -> Point3:
    """A walk's start put on the mesh of its own storey.

    A point a few units off the mesh would otherwise be located on whatever storey has
    floor there (the hall below a landing), and the route would start on that storey.

    Args:
        world: The world.
        point: Where the walk starts (usually the player's position).

    Returns:
        The point itself when floor lies under it at its height, else the nearest floor
        of its storey within START_SNAP, else the point unchanged.
    """
    finder = pathfinder(world)
    if finder.is_walkable(point, FLOOR_TOLERANCE):
        return point
    snap = finder.nearest_reachable(point, None, START_SNAP)
    if snap is None or abs(snap[0][1] - point[1]) > FLOOR_TOLERANCE:
        return point
    return snap[0]


def floor_under(world: World, x: float, z: float, y: float, start: Point3 | None,
                tolerance: float | None = FLOOR_TOLERANCE) -> Point3 | None:
    """The floor point at (x, z) whose height is nearest y, reachable with doors open.

    Several storeys may have floor at one ground point; the one picked is the one whose
    height is nearest y, so a target's y picks its storey.

    Args:
        world: The world.
        x: Ground x.
        z: Ground z.
        y: The height wanted.
        start: Where the walk starts; floor not connected to it (every door open) is
            skipped. None skips the test.
        tolerance: Largest accepted height difference; None accepts any storey.

    Returns:
        The point on the mesh, or None when no such floor is there.
    """
    finder = pathfinder(world)
    allowed = None
    labels: list[int] = []
    if start is not None:
        home = finder.locate(start)
        if home < 0:
            return None
        labels = finder.components(_NO_DOORS)
        allowed = labels[home]
    best = None
    for poly in finder.locator.polygons_at(x, z):
        if allowed is not None and labels[poly] != allowed:
            continue
        h = float(finder.mesh.height_at(poly, x, z))
        gap = abs(h - y)
        if (tolerance is None or gap <= tolerance) and (best is None or gap < best[0]):
            best = (gap, h)
    return None if best is None else (float(x), best[1], float(z))


def floor_near(world: World, point: Point3, radius: float, start: Point3 | None) -> Point3 | None:
    """The nearest floor to a point on the point's own storey, within a radius.

    Args:
        world: The world.
        point: The point; its height names the storey.
        radius: Largest ground distance to move.
        start: Where the walk starts; floor not connected to it (every door open) is
            skipped. None skips the test.

    Returns:
        A point on the mesh, or None when that storey has no such floor near the point.
    """
    snap = pathfinder(world).nearest_reachable(point, start, radius)
    if snap is None or abs(snap[0][1] - point[1]) > FLOOR_TOLERANCE:
        return None
    return snap[0]


def visited_areas(world: World) -> frozenset[str]:
    """Areas the player has stood in this episode, as far as the events tell."""
    pid = world.player.id
    seen = {world.player.area}
    seen.update(e.other for e in world.events if e.kind == "area_entered" and e.subject == pid)
    seen.discard(None)
    return frozenset(seen)


def crossing_order(
    waypoints: tuple[Point3, ...], segment: Segment, y: float, tolerance: float = 60.0
) -> float | None:
    """How far along a route it crosses a ground segment at height y, or None.

    Args:
        waypoints: The route's 3D points.
        segment: The ground segment (a door line).
        y: The floor height of the segment's storey.
        tolerance: How far a leg's heights may be from y and still count.

    Returns:
        Distance along the route to the first crossing, or None when it never crosses.
    """
    (ax, az), (bx, bz) = segment
    walked = 0.0
    for p, q in itertools.pairwise(waypoints):
        leg = math.hypot(q[0] - p[0], q[2] - p[2])
        if min(p[1], q[1]) - tolerance <= y <= max(p[1], q[1]) + tolerance:
            t = _intersect((p[0], p[2]), (q[0], q[2]), (ax, az), (bx, bz))
            if t is not None:
                return walked + t * leg
        walked += leg
    return None


def _intersect(p, q, a, b) -> float | None:
    # Parameter t along p->q where it meets segment a-b (ends included), or None.
    rx, rz = q[0] - p[0], q[1] - p[1]
    sx, sz = b[0] - a[0], b[1] - a[1]
    denom = rx * sz - rz * sx
    if abs(denom) < 1e-12:
        return None
    t = ((a[0] - p[0]) * sz - (a[1] - p[1]) * sx) / denom
    u = ((a[0] - p[0]) * rz - (a[1] - p[1]) * rx) / denom
    eps = 1e-9
    if -eps <= t <= 1 + eps and -eps <= u <= 1 + eps:
        return min(1.0, max(0.0, t))
    return None
