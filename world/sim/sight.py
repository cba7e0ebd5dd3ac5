"""Line of sight and line of fire: segment tests against every blocking segment at once.

Sight is blocked by walls and by gates (doors not fully open, unrevealed hidden exits);
windows and openings let it through. The arrays of one storey are rebuilt only when a
gate on that storey starts or stops blocking.

Answers are remembered per storey by exact end points until a gate of the storey
changes: standing bodies keep exactly the same coordinates from tick to tick, so most
of a fight's sight lines and lines of fire are asked again and again (over 95% in the
speed benchmark's fights). The memo returns what the test would, so it changes nothing
but the time taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from world.sim import kernels
from world.sim.layout import Layout

# Remembered answers per storey; past this many the storey's memo starts afresh (a
# bound on memory: the answers stay the same either way).
MEMO_LIMIT = 8192


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
        self._memo: dict[str, dict[tuple[float, float, float, float], bool]] = {
            s: {} for s in layout.storeys
        }

    def set_gate(self, gate_id: str, blocking: bool) -> None:
        """Record whether a gate blocks sight now; the storey's arrays are rebuilt lazily."""
        storey = self.layout.gates[gate_id].storey
        group = self._blocking[storey]
        if blocking == (gate_id in group):
            return
        (group.add if blocking else group.discard)(gate_id)
        self._arrays.pop(storey, None)
        self._memo[storey] = {}

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
        key = (p[0], p[-1], q[0], q[-1])
        memo = self._memo[storey]
        clear = memo.get(key)
        if clear is None:
            clear = self._test(storey, [key])[0]
            self._remember(memo, [key], [clear])
        return clear

    def visible_from(self, p: Sequence[float], points: Any, storey: str) -> np.ndarray:
        """Line of sight from one eye to many points at once.

        Args:
            p: The eye (x, z) or (x, y, z).
            points: An (n, 2) array (or sequence) of target (x, z) points.
            storey: The storey of the eye and the targets.

        Returns:
            A boolean array of length n, True where the target is visible.
        """
        pts = points.tolist() if isinstance(points, np.ndarray) else points
        px, pz = p[0], p[-1]
        return self._clear(storey, [(px, pz, q[0], q[1]) for q in pts])

    def lines_clear(self, starts: Any, ends: Any, storey: str) -> np.ndarray:
        """Line of sight along many segments of one storey at once (line of fire in bulk).

        Args:
            starts: An (n, 2) array (or sequence) of segment starts (x, z).
            ends: An (n, 2) array (or sequence) of segment ends (x, z).
            storey: The storey of every segment.

        Returns:
            A boolean array of length n, True where nothing blocks the segment.
        """
        if isinstance(starts, np.ndarray):
            starts = starts.tolist()
        if isinstance(ends, np.ndarray):
            ends = ends.tolist()
        return self._clear(storey, [(a[0], a[1], b[0], b[1])
                                    for a, b in zip(starts, ends, strict=True)])

    def segments_clear(self, keys: list[tuple[float, float, float, float]],
                       storey: str) -> list[bool]:
        """Line of sight along many segments (px, pz, qx, qz) of one storey, as a list.

        The plain-list form of `lines_clear`, for callers that loop over the answers.
        """
        memo = self._memo[storey]
        get = memo.get
        found = [get(k) for k in keys]
        if None in found:
            todo = [i for i, f in enumerate(found) if f is None]
            fresh = self._test(storey, [keys[i] for i in todo])
            for i, clear in zip(todo, fresh, strict=True):
                found[i] = clear
            self._remember(memo, [keys[i] for i in todo], fresh)
        return found  # type: ignore[return-value]

    def _clear(self, storey: str, keys: list[tuple[float, float, float, float]]) -> np.ndarray:
        """Remembered answers for the segments asked before, one test for the rest."""
        return np.array(self.segments_clear(keys, storey), dtype=bool)

    def _remember(self, memo: dict, keys: list, answers: list[bool]) -> None:
        if len(memo) + len(keys) > MEMO_LIMIT:
            memo.clear()
        memo.update(zip(keys, answers, strict=True))

    def _test(self, storey: str, keys: list[tuple[float, float, float, float]]) -> list[bool]:
        """Whether each segment (px, pz, qx, qz) crosses no blocker: one array pass."""
        ax, az, ex, ez = self.arrays(storey)
        if ax.size == 0:
            return [True] * len(keys)
        seg = np.array(keys, dtype=float).reshape(-1, 4)
        if kernels.COMPILED:
            blocked = np.empty(len(seg), dtype=np.bool_)
            kernels.sight_crossed(seg, ax, az, ex, ez, blocked)
            return np.logical_not(blocked).tolist()  # type: ignore[no-any-return]
        px, pz = seg[:, 0:1], seg[:, 1:2]
        wx, wz = ax - px, az - pz
        dx, dz = seg[:, 2:3] - px, seg[:, 3:4] - pz
        crossed = _crossing(wx * ez - wz * ex, dx, dz, wx, wz, ex, ez).any(axis=1)
        clear: list[bool] = np.logical_not(crossed).tolist()
        return clear


def _crossing(side_p: Any, dx: Any, dz: Any, wx: Any, wz: Any, ex: Any, ez: Any) -> np.ndarray:
    # Segment p-q (direction d) crosses blocker a-b (direction e, w = a - p) when p and q
    # lie strictly on opposite sides of the blocker's line and a and b on opposite sides
    # of the sight line, or one of them on it (so a line through a blocker's end, such as
    # a wall corner, is blocked). side_p is p's side of the blocker's line; q's side is
    # side_p - denom. Parallel lines never cross (q's side equals p's).
    denom = dx * ez - dz * ex
    side_a = wx * dz - wz * dx
    return (side_p * (side_p - denom) < 0) & (side_a * (denom - side_a) >= 0)
