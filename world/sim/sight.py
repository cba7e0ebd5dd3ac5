"""Line of sight and line of fire: segment tests against every blocking segment at once.

Sight is blocked by walls and by gates (doors not fully open, unrevealed hidden exits);
windows and openings let it through. The arrays of one storey are rebuilt only when a
gate on that storey starts or stops blocking.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from world.sim.layout import Layout


class Sight:
    """Vectorised segment-crossing tests per storey."""

    def __init__(self, layout: Layout) -> None:
        """Index the static sight walls of every storey."""
        self.layout = layout
        self._static = {
            s: np.array(layout.sight_walls[s], dtype=float).reshape(-1, 4)
            for s in layout.storeys
        }
        self._blocking: dict[str, set[str]] = {s: set() for s in layout.storeys}
        self._arrays: dict[str, tuple[np.ndarray, ...]] = {}

    def set_gate(self, gate_id: str, blocking: bool) -> None:
        """Record whether a gate blocks sight now; the storey's arrays are rebuilt lazily."""
        storey = self.layout.gates[gate_id].storey
        group = self._blocking[storey]
        if blocking == (gate_id in group):
            return
        (group.add if blocking else group.discard)(gate_id)
        self._arrays.pop(storey, None)

    def arrays(self, storey: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Start points (ax, az) and direction vectors (ex, ez) of a storey's blockers."""
        cached = self._arrays.get(storey)
        if cached is None:
            gates = [self.layout.gates[g].segment for g in sorted(self._blocking[storey])]
            segs = self._static[storey]
            if gates:
                segs = np.vstack([segs, np.array(gates, dtype=float).reshape(-1, 4)])
            ax, az = segs[:, 0].copy(), segs[:, 1].copy()
            cached = (ax, az, segs[:, 2] - ax, segs[:, 3] - az)
            self._arrays[storey] = cached
        return cached  # type: ignore[return-value]

    def line_of_sight(self, p: Sequence[float], q: Sequence[float], storey: str) -> bool:
        """Whether the ground segment p-q crosses no blocker on the storey.

        Args:
            p: The eye (x, z) or (x, y, z); only x and z are used.
            q: The target, likewise.
            storey: The storey both points are on.

        Returns:
            True when nothing blocks the segment.
        """
        px, pz = p[0], p[-1]
        ax, az, ex, ez = self.arrays(storey)
        if ax.size == 0:
            return True
        wx, wz = ax - px, az - pz
        return not bool(_crossing(wx * ez - wz * ex, q[0] - px, q[-1] - pz, wx, wz, ex, ez).any())

    def visible_from(self, p: Sequence[float], points: Any, storey: str) -> np.ndarray:
        """Line of sight from one eye to many points at once.

        Args:
            p: The eye (x, z) or (x, y, z).
            points: An (n, 2) array (or sequence) of target (x, z) points.
            storey: The storey of the eye and the targets.

        Returns:
            A boolean array of length n, True where the target is visible.
        """
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        ax, az, ex, ez = self.arrays(storey)
        if ax.size == 0 or pts.shape[0] == 0:
            return np.ones(pts.shape[0], dtype=bool)
        px, pz = p[0], p[-1]
        wx, wz = ax - px, az - pz
        dx = (pts[:, 0] - px)[:, None]
        dz = (pts[:, 1] - pz)[:, None]
        return ~_crossing(wx * ez - wz * ex, dx, dz, wx, wz, ex, ez).any(axis=1)

    def lines_clear(self, starts: Any, ends: Any, storey: str) -> np.ndarray:
        """Line of sight along many segments of one storey at once (line of fire in bulk).

        Args:
            starts: An (n, 2) array (or sequence) of segment starts (x, z).
            ends: An (n, 2) array (or sequence) of segment ends (x, z).
            storey: The storey of every segment.

        Returns:
            A boolean array of length n, True where nothing blocks the segment.
        """
        a = np.asarray(starts, dtype=float).reshape(-1, 2)
        b = np.asarray(ends, dtype=float).reshape(-1, 2)
        ax, az, ex, ez = self.arrays(storey)
        if ax.size == 0 or a.shape[0] == 0:
            return np.ones(a.shape[0], dtype=bool)
        px, pz = a[:, 0:1], a[:, 1:2]
        wx, wz = ax - px, az - pz
        dx, dz = b[:, 0:1] - px, b[:, 1:2] - pz
        return ~_crossing(wx * ez - wz * ex, dx, dz, wx, wz, ex, ez).any(axis=1)


def _crossing(side_p: Any, dx: Any, dz: Any, wx: Any, wz: Any, ex: Any, ez: Any) -> np.ndarray:
    # Segment p-q (direction d) crosses blocker a-b (direction e, w = a - p) when p and q
    # lie strictly on opposite sides of the blocker's line and a and b on opposite sides
    # of the sight line, or one of them on it (so a line through a blocker's end, such as
    # a wall corner, is blocked). side_p is p's side of the blocker's line; q's side is
    # side_p - denom. Parallel lines never cross (q's side equals p's).
    denom = dx * ez - dz * ex
    side_a = wx * dz - wz * dx
    return (side_p * (side_p - denom) < 0) & (side_a * (denom - side_a) >= 0)
