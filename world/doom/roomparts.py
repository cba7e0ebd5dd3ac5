"""The parts of a map between and inside its rooms.

Which sectors move, doors, ways, switches, exits and placed things; `rooms.py` groups
the sectors and calls these.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from shapely.geometry import MultiPolygon, Polygon

from world.doom.polygons import line_segments, sector_of_sides
from world.doom.specials import MOVING_KINDS, line_special, thing_type
from world.doom.wad import MapData

Segment = tuple[tuple[float, float], tuple[float, float]]
TELEPORT_DESTINATION = 14  # the thing type a Doom-format teleport lands on
USE_REACH = 32.0  # a standing point this far in front of a line: within Doom's 64-unit use


@dataclass(frozen=True)
class Door:
    """A door sector, the rooms around it, its key and the lines that open it."""

    sector: int
    areas: tuple[int, ...]
    key: str | None
    manual: bool  # opened by using the door itself (else by a switch or a line walked over)
    lines: tuple[int, ...]
    segment: Segment


@dataclass(frozen=True)
class Way:
    """A way between two areas: "open", "door", "lift" or "teleport" (one way only)."""

    kind: str
    areas: tuple[int, int]
    segment: Segment
    door: int | None  # index into the doors
    line: int | None  # a teleport's line


@dataclass(frozen=True)
class Switch:
    """A line the player uses that moves or ends something elsewhere."""

    line: int
    kind: str
    area: int
    at: tuple[float, float]
    reach: tuple[float, float]  # where the player stands to use it: in front of its middle
    key: str | None
    targets: tuple[int, ...]  # the sectors it moves

    @property
    def name(self) -> str:
        """Its name in views and missions: "exit switch", "door switch", "lift switch", ..."""
        return f"{self.kind.replace('_', ' ')} switch"


@dataclass(frozen=True)
class Exit:
    """A line that ends the level: used (a switch), walked over or shot."""

    line: int
    secret: bool
    trigger: str
    area: int
    at: tuple[float, float]
    reach: tuple[float, float]  # in front of its middle, on the side it is used from


@dataclass(frozen=True)
class Placed:
    """A thing of a known type where the map places it (its area -1 off every room)."""

    thing: int
    type: int
    kind: str
    name: str
    x: float
    y: float
    area: int
    skills: frozenset[int]


def _tagged(found: MapData, tag: int) -> tuple[int, ...]:
    return tuple(s for s, sector in enumerate(found.sectors) if tag and sector.tag == tag)


def moved_sectors(found: MapData) -> dict[int, str]:
    """Sectors a door or lift special moves -> "door" or "lift" (the first line wins)."""
    moving: dict[int, str] = {}
    for ln in found.lines:
        special = line_special(found, ln)
        if special is None or special.kind not in MOVING_KINDS:
            continue
        if special.manual:
            sectors: tuple[int, ...] = (() if ln.back is None
                                        else (found.sides[ln.back].sector,))
        else:
            sectors = _tagged(found, special.tag)
        for s in sectors:
            moving.setdefault(s, special.kind)
    return moving


def _midpoint(found: MapData, line: int) -> tuple[float, float]:
    ln = found.lines[line]
    (x1, y1), (x2, y2) = found.vertices[ln.v1], found.vertices[ln.v2]
    return ((x1 + x2) / 2, (y1 + y2) / 2)


def _in_front(found: MapData, line: int) -> tuple[float, float]:
    """A point USE_REACH units in front of a line's middle, where a player stands to use it.

    Doom's front is the right of the line from its first vertex to its second.
    """
    ln = found.lines[line]
    (x1, y1), (x2, y2) = found.vertices[ln.v1], found.vertices[ln.v2]
    length = max(float(np.hypot(x2 - x1, y2 - y1)), 1e-9)
    mx, my = _midpoint(found, line)
    return (mx + USE_REACH * (y2 - y1) / length, my - USE_REACH * (x2 - x1) / length)


def _long_axis(shape: Polygon | MultiPolygon | None) -> Segment:
    """The centre line along a doorway's long side (across the passage it closes)."""
    if shape is None or shape.is_empty:
        return ((0.0, 0.0), (0.0, 0.0))
    box = np.array(shape.minimum_rotated_rectangle.exterior.coords)[:4]
    if len(box) < 4:
        (x1, y1), (x2, y2) = box[0], box[-1]
        return ((float(x1), float(y1)), (float(x2), float(y2)))
    a, b, c, d = box
    if np.hypot(*(b - a)) >= np.hypot(*(c - b)):
        p, q = (a + d) / 2, (b + c) / 2
    else:
        p, q = (a + b) / 2, (d + c) / 2
    return ((float(p[0]), float(p[1])), (float(q[0]), float(q[1])))


