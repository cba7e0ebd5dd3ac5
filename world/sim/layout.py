"""Static geometry derived once from a level: walls, door gaps, stair ramps, area lookup.

Walls stand on every area boundary except where an exit or a stairs edge is. Movement
and sight differ only at windows: a window is a wall for walking but not for seeing.
Doors and hidden exits are kept apart as "gates" whose blocking changes at run time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from world.level.model import Area, Exit, Level, Point, Segment, Stairs
from world.recent import RecentCache

_ON_LINE = 0.5  # world units: how far a gap may sit off an edge and still cut it


def _cut(edge: Segment, gaps: list[Segment]) -> list[Segment]:
    """The parts of an edge not covered by any collinear gap segment."""
    (ax, az), (bx, bz) = edge
    length = math.hypot(bx - ax, bz - az)
    if length == 0.0:
        return []
    ux, uz = (bx - ax) / length, (bz - az) / length
    covered = []
    for (px, pz), (qx, qz) in gaps:
        # Both gap ends must lie on the edge's line for the gap to cut it.
        if abs((px - ax) * uz - (pz - az) * ux) > _ON_LINE:
            continue
        if abs((qx - ax) * uz - (qz - az) * ux) > _ON_LINE:
            continue
        tp = (px - ax) * ux + (pz - az) * uz
        tq = (qx - ax) * ux + (qz - az) * uz
        lo, hi = max(0.0, min(tp, tq)), min(length, max(tp, tq))
        if hi > lo:
            covered.append((lo, hi))
    pieces, at = [], 0.0
    for lo, hi in sorted(covered):
        if lo > at + 1e-6:
            pieces.append((at, lo))
        at = max(at, hi)
    if length > at + 1e-6:
        pieces.append((at, length))
    return [((ax + ux * lo, az + uz * lo), (ax + ux * hi, az + uz * hi)) for lo, hi in pieces]


def _key(seg: Segment) -> tuple:
    a, b = (round(seg[0][0], 3), round(seg[0][1], 3)), (round(seg[1][0], 3), round(seg[1][1], 3))
    return (a, b) if a <= b else (b, a)


def point_in_polygon(x: float, z: float, ring: tuple[Point, ...]) -> bool:
    """Even-odd test of a ground point against a simple polygon."""
    inside = False
    px, pz = ring[-1]
    for qx, qz in ring:
        if (qz > z) != (pz > z) and x < (px - qx) * (z - qz) / (pz - qz) + qx:
            inside = not inside
        px, pz = qx, qz
    return inside


@dataclass(frozen=True)
class AreaShape:
    """An area's outline with a bounding box and a fast path for axis-aligned rectangles."""

    id: str
    ring: tuple[Point, ...]
    box: tuple[float, float, float, float]
    is_rect: bool

    @classmethod
    def of(cls, area: Area) -> AreaShape:
        """Build the shape of one area."""
        xs = [p[0] for p in area.polygon]
        zs = [p[1] for p in area.polygon]
        box = (min(xs), min(zs), max(xs), max(zs))
        corners = {(x, z) for x in box[0::2] for z in box[1::2]}
        is_rect = len(area.polygon) == 4 and set(area.polygon) == corners
        return cls(area.id, area.polygon, box, is_rect)

    def contains(self, x: float, z: float) -> bool:
        """Whether a ground point is inside the area (edges count as inside for rectangles)."""
        x0, z0, x1, z1 = self.box
        if x < x0 or x > x1 or z < z0 or z > z1:
            return False
        return self.is_rect or point_in_polygon(x, z, self.ring)


@dataclass(frozen=True)
class Ramp:
    """A flight of stairs: a quad whose height rises from its bottom edge to its top edge."""

    id: str
    bottom_storey: str
    top_storey: str
    bottom_area: str
    top_area: str
    y0: float
    y1: float
    quad: tuple[Point, Point, Point, Point]
    sides: tuple[Segment, Segment]
    origin: Point
    axis: Point
    length: float

    def t(self, x: float, z: float) -> float:
        """Fraction of the way from the bottom edge (0) to the top edge (1)."""
        return ((x - self.origin[0]) * self.axis[0] + (z - self.origin[1]) * self.axis[1]) / (
            self.length
        )

    def height(self, t: float) -> float:
        """Floor height at a fraction t along the ramp (clamped to the ends)."""
        return self.y0 + (self.y1 - self.y0) * min(1.0, max(0.0, t))

    def contains(self, x: float, z: float) -> bool:
        """Whether a ground point lies over the ramp."""
        return point_in_polygon(x, z, self.quad)


def _ramp(stairs: Stairs, level: Level) -> Ramp:
    b0, b1 = stairs.bottom.edge
    t0, t1 = stairs.top.edge
    # Pair the ends so the two sides do not cross: near bottom ends go with near top ends.
    if math.dist(b0, t0) + math.dist(b1, t1) > math.dist(b0, t1) + math.dist(b1, t0):
        t0, t1 = t1, t0
    mb = ((b0[0] + b1[0]) / 2, (b0[1] + b1[1]) / 2)
    mt = ((t0[0] + t1[0]) / 2, (t0[1] + t1[1]) / 2)
    length = math.dist(mb, mt) or 1.0
    axis = ((mt[0] - mb[0]) / length, (mt[1] - mb[1]) / length)
    bottom, top = level.area(stairs.bottom.area), level.area(stairs.top.area)
    return Ramp(
        stairs.id, bottom.storey, top.storey, bottom.id, top.id,
        level.storey(bottom.storey).y, level.storey(top.storey).y,
        (b0, b1, t1, t0), ((b0, t0), (b1, t1)), mb, axis, length,
    )


