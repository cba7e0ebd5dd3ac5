"""An immutable navigation mesh of convex polygons in the ground plane.

Level coordinates: x and z span the ground plane, y is height (up). Polygons are
stored counter-clockwise in the (x, z) plane read as a standard math plane (x to the
right, z up). Edge ``k`` of a polygon runs from its vertex ``k`` to vertex ``k + 1``
(wrapping), and ``neighbours[p][k]`` is the polygon across that edge (-1 for a wall).

Adjacency is topological: two polygons are neighbours only when they share an edge by
vertex indices. Storeys may overlap in projection, so nothing here ever infers
adjacency from geometry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

WALL = -1


@dataclass(frozen=True)
class NavMesh:
    """Convex walkable polygons with per-vertex heights, doors and storeys.

    Attributes:
        points: (V, 2) float array of vertex plane coordinates (x, z).
        heights: (V,) float array of vertex heights y.
        polygons: Per polygon, its vertex indices in counter-clockwise order.
        neighbours: Per polygon, the polygon across each edge (-1 = wall).
        doors: Per polygon, the door id of each edge (None = not a door).
        storeys: Storey id of each polygon.
        planes: (P, 3) array ``(a, b, c)`` of each polygon's height plane
            ``y = a * x + b * z + c`` (exact for triangles, a least-squares fit for
            larger polygons).
        one_way_walls: ``(polygon, edge)`` pairs that may be entered but never left
            through: the far side of a door that opens from one side only. The
            neighbour tables stay symmetric; searches apply these on top.
    """

    points: np.ndarray
    heights: np.ndarray
    polygons: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    doors: tuple[tuple[str | None, ...], ...]
    storeys: tuple[str, ...]
    planes: np.ndarray
    one_way_walls: frozenset[tuple[int, int]] = frozenset()

    @property
    def polygon_count(self) -> int:
        """Number of polygons."""
        return len(self.polygons)

    @property
    def vertex_count(self) -> int:
        """Number of vertices."""
        return int(self.points.shape[0])

    @property
    def door_ids(self) -> frozenset[str]:
        """Every door id that appears on some edge."""
        return frozenset(d for row in self.doors for d in row if d is not None)

    def height_at(self, polygon: int, x: float, z: float) -> float:
        """Interpolate the floor height of ``polygon`` at plane point (x, z).

        Args:
            polygon: Polygon index.
            x: Plane x coordinate.
            z: Plane z coordinate.

        Returns:
            The height y of the polygon's plane at (x, z).
        """
        a, b, c = self.planes[polygon]
        return float(a * x + b * z + c)

    @classmethod
    def from_polygons(
        cls,
        points_xz: Sequence[Sequence[float]] | np.ndarray,
        heights: Sequence[float] | np.ndarray,
        polygons: Sequence[Sequence[int]],
        storeys: Sequence[str] | str,
        edge_doors: Mapping[tuple[int, int], str] | None = None,
    ) -> NavMesh:
        """Build a mesh and compute adjacency by matching shared edges.

        Args:
            points_xz: (V, 2) vertex plane coordinates (x, z).
            heights: (V,) vertex heights y.
            polygons: Vertex indices of each convex polygon; clockwise input is
                reversed to counter-clockwise.
            storeys: Storey id per polygon, or one id for every polygon.
            edge_doors: Door id per undirected edge, keyed by a vertex index pair
                in either order. Both polygons sharing the edge see the door.

        Returns:
            The mesh.

        Raises:
            ValueError: On malformed input (bad indices, degenerate polygons, an edge
                shared by more than two polygons, or a door on an unknown edge).
        """
        pts = np.asarray(points_xz, dtype=float).reshape(-1, 2)
        hts = np.asarray(heights, dtype=float).reshape(-1)
        if hts.shape[0] != pts.shape[0]:
            raise ValueError(f"{pts.shape[0]} vertices but {hts.shape[0]} heights")
        storey_list = [storeys] * len(polygons) if isinstance(storeys, str) else list(storeys)
        if len(storey_list) != len(polygons):
            raise ValueError(f"{len(polygons)} polygons but {len(storey_list)} storeys")
        polys = [_counter_clockwise(pts, list(poly), i) for i, poly in enumerate(polygons)]
        neighbours = _match_edges(polys)
        doors = _assign_doors(polys, edge_doors or {})
        return cls.from_arrays(pts, hts, polys, neighbours, doors, storey_list)

    @classmethod
    def from_arrays(
        cls,
        points_xz: np.ndarray,
        heights: np.ndarray,
        polygons: Sequence[Sequence[int]],
        neighbours: Sequence[Sequence[int]],
        doors: Sequence[Sequence[str | None]] | None,
        storeys: Sequence[str],
    ) -> NavMesh:
        """Build a mesh whose adjacency is already known (as in mesh files).

        Args:
            points_xz: (V, 2) vertex plane coordinates.
            heights: (V,) vertex heights.
            polygons: Counter-clockwise vertex indices per polygon.
            neighbours: Polygon across each edge ``k`` (vertex k to k + 1), -1 = wall.
            doors: Door id per edge, or None for no doors at all.
            storeys: Storey id per polygon.

        Returns:
            The mesh.
        """
        pts = np.ascontiguousarray(points_xz, dtype=float)
        hts = np.ascontiguousarray(heights, dtype=float)
        pts.setflags(write=False)
        hts.setflags(write=False)
        polys = tuple(tuple(int(v) for v in p) for p in polygons)
        nbrs = tuple(tuple(int(n) for n in row) for row in neighbours)
        door_rows: tuple[tuple[str | None, ...], ...]
        if doors is None:
            door_rows = tuple((None,) * len(p) for p in polys)
        else:
            door_rows = tuple(tuple(row) for row in doors)
        planes = _fit_planes(pts, hts, polys)
        planes.setflags(write=False)
        return cls(pts, hts, polys, nbrs, door_rows, tuple(storeys), planes)


def _counter_clockwise(pts: np.ndarray, poly: list[int], index: int) -> list[int]:
    if len(poly) < 3:
        raise ValueError(f"polygon {index} has {len(poly)} vertices; at least 3 needed")
    if min(poly) < 0 or max(poly) >= len(pts):
        raise ValueError(f"polygon {index} refers to a vertex outside 0..{len(pts) - 1}")
    xy = pts[poly]
    area2 = float(np.sum(xy[:, 0] * np.roll(xy[:, 1], -1) - np.roll(xy[:, 0], -1) * xy[:, 1]))
    if area2 == 0.0:
        raise ValueError(f"polygon {index} has zero area")
    return poly if area2 > 0 else poly[::-1]


def _match_edges(polys: list[list[int]]) -> list[list[int]]:
    # A directed edge (u, v) of one polygon matches the reversed edge (v, u) of its
    # neighbour; keying by the unordered pair also catches inconsistent windings.
    owners: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for p, poly in enumerate(polys):
        n = len(poly)
        for k in range(n):
            u, v = poly[k], poly[(k + 1) % n]
            owners.setdefault((min(u, v), max(u, v)), []).append((p, k))
    neighbours = [[WALL] * len(poly) for poly in polys]
    for key, users in owners.items():
        if len(users) > 2:
            raise ValueError(f"edge {key} is shared by more than two polygons")
        if len(users) == 2:
            (p, k), (q, j) = users
            neighbours[p][k] = q
            neighbours[q][j] = p
    return neighbours


def _assign_doors(
    polys: list[list[int]], edge_doors: Mapping[tuple[int, int], str]
) -> list[list[str | None]]:
    wanted = {(min(u, v), max(u, v)): door for (u, v), door in edge_doors.items()}
    found: set[tuple[int, int]] = set()
    doors: list[list[str | None]] = []
    for poly in polys:
        n = len(poly)
        row: list[str | None] = []
        for k in range(n):
            u, v = poly[k], poly[(k + 1) % n]
            key = (min(u, v), max(u, v))
            row.append(wanted.get(key))
            if key in wanted:
                found.add(key)
        doors.append(row)
    missing = set(wanted) - found
    if missing:
        raise ValueError(f"door edges not in any polygon: {sorted(missing)}")
    return doors


def _fit_planes(pts: np.ndarray, hts: np.ndarray, polys: tuple[tuple[int, ...], ...]) -> np.ndarray:
    planes = np.zeros((len(polys), 3), dtype=float)
    for i, poly in enumerate(polys):
        idx = list(poly)
        y = hts[idx]
        if np.all(y == y[0]):
            planes[i] = (0.0, 0.0, y[0])
            continue
        # Least squares through all vertices; exact for triangles and planar polygons.
        a = np.column_stack([pts[idx], np.ones(len(idx))])
        planes[i] = np.linalg.lstsq(a, y, rcond=None)[0]
    return planes
