"""The map as the engine reports it: sectors, their lines, live heights, sight and portals.

ViZDoom's state lists every sector with its floor and ceiling heights (live: doors and
lifts move them) and its lines (two ends and a blocking flag). A line listed by two
sectors joins them: a portal, passable while the height gap lets the player through
(Doom's rules: at most 24 units up, at least 56 units of headroom). Areas are sectors
here; coordinates are the engine's (x, y on the ground).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

STEP_UP = 24.0  # the highest ledge the player walks up
HEADROOM = 56.0  # the player's height
PLAYER_RADIUS = 16.0


@dataclass(frozen=True)
class Line:
    """One map line: its ends, whether it blocks, and the sectors on its sides."""

    a: tuple[float, float]
    b: tuple[float, float]
    blocking: bool
    sectors: tuple[int, ...]

    @property
    def mid(self) -> tuple[float, float]:
        """The line's middle point."""
        return ((self.a[0] + self.b[0]) / 2, (self.a[1] + self.b[1]) / 2)

    @property
    def length(self) -> float:
        """The line's length."""
        return float(np.hypot(self.b[0] - self.a[0], self.b[1] - self.a[1]))


@dataclass(frozen=True)
class Heights:
    """Floor and ceiling of every sector at one moment, by sector index."""

    floor: tuple[float, ...]
    ceiling: tuple[float, ...]

    def gap(self, sectors: Sequence[int]) -> tuple[float, float]:
        """(highest floor, lowest ceiling) over these sectors."""
        return (max(self.floor[s] for s in sectors), min(self.ceiling[s] for s in sectors))


class MapGeometry:
    """Sectors and lines of one map, as read from the engine at the episode's start."""

    def __init__(self, sector_lines: Sequence[Sequence[tuple[float, float, float, float, bool]]]):
        joined: dict[tuple[tuple[float, float], tuple[float, float]], list] = {}
        for index, lines in enumerate(sector_lines):
            for x1, y1, x2, y2, blocking in lines:
                a, b = (round(x1, 3), round(y1, 3)), (round(x2, 3), round(y2, 3))
                key = (a, b) if a <= b else (b, a)
                entry = joined.setdefault(key, [a, b, bool(blocking), []])
                entry[2] = entry[2] or bool(blocking)
                if index not in entry[3]:
                    entry[3].append(index)
        self.lines: tuple[Line, ...] = tuple(
            Line(e[0], e[1], e[2], tuple(sorted(e[3]))) for _, e in sorted(joined.items()))
        self.sector_count = len(sector_lines)
        self._at: dict[tuple[float, float], int | None] = {}
        self._walls_key: dict[bool, tuple[Heights, bool]] = {}
        self._walls: dict[bool, np.ndarray] = {}
        self._ends = np.array([[*ln.a, *ln.b] for ln in self.lines], dtype=float).reshape(-1, 4)
        self._by_sector: list[list[int]] = [[] for _ in sector_lines]
        for i, line in enumerate(self.lines):
            for s in line.sectors:
                self._by_sector[s].append(i)
        self.portals: tuple[int, ...] = tuple(
            i for i, ln in enumerate(self.lines) if len(ln.sectors) == 2 and not ln.blocking)
        lo, hi = self._ends.reshape(-1, 2).min(axis=0), self._ends.reshape(-1, 2).max(axis=0)
        self.bounds = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))

    def sector_lines(self, sector: int) -> list[int]:
        """Indices of the lines bounding a sector."""
        return self._by_sector[sector]

    def sector_at(self, x: float, y: float) -> int | None:
        """The sector holding a point (even-odd over each sector's lines), or None."""
        key = (round(x, 1), round(y, 1))
        if key not in self._at:
            if len(self._at) > 50_000:  # things stand still; a walk passes many points
                self._at.clear()
            self._at[key] = next((s for s in range(self.sector_count)
                                  if self._inside(s, x, y)), None)
        return self._at[key]

    def _inside(self, sector: int, x: float, y: float) -> bool:
        # A line with this sector on both sides (listed once, not blocking) bounds nothing.
        idx = [i for i in self._by_sector[sector]
               if len(self.lines[i].sectors) == 2 or self.lines[i].blocking]
        if not idx:
            return False
        e = self._ends[idx]
        y1, y2 = e[:, 1], e[:, 3]
        crosses = (y1 > y) != (y2 > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            xs = e[:, 0] + (y - y1) * (e[:, 2] - e[:, 0]) / (y2 - y1)
        return bool(np.count_nonzero(crosses & (xs > x)) % 2)

    def walls(self, heights: Heights, *, sight: bool = False) -> np.ndarray:
        """Lines the player cannot pass (or, with sight, see through), as an N x 4 array.

        A two-sided line passes while the sectors' gap is open: for walking at least
        the player's height and a step it can climb; for sight any gap at all. The
        answer is remembered for the last heights asked (they change only as doors and
        lifts move).
        """
        key = (heights, sight)
        if self._walls_key.get(sight) != key:
            self._walls_key[sight] = key
            self._walls[sight] = self._find_walls(heights, sight)
        return self._walls[sight]

    def _find_walls(self, heights: Heights, sight: bool) -> np.ndarray:
        keep = []
        for i, line in enumerate(self.lines):
            if len(line.sectors) < 2:
                if line.blocking:  # one-sided; an unflagged one has one sector both sides
                    keep.append(i)
                continue
            if line.blocking and not sight:
                keep.append(i)
                continue
            top_floor, low_ceiling = heights.gap(line.sectors)
            if sight:
                if low_ceiling - top_floor <= 0:
                    keep.append(i)
                continue
            floors = [heights.floor[s] for s in line.sectors]
            if low_ceiling - top_floor < HEADROOM or max(floors) - min(floors) > STEP_UP:
                keep.append(i)
        return self._ends[keep] if keep else np.zeros((0, 4))

    def clear(self, p: tuple[float, float], q: tuple[float, float], walls: np.ndarray) -> bool:
        """Whether the segment p-q crosses none of these walls."""
        return not crosses_any(p, q, walls)


def crosses_any(p: tuple[float, float], q: tuple[float, float], walls: np.ndarray) -> bool:
    """Whether segment p-q properly crosses any wall segment (touching ends do not count)."""
    if len(walls) == 0:
        return False
    px, py, qx, qy = p[0], p[1], q[0], q[1]
    ax, ay, bx, by = walls[:, 0], walls[:, 1], walls[:, 2], walls[:, 3]
    d1 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    d2 = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
    d3 = (qx - px) * (ay - py) - (qy - py) * (ax - px)
    d4 = (qx - px) * (by - py) - (qy - py) * (bx - px)
    return bool(np.any((d1 * d2 < 0) & (d3 * d4 < 0)))


def segment_distance(px: np.ndarray, py: np.ndarray, walls: np.ndarray) -> np.ndarray:
    """Distance from each point to the nearest wall segment (inf when there are none)."""
    best = np.full(px.shape, np.inf)
    for ax, ay, bx, by in walls:
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = np.clip(((px - ax) * dx + (py - ay) * dy) / length2, 0.0, 1.0) if length2 else 0.0
        d = np.hypot(px - (ax + t * dx), py - (ay + t * dy))
        np.minimum(best, d, out=best)
    return best
