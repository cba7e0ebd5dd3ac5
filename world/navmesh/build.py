"""Build a level's navigation mesh: storey floors, stair ramps, doors on edges.

Building the geometry (`build_soup`) needs only shapely and triangle; the last step
hands the polygons to `NavMesh.from_polygons`, which computes adjacency.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from shapely.geometry import Point, Polygon

from world.level.model import Level
from world.navmesh.build_storey import area_polygons, triangulate_storey
from world.navmesh.mesh import NavMesh
from world.navmesh.stitch import PolygonSoup, merge_convex, ramp_rows
from world.recent import RecentCache


@dataclass(frozen=True)
class StoreyReport:
    """Size of one storey's mesh.

    Attributes:
        storey: Storey id.
        triangles: Triangles of the storey's floor.
        polygons: Polygons after the convex merge (equal to triangles without it).
    """

    storey: str
    triangles: int
    polygons: int


@dataclass(frozen=True)
class BuildReport:
    """What a navmesh build produced.

    Attributes:
        storeys: One report per storey, in level order.
        ramp_polygons: Polygons of every stair ramp together.
    """

    storeys: tuple[StoreyReport, ...]
    ramp_polygons: int

    @property
    def triangles(self) -> int:
        """Triangles over all storey floors."""
        return sum(s.triangles for s in self.storeys)

    @property
    def polygons(self) -> int:
        """Polygons of the whole mesh, ramps included."""
        return sum(s.polygons for s in self.storeys) + self.ramp_polygons


@dataclass(frozen=True)
class BuiltNavMesh:
    """A level's navigation mesh with what the build knows about each polygon.

    Attributes:
        mesh: The navigation mesh.
        places: Per polygon, the id of the area it lies in, or of the stairs whose
            ramp it belongs to. No polygon crosses an exit line, so this is exact.
        report: Sizes per storey.
    """

    mesh: NavMesh
    places: tuple[str, ...]
    report: BuildReport


def _place_of(centroid: tuple[float, float], candidates: dict[str, Polygon]) -> str:
    point = Point(centroid)
    for area_id, polygon in candidates.items():
        if polygon.covers(point):
            return area_id
    # Connectors poke r past the exit line; a sliver's centroid can fall just outside.
    return min(candidates, key=lambda a: candidates[a].distance(point))


def build_soup(level: Level, merge: bool = True) -> tuple[PolygonSoup, BuildReport]:
    """Build the mesh geometry without creating the NavMesh.

    Args:
        level: The level.
        merge: Whether to merge triangles into convex polygons (Hertel-Mehlhorn).

    Returns:
        The polygon soup and the build report.
    """
    r = level.navmesh.agent_radius
    polygons = area_polygons(level.areas)
    soup = PolygonSoup()
    reports = []
    for storey in level.storeys:
        tris = triangulate_storey(level, storey.id, polygons)
        on_storey = {a.id: polygons[a.id] for a in level.areas if a.storey == storey.id}
        centroids = tris.points[tris.triangles].mean(axis=1) if len(tris.triangles) else []
        places = [_place_of((float(c[0]), float(c[1])), on_storey) for c in centroids]
        first = len(soup.polygons)
        soup.add_storey(tris, storey.y, places)
        if merge:
            merge_convex(soup, first, len(soup.polygons))
        reports.append(StoreyReport(storey.id, len(tris.triangles), len(soup.polygons) - first))
    ramp_count = 0
    area_storey = {a.id: a.storey for a in level.areas}
    storey_y = {s.id: s.y for s in level.storeys}
    for stairs in level.stairs:
        rows = ramp_rows(stairs, r)
        low, high = area_storey.get(stairs.bottom.area), area_storey.get(stairs.top.area)
        if rows is None or low is None or high is None:
            continue
        soup.add_ramp(rows, storey_y[low], storey_y[high], (low, high), stairs.id)
        ramp_count += len(rows) - 1
    return soup, BuildReport(tuple(reports), ramp_count)


def one_way_walls(level: Level, mesh: NavMesh, places: tuple[str, ...]) -> frozenset[
    tuple[int, int]
]:
    """The door edges a walker may not leave through: one-way doors from their shut side.

    A one-way door opens only from its `one_way_from` area, so its portal is left only
    from polygons of that area; from the other side it is a wall to the search.

    Args:
        level: The level.
        mesh: Its mesh, with door ids on edges.
        places: The area (or stairs) id of each polygon.

    Returns:
        ``(polygon, edge)`` pairs on the far side of every one-way door.
    """
    allowed = {
        e.id: e.door.one_way_from
        for e in level.exits
        if e.door is not None and e.door.one_way_from is not None
    }
    if not allowed:
        return frozenset()
    return frozenset(
        (p, k)
        for p, row in enumerate(mesh.doors)
        for k, door in enumerate(row)
        if door in allowed and places[p] != allowed[door]
    )


_CACHE: RecentCache[BuiltNavMesh] = RecentCache(16)


def build_navmesh_full(level: Level, merge: bool = True) -> BuiltNavMesh:
    """Build (or fetch from the per-process cache) a level's mesh with its polygon places.

    The cache is keyed on the level's content hash; levels built in code without a
    hash are never cached.

    Args:
        level: The level.
        merge: Whether to merge triangles into convex polygons.

    Returns:
        The mesh, the place of each polygon and the build report.
    """
    if level.content_hash:
        return _CACHE.get((level.content_hash, merge), lambda: _build(level, merge))
    return _build(level, merge)


def _build(level: Level, merge: bool) -> BuiltNavMesh:
    soup, report = build_soup(level, merge)
    mesh = NavMesh.from_polygons(
        np.asarray(soup.points, dtype=float).reshape(-1, 2),
        np.asarray(soup.heights, dtype=float),
        soup.polygons,
        soup.storeys,
        soup.edge_doors,
    )
    places = tuple(soup.places)
    walls = one_way_walls(level, mesh, places)
    if walls:
        mesh = replace(mesh, one_way_walls=walls)
    return BuiltNavMesh(mesh, places, report)


def build_navmesh(level: Level, merge: bool = True) -> NavMesh:
    """Build a level's navigation mesh.

    Args:
        level: The level.
        merge: Whether to merge triangles into convex polygons.

    Returns:
        The navigation mesh; door and hidden-exit edges carry the exit id as door id.
    """
    return build_navmesh_full(level, merge).mesh
