"""A Doom map as rooms: sectors grouped into areas, the ways between, what is in them.

The rule that groups sectors (documented in docs/doom.md): two sectors sharing a
two-sided line are one room when the line does not block, neither sector is a door or
a lift (a sector a door or lift special moves) nor a secret, their floors differ by at
most a step (24 units), the opening between them is at least the player's height
(56 units) at the start and their border is wide (128 units in all: a narrower one is
a passage, such as a corridor's mouth). A sector with no floor space (less than a
32-unit square, or lower than the player) joins the neighbour it shares the longest
border with. Rooms are numbered from 1 in the order of their lowest sector ("room 1",
...), lifts likewise ("lift 1", ...). Door sectors are no room: they are the ways
between the rooms around them; `area_at` in a doorway answers the first of them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon
from shapely.ops import polylabel

from world.doom.polygons import line_segments, sector_of_sides, sector_polygons
from world.doom.roomparts import (
    Door,
    Exit,
    Placed,
    Switch,
    Way,
    find_doors,
    find_exits,
    find_switches,
    find_ways,
    moved_sectors,
    place_things,
)
from world.doom.wad import MapData

STEP = 24.0  # the highest step a player climbs
HEIGHT = 56.0  # the player's height: the least opening he passes
_SMALL = 32.0 * 32.0  # floor space below which a sector is decoration
# A border narrower than this is a passage (a corridor's mouth), which keeps two sectors
# apart: Doom maps draw a room in many sectors (light, stairs) joined along wide borders.
_WIDE = 128.0


@dataclass(frozen=True)
class Area:
    """A room (or a lift): its index, name, sectors and floor."""

    index: int
    name: str
    kind: str  # "room" or "lift"
    sectors: tuple[int, ...]
    shape: Polygon | MultiPolygon
    secret: bool
    anchor: tuple[float, float]  # the point of its largest part farthest from its edges


class SectorLocator:
    """Which sector a point is in (the innermost when sectors nest)."""

    def __init__(self, shapes: tuple[Polygon | MultiPolygon | None, ...]):
        kept = [(s, shape) for s, shape in enumerate(shapes) if shape is not None]
        self.sectors = [s for s, _ in kept]
        self.areas = [shape.area for _, shape in kept]
        self.tree = shapely.STRtree([shape for _, shape in kept])

    def __call__(self, x: float, y: float) -> int | None:
        """The sector index under (x, y), or None off the map."""
        hits = self.tree.query(Point(x, y), predicate="intersects").tolist()
        if not hits:
            return None
        return self.sectors[min(hits, key=lambda i: (self.areas[i], i))]


@dataclass(frozen=True)
class DoomRooms:
    """A map's rooms and everything placed in or between them."""

    map: MapData
    sector_shapes: tuple[Polygon | MultiPolygon | None, ...]
    areas: tuple[Area, ...]
    sector_area: tuple[int, ...]  # per sector, its area index (-1: a doorway)
    ways: tuple[Way, ...]
    doors: tuple[Door, ...]
    switches: tuple[Switch, ...]
    exits: tuple[Exit, ...]
    secrets: tuple[int, ...]  # secret sectors
    things: tuple[Placed, ...]
    sector_at: SectorLocator

    def sector_shape(self, sector: int) -> Polygon | MultiPolygon:
        """A sector's floor shape.

        Raises:
            ValueError: for a sector with no floor shape (a degenerate one).
        """
        shape = self.sector_shapes[sector]
        if shape is None:
            raise ValueError(f"sector {sector} has no floor shape")
        return shape

    def sector_of(self, x: float, y: float) -> int:
        """The sector under a point known to be on the map.

        Raises:
            ValueError: for a point off the map.
        """
        sector = self.sector_at(x, y)
        if sector is None:
            raise ValueError(f"({x:g}, {y:g}) is off the map")
        return sector

    def area_index(self, x: float, y: float) -> int:
        """The area index under a point (a doorway: its first room); -1 off the map."""
        sector = self.sector_at(x, y)
        if sector is None:
            return -1
        index = self.sector_area[sector]
        if index < 0:
            door = next(d for d in self.doors if d.sector == sector)
            return door.areas[0] if door.areas else -1
        return index

    def area_at(self, x: float, y: float) -> Area | None:
        """The area under a point: a doorway answers its first room; None off the map."""
        index = self.area_index(x, y)
        return None if index < 0 else self.areas[index]


