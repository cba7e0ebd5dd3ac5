"""A one-dimensional ray scan over the player's view cone, computed with numpy.

Each ray goes out from the player on its storey and stops at the nearest of: a wall
(the level's sight walls: windows and openings let rays through), a door that blocks
sight now, a standing object or a character not down (circles). Everything a ray
reaches is in the player's line of sight, so the scan shows only what the player sees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from world.observe.vocabulary import OBJECT_KINDS
from world.sim.world import World

# What a ray can hit, as channels after the distance; object kinds follow these.
HIT_CHANNELS = ("wall", "door", "hostile", "friendly")
OBJECT_CHANNELS = tuple(OBJECT_KINDS)
CHANNELS = ("distance", *HIT_CHANNELS, *OBJECT_CHANNELS)
# Radius of an object as rays see it (world units), as wide as lines of fire take it.
OBJECT_RADIUS = 15.0


@dataclass(frozen=True)
class ScanSpec:
    """The scan's shape: rays spread evenly over `fov_deg`, each at most `max_range` long."""

    rays: int = 32
    fov_deg: float = 90.0
    max_range: float = 4000.0

    def __post_init__(self) -> None:
        if not (1 <= self.rays <= 1024 and 0 < self.fov_deg <= 360 and self.max_range > 0):
            raise ValueError(f"ray scan: rays must be 1..1024 (got {self.rays}), fov_deg in "
                             f"(0, 360] (got {self.fov_deg}), max_range above 0 "
                             f"(got {self.max_range})")

    def offsets(self) -> np.ndarray:
        """Each ray's angle from the facing, radians, from one edge of the cone to the other."""
        half = math.radians(self.fov_deg) / 2
        if self.rays == 1:
            return np.zeros(1)
        return np.linspace(half, -half, self.rays)


class RayScanner:
    """Scans one world; the static walls of each storey are indexed once."""

    def __init__(self, world: World, spec: ScanSpec) -> None:
        self.world, self.spec = world, spec
        self._offsets = spec.offsets()
        self._walls = {s: _segments(world.layout.sight_walls[s]) for s in world.layout.storeys}

    def _gates(self, storey: str, doors: bool) -> np.ndarray:
        # A hidden passage not yet revealed looks like the wall it hides in.
        gates = self.world.layout.gates
        return _segments([gates[g].segment for g, d in self.world.doors.items()
                          if d.blocking and d.is_door == doors and gates[g].storey == storey])

    def scan(self) -> tuple[np.ndarray, list[str | None]]:
        """The scan: (rays, channels) float32, and the id each ray hit (None: a wall or nothing).

        Channel 0 is distance over max_range (1: nothing within range); then one 0/1
        channel per kind of thing hit (`CHANNELS`).
        """
        world, spec = self.world, self.spec
        p = world.player
        angles = p.facing + self._offsets
        d = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        o = np.array([p.x, p.z])
        n = len(angles)
        best = np.full(n, spec.max_range)
        what = np.full(n, -1)  # -1 nothing, 0 wall, 1 door, 2+ circles
        for code, segs in ((0, self._walls[p.storey]), (0, self._gates(p.storey, False)),
                           (1, self._gates(p.storey, True))):
            t = _segment_hits(o, d, segs)
            closer = t < best
            best = np.where(closer, t, best)
            what = np.where(closer, code, what)
        circles, labels = self._circles(p.storey)
        if circles.size:
            t = _circle_hits(o, d, circles)
            k = np.argmin(t, axis=1)
            tk = t[np.arange(n), k]
            closer = tk < best
            best = np.where(closer, tk, best)
            what = np.where(closer, 2 + k, what)
        out = np.zeros((n, len(CHANNELS)), dtype=np.float32)
        out[:, 0] = best / spec.max_range
        ids: list[str | None] = []
        for i, w in enumerate(what.tolist()):
            if w in (0, 1):
                out[i, 1 + w] = 1.0
                ids.append(None)
            elif w >= 2:
                channel, thing = labels[w - 2]
                out[i, channel] = 1.0
                ids.append(thing)
            else:
                ids.append(None)
        return out, ids

    def _circles(self, storey: str) -> tuple[np.ndarray, list[tuple[int, str]]]:
        rows: list[tuple[float, float, float]] = []
        labels: list[tuple[int, str]] = []
        for cid, actor in self.world.characters.items():
            if actor.alive and actor.storey == storey:
                rows.append((actor.x, actor.z, actor.radius))
                labels.append((CHANNELS.index("friendly" if actor.side == "friendly"
                                              else "hostile"), cid))
        for oid, obj in self.world.objects.items():
            if obj.present and obj.x is not None and obj.storey == storey and (
                    obj.kind != "spawn_point"):
                rows.append((obj.x, obj.z, OBJECT_RADIUS))
                labels.append((CHANNELS.index(obj.kind), oid))
        return np.array(rows, dtype=float).reshape(-1, 3), labels


def _segments(segs) -> np.ndarray:
    return np.array([(a[0], a[1], b[0], b[1]) for a, b in segs], dtype=float).reshape(-1, 4)


def _segment_hits(o: np.ndarray, d: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """Distance along each ray to the nearest segment (inf: none)."""
    if not segs.size:
        return np.full(len(d), np.inf)
    a = segs[:, :2] - o
    e = segs[:, 2:] - segs[:, :2]
    denom = d[:, :1] * e[:, 1] - d[:, 1:] * e[:, 0]  # (rays, segs)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (a[:, 0] * e[:, 1] - a[:, 1] * e[:, 0]) / denom
        u = (a[:, 0] * d[:, 1:] - a[:, 1] * d[:, :1]) / denom
    hit = (np.abs(denom) > 1e-12) & (t > 1e-9) & (u >= 0) & (u <= 1)
    return np.where(hit, t, np.inf).min(axis=1)


def _circle_hits(o: np.ndarray, d: np.ndarray, circles: np.ndarray) -> np.ndarray:
    """Distance along each ray to each circle's near edge, (rays, circles) (inf: missed)."""
    c = circles[:, :2] - o
    r = circles[:, 2]
    b = d @ c.T
    off2 = (c * c).sum(axis=1) - b * b
    inside = r * r - off2
    with np.errstate(invalid="ignore"):
        t = b - np.sqrt(np.maximum(inside, 0.0))
    return np.where((inside >= 0) & (b > 0), np.maximum(t, 0.0), np.inf)
