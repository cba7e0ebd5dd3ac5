"""Join storey triangulations and stair ramps into one polygon soup, and merge triangles.

Vertices are merged by (x, z, y), so floors that overlap in projection never share a
vertex, while a ramp's end row meets its storey's connector edge exactly.
The optional convex merge is Hertel-Mehlhorn: remove diagonals while both corners they
touch stay convex, never across a door or exit line, a storey or a ramp.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import LineString

from world.level.model import Stairs
from world.navmesh.build_storey import StoreyTriangles, Vec, narrowed

Key = tuple[float, float, float]


@dataclass
class PolygonSoup:
    """Polygons over shared vertices, ready for NavMesh.from_polygons.

    Attributes:
        points: Vertex (x, z) coordinates.
        heights: Vertex heights.
        polygons: Vertex indices per polygon.
        storeys: Storey id per polygon.
        places: Area id (or stairs id on a ramp) per polygon.
        edge_doors: Door id per undirected vertex pair.
        cut_edges: Vertex pairs the convex merge must keep.
    """

    points: list[tuple[float, float]] = field(default_factory=list)
    heights: list[float] = field(default_factory=list)
    polygons: list[list[int]] = field(default_factory=list)
    storeys: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    edge_doors: dict[tuple[int, int], str] = field(default_factory=dict)
    cut_edges: set[tuple[int, int]] = field(default_factory=set)
    _index: dict[Key, int] = field(default_factory=dict)

    def vertex(self, x: float, z: float, y: float) -> int:
        """Index of the vertex at (x, z, y), adding it when new.

        Args:
            x: Plane x.
            z: Plane z.
            y: Height.

        Returns:
            The vertex index.
        """
        key = (round(x, 6), round(z, 6), round(y, 6))
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.points)
            self.points.append((float(x), float(z)))
            self.heights.append(float(y))
        return found

    def add_storey(self, tris: StoreyTriangles, y: float, places: list[str]) -> None:
        """Add one storey's triangles at height y.

        Args:
            tris: The storey triangulation.
            y: The storey's floor height.
            places: Area id per triangle.
        """
        remap = [self.vertex(float(x), float(z), y) for x, z in tris.points]
        for tri, place in zip(tris.triangles, places, strict=True):
            self.polygons.append([remap[int(v)] for v in tri])
            self.storeys.append(tris.storey)
            self.places.append(place)

        def glob(pair: tuple[int, int]) -> tuple[int, int]:
            u, v = remap[pair[0]], remap[pair[1]]
            return (min(u, v), max(u, v))

        for pair, door in tris.door_edges.items():
            self.edge_doors[glob(pair)] = door
        self.cut_edges.update(glob(pair) for pair in tris.cut_edges)

    def add_ramp(
        self,
        rows: list[tuple[tuple[float, float], tuple[float, float], float]],
        y_bottom: float,
        y_top: float,
        storeys: tuple[str, str],
        stairs_id: str,
    ) -> None:
        """Add a ramp as quads between consecutive cross-sections.

        Args:
            rows: ``(left, right, t)`` per cross-section, bottom first.
            y_bottom: Height at t = 0.
            y_top: Height at t = 1.
            storeys: Bottom and top storey ids; each quad takes the nearer one.
            stairs_id: Id of the stairs, recorded as the quads' place.
        """
        ids = []
        for left, right, t in rows:
            y = y_bottom + t * (y_top - y_bottom)
            ids.append((self.vertex(*left, y), self.vertex(*right, y), t))
        for (a0, a1, t0), (b0, b1, t1) in itertools.pairwise(ids):
            self.polygons.append([a0, a1, b1, b0])
            self.storeys.append(storeys[0] if (t0 + t1) / 2 < 0.5 else storeys[1])
            self.places.append(stairs_id)
            # Ramp rows are cut so merging never reaches across a storey change.
            self.cut_edges.add((min(a0, a1), max(a0, a1)))
            self.cut_edges.add((min(b0, b1), max(b0, b1)))


def _lerp(a: Vec, b: Vec, t: float) -> Vec:
    return a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])


def ramp_rows(
    stairs: Stairs, r: float, spacing: float = 150.0
) -> list[tuple[Vec, Vec, float]] | None:
    """Cross-sections of a ramp from bottom (t=0) to top (t=1), narrowed by r.

    Args:
        stairs: The stairs.
        r: Agent radius.
        spacing: Greatest distance between consecutive rows.

    Returns:
        ``(left, right, t)`` per row, or None when an end is not wider than 2r.
    """
    top_edge = stairs.top.edge
    # Pair the ends so the two ramp sides do not cross.
    side_a = LineString([stairs.bottom.edge[0], top_edge[0]])
    side_b = LineString([stairs.bottom.edge[1], top_edge[1]])
    if side_a.crosses(side_b):
        top_edge = (top_edge[1], top_edge[0])
    bottom, top = narrowed(stairs.bottom.edge, r), narrowed(top_edge, r)
    if bottom is None or top is None:
        return None
    mid_bottom = _lerp(bottom[0], bottom[1], 0.5)
    mid_top = _lerp(top[0], top[1], 0.5)
    n = max(2, math.ceil(math.dist(mid_bottom, mid_top) / spacing))
    rows = [(bottom[0], bottom[1], 0.0)]
    for i in range(1, n):
        t = i / n
        rows.append((_lerp(bottom[0], top[0], t), _lerp(bottom[1], top[1], t), t))
    rows.append((top[0], top[1], 1.0))
    return rows


def _cross(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    return float((a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]))


def _convex_at(pts: np.ndarray, poly: list[int], i: int) -> bool:
    n = len(poly)
    return _cross(pts[poly[i - 1]], pts[poly[i]], pts[poly[(i + 1) % n]]) >= -1e-9


def merge_convex(soup: PolygonSoup, first: int, stop: int) -> None:
    """Hertel-Mehlhorn merge of counter-clockwise triangles soup.polygons[first:stop].

    Diagonals are tried longest first, which tends to leave fewer, rounder polygons.
    Polygons of different places (areas) are never merged, nor across cut edges.

    Args:
        soup: The soup, changed in place.
        first: Index of the first triangle to consider.
        stop: One past the last triangle to consider.
    """
    pts = np.asarray(soup.points, dtype=float)
    polys: dict[int, list[int]] = {i: list(soup.polygons[i]) for i in range(first, stop)}
    owner: dict[tuple[int, int], int] = {}
    for pid, poly in polys.items():
        for k in range(len(poly)):
            owner[(poly[k], poly[(k + 1) % len(poly)])] = pid
    diagonals = [
        (u, v)
        for (u, v), p in owner.items()
        if u < v
        and (v, u) in owner
        and (u, v) not in soup.cut_edges
        and soup.places[p] == soup.places[owner[(v, u)]]
    ]
    diagonals.sort(key=lambda e: -float(np.hypot(*(pts[e[0]] - pts[e[1]]))))
    for u, v in diagonals:
        p, q = owner.get((u, v)), owner.get((v, u))
        if p is None or q is None or p == q:
            continue
        a, b = polys[p], polys[q]
        # p holds u -> v; walk p from v round to u, then q from u round to v.
        i = a.index(v)
        merged = a[i:] + a[:i]  # starts at v, ends at u
        j = b.index(u)
        rest = b[j:] + b[:j]  # starts at u, ends at v
        merged = merged + rest[1:-1]
        iu, iv = merged.index(u), 0
        if not (_convex_at(pts, merged, iu) and _convex_at(pts, merged, iv)):
            continue
        polys[p] = merged
        del polys[q]
        del owner[(u, v)], owner[(v, u)]
        for k in range(len(merged)):
            owner[(merged[k], merged[(k + 1) % len(merged)])] = p
    kept = sorted(polys)
    soup.polygons[first:stop] = [polys[p] for p in kept]
    soup.storeys[first:stop] = [soup.storeys[p] for p in kept]
    soup.places[first:stop] = [soup.places[p] for p in kept]