def find_doors(found: MapData, door_sectors: set[int], sector_area: tuple[int, ...],
               borders: dict[tuple[int, int], float],
               shapes: tuple[Polygon | MultiPolygon | None, ...]) -> tuple[Door, ...]:
    """Every door sector with the rooms it joins, its key and the lines that open it."""
    opened: dict[int, list[tuple[int, str | None, bool]]] = {s: [] for s in door_sectors}
    for i, ln in enumerate(found.lines):
        special = line_special(found, ln)
        if special is None or special.kind != "door":
            continue
        if special.manual:
            targets: tuple[int, ...] = (() if ln.back is None
                                        else (found.sides[ln.back].sector,))
        else:
            targets = _tagged(found, special.tag)
        for s in targets:
            if s in opened:
                opened[s].append((i, special.key, special.manual))
    doors = []
    for s in sorted(door_sectors):
        near = sorted({sector_area[b if a == s else a] for (a, b) in borders
                       if s in (a, b) and sector_area[b if a == s else a] >= 0})
        lines = opened[s]
        key = next((k for _, k, _ in lines if k), None)
        doors.append(Door(s, tuple(near), key, any(m for _, _, m in lines),
                          tuple(i for i, _, _ in lines), _long_axis(shapes[s])))
    return tuple(doors)


def _area_of(sector_area: tuple[int, ...], doors: tuple[Door, ...], sector: int) -> int:
    index = sector_area[sector]
    if index >= 0:
        return index
    door = next((d for d in doors if d.sector == sector and d.areas), None)
    return door.areas[0] if door else -1


def find_ways(found: MapData, sector_area: tuple[int, ...], doors: tuple[Door, ...],
              lift_areas: set[int], sector_at: Callable[[float, float], int | None]
              ) -> tuple[Way, ...]:
    """Ways between areas.

    Open borders (the longest shared line drawn), doors (one per pair of rooms a door
    joins) and teleports (from the line's room to the landing's).
    """
    segs = line_segments(found)
    lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    front, back = sector_of_sides(found)
    best: dict[tuple[int, int], int] = {}
    for i in np.argsort(-lengths, kind="stable").tolist():
        a, b = int(front[i]), int(back[i])
        if a < 0 or b < 0 or sector_area[a] < 0 or sector_area[b] < 0:
            continue
        pair = (min(sector_area[a], sector_area[b]), max(sector_area[a], sector_area[b]))
        if pair[0] != pair[1]:
            best.setdefault(pair, i)
    ways = []
    for pair, i in sorted(best.items()):
        kind = "lift" if lift_areas & set(pair) else "open"
        x1, y1, x2, y2 = segs[i].tolist()
        ways.append(Way(kind, pair, ((x1, y1), (x2, y2)), None, None))
    for d, door in enumerate(doors):
        for j, a in enumerate(door.areas):
            for b in door.areas[j + 1:]:
                ways.append(Way("door", (a, b), door.segment, d, None))
    for i, ln in enumerate(found.lines):
        special = line_special(found, ln)
        if special is None or special.kind != "teleport" or ln.front is None:
            continue
        landing_sector = _landing(found, special.tag, sector_at)
        landing = (-1 if landing_sector is None
                   else _area_of(sector_area, doors, landing_sector))
        start = _area_of(sector_area, doors, found.sides[ln.front].sector)
        if landing < 0 or start < 0:
            continue
        x1, y1, x2, y2 = segs[i].tolist()
        ways.append(Way("teleport", (start, landing), ((x1, y1), (x2, y2)), None, i))
    return tuple(ways)


def _landing(found: MapData, tag: int,
             sector_at: Callable[[float, float], int | None]) -> int | None:
    """The sector a teleport with this tag lands in.

    Doom: a destination thing in a sector with the tag; Hexen and UDMF: the thing whose
    id is the tag.
    """
    for t in found.things:
        if found.format != "doom":
            if tag and t.tid == tag:
                return sector_at(t.x, t.y)
            continue
        if t.type != TELEPORT_DESTINATION:
            continue
        sector = sector_at(t.x, t.y)
        if sector is not None and tag and found.sectors[sector].tag == tag:
            return sector
    return None


def find_switches(found: MapData, sector_area: tuple[int, ...],
                  doors: tuple[Door, ...]) -> tuple[Switch, ...]:
    """Lines the player uses that are not a door's own line."""
    out = []
    for i, ln in enumerate(found.lines):
        special = line_special(found, ln)
        if special is None or special.trigger != "use" or special.manual or ln.front is None:
            continue
        area = _area_of(sector_area, doors, found.sides[ln.front].sector)
        out.append(Switch(i, special.kind, area, _midpoint(found, i), _in_front(found, i),
                          special.key,
                          _tagged(found, special.tag)))
    return tuple(out)


def find_exits(found: MapData, sector_area: tuple[int, ...],
               doors: tuple[Door, ...]) -> tuple[Exit, ...]:
    """Lines that end the level."""
    out = []
    for i, ln in enumerate(found.lines):
        special = line_special(found, ln)
        if special is None or special.kind not in ("exit", "secret_exit") or ln.front is None:
            continue
        area = _area_of(sector_area, doors, found.sides[ln.front].sector)
        out.append(Exit(i, special.kind == "secret_exit", special.trigger, area,
                        _midpoint(found, i), _in_front(found, i)))
    return tuple(out)


def place_things(found: MapData, area_at: Callable[[float, float], int]) -> tuple[Placed, ...]:
    """Every thing of a known type a single player meets, with the area it stands in."""
    out = []
    for i, t in enumerate(found.things):
        known = thing_type(t.type)
        if known is None or not t.single:  # multiplayer-only things are not spawned
            continue
        out.append(Placed(i, t.type, known.kind, known.name, t.x, t.y, area_at(t.x, t.y),
                          t.skills))
    return tuple(out)