@dataclass(frozen=True)
class Gate:
    """A door or hidden exit: a gap that can be a wall for movement and for sight."""

    id: str
    storey: str
    segment: Segment
    exit: Exit


class Layout:
    """Walls, gates, ramps and area shapes of every storey of a level."""

    def __init__(self, level: Level) -> None:
        """Derive the static geometry of a level."""
        self.storeys = tuple(s.id for s in level.storeys)
        self.storey_y = {s.id: s.y for s in level.storeys}
        self.ramps = tuple(_ramp(s, level) for s in sorted(level.stairs, key=lambda s: s.id))
        self.shapes: dict[str, tuple[AreaShape, ...]] = {s: () for s in self.storeys}
        self.area_storey = {a.id: a.storey for a in level.areas}
        for area in sorted(level.areas, key=lambda a: a.id):
            self.shapes[area.storey] += (AreaShape.of(area),)
        self.shape = {s.id: s for shapes in self.shapes.values() for s in shapes}
        self.gates = {
            e.id: Gate(e.id, level.area(e.areas[0]).storey, e.segment, e)
            for e in sorted(level.exits, key=lambda e: e.id)
            if e.kind == "door" or e.hidden
        }
        # Each gate's (storey, middle x, middle z, half length), for the quick reach test
        # that raw control's use runs every tick (`world.raw.controls`).
        self.gate_reach = {
            gid: (g.storey, (g.segment[0][0] + g.segment[1][0]) / 2,
                  (g.segment[0][1] + g.segment[1][1]) / 2,
                  math.hypot(g.segment[1][0] - g.segment[0][0],
                             g.segment[1][1] - g.segment[0][1]) / 2)
            for gid, g in self.gates.items()
        }
        stair_edges: dict[str, list[Segment]] = {}
        for st in level.stairs:
            stair_edges.setdefault(st.bottom.area, []).append(st.bottom.edge)
            stair_edges.setdefault(st.top.area, []).append(st.top.edge)
        self.move_walls: dict[str, list[Segment]] = {}
        self.sight_walls: dict[str, list[Segment]] = {}
        for storey in self.storeys:
            move: dict[tuple[float, ...], Segment] = {}
            sight: dict[tuple[float, ...], Segment] = {}
            for area in sorted(level.areas, key=lambda a: a.id):
                if area.storey != storey:
                    continue
                exits = [e for e in level.exits if area.id in e.areas]
                stairs = stair_edges.get(area.id, [])
                walk_gaps = [e.segment for e in exits if e.walkable or e.hidden] + stairs
                see_gaps = [e.segment for e in exits] + stairs
                ring = area.polygon
                for i, a in enumerate(ring):
                    edge = (a, ring[(i + 1) % len(ring)])
                    for seg in _cut(edge, walk_gaps):
                        move.setdefault(_key(seg), seg)
                    for seg in _cut(edge, see_gaps):
                        sight.setdefault(_key(seg), seg)
            for ramp in self.ramps:
                if storey in (ramp.bottom_storey, ramp.top_storey):
                    for seg in ramp.sides:
                        move.setdefault(_key(seg), seg)
                        sight.setdefault(_key(seg), seg)
            self.move_walls[storey] = [move[k] for k in sorted(move)]
            self.sight_walls[storey] = [sight[k] for k in sorted(sight)]

    def area_at(self, x: float, z: float, storey: str, hint: str | None = None) -> str | None:
        """The area containing a point on a storey; `hint` is tried first (the last area)."""
        if hint is not None:
            shape = self.shape.get(hint)
            if shape is not None and self.area_storey[hint] == storey and shape.contains(x, z):
                return hint
        for shape in self.shapes.get(storey, ()):
            if shape.contains(x, z):
                return shape.id
        return None

    def ramp_at(self, x: float, z: float, storey: str) -> Ramp | None:
        """The ramp over a point that joins the given storey, if any."""
        for ramp in self.ramps:
            if storey in (ramp.bottom_storey, ramp.top_storey) and ramp.contains(x, z):
                return ramp
        return None


# One layout per level, shared by the worlds made from it: a layout is derived from the
# frozen level alone and never changed, and an environment's every reset makes a world of
# the same level. Keyed, as the navigation meshes are (world.navmesh.build), on the
# level's content hash; a level without a hash (one built in code) gets a layout of its
# own each time.
_LAYOUTS: RecentCache[Layout] = RecentCache(16)


def shared_layout(level: Level) -> Layout:
    """The layout of a level, derived on first use and kept for the next world."""
    key = level.content_hash
    return _LAYOUTS.get(key, lambda: Layout(level)) if key else Layout(level)
