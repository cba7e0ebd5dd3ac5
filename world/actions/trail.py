"""The path the player walked during one action, as a short polyline for the record.

The driver hands every tick's position to a `Trail`; one in `PATH_EVERY_TICKS` is kept
(and always the first and the last), rounded to whole world units (a centimetre).
When the action ends, points lying within `PATH_TOLERANCE` of the line between the
points kept on either side are dropped (Ramer-Douglas-Peucker), so a straight walk
costs two points however long it is. Pages draw the map from it; nothing in the
simulation reads it.
"""

from __future__ import annotations

import numpy as np

Point3 = tuple[float, float, float]
PATH_EVERY_TICKS = 5  # a sixth of a second: at walking pace about 50 units apart
PATH_TOLERANCE = 2.0  # world units a dropped point may lie off the drawn line


def _farthest(points: np.ndarray, first: int, last: int) -> tuple[int, float]:
    """The point strictly between two indices farthest from the segment joining them."""
    a, b = points[first], points[last]
    inner = points[first + 1:last]
    ab = b - a
    length2 = float(ab @ ab)
    if length2 == 0.0:
        offsets = inner - a
    else:
        t = np.clip((inner - a) @ ab / length2, 0.0, 1.0)
        offsets = inner - (a + t[:, None] * ab)
    distances = np.einsum("ij,ij->i", offsets, offsets)
    index = int(np.argmax(distances))
    return first + 1 + index, float(distances[index]) ** 0.5


def simplify(points: list[tuple[int, int, int]], tolerance: float = PATH_TOLERANCE
             ) -> list[tuple[int, int, int]]:
    """The points with those within `tolerance` of the kept line left out."""
    if len(points) < 3:
        return list(points)
    array = np.asarray(points, dtype=float)
    keep = {0, len(points) - 1}
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        if last - first < 2:
            continue
        index, distance = _farthest(array, first, last)
        if distance > tolerance:
            keep.add(index)
            stack += [(first, index), (index, last)]
    return [points[i] for i in sorted(keep)]


class Trail:
    """Positions sampled along one action."""

    def __init__(self, start: Point3) -> None:
        self._points: list[tuple[int, int, int]] = [self._round(start)]
        self._last: Point3 | None = None

    @staticmethod
    def _round(p: Point3) -> tuple[int, int, int]:
        return (round(float(p[0])), round(float(p[1])), round(float(p[2])))

    def add(self, tick: int, position: Point3) -> None:
        """Note the position after the action's `tick`-th tick (1-based)."""
        self._last = position
        if tick % PATH_EVERY_TICKS == 0:
            self._keep(self._round(position))

    def _keep(self, point: tuple[int, int, int]) -> None:
        if point != self._points[-1]:
            self._points.append(point)

    def points(self) -> tuple[tuple[int, int, int], ...]:
        """The polyline from the action's start to where its last tick left the player."""
        if self._last is not None:
            self._keep(self._round(self._last))
        return tuple(simplify(self._points))
