"""Line of sight and line of fire: segment tests against every blocking segment at once.

Sight is blocked by walls and by gates (doors not fully open, unrevealed hidden exits);
windows and openings let it through. The arrays of one storey are rebuilt only when a
gate on that storey starts or stops blocking.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from world.sim.layout import Layout

_EPS = 1e-9


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
        dx, dz = q[0] - px, q[-1] - pz
        wx, wz = ax - px, az - pz
        denom = dx * ez - dz * ex
        tn = wx * ez - wz * ex
        un = wx * dz - wz * dx
        return not bool(_crossing(denom, tn, un).any())

    def visible_from(self, p: Sequence[float], points: np.ndarray, storey: str) -> np.ndarray:
        """Line of sight from one eye to many points at once.

        Args:
            p: The eye (x, z) or (x, y, z).
            points: An (n, 2) array of target (x, z) points.
            storey: The storey of the eye and the targets.

        Returns:
            A boolean array of length n, True where the target is visible.
        """
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        ax, az, ex, ez = self.arrays(storey)
        if ax.size == 0 or pts.shape[0] == 0:
            return np.ones(pts.shape[0], dtype=bool)
        px, pz = p[0], p[-1]
        dx = (pts[:, 0] - px)[:, None]
        dz = (pts[:, 1] - pz)[:, None]
        wx, wz = ax - px, az - pz
        denom = dx * ez - dz * ex
        tn = wx * ez - wz * ex
        un = wx * dz - wz * dx
        return ~_crossing(denom, tn, un).any(axis=1)


def _crossing(denom: np.ndarray, tn: np.ndarray, un: np.ndarray) -> np.ndarray:
    # t (along the sight line) and u (along the blocker) must both lie in [0, 1];
    # comparing numerators against |denom| avoids a division per pair.
    sign = np.sign(denom)
    mag = np.abs(denom)
    t = tn * sign
    u = un * sign
    return (mag > _EPS) & (t > _EPS * mag) & (t < mag * (1 - 1e-9)) & (u >= 0) & (u <= mag)
