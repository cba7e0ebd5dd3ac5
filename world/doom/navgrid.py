"""Routes on a Doom map: a grid of the floor with Doom's collision, live heights.

The player is a 32-unit square box (radius 16); he climbs steps of up to 24 units and
needs 56 units between the highest floor and the lowest ceiling his box touches. The
grid (12-unit cells) holds, per cell, the sector under it and whether the box there
crosses a wall (a one-sided or impassable line); the heights come in with every plan, so
doors that opened and lifts that lowered are honoured. The moves between cells (eight
neighbours, no corner cutting, damaging floors cost four times as much) are a sparse
graph, built once per set of heights; scipy's Dijkstra searches it within a detour of
half again the straight line, then (rarely) the whole map, and the path
is pulled straight between cells that see each other along walkable ground.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import shapely
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

from world.doom.polygons import line_segments
from world.doom.rooms import HEIGHT, STEP, DoomRooms
from world.doom.specials import hurts

RADIUS = 16.0  # half the player's box
CELL = 12.0  # a third of the box: walls are tested exactly at each centre
_HURT_COST = 4.0
_SNAP_CELLS = 4  # how far (in cells) a start or goal off the walkable floor is moved
Heights = Callable[[int], tuple[float, float]]  # sector -> (floor, ceiling), live
Point = tuple[float, float]


def map_heights(rooms: DoomRooms) -> Heights:
    """The heights the map starts with."""
    sectors = rooms.map.sectors
    return lambda s: (sectors[s].floor, sectors[s].ceiling)


def doors_open(rooms: DoomRooms, heights: Heights,
               keys: Iterable[str] | None = None) -> Heights:
    """Heights with doors open as Doom opens them, for routes that open doors on the way.

    An open door's ceiling is 4 units below the lowest ceiling around it. With `keys`
    None every door opens; given the keys a player holds ("blue", ...), only the doors
    he can open himself do: those worked from their own line, unlocked or locked with a
    key he holds (a door a switch or a line elsewhere opens stays as the heights say).
    """
    held = None if keys is None else set(keys)
    opens = {d.sector for d in rooms.doors
             if held is None or (d.manual and (d.key is None or d.key in held))}
    around = _neighbours(rooms, opens)

    def opened(sector: int) -> tuple[float, float]:
        floor, ceiling = heights(sector)
        if around.get(sector):
            ceiling = max(ceiling, min(heights(s)[1] for s in around[sector]) - 4.0)
        return floor, ceiling

    return opened


def lifts_down(rooms: DoomRooms, heights: Heights) -> Heights:
    """Heights with every lift lowered as Doom lowers it: to the lowest floor around it.

    A route onto a lift from below plans with these; once the lift has risen, a new
    plan from the live heights walks off at the top.
    """
    lifts = {s for a in rooms.areas if a.kind == "lift" for s in a.sectors}
    around = _neighbours(rooms, lifts)

    def lowered(sector: int) -> tuple[float, float]:
        floor, ceiling = heights(sector)
        if around.get(sector):
            floor = min(floor, min(heights(s)[0] for s in around[sector]))
        return floor, ceiling

    return lowered


def _neighbours(rooms: DoomRooms, sectors: set[int]) -> dict[int, list[int]]:
    """Each of `sectors` with the other sectors it shares a two-sided line with, sorted."""
    found = rooms.map
    around: dict[int, set[int]] = {s: set() for s in sectors}
    for ln in found.lines:
        if ln.back is None or ln.front is None:
            continue
        a, b = found.sides[ln.front].sector, found.sides[ln.back].sector
        if a in around and b != a:
            around[a].add(b)
        if b in around and a != b:
            around[b].add(a)
    return {s: sorted(n) for s, n in around.items()}


@dataclass(frozen=True)
class NavGrid:
    """The static part of the grid; `plan` adds the live heights."""

    x0: float
    y0: float
    cols: int
    rows: int
    sector: np.ndarray  # (rows * cols,) sector under each cell's centre, -1 for none
    wall: np.ndarray  # (rows * cols,) the box there crosses a wall
    hurt: np.ndarray  # (rows * cols,) the floor there damages
    sectors: int
    # The walkable cells and box heights of the last heights asked (doors rarely move
    # between two plans, so most plans reuse them).
    _cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def hurt_list(self) -> list[bool]:
        """`hurt` as a list, which the search reads cell by cell."""
        if "hurt" not in self._cache:
            self._cache["hurt"] = self.hurt.tolist()
        return self._cache["hurt"]

    def cell_of(self, x: float, y: float) -> int:
        """The flat index of the cell holding a point (clamped to the grid)."""
        c = min(max(int((x - self.x0) // CELL), 0), self.cols - 1)
        r = min(max(int((y - self.y0) // CELL), 0), self.rows - 1)
        return r * self.cols + c

    def centre(self, cell: int) -> Point:
        """The centre of a cell in map units."""
        r, c = divmod(cell, self.cols)
        return (self.x0 + (c + 0.5) * CELL, self.y0 + (r + 0.5) * CELL)

    def _box(self, values: np.ndarray, pick) -> np.ndarray:
        # The max (or min) over the cells the player's box covers, one axis at a time.
        reach = math.ceil(RADIUS / CELL - 0.5)
        grid = values.reshape(self.rows, self.cols)
        out = grid.copy()
        for shift in range(1, reach + 1):
            out[:, shift:] = pick(out[:, shift:], grid[:, :-shift])
            out[:, :-shift] = pick(out[:, :-shift], grid[:, shift:])
        cols = out.copy()
        for shift in range(1, reach + 1):
            out[shift:, :] = pick(out[shift:, :], cols[:-shift, :])
            out[:-shift, :] = pick(out[:-shift, :], cols[shift:, :])
        return out.reshape(-1)

    def surfaces(self, heights: Heights) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per cell, the floor a route counts there, the ceiling above it, the top floor.

        The ceiling is the lowest the player's box touches. The floor is the highest, as
        Doom stands the player, except on a ledge's edge (floors under the box more than
        a step apart): there it is the lowest, since a player that drifts a few units
        off the edge falls, and a route along the edge would be stranded below. The top
        floor is the highest under the box: a move climbs to it (Doom lifts the player
        onto the highest floor his box touches, or stops him).
        """
        pairs = np.array([heights(s) for s in range(self.sectors)], dtype=np.float64)
        floors = np.append(pairs[:, 0], np.nan)[self.sector]
        ceilings = np.append(pairs[:, 1], 1e9)[self.sector]
        high = self._box(np.nan_to_num(floors, nan=-1e9), np.maximum)
        low = self._box(np.nan_to_num(floors, nan=1e9), np.minimum)
        ceiling = self._box(ceilings, np.minimum)
        floor = np.where(high - low > STEP, low, high)
        # Headroom is measured from where the player stands (the highest floor): the
        # ceiling given is lowered by as much as the counted floor lies below that.
        return floor, ceiling - (high - floor), high

    def _walkable(self, heights: Heights) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        key = tuple(heights(s) for s in range(self.sectors))
        if self._cache.get("key") != key:
            floor, ceiling, top = self.surfaces(heights)
            stand = (~self.wall) & (self.sector < self.sectors) & (ceiling - floor >= HEIGHT)
            cells, matrix = _graph(self, floor, top, stand)
            _, labels = connected_components(matrix, directed=True, connection="weak")
            self._cache.update(key=key, floor=floor, top=top, stand=stand, cells=cells,
                               matrix=matrix, labels=labels)
        return self._cache["floor"], self._cache["top"], self._cache["stand"]

    def _snap(self, point: Point, stand: np.ndarray) -> int | None:
        """The walkable cell nearest a point, within a few cells."""
        cell = self.cell_of(*point)
        if stand[cell]:
            return cell
        r0, c0 = divmod(cell, self.cols)
        best = None
        for r in range(max(r0 - _SNAP_CELLS, 0), min(r0 + _SNAP_CELLS + 1, self.rows)):
            for c in range(max(c0 - _SNAP_CELLS, 0), min(c0 + _SNAP_CELLS + 1, self.cols)):
                i = r * self.cols + c
                if stand[i]:
                    d = (r - r0) ** 2 + (c - c0) ** 2
                    if best is None or (d, i) < best:
                        best = (d, i)
        return None if best is None else best[1]

    def reachable(self, start: Point, heights: Heights) -> np.ndarray:
        """Per cell, whether a walk from the start reaches it under these heights."""
        self._walkable(heights)
        cells, matrix = self._cache["cells"], self._cache["matrix"]
        out = np.zeros(len(self.sector), dtype=bool)
        a = self._snap(start, self._cache["stand"])
        if a is not None:
            dist = dijkstra(matrix, indices=int(np.searchsorted(cells, a)))
            out[cells[np.isfinite(dist)]] = True
        return out

    def plan(self, start: Point, goal: Point, heights: Heights) -> list[Point] | None:
        """Waypoints from start to goal (the goal last, the start left out).

        None when no walk reaches the goal under these heights. Deterministic: the same
        grid, points and heights give the same waypoints.
        """
        floor, top, stand = self._walkable(heights)
        a = self._snap(start, stand)
        if a is None:
            return None
        b = self._snap(goal, stand)
        if b is None:
            return None
        cells = _search(self, a, b, self._cache)
        if cells is None:
            # A goal on a ledge's edge (a room's middle drawn on a rail) is met at the
            # nearest cell a walk reaches, a few cells off, as a goal in a wall is.
            cells = _search_near(self, a, self.cell_of(*goal), stand, self._cache)
        if cells is None:
            return None
        b = cells[-1]
        points = [self.centre(c) for c in _pull(self, cells, floor, top, stand)[1:]]
        if self.cell_of(*goal) == b:
            points = [*points[:-1], (float(goal[0]), float(goal[1]))]
        return points


