"""The map's rooms as an episode plays them: areas, ways out, doors and switches.

Built on `world.doom.rooms` (sectors grouped into rooms from the WAD, with the doors,
lifts, teleports and switches its line specials make). A way out has a point (the middle
of the border, or of the door) and a normal to walk through it; a switch stands as a
thing in front of its wall, with the wall's middle to face when pressing use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import Point
from shapely.ops import nearest_points

from world.doom.engine import Thing
from world.doom.files import iwad, scenario
from world.doom.maps import load_navgrid, load_rooms, load_sight
from world.doom.mission import DoomLevel
from world.doom.navgrid import NavGrid
from world.doom.rooms import DoomRooms
from world.doom.sight import Sight
from world.doom.wad import map_names

SWITCH_STAND = 28.0  # a switch is pressed from this far in front of its wall
INSIDE_MARGIN = 32.0  # a point inside an area keeps this far off its edges when it can


@dataclass(frozen=True)
class Way:
    """A way between two areas: kind (open, door, lift, teleport), door index if any."""

    index: int
    areas: tuple[int, int]
    point: tuple[float, float]
    normal: tuple[float, float]
    kind: str
    door: int | None

    @property
    def one_way(self) -> bool:
        """Teleports lead one way only."""
        return self.kind == "teleport"


@dataclass(frozen=True)
class DoorSpot:
    """A door: its sector, the areas it joins, key colour, whether use opens it, middle.

    `hidden`: a secret door (a face line flagged secret), which looks like a wall.
    """

    index: int
    sector: int
    areas: tuple[int, ...]
    key: str | None
    manual: bool
    point: tuple[float, float]
    hidden: bool = False


def _mid_normal(seg) -> tuple[tuple[float, float], tuple[float, float]]:
    (x1, y1), (x2, y2) = seg
    n = math.hypot(x2 - x1, y2 - y1) or 1.0
    return ((x1 + x2) / 2, (y1 + y2) / 2), (-(y2 - y1) / n, (x2 - x1) / n)


class Layout:
    """One map's rooms for an episode."""

    def __init__(self, level: DoomLevel) -> None:
        if level.scenario is not None:
            wad = scenario(level.scenario)
            name = map_names(wad)[0]
        else:
            wad, name = iwad(str(level.iwad)), str(level.map)
        # Rooms and the route grid are built once per process and map (world/doom/maps.py).
        self.rooms: DoomRooms = load_rooms(wad, name)
        self.navgrid: NavGrid = load_navgrid(wad, name)
        self.sight: Sight = load_sight(wad, name)
        self.map = self.rooms.map
        self.names = tuple(a.name for a in self.rooms.areas)
        secret = {self.map.sides[side].sector for ln in self.map.lines if ln.secret
                  for side in (ln.front, ln.back) if side is not None}
        self.doors = tuple(DoorSpot(i, d.sector, d.areas, d.key, d.manual,
                                    _mid_normal(d.segment)[0], d.sector in secret)
                           for i, d in enumerate(self.rooms.doors))
        # Per sector, the areas it belongs to: its room, or a door's rooms.
        door_areas = {d.sector: d.areas for d in self.doors}
        self.sector_areas = tuple(door_areas.get(s, ()) if a < 0 else (a,)
                                  for s, a in enumerate(self.rooms.sector_area))
        ways = []
        for i, w in enumerate(self.rooms.ways):
            point, normal = _mid_normal(w.segment)
            if w.kind == "door" and w.door is not None:
                # Through a door the walk crosses its long axis.
                normal = (normal[1], -normal[0])
            ways.append(Way(i, w.areas, point, normal, w.kind, w.door))
        self.ways = tuple(ways)
        self.switches = self._switches()
        self._inside: dict[tuple[int, int], tuple[float, float]] = {}
        # Per switch (in the order of `switches`), the sectors it moves.
        self.switch_moves = tuple(s.targets for s in self.ordered_switches())

    def area_at(self, x: float, y: float) -> int | None:
        """The area index under a point (a doorway answers its first room), or None."""
        index = self.rooms.area_index(x, y)
        return None if index < 0 else index

    def inside(self, way: Way, area: int) -> tuple[float, float]:
        """A point just inside an area past a way's middle.

        Straight across the way when that lands in the area; else the point of the area
        nearest the way's middle, kept off its edges (a deep door or a slanted mouth
        puts the room beyond off the way's normal).
        """
        for distance in (48.0, 32.0, 72.0, 96.0, 20.0, 128.0):
            for sign in (1, -1):
                p = (way.point[0] + sign * way.normal[0] * distance,
                     way.point[1] + sign * way.normal[1] * distance)
                if self.area_at(*p) == area:
                    return p
        key = (way.index, area)
        if key not in self._inside:
            self._inside[key] = self._nearest_inside(way.point, area)
        return self._inside[key]

    def _nearest_inside(self, point: tuple[float, float], area: int) -> tuple[float, float]:
        shape = self.rooms.areas[area].shape
        for margin in (INSIDE_MARGIN, INSIDE_MARGIN / 2, 0.0):
            core = shape.buffer(-margin) if margin else shape
            if core.is_empty:
                continue
            near = nearest_points(core, Point(point))[0]
            if self.area_at(near.x, near.y) == area:
                return (near.x, near.y)
        return point

    def ordered_switches(self) -> list:
        """The map's switches in the order of `switches` (exit switches first)."""
        return sorted(self.rooms.switches, key=lambda s: (s.kind != "exit", s.line))

    def _switches(self) -> tuple[tuple[Thing, tuple[float, float]], ...]:
        found, out = self.map, []
        for k, switch in enumerate(self.ordered_switches()):
            line = found.lines[switch.line]
            a, b = found.vertices[line.v1], found.vertices[line.v2]
            dx, dy = b[0] - a[0], b[1] - a[1]
            n = math.hypot(dx, dy) or 1.0
            # The front side lies to the right of the line's direction.
            front = (switch.at[0] + dy / n * SWITCH_STAND, switch.at[1] - dx / n * SWITCH_STAND)
            out.append((Thing(-(k + 1), switch.name, "Switch", front[0], front[1], 0.0, 0.0),
                        switch.at))
        return tuple(out)
