"""Line of sight on a Doom map: what the player could see from where he stands.

A sight line is blocked by a one-sided line (a wall) it crosses, or by a two-sided
line where the opening between the two sectors' live heights (highest floor to lowest
ceiling) is shut (a closed door) or passes above or below the line's height at that
point. Impassable two-sided lines block walking, not sight. Nothing else blocks: not
things, not light (the knowledge model may add both). Heights come in with each ask,
so doors that opened are seen through.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from world.doom.polygons import line_segments, sector_of_sides
from world.doom.wad import MapData

EYE = 41.0  # the player's eye above his floor
Heights = Callable[[int], tuple[float, float]]  # sector -> (floor, ceiling), live
Point3 = tuple[float, float, float]


class Sight:
    """The map's lines held as arrays, to test many sight lines at once."""

    def __init__(self, found: MapData):
        segs = line_segments(found)
        self.ax, self.ay = segs[:, 0], segs[:, 1]
        self.dx, self.dy = segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1]
        self.front, self.back = sector_of_sides(found)
        self.wall = (self.front < 0) | (self.back < 0)
        self.sectors = len(found.sectors)

    def openings(self, heights: Heights) -> tuple[np.ndarray, np.ndarray]:
        """Per line, the bottom and top of the opening through it (walls: shut)."""
        table = np.array([heights(s) for s in range(self.sectors)] + [(0.0, 0.0)])
        front = np.where(self.front < 0, self.sectors, self.front)
        back = np.where(self.back < 0, self.sectors, self.back)
        low = np.maximum(table[front, 0], table[back, 0])
        high = np.minimum(table[front, 1], table[back, 1])
        high = np.where(self.wall, low, high)
        return low, high

    def visible_many(self, eye: Point3, targets: Sequence[Point3],
                     heights: Heights) -> np.ndarray:
        """Per target, whether the sight line from the eye reaches it."""
        if not len(targets):
            return np.zeros(0, dtype=bool)
        low, high = self.openings(heights)
        pts = np.asarray(targets, dtype=np.float64).reshape(-1, 3)
        ex, ey, ez = eye
        rx = (pts[:, 0] - ex)[:, None]
        ry = (pts[:, 1] - ey)[:, None]
        rz = (pts[:, 2] - ez)[:, None]
        # Sight line e + t r, map line a + u d: solve with cross products.
        denom = rx * self.dy - ry * self.dx
        qx, qy = self.ax - ex, self.ay - ey
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (qx * self.dy - qy * self.dx) / denom
            u = (qx * ry - qy * rx) / denom
            crosses = (denom != 0) & (t > 0) & (t < 1) & (u >= 0) & (u <= 1)
            z = ez + t * rz
        shut = (high - low <= 0) | (z < low) | (z > high)
        return ~(crosses & shut).any(axis=1)

    def visible(self, eye: Point3, target: Point3, heights: Heights) -> bool:
        """Whether the sight line from the eye reaches the target."""
        return bool(self.visible_many(eye, [target], heights)[0])
