"""Level checks on shapes: outlines, overlaps, exits, stairs and placement on the floor.

Polygons must be simple and areas of one storey must not overlap; exits and stair ends
lie on area boundaries and are wide enough for the agent; things stand in their areas.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from shapely.geometry import LinearRing, LineString, MultiPoint, Point, Polygon

from world.level.model import Level, Place
from world.levelcheck.refs import Problem
from world.navmesh.build_storey import eroded, walkable_region

# Distances below this (world units) count as zero: points on a boundary, equal lengths.
TOLERANCE = 1e-3


def polygon_problem(points: Sequence[tuple[float, float]]) -> str | None:
    """What makes an outline not a simple polygon, or None when it is one.

    Args:
        points: The outline's points, without repeating the first.

    Returns:
        A message, or None.
    """
    seen: dict[tuple[float, float], int] = {}
    for i, p in enumerate(points):
        if p in seen:
            return f"point {i} repeats point {seen[p]} {list(p)}"
        seen[p] = i
    ring = LinearRing(points)
    # All points on one line: zero area, which GEOS would also call "not simple".
    if MultiPoint(points).convex_hull.area <= TOLERANCE:
        return "the polygon has zero area"
    if not ring.is_simple:
        return "the polygon's edges cross each other (it is not simple)"
    if Polygon(ring).area <= TOLERANCE:
        return "the polygon has zero area"
    return None


def _outline_problems(level: Level) -> list[Problem]:
    problems = []
    for array in ("areas", "hazards"):
        for i, item in enumerate(getattr(level, array)):
            message = polygon_problem(item.polygon)
            if message is not None:
                problems.append((f"$.{array}[{i}].polygon", message))
    return problems


def _overlap_problems(level: Level, shapes: dict[str, Polygon]) -> list[Problem]:
    problems = []
    for j, b in enumerate(level.areas):
        for i, a in enumerate(level.areas[:j]):
            if a.storey != b.storey:
                continue
            shared = shapes[a.id].intersection(shapes[b.id]).area
            if shared > TOLERANCE:
                message = f"overlaps area {a.id!r} ($.areas[{i}]) by {shared:g} square units"
                problems.append((f"$.areas[{j}].polygon", message))
    return problems


def on_boundary(segment: Sequence[tuple[float, float]], polygon: Polygon) -> bool:
    """Whether a segment lies along a polygon's boundary.

    Args:
        segment: Two end points.
        polygon: The polygon.

    Returns:
        True when every point of the segment is within the tolerance of the boundary.
    """
    return polygon.boundary.buffer(TOLERANCE).covers(LineString(segment))


def _exit_problems(level: Level, shapes: dict[str, Polygon]) -> list[Problem]:
    r = level.navmesh.agent_radius
    storey = {a.id: a.storey for a in level.areas}
    problems = []
    for i, exit_ in enumerate(level.exits):
        path = f"$.exits[{i}]"
        a, b = exit_.areas
        if storey[a] != storey[b]:
            where = f"{a!r} on {storey[a]!r}, {b!r} on {storey[b]!r}"
            message = f"joins areas on different storeys ({where})"
            problems.append((f"{path}.areas", message))
        for area in dict.fromkeys(exit_.areas):
            if not on_boundary(exit_.segment, shapes[area]):
                message = f"does not lie on the boundary of area {area!r}"
                problems.append((f"{path}.segment", message))
        width = math.dist(*exit_.segment)
        if exit_.walkable and width <= 2 * r:
            message = f"doorway is {width:g} wide; the agent needs more than {2 * r:g} (2 x radius)"
            problems.append((f"{path}.segment", message))
    return problems


def _stairs_problems(level: Level, shapes: dict[str, Polygon]) -> list[Problem]:
    r = level.navmesh.agent_radius
    storey = {a.id: a.storey for a in level.areas}
    height = {s.id: s.y for s in level.storeys}
    problems = []
    for i, stairs in enumerate(level.stairs):
        path = f"$.stairs[{i}]"
        for name, end in (("bottom", stairs.bottom), ("top", stairs.top)):
            if not on_boundary(end.edge, shapes[end.area]):
                message = f"does not lie on the boundary of area {end.area!r}"
                problems.append((f"{path}.{name}.edge", message))
            if math.dist(*end.edge) <= 2 * r:
                message = f"is {math.dist(*end.edge):g} wide; the agent needs more than {2 * r:g}"
                problems.append((f"{path}.{name}.edge", message))
        low, high = storey[stairs.bottom.area], storey[stairs.top.area]
        if low == high:
            problems.append((path, f"both ends are on storey {low!r}; stairs join two storeys"))
        elif height[low] >= height[high]:
            problems.append((path, f"the bottom storey {low!r} is not below the top {high!r}"))
        lengths = math.dist(*stairs.bottom.edge), math.dist(*stairs.top.edge)
        if abs(lengths[0] - lengths[1]) > TOLERANCE:
            message = f"the top edge is {lengths[1]:g} long but the bottom edge {lengths[0]:g}"
            problems.append((f"{path}.top.edge", message))
    return problems


def _places(level: Level) -> list[tuple[str, Place, bool]]:
    """(path, place, must stand on walkable floor) for everything placed in an area."""
    found: list[tuple[str, Place, bool]] = []
    for i, obj in enumerate(level.objects):
        if obj.area is not None and obj.at is not None:
            found.append((f"$.objects[{i}].at", Place(area=obj.area, at=obj.at), False))
    for i, character in enumerate(level.characters):
        place = Place(area=character.area, at=character.at)
        found.append((f"$.characters[{i}].at", place, True))
        for k, step in enumerate(character.route):
            found.append((f"$.characters[{i}].route[{k}].at", step, True))
    found.append(("$.start.at", Place(area=level.start.area, at=level.start.at), True))
    for k, place in enumerate(level.start.alternatives):
        found.append((f"$.start.alternatives[{k}].at", place, True))
    for k, start in enumerate(level.match.starts if level.match is not None else ()):
        found.append((f"$.match.starts[{k}].at", Place(area=start.area, at=start.at), True))
    for i, objective in enumerate(level.objectives):
        for k, place in enumerate(objective.points):
            found.append((f"$.objectives[{i}].points[{k}].at", place, False))
    return found


def _floor_problems(level: Level, shapes: dict[str, Polygon]) -> list[Problem]:
    r = level.navmesh.agent_radius
    storey = {a.id: a.storey for a in level.areas}
    floors = {s.id: walkable_region(level, s.id, shapes)[0] for s in level.storeys}
    problems = []
    for path, place, walker in _places(level):
        point = Point(place.at)
        if not shapes[place.area].buffer(TOLERANCE).covers(point):
            problems.append((path, f"{list(place.at)} is not inside area {place.area!r}"))
        elif walker and floors[storey[place.area]].distance(point) > r + TOLERANCE:
            message = f"{list(place.at)} is more than the agent radius from the walkable floor"
            problems.append((path, message))
    for i, area in enumerate(level.areas):
        floor = eroded(shapes[area.id], r)
        pieces = len(getattr(floor, "geoms", [floor])) if not floor.is_empty else 0
        if pieces == 0:
            message = f"area {area.id!r} has no walkable floor: it is nowhere wider than {2 * r:g}"
            problems.append((f"$.areas[{i}].polygon", message))
        elif pieces > 1:
            message = f"the walkable floor of area {area.id!r} falls apart into {pieces} pieces"
            problems.append((f"$.areas[{i}].polygon", message))
    return problems


def geometry_problems(level: Level) -> list[Problem]:
    """Every shape problem of a level whose references resolve.

    Outline problems stop the later checks, which need valid polygons.

    Args:
        level: The level.

    Returns:
        The problems found.
    """
    problems = _outline_problems(level)
    if problems:
        return problems
    shapes = {a.id: Polygon(a.polygon) for a in level.areas}
    problems += _overlap_problems(level, shapes)
    problems += _exit_problems(level, shapes)
    problems += _stairs_problems(level, shapes)
    problems += _floor_problems(level, shapes)
    return problems
