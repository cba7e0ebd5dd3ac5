"""The path the player walked during one action, as a short polyline for the record.

The driver hands every tick's position to a `Trail`; one in `PATH_EVERY_TICKS` is kept
(and always the first and the last), rounded to whole world units (a centimetre), and
points lying within `PATH_TOLERANCE` of the straight line between the points kept on
either side are dropped, so a straight walk costs a few points however long it is.
Pages draw the map from it; nothing in the simulation reads it.
"""

from __future__ import annotations

import math

Point3 = tuple[float, float, float]
PATH_EVERY_TICKS = 5  # a sixth of a second: at walking pace about 50 units apart
PATH_TOLERANCE = 2.0  # world units a dropped point may lie off the drawn line
_MAX_DROPPED = 32  # per drawn segment: bounds the work per sample on a long straight walk


def _off_line(a: list[int], b: list[int], c: list[int]) -> float:
    """How far b lies from the segment a-c (3D)."""
    ac = [c[i] - a[i] for i in range(3)]
    ab = [b[i] - a[i] for i in range(3)]
    length2 = sum(v * v for v in ac)
    if length2 == 0:
        return math.dist(a, b)
    t = max(0.0, min(1.0, sum(ab[i] * ac[i] for i in range(3)) / length2))
    return math.dist(b, [a[i] + ac[i] * t for i in range(3)])


class Trail:
    """Positions sampled along one action, simplified as they come."""

    def __init__(self, start: Point3) -> None:
        self._points: list[list[int]] = [self._round(start)]
        self._last: list[int] | None = None
        self._dropped: list[list[int]] = []  # between the last two kept points

    @staticmethod
    def _round(p: Point3) -> list[int]:
        return [round(float(c)) for c in p]

    def add(self, tick: int, position: Point3) -> None:
        """Note the position after the action's `tick`-th tick (1-based)."""
        point = self._round(position)
        self._last = point
        if tick % PATH_EVERY_TICKS == 0:
            self._keep(point)

    def _keep(self, point: list[int]) -> None:
        points = self._points
        if point == points[-1]:
            return
        between = [*self._dropped, points[-1]]
        if len(points) >= 2 and len(between) <= _MAX_DROPPED and all(
                _off_line(points[-2], b, point) <= PATH_TOLERANCE for b in between):
            points[-1] = point  # the points in between add nothing to the drawing
            self._dropped = between
        else:
            points.append(point)
            self._dropped = []

    def points(self) -> tuple[tuple[int, int, int], ...]:
        """The polyline from the action's start to where its last tick left the player."""
        if self._last is not None:
            self._keep(self._last)
        return tuple((p[0], p[1], p[2]) for p in self._points)
