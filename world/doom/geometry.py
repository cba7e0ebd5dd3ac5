"""The map's lines as the engine reports them, and which of them are walls right now.

ViZDoom's state lists every sector with its floor and ceiling heights (live: doors and
lifts move them) and its lines (two ends and a blocking flag). A line listed by two
sectors joins them, passable while the height gap lets the player through (Doom's
rules: at most 24 units up, at least 56 units of headroom). Used by the small grid
planner that walks around harmful pickups (route.py); coordinates are the engine's.
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
        self._walls_key: dict[bool, tuple[Heights, bool]] = {}
        self._walls: dict[bool, np.ndarray] = {}
        self._ends = np.array([[*ln.a, *ln.b] for ln in self.lines], dtype=float).reshape(-1, 4)
        lo, hi = self._ends.reshape(-1, 2).min(axis=0), self._ends.reshape(-1, 2).max(axis=0)
        self.bounds = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))

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