def build_navgrid(rooms: DoomRooms) -> NavGrid:
    """The grid of a map: the sector under each cell and the cells walls rule out."""
    found = rooms.map
    verts = np.array(found.vertices)
    x0, y0 = verts.min(axis=0) - 2 * CELL
    x1, y1 = verts.max(axis=0) + 2 * CELL
    cols, rows = int((x1 - x0) // CELL) + 1, int((y1 - y0) // CELL) + 1
    xs = x0 + (np.arange(cols) + 0.5) * CELL
    ys = y0 + (np.arange(rows) + 0.5) * CELL
    sector = np.full((rows, cols), len(found.sectors), dtype=np.int64)
    size = np.full((rows, cols), np.inf)
    for s, shape in enumerate(rooms.sector_shapes):
        if shape is None:
            continue
        bx0, by0, bx1, by1 = shape.bounds
        c0, c1 = np.searchsorted(xs, bx0), np.searchsorted(xs, bx1)
        r0, r1 = np.searchsorted(ys, by0), np.searchsorted(ys, by1)
        if c0 >= c1 or r0 >= r1:
            continue
        gx, gy = np.meshgrid(xs[c0:c1], ys[r0:r1])
        inside = shapely.contains_xy(shape, gx, gy)
        # Nested sectors: the innermost (smallest) one is the floor there.
        better = inside & (shape.area < size[r0:r1, c0:c1])
        sector[r0:r1, c0:c1][better] = s
        size[r0:r1, c0:c1][better] = shape.area
    wall = _walls(rooms, xs, ys)
    hurt_of = np.array([hurts(s) for s in found.sectors] + [False])
    flat = sector.reshape(-1)
    return NavGrid(float(x0), float(y0), cols, rows, flat, wall.reshape(-1), hurt_of[flat],
                   len(found.sectors))


def _walls(rooms: DoomRooms, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Cells whose player box a blocking line crosses.

    Separating axes: the box's two axes by bounds, the line's normal by distance.
    """
    found = rooms.map
    segs = line_segments(found)
    wall = np.zeros((len(ys), len(xs)), dtype=bool)
    for i, ln in enumerate(found.lines):
        if ln.back is not None and not ln.blocking:
            continue
        ax, ay, bx, by = segs[i]
        c0 = np.searchsorted(xs, min(ax, bx) - RADIUS)
        c1 = np.searchsorted(xs, max(ax, bx) + RADIUS, side="right")
        r0 = np.searchsorted(ys, min(ay, by) - RADIUS)
        r1 = np.searchsorted(ys, max(ay, by) + RADIUS, side="right")
        gx, gy = np.meshgrid(xs[c0:c1], ys[r0:r1])
        nx, ny = by - ay, ax - bx
        reach = RADIUS * (abs(nx) + abs(ny))
        wall[r0:r1, c0:c1] |= np.abs((gx - ax) * nx + (gy - ay) * ny) < reach
    return wall


_MOVES = ((0, 1, 1.0), (0, -1, 1.0), (1, 0, 1.0), (-1, 0, 1.0),
          (1, 1, math.sqrt(2.0)), (1, -1, math.sqrt(2.0)), (-1, 1, math.sqrt(2.0)),
          (-1, -1, math.sqrt(2.0)))


def _graph(grid: NavGrid, floor: np.ndarray, top: np.ndarray,
           stand: np.ndarray) -> tuple[np.ndarray, object]:
    """The walkable cells (their flat indices) and the moves between them.

    The moves are a sparse matrix: a move climbs at most a step (`_climbs`), and a
    diagonal one passes no corner.
    """
    cells = np.flatnonzero(stand)
    rows, cols, weights = [], [], []
    for dr, dc, w in _MOVES:
        nxt = cells + dr * grid.cols + dc
        ok = stand[nxt] & _climbs(floor, top, cells, nxt)
        if dr and dc:
            for side in (cells + dc, cells + dr * grid.cols):
                ok &= stand[side] & _climbs(floor, top, cells, side)
        rows.append(cells[ok])
        cols.append(nxt[ok])
        weights.append(np.where(grid.hurt[nxt[ok]], w * _HURT_COST, w))
    pos = np.full(len(stand), -1, dtype=np.int64)
    pos[cells] = np.arange(len(cells))
    matrix = csr_matrix((np.concatenate(weights),
                         (pos[np.concatenate(rows)], pos[np.concatenate(cols)])),
                        shape=(len(cells), len(cells)))
    return cells, matrix


def _climbs(floor: np.ndarray, top: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether moves from cells a to cells b climb at most a step.

    The floor a route counts rises at most a step. Doom stands the player on the highest
    floor his box touches (`top`), so a box reaching over a higher floor than at a is
    entered only when that floor is a step up from a's counted floor and is no ledge's
    edge there: a raised strip narrower than the box (a rail, a pillar's side) is a
    ledge to climb, which a route along it would take for the floor below. Moving
    along or off a ledge the box already reaches over (its top no higher) is fine.
    """
    reach = floor[a] + STEP
    rises = (top[b] <= reach) & (top[b] - floor[b] <= STEP)
    return (floor[b] <= reach) & ((top[b] <= top[a]) | rises)


def _search(grid: NavGrid, start: int, goal: int, graph: dict) -> list[int] | None:
    """The cheapest cell path between two walkable cells, or None."""
    cells, matrix = graph["cells"], graph["matrix"]
    a = int(np.searchsorted(cells, start))
    b = int(np.searchsorted(cells, goal))
    if graph["labels"][a] != graph["labels"][b]:
        return None
    ra, ca = divmod(start, grid.cols)
    rb, cb = divmod(goal, grid.cols)
    # A detour of half again the straight line is searched first, then the whole map.
    for limit in (1.5 * math.hypot(ra - rb, ca - cb) + 24.0, np.inf):
        dist, pred = dijkstra(matrix, indices=a, return_predecessors=True, limit=limit)
        if np.isfinite(dist[b]):
            break
    else:
        return None
    path = [b]
    while path[-1] != a:
        path.append(int(pred[path[-1]]))
    return [int(cells[i]) for i in reversed(path)]


def _search_near(grid: NavGrid, start: int, goal: int, stand: np.ndarray,
                 graph: dict) -> list[int] | None:
    """The cell path to the cell nearest `goal` (within a few cells) a walk reaches."""
    cells, matrix = graph["cells"], graph["matrix"]
    a = int(np.searchsorted(cells, start))
    r0, c0 = divmod(goal, grid.cols)
    near = [r * grid.cols + c
            for r in range(max(r0 - _SNAP_CELLS, 0), min(r0 + _SNAP_CELLS + 1, grid.rows))
            for c in range(max(c0 - _SNAP_CELLS, 0), min(c0 + _SNAP_CELLS + 1, grid.cols))]
    if not any(stand[i] and graph["labels"][int(np.searchsorted(cells, i))]
               == graph["labels"][a] for i in near):
        return None  # no floor there joins the start's: answered at once
    dist, pred = dijkstra(matrix, indices=a, return_predecessors=True)
    best = None
    for r in range(max(r0 - _SNAP_CELLS, 0), min(r0 + _SNAP_CELLS + 1, grid.rows)):
        for c in range(max(c0 - _SNAP_CELLS, 0), min(c0 + _SNAP_CELLS + 1, grid.cols)):
            i = r * grid.cols + c
            if not stand[i]:
                continue
            k = int(np.searchsorted(cells, i))
            if np.isfinite(dist[k]):
                d = (r - r0) ** 2 + (c - c0) ** 2
                if best is None or (d, i) < best[:2]:
                    best = (d, i, k)
    if best is None:
        return None
    path = [best[2]]
    while path[-1] != a:
        path.append(int(pred[path[-1]]))
    return [int(cells[i]) for i in reversed(path)]


def _clear(grid: NavGrid, a: int, b: int, floor: np.ndarray, top: np.ndarray,
           stand: np.ndarray) -> bool:
    """A straight walk from cell a to cell b stays on walkable cells.

    It climbs no more than a step from one cell to the next, passes no corner and enters
    no damaging floor from a safe one.
    """
    ra, ca = divmod(a, grid.cols)
    rb, cb = divmod(b, grid.cols)
    n = max(abs(rb - ra), abs(cb - ca)) * 2
    if n == 0:
        return True
    k = np.arange(n + 1) / n
    r = np.rint(ra + (rb - ra) * k).astype(np.int64)
    c = np.rint(ca + (cb - ca) * k).astype(np.int64)
    cells = r * grid.cols + c
    if not stand[cells].all():
        return False
    prev, nxt = cells[:-1], cells[1:]
    if not _climbs(floor, top, prev, nxt).all():
        return False
    if (grid.hurt[nxt] & ~grid.hurt[prev]).any():
        return False
    # Where a sample steps diagonally, both cells beside the step must be walkable.
    diagonal = (r[1:] != r[:-1]) & (c[1:] != c[:-1])
    side_a = r[:-1][diagonal] * grid.cols + c[1:][diagonal]
    side_b = r[1:][diagonal] * grid.cols + c[:-1][diagonal]
    return bool(stand[side_a].all() and stand[side_b].all())


def _pull(grid: NavGrid, cells: list[int], floor: np.ndarray, top: np.ndarray,
          stand: np.ndarray) -> list[int]:
    """The path's cells kept where a straight walk from the last kept one stops.

    The farthest cell in view is found by doubling then halving the reach (a cell
    beyond a blocked one is rarely clear again, and a miss only adds a waypoint).
    """
    kept = [cells[0]]
    i, last = 0, len(cells) - 1
    while i < last:
        step = 1
        while i + step * 2 <= last and _clear(grid, cells[i], cells[i + step * 2], floor,
                                              top, stand):
            step *= 2
        good = i + step
        if step > 1 or _clear(grid, cells[i], cells[min(i + 2, last)], floor, top, stand):
            lo, hi = good, min(i + step * 2, last + 1)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if _clear(grid, cells[i], cells[mid], floor, top, stand):
                    lo = mid
                else:
                    hi = mid
            good = lo
        kept.append(cells[good])
        i = good
    return kept