class _Groups:
    """Union-find over sectors; the smallest index of a group is its root (stable)."""

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _borders(found: MapData) -> dict[tuple[int, int], float]:
    """Per pair of sectors (low, high) sharing two-sided lines, the border's length."""
    segs = line_segments(found)
    lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    front, back = sector_of_sides(found)
    out: dict[tuple[int, int], float] = {}
    for i, (a, b) in enumerate(zip(front.tolist(), back.tolist(), strict=True)):
        if a >= 0 and b >= 0 and a != b:
            key = (min(a, b), max(a, b))
            out[key] = out.get(key, 0.0) + float(lengths[i])
    return out


def _joinable(found: MapData, moving: dict[int, str], a: int, b: int) -> bool:
    sa, sb = found.sectors[a], found.sectors[b]
    if a in moving or b in moving or sa.secret or sb.secret:
        return False
    opening = min(sa.ceiling, sb.ceiling) - max(sa.floor, sb.floor)
    return abs(sa.floor - sb.floor) <= STEP and opening >= HEIGHT


def build_rooms(found: MapData) -> DoomRooms:
    """Group the map's sectors into rooms (the module's rule) and find the rest.

    The rest: ways, doors, switches, exits, secrets and placed things.
    """
    shapes = sector_polygons(found)
    moving = moved_sectors(found)
    doors_at = {s for s, kind in moving.items() if kind == "door"}
    n = len(found.sectors)
    groups = _Groups(n)
    borders = _borders(found)
    blocked = {(min(a, b), max(a, b)) for ln, a, b in _line_pairs(found) if ln.blocking}
    for (a, b) in sorted(borders):
        if (a, b) not in blocked and borders[a, b] >= _WIDE and _joinable(found, moving, a, b):
            groups.join(a, b)
    # Decoration (no floor space) joins the neighbour with the longest border.
    for s in range(n):
        sector = found.sectors[s]
        shape = shapes[s]
        small = shape is None or shape.area < _SMALL or sector.ceiling - sector.floor < HEIGHT
        if s in moving or sector.secret or not small:
            continue
        near = [(length, -(a if a != s else b)) for (a, b), length in borders.items()
                if s in (a, b) and (a if a != s else b) not in moving]
        if near:
            groups.join(s, -max(near)[1])
    roots = sorted({groups.find(s) for s in range(n) if s not in doors_at})
    counters = {"room": 0, "lift": 0}
    areas: list[Area] = []
    index_of: dict[int, int] = {}
    for root in roots:
        members = tuple(s for s in range(n) if s not in doors_at and groups.find(s) == root)
        kind = "lift" if any(moving.get(s) == "lift" for s in members) else "room"
        counters[kind] += 1
        parts = [shapes[s] for s in members if shapes[s] is not None]
        shape = shapely.union_all(parts) if parts else Polygon()
        index_of[root] = len(areas)
        areas.append(Area(len(areas), f"{kind} {counters[kind]}", kind, members, shape,
                          any(found.sectors[s].secret for s in members), _anchor(shape)))
    sector_area = tuple(-1 if s in doors_at else index_of[groups.find(s)] for s in range(n))
    doors = find_doors(found, doors_at, sector_area, borders, shapes)
    locate = SectorLocator(shapes)
    lifts = {a.index for a in areas if a.kind == "lift"}
    rooms = DoomRooms(
        map=found, sector_shapes=shapes, areas=tuple(areas), sector_area=sector_area,
        ways=find_ways(found, sector_area, doors, lifts, locate),
        doors=doors, switches=find_switches(found, sector_area, doors),
        exits=find_exits(found, sector_area, doors),
        secrets=tuple(s for s in range(n) if found.sectors[s].secret),
        things=(), sector_at=locate)
    return replace(rooms, things=place_things(found, rooms.area_index))


def _anchor(shape: Polygon | MultiPolygon) -> tuple[float, float]:
    """Where a walk to the area aims: the pole of inaccessibility of its largest part."""
    if shape.is_empty:
        return (0.0, 0.0)
    parts = list(shape.geoms) if isinstance(shape, MultiPolygon) else [shape]
    largest = max(parts, key=lambda p: (p.area, p.bounds))
    pole = polylabel(largest, tolerance=4.0)
    return (round(pole.x, 1), round(pole.y, 1))


def _line_pairs(found: MapData):
    front, back = sector_of_sides(found)
    for ln, a, b in zip(found.lines, front.tolist(), back.tolist(), strict=True):
        if a >= 0 and b >= 0 and a != b:
            yield ln, a, b
