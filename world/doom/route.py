"""Routes over a grid derived from the map's walls at their live heights.

A cell is free when its centre lies farther than the player's radius (with a margin)
from every wall the player cannot pass at the current heights, so a door that opens or
a lift that comes down changes the grid. A* over eight neighbours finds the cells, and
the route keeps only the corners needed for straight legs through free cells.
"""

from __future__ import annotations

import heapq
import math

import numpy as np

from world.doom.geometry import PLAYER_RADIUS, Heights, MapGeometry

CELL = 16.0
MARGIN = 4.0  # beyond the player's radius, so legs do not graze walls
_STEPS = ((1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
          (1, 1, math.sqrt(2)), (1, -1, math.sqrt(2)), (-1, 1, math.sqrt(2)),
          (-1, -1, math.sqrt(2)))


class Planner:
    """Plans walks on one map; the grid is rebuilt only when the walls change."""

    def __init__(self, geometry: MapGeometry) -> None:
        self.geo = geometry
        x0, y0, x1, y1 = geometry.bounds
        self.origin = (x0 - CELL, y0 - CELL)
        self.shape = (int((x1 - x0) / CELL) + 3, int((y1 - y0) / CELL) + 3)
        self._key: bytes | None = None
        self.free = np.zeros(self.shape, dtype=bool)

    def _grid(self, heights: Heights) -> np.ndarray:
        walls = self.geo.walls(heights)
        key = walls.tobytes()
        if key != self._key:
            self._key, self.free = key, self._free_cells(walls)
        return self.free

    def _free_cells(self, walls: np.ndarray) -> np.ndarray:
        nx, ny = self.shape
        reach = PLAYER_RADIUS + MARGIN
        free = np.ones(self.shape, dtype=bool)
        for ax, ay, bx, by in walls:
            # Only the cells near this wall are measured against it.
            i0 = max(0, int((min(ax, bx) - reach - self.origin[0]) / CELL))
            i1 = min(nx, int((max(ax, bx) + reach - self.origin[0]) / CELL) + 2)
            j0 = max(0, int((min(ay, by) - reach - self.origin[1]) / CELL))
            j1 = min(ny, int((max(ay, by) + reach - self.origin[1]) / CELL) + 2)
            if i0 >= i1 or j0 >= j1:
                continue
            cx = self.origin[0] + (np.arange(i0, i1) + 0.5) * CELL
            cy = self.origin[1] + (np.arange(j0, j1) + 0.5) * CELL
            px, py = np.meshgrid(cx, cy, indexing="ij")
            dx, dy = bx - ax, by - ay
            length2 = dx * dx + dy * dy
            t = np.clip(((px - ax) * dx + (py - ay) * dy) / length2, 0, 1) if length2 else 0.0
            near = np.hypot(px - (ax + t * dx), py - (ay + t * dy)) <= reach
            free[i0:i1, j0:j1] &= ~near
        return free

    def cell(self, x: float, y: float) -> tuple[int, int]:
        """The grid cell of a point (clamped to the grid)."""
        i = int((x - self.origin[0]) / CELL)
        j = int((y - self.origin[1]) / CELL)
        return (min(max(i, 0), self.shape[0] - 1), min(max(j, 0), self.shape[1] - 1))

    def centre(self, c: tuple[int, int]) -> tuple[float, float]:
        """The middle of a cell."""
        return (self.origin[0] + (c[0] + 0.5) * CELL, self.origin[1] + (c[1] + 0.5) * CELL)

    def _nearest_free(self, free: np.ndarray, c: tuple[int, int],
                      radius: int = 4) -> tuple[int, int] | None:
        if free[c]:
            return c
        best = None
        for i in range(c[0] - radius, c[0] + radius + 1):
            for j in range(c[1] - radius, c[1] + radius + 1):
                if 0 <= i < self.shape[0] and 0 <= j < self.shape[1] and free[i, j]:
                    d = (i - c[0]) ** 2 + (j - c[1]) ** 2
                    if best is None or d < best[0] or (d == best[0] and (i, j) < best[1]):
                        best = (d, (i, j))
        return None if best is None else best[1]

    def plan(self, start: tuple[float, float], goal: tuple[float, float],
             heights: Heights, reach: int = 4,
             avoid: tuple[tuple[float, float], ...] = ()) -> list[tuple[float, float]] | None:
        """Waypoints from start to goal (the goal last), or None when no route exists.

        A goal inside a wall's margin is moved to the nearest free cell within `reach`
        cells; the last waypoint is then that cell's middle. Cells near the `avoid`
        points (harmful pickups) are kept off, except at the start and the goal.
        """
        free = self._grid(heights)
        if avoid:
            free = free.copy()
            for x, y in avoid:
                # A pickup is taken at 36 units (its radius and the player's): three
                # cells either side keep every cell middle farther than that.
                ci, cj = self.cell(x, y)
                free[max(0, ci - 3):ci + 4, max(0, cj - 3):cj + 4] = False
        s = self._nearest_free(free, self.cell(*start))
        g = self._nearest_free(free, self.cell(*goal), reach)
        if s is None or g is None:
            return None
        cells = self._astar(free, s, g)
        if cells is None:
            return None
        corners = self._pull(free, cells)
        points = [self.centre(c) for c in corners[1:]]
        exact = g == self.cell(*goal)
        if exact and points:
            points[-1] = goal
        elif exact:
            points = [goal]
        return points

    def _astar(self, free: np.ndarray, s: tuple[int, int],
               g: tuple[int, int]) -> list[tuple[int, int]] | None:
        nx, ny = self.shape
        came: dict[tuple[int, int], tuple[int, int]] = {}
        cost = {s: 0.0}
        heap = [(0.0, 0.0, s)]
        while heap:
            _, c_cost, c = heapq.heappop(heap)
            if c == g:
                path = [c]
                while c in came:
                    c = came[c]
                    path.append(c)
                return path[::-1]
            if c_cost > cost.get(c, math.inf):
                continue
            for di, dj, step in _STEPS:
                n = (c[0] + di, c[1] + dj)
                if not (0 <= n[0] < nx and 0 <= n[1] < ny) or not free[n]:
                    continue
                if di and dj and not (free[c[0] + di, c[1]] and free[c[0], c[1] + dj]):
                    continue  # no cutting corners
                new = c_cost + step
                if new < cost.get(n, math.inf):
                    cost[n], came[n] = new, c
                    h = math.hypot(g[0] - n[0], g[1] - n[1])
                    heapq.heappush(heap, (new + h, new, n))
        return None

    def _straight(self, free: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> bool:
        steps = int(max(abs(b[0] - a[0]), abs(b[1] - a[1])) * 2) + 1
        for k in range(steps + 1):
            t = k / steps
            i = round(a[0] + (b[0] - a[0]) * t)
            j = round(a[1] + (b[1] - a[1]) * t)
            if not free[i, j]:
                return False
        return True

    def _pull(self, free: np.ndarray, cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
        out = [cells[0]]
        k = 0
        while k < len(cells) - 1:
            far = k + 1
            while far + 1 < len(cells) and self._straight(free, cells[k], cells[far + 1]):
                far += 1
            out.append(cells[far])
            k = far
        return out
