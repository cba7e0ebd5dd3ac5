"""Walkable floor of one storey and its constrained triangulation.

The floor is every area eroded by the agent radius, joined by connector rectangles
across walkable exits and at stair ends. Each exit's centre line inside its connector is
a constraint segment, so a door is a set of mesh edges and no triangle straddles an
exit: every triangle lies within exactly one area.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
import triangle
from shapely.geometry import LineString, Point, Polygon

from world.level.model import Area, Exit, Level

Vec = tuple[float, float]

# How far past the radius a connector reaches into each area, so that it overlaps the
# eroded floor by a positive amount and the union is a single piece.
CONNECTOR_OVERLAP = 1.0
# Points closer than this (world units) are one vertex.
SNAP = 1e-6


@dataclass(frozen=True)
class CentreLine:
    """An exit's centre line across its connector: a constraint segment of the mesh.

    Attributes:
        exit_id: Id of the exit.
        door: Door id for the edges on this line (None for plain openings).
        start: One end point on the exit line, narrowed by the agent radius.
        end: The other end point.
    """

    exit_id: str
    door: str | None
    start: Vec
    end: Vec


@dataclass(frozen=True)
class StoreyTriangles:
    """The triangulated walkable floor of one storey.

    Attributes:
        storey: Storey id.
        points: (V, 2) vertex coordinates (x, z).
        triangles: (T, 3) vertex indices, counter-clockwise.
        door_edges: Door id per undirected vertex pair lying on a door's centre line.
        cut_edges: Every vertex pair on any exit centre line (doors and openings); the
            convex merge never removes these edges.
    """

    storey: str
    points: np.ndarray
    triangles: np.ndarray
    door_edges: dict[tuple[int, int], str]
    cut_edges: frozenset[tuple[int, int]]


def unit(a: Vec, b: Vec) -> tuple[Vec, float]:
    """Unit direction from a to b and the distance between them.

    Args:
        a: Start point.
        b: End point.

    Returns:
        ``((dx, dz), length)``; the direction is (0, 0) for coincident points.
    """
    dx, dz = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dz)
    if length == 0.0:
        return (0.0, 0.0), 0.0
    return (dx / length, dz / length), length


def narrowed(segment: Sequence[Vec], r: float) -> tuple[Vec, Vec] | None:
    """The segment shortened by r at both ends, or None when nothing is left.

    Stairs and storeys both call this, so the shared end points of a ramp and its
    connector come out bit-identical.

    Args:
        segment: Two end points.
        r: Agent radius.

    Returns:
        The shortened segment, or None when the segment is not longer than 2r.
    """
    a, b = segment
    (dx, dz), length = unit(a, b)
    if length <= 2 * r:
        return None
    return (a[0] + dx * r, a[1] + dz * r), (b[0] - dx * r, b[1] - dz * r)


def inward_normal(segment: Sequence[Vec], polygon: Polygon) -> Vec:
    """The unit normal of a boundary segment pointing into the polygon.

    Args:
        segment: A segment on the polygon's boundary.
        polygon: The polygon.

    Returns:
        The normal (x, z); the left normal when neither side tests inside.
    """
    (dx, dz), length = unit(*segment)
    nx, nz = -dz, dx
    mx = (segment[0][0] + segment[1][0]) / 2
    mz = (segment[0][1] + segment[1][1]) / 2
    probe = max(1e-3, min(1.0, length * 1e-3))
    if polygon.contains(Point(mx + nx * probe, mz + nz * probe)):
        return nx, nz
    if polygon.contains(Point(mx - nx * probe, mz - nz * probe)):
        return -nx, -nz
    return nx, nz


def _rectangle(a: Vec, b: Vec, normal: Vec, near: float, far: float) -> Polygon:
    nx, nz = normal
    return Polygon(
        [
            (a[0] + nx * near, a[1] + nz * near),
            (b[0] + nx * near, b[1] + nz * near),
            (b[0] + nx * far, b[1] + nz * far),
            (a[0] + nx * far, a[1] + nz * far),
        ]
    )


def exit_connector(exit_: Exit, r: float) -> tuple[Polygon, CentreLine] | None:
    """Connector rectangle across a walkable exit and its centre line.

    Args:
        exit_: A walkable exit (opening or door, hidden or not).
        r: Agent radius.

    Returns:
        The rectangle and centre line, or None when the gap is not wider than 2r.
    """
    ends = narrowed(exit_.segment, r)
    if ends is None:
        return None
    (dx, dz), _ = unit(*exit_.segment)
    reach = r + CONNECTOR_OVERLAP
    rect = _rectangle(ends[0], ends[1], (-dz, dx), -reach, reach)
    door = exit_.id if exit_.kind == "door" or exit_.hidden else None
    return rect, CentreLine(exit_.id, door, ends[0], ends[1])


def stair_connector(edge: Sequence[Vec], area: Polygon, r: float) -> Polygon | None:
    """Rectangle from a stair end edge into its area, narrowed by r on each side.

    Args:
        edge: The stair end edge on the area's boundary.
        area: The area's polygon.
        r: Agent radius.

    Returns:
        The rectangle, or None when the edge is not longer than 2r.
    """
    ends = narrowed(edge, r)
    if ends is None:
        return None
    return _rectangle(ends[0], ends[1], inward_normal(edge, area), 0.0, r + CONNECTOR_OVERLAP)


def eroded(polygon: Polygon, r: float) -> shapely.Geometry:
    """An area's floor shrunk by the agent radius (mitred corners stay square).

    Args:
        polygon: The area's outline.
        r: Agent radius.

    Returns:
        The eroded (possibly empty or multi-part) floor.
    """
    return polygon.buffer(-r, join_style="mitre")


def walkable_region(
    level: Level, storey: str, area_polygons: dict[str, Polygon]
) -> tuple[shapely.Geometry, list[CentreLine]]:
    """The walkable floor of one storey and the exit centre lines on it.

    Args:
        level: The level.
        storey: Storey id.
        area_polygons: Shapely polygon per area id.

    Returns:
        The union of eroded areas and connectors, and the centre lines.
    """
    r = level.navmesh.agent_radius
    on_storey = {a.id for a in level.areas if a.storey == storey}
    pieces = [eroded(area_polygons[a], r) for a in sorted(on_storey)]
    lines: list[CentreLine] = []
    for exit_ in level.exits:
        if not exit_.walkable or not set(exit_.areas) <= on_storey:
            continue
        made = exit_connector(exit_, r)
        if made is not None:
            pieces.append(made[0])
            lines.append(made[1])
    for stairs in level.stairs:
        for end in (stairs.bottom, stairs.top):
            if end.area in on_storey:
                rect = stair_connector(end.edge, area_polygons[end.area], r)
                if rect is not None:
                    pieces.append(rect)
    region = shapely.union_all([p for p in pieces if not p.is_empty])
    return region, lines


def _parts(region: shapely.Geometry) -> list[Polygon]:
    if region.is_empty:
        return []
    if isinstance(region, Polygon):
        return [region]
    return [g for g in getattr(region, "geoms", []) if isinstance(g, Polygon) and g.area > 0]


def _ring_with_points(ring: Iterable[Vec], extra: list[Vec]) -> list[Vec]:
    """Ring coordinates (open) with each extra point inserted into the edge it lies on."""
    coords = [(float(x), float(z)) for x, z in ring][:-1]
    # A point outside the edge's box grown by twice the on-edge distance is off the edge
    # whatever shapely's rounding: only the few inside are measured (each a shapely call).
    grow = SNAP * 200
    out: list[Vec] = []
    for i, a in enumerate(coords):
        b = coords[(i + 1) % len(coords)]
        out.append(a)
        low_x, high_x = min(a[0], b[0]) - grow, max(a[0], b[0]) + grow
        low_z, high_z = min(a[1], b[1]) - grow, max(a[1], b[1]) + grow
        boxed = [p for p in extra if low_x <= p[0] <= high_x and low_z <= p[1] <= high_z]
        if not boxed:
            continue
        edge = LineString([a, b])
        on_edge = [
            p
            for p in boxed
            if edge.distance(Point(p)) < SNAP * 100
            and math.dist(p, a) > SNAP
            and math.dist(p, b) > SNAP
        ]
        out.extend(sorted(on_edge, key=lambda p: math.dist(a, p)))
    return out


def triangulate_part(part: Polygon, lines: list[CentreLine]) -> tuple[np.ndarray, np.ndarray]:
    """Constrained triangulation of one connected piece of walkable floor.

    Args:
        part: A polygon, possibly with holes.
        lines: Centre lines; those whose ends lie on this part become constraints.

    Returns:
        ``(points, triangles)`` with no Steiner points added.
    """
    ends = [p for line in lines for p in (line.start, line.end)]
    rings = [part.exterior, *part.interiors]
    vertices: list[Vec] = []
    index: dict[tuple[float, float], int] = {}
    segments: list[tuple[int, int]] = []

    def vertex(p: Vec) -> int:
        key = (round(p[0], 6), round(p[1], 6))
        if key not in index:
            index[key] = len(vertices)
            vertices.append(p)
        return index[key]

    for ring in rings:
        ids = [vertex(p) for p in _ring_with_points(ring.coords, ends)]
        segments.extend(
            (ids[i], ids[(i + 1) % len(ids)])
            for i in range(len(ids))
            if ids[i] != ids[(i + 1) % len(ids)]
        )
    for line in lines:
        if part.buffer(SNAP * 100).covers(LineString([line.start, line.end])):
            segments.append((vertex(line.start), vertex(line.end)))
    data: dict[str, np.ndarray] = {
        "vertices": np.asarray(vertices, dtype=float),
        "segments": np.asarray(segments, dtype=np.int32),
    }
    holes = [Polygon(ring).representative_point() for ring in part.interiors]
    if holes:
        data["holes"] = np.asarray([(h.x, h.y) for h in holes], dtype=float)
    out = triangle.triangulate(data, "pYQ")
    return np.asarray(out["vertices"], dtype=float), np.asarray(out["triangles"], dtype=np.int64)


def _ccw(points: np.ndarray, tris: np.ndarray) -> np.ndarray:
    a, b, c = points[tris[:, 0]], points[tris[:, 1]], points[tris[:, 2]]
    cross = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    tris = tris[np.abs(cross) > 1e-12].copy()
    flip = cross[np.abs(cross) > 1e-12] < 0
    tris[flip] = tris[flip][:, [0, 2, 1]]
    return tris


def _on_line(points: np.ndarray, line: CentreLine) -> set[int]:
    (dx, dz), length = unit(line.start, line.end)
    rel = points - np.asarray(line.start)
    along = rel[:, 0] * dx + rel[:, 1] * dz
    across = np.abs(rel[:, 0] * -dz + rel[:, 1] * dx)
    hit = (across < SNAP * 100) & (along > -SNAP * 100) & (along < length + SNAP * 100)
    return {int(i) for i in np.flatnonzero(hit)}


def triangulate_storey(
    level: Level, storey: str, area_polygons: dict[str, Polygon]
) -> StoreyTriangles:
    """Triangulate the walkable floor of one storey.

    Args:
        level: The level.
        storey: Storey id.
        area_polygons: Shapely polygon per area id.

    Returns:
        The storey's triangles with door and exit-line edges marked.
    """
    region, lines = walkable_region(level, storey, area_polygons)
    all_points: list[np.ndarray] = []
    all_tris: list[np.ndarray] = []
    offset = 0
    for part in _parts(region):
        points, tris = triangulate_part(part, lines)
        all_points.append(points)
        all_tris.append(_ccw(points, tris) + offset)
        offset += len(points)
    points = np.concatenate(all_points) if all_points else np.zeros((0, 2))
    tris = np.concatenate(all_tris) if all_tris else np.zeros((0, 3), dtype=np.int64)
    door_edges: dict[tuple[int, int], str] = {}
    cut: set[tuple[int, int]] = set()
    for line in lines:
        on = _on_line(points, line)
        for tri in tris:
            for k in range(3):
                u, v = int(tri[k]), int(tri[(k + 1) % 3])
                if u in on and v in on:
                    key = (min(u, v), max(u, v))
                    cut.add(key)
                    if line.door is not None:
                        door_edges[key] = line.door
    return StoreyTriangles(storey, points, tris, door_edges, frozenset(cut))


def area_polygons(areas: Iterable[Area]) -> dict[str, Polygon]:
    """Shapely polygon per area id.

    Args:
        areas: The level's areas.

    Returns:
        Mapping from area id to its polygon.
    """
    return {a.id: Polygon(a.polygon) for a in areas}
