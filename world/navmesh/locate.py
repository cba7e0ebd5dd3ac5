"""Fast point location on a NavMesh with a uniform grid over polygon bounding boxes."""

from __future__ import annotations

import math

import numpy as np

from world.navmesh.mesh import NavMesh
from world.navmesh.search_trace import Side, edge_sides


class PointLocator:
    """Answers "which polygon contains this point" for one mesh.

    The grid is built once; a query tests only the polygons whose bounding boxes
    overlap the query's grid cell. Points on a polygon's boundary (within a small
    tolerance) count as inside.
    """

    def __init__(self, mesh: NavMesh, cells_per_polygon: float = 2.0) -> None:
        """Build the grid.

        Args:
            mesh: The mesh to index.
            cells_per_polygon: Target ratio of grid cells to polygons.
        """
        self.mesh = mesh
        pts = mesh.points
        lo = pts.min(axis=0)
        hi = pts.max(axis=0)
        extent = float(max(hi[0] - lo[0], hi[1] - lo[1], 1e-9))
        # Tolerance scales with the map so boundary points survive rounding.
        self.eps = 1e-9 * (1.0 + extent)
        n_poly = max(mesh.polygon_count, 1)
        span_x = float(hi[0] - lo[0]) or 1.0
        span_z = float(hi[1] - lo[1]) or 1.0
        cell = math.sqrt(span_x * span_z / (cells_per_polygon * n_poly))
        self._nx = max(1, min(1024, math.ceil(span_x / cell)))
        self._nz = max(1, min(1024, math.ceil(span_z / cell)))
        self._x0, self._z0 = float(lo[0]), float(lo[1])
        self._sx = self._nx / span_x
        self._sz = self._nz / span_z
        self._edges: list[tuple[tuple[float, float, float, float, float], ...]] = []
        boxes = np.zeros((n_poly, 4), dtype=float)
        for p, poly in enumerate(mesh.polygons):
            xy = pts[list(poly)]
            boxes[p] = (*xy.min(axis=0), *xy.max(axis=0))
            edges = []
            for k in range(len(poly)):
                ax, az = xy[k]
                bx, bz = xy[(k + 1) % len(poly)]
                dx, dz = bx - ax, bz - az
                edges.append((float(ax), float(az), float(dx), float(dz), math.hypot(dx, dz)))
            self._edges.append(tuple(edges))
        # Each side with its limit `-eps * length` worked out once, for the containment
        # test run on every candidate polygon of every point located; the path search
        # walks segments over the same table.
        self.sides: list[tuple[Side, ...]] = edge_sides(
            [float(v) for v in pts[:, 0]], [float(v) for v in pts[:, 1]],
            list(mesh.polygons), self.eps)
        self.boxes = boxes
        i0 = self._cell_x(boxes[:, 0] - self.eps)
        i1 = self._cell_x(boxes[:, 2] + self.eps)
        j0 = self._cell_z(boxes[:, 1] - self.eps)
        j1 = self._cell_z(boxes[:, 3] + self.eps)
        cells: list[list[int]] = [[] for _ in range(self._nx * self._nz)]
        for p in range(mesh.polygon_count):
            for i in range(int(i0[p]), int(i1[p]) + 1):
                base = i * self._nz
                for j in range(int(j0[p]), int(j1[p]) + 1):
                    cells[base + j].append(p)
        self._cells = [tuple(c) for c in cells]

    def _cell_x(self, x: np.ndarray) -> np.ndarray:
        return np.clip(((x - self._x0) * self._sx).astype(int), 0, self._nx - 1)

    def _cell_z(self, z: np.ndarray) -> np.ndarray:
        return np.clip(((z - self._z0) * self._sz).astype(int), 0, self._nz - 1)

    def _cell(self, x: float, z: float) -> tuple[int, ...]:
        i = int((x - self._x0) * self._sx)
        j = int((z - self._z0) * self._sz)
        if i < 0 or j < 0 or i >= self._nx or j >= self._nz:
            # Points just outside the box may still be on a boundary within eps.
            i = min(max(i, 0), self._nx - 1)
            j = min(max(j, 0), self._nz - 1)
        return self._cells[i * self._nz + j]

    def contains(self, polygon: int, x: float, z: float) -> bool:
        """Whether ``polygon`` contains (x, z), boundary included.

        Args:
            polygon: Polygon index.
            x: Plane x.
            z: Plane z.

        Returns:
            True when the point is inside or within the tolerance of the boundary.
        """
        for _k, ax, az, dx, dz, limit in self.sides[polygon]:
            if dx * (z - az) - dz * (x - ax) < limit:
                return False
        return True

    def polygons_at(self, x: float, z: float) -> list[int]:
        """Every polygon containing (x, z), on any storey.

        Args:
            x: Plane x.
            z: Plane z.

        Returns:
            Polygon indices in ascending order (several on shared boundaries or where
            storeys overlap).
        """
        # `contains` written out: this runs for every candidate of every point located.
        sides = self.sides
        found = []
        for p in self._cell(x, z):
            for _k, ax, az, dx, dz, limit in sides[p]:
                if dx * (z - az) - dz * (x - ax) < limit:
                    break
            else:
                found.append(p)
        return found

    def locate(self, x: float, z: float, y: float | None = None) -> int:
        """Find the polygon containing (x, z).

        Where several polygons contain the point (overlapping storeys), the one whose
        interpolated floor height is closest to ``y`` wins; without ``y`` the lowest
        floor wins, since a point given without height is most often on the ground.

        Args:
            x: Plane x.
            z: Plane z.
            y: Optional height used to choose between overlapping storeys.

        Returns:
            The polygon index, or -1 when no polygon contains the point.
        """
        found = self.polygons_at(x, z)
        if not found:
            return -1
        if len(found) == 1:
            return found[0]
        mesh = self.mesh
        if y is None:
            return min(found, key=lambda p: (mesh.height_at(p, x, z), p))
        return min(found, key=lambda p: (abs(mesh.height_at(p, x, z) - y), p))

    def locate_in_storey(self, x: float, z: float, storey: str) -> int:
        """Find the polygon of ``storey`` containing (x, z).

        Args:
            x: Plane x.
            z: Plane z.
            storey: Storey id.

        Returns:
            The polygon index, or -1 when that storey has no polygon there.
        """
        storeys = self.mesh.storeys
        for p in self.polygons_at(x, z):
            if storeys[p] == storey:
                return p
        return -1

    def polygons_near(self, x: float, z: float, radius: float) -> list[int]:
        """Polygons whose bounding boxes come within ``radius`` of (x, z).

        Args:
            x: Plane x.
            z: Plane z.
            radius: Search radius in plane units.

        Returns:
            Candidate polygon indices (a superset of those within ``radius``).
        """
        b = self.boxes
        hit = (
            (b[:, 0] - radius <= x)
            & (b[:, 2] + radius >= x)
            & (b[:, 1] - radius <= z)
            & (b[:, 3] + radius >= z)
        )
        return [int(p) for p in np.flatnonzero(hit)]

    def closest_point(self, polygon: int, x: float, z: float) -> tuple[float, float, float]:
        """Closest point of ``polygon`` (interior included) to (x, z).

        Args:
            polygon: Polygon index.
            x: Plane x.
            z: Plane z.

        Returns:
            ``(cx, cz, distance)``.
        """
        if self.contains(polygon, x, z):
            return x, z, 0.0
        best = (x, z, math.inf)
        for ax, az, dx, dz, length in self._edges[polygon]:
            t = ((x - ax) * dx + (z - az) * dz) / (length * length) if length > 0 else 0.0
            t = min(1.0, max(0.0, t))
            cx, cz = ax + t * dx, az + t * dz
            d = math.hypot(x - cx, z - cz)
            if d < best[2]:
                best = (cx, cz, d)
        return best
