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
from world.sim import kernels
from world.sim.world import World

# What a ray can hit, as channels after the distance; object kinds follow these.
HIT_CHANNELS = ("wall", "door", "hostile", "friendly")
OBJECT_CHANNELS = tuple(OBJECT_KINDS)
CHANNELS = ("distance", *HIT_CHANNELS, *OBJECT_CHANNELS)
CHANNEL_OF = {name: i for i, name in enumerate(CHANNELS)}
# Radius of an object as rays see it (world units), as wide as lines of fire take it.
OBJECT_RADIUS = 15.0
# The dot products of a scan with no circles (the compiled pass reads none of them).
_NO_DOTS = np.zeros((0, 0))


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
    """Scans one world; each storey's blockers are put in one array per set of closed gates.

    A scan is one array pass over every ray and every blocker (walls, then hidden
    passages not yet revealed, then doors that block sight, then circles): the
    nearest hit wins, and on a tie the earlier of that order, as separate passes in
    that order would have it.
    """

    def __init__(self, world: World, spec: ScanSpec) -> None:
        self.world, self.spec = world, spec
        self._offsets = spec.offsets()
        self._rows = np.arange(len(self._offsets))
        self._walls = {s: _segments(world.layout.sight_walls[s]) for s in world.layout.storeys}
        self._gate_storey = {g: gate.storey for g, gate in world.layout.gates.items()}
        # Per storey and blocking gates: (start points, directions, code of each segment).
        self._blockers: dict[tuple[str, tuple[str, ...]], tuple[np.ndarray, ...]] = {}
        # The last answer of `_blocking`, with its storey and the doors' version: the
        # gates that block change only with that version (`Doors._sync`).
        self._last: tuple[tuple[str, int], tuple[np.ndarray, ...]] | None = None

    def _gates(self, storey: str, doors: bool) -> np.ndarray:
        # A hidden passage not yet revealed looks like the wall it hides in.
        gates = self.world.layout.gates
        return _segments([gates[g].segment for g, d in self.world.doors.items()
                          if d.blocking and d.is_door == doors and gates[g].storey == storey])

    def _blocking(self, storey: str) -> tuple[np.ndarray, ...]:
        """Start points, directions and codes (0 wall, 1 door) of the storey's blockers now."""
        now = (storey, self.world.doors_system.version)
        last = self._last
        if last is not None and last[0] == now:
            return last[1]
        where = self._gate_storey
        key = (storey, tuple(g for g, d in self.world.doors.items()
                             if d.blocking and where[g] == storey))
        cached = self._blockers.get(key)
        if cached is None:
            parts = [self._walls[storey], self._gates(storey, False), self._gates(storey, True)]
            segs = np.vstack(parts)
            codes = np.repeat([0, 0, 1], [len(x) for x in parts])
            cached = (segs[:, :2].copy(), segs[:, 2:] - segs[:, :2], codes)
            if len(self._blockers) > 64:  # doors open and close: keep the memo small
                self._blockers.clear()
            self._blockers[key] = cached
        self._last = (now, cached)
        return cached

    def scan(self) -> tuple[np.ndarray, list[str | None]]:
        """The scan: (rays, channels) float32, and the id each ray hit (None: a wall or nothing).

        Channel 0 is distance over max_range (1: nothing within range); then one 0/1
        channel per kind of thing hit (`CHANNELS`).
        """
        out, channel, k, labels = self._cast()
        ids: list[str | None] = [labels[j][1] if c > 2 else None
                                 for j, c in zip(k.tolist(), channel.tolist(), strict=True)]
        return out, ids

    def rays(self) -> np.ndarray:
        """The scan's array alone (`scan` without the ids)."""
        return self._cast()[0]

    def _cast(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, str]]]:
        # (the scan, each ray's channel (0: nothing), each ray's circle index, circle labels)
        p = self.world.player
        angles = p.facing + self._offsets
        d = np.empty((len(angles), 2))
        np.cos(angles, out=d[:, 0])
        np.sin(angles, out=d[:, 1])
        o = np.array([p.x, p.z])
        starts, dirs, codes = self._blocking(p.storey)
        circles, labels = self._circles(p.storey)
        cast = self._pass_compiled if kernels.COMPILED else self._pass_numpy
        return (*cast(o, d, starts, dirs, codes, circles, labels), labels)

    def _pass_numpy(self, o: np.ndarray, d: np.ndarray, starts: np.ndarray, dirs: np.ndarray,
                    codes: np.ndarray, circles: np.ndarray, labels: list[tuple[int, str]],
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        # (the scan, each ray's channel (0: nothing), each ray's circle index)
        spec, n = self.spec, len(d)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = _segment_times(o, d, starts, dirs)
            channels = codes + 1  # wall: channel 1, door: channel 2
            if labels:
                t = np.concatenate([t, _circle_hits(o, d, circles)], axis=1)
                channels = np.concatenate([channels, [c for c, _ in labels]])
        rows = self._rows
        out = np.zeros((n, len(CHANNELS)), dtype=np.float32)
        if not t.shape[1]:
            out[:, 0] = 1.0
            return out, np.zeros(n, dtype=np.intp), np.zeros(n, dtype=np.intp)
        k = t.argmin(axis=1)
        tk = t[rows, k]
        closer = tk < spec.max_range
        out[:, 0] = np.where(closer, tk, spec.max_range) / spec.max_range
        channel = np.where(closer, channels[k], 0)
        out[rows, channel] += closer
        return out, channel, k - len(codes)

    def _pass_compiled(self, o: np.ndarray, d: np.ndarray, starts: np.ndarray,
                       dirs: np.ndarray, codes: np.ndarray, circles: np.ndarray,
                       labels: list[tuple[int, str]],
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        # The same pass in one compiled loop (`world.sim.kernels.ray_pass`); the dot
        # products stay numpy's (a matrix product's rounding is the BLAS kernel's own).
        n = len(d)
        b = d @ (circles[:, :2] - o).T if labels else _NO_DOTS
        circle_channels = np.array([c for c, _ in labels], dtype=np.intp)
        out = np.zeros((n, len(CHANNELS)), dtype=np.float32)
        channel = np.zeros(n, dtype=np.intp)
        k = np.zeros(n, dtype=np.intp)
        kernels.ray_pass(float(o[0]), float(o[1]), d, starts, dirs, codes + 1, circles, b,
                         circle_channels, float(self.spec.max_range), out, channel, k)
        return out, channel, k

    def _circles(self, storey: str) -> tuple[np.ndarray, list[tuple[int, str]]]:
        rows: list[tuple[float, float, float]] = []
        labels: list[tuple[int, str]] = []
        for cid, actor in self.world.characters.items():
            if actor.alive and actor.storey == storey:
                rows.append((actor.x, actor.z, actor.radius))
                labels.append((CHANNEL_OF["friendly" if actor.side == "friendly"
                                          else "hostile"], cid))
        for oid, obj in self.world.objects.items():
            if obj.present and obj.x is not None and obj.storey == storey and (
                    obj.kind != "spawn_point"):
                x, z, _ = obj.spot
                rows.append((x, z, OBJECT_RADIUS))
                labels.append((CHANNEL_OF[obj.kind], oid))
        return np.array(rows, dtype=float).reshape(-1, 3), labels



def _segments(segs) -> np.ndarray:
    return np.array([(a[0], a[1], b[0], b[1]) for a, b in segs], dtype=float).reshape(-1, 4)


def _segment_times(o: np.ndarray, d: np.ndarray, starts: np.ndarray,
                   dirs: np.ndarray) -> np.ndarray:
    """Distance along each ray to each segment, (rays, segments) (inf: missed)."""
    # Called under np.errstate(divide="ignore", invalid="ignore"): parallel lines.
    if not starts.size:
        return np.empty((len(d), 0))
    a = starts - o
    ax, az, ex, ez = a[:, 0], a[:, 1], dirs[:, 0], dirs[:, 1]
    dx, dz = d[:, :1], d[:, 1:]
    denom = dx * ez - dz * ex  # (rays, segs)
    t = (ax * ez - az * ex) / denom
    u = (ax * dz - az * dx) / denom
    # Where |denom| > 1e-12, t and u are finite, so `t <= 1e-9` is `not t > 1e-9`; the
    # rest (NaN, inf) is a miss by the first test.
    miss = np.abs(denom) <= 1e-12
    miss |= t <= 1e-9
    miss |= u < 0
    miss |= u > 1
    t[miss] = np.inf
    return t


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
