"""Episode ids and what the player knows of a Doom map.

Things are named in the benchmark's words (specials.json's table of actors; the engine's
category for the few it does not name) and numbered per episode like the shipped world's
ids: a letter per group, numbered in the order the player first perceives them. The player knows its
start room, every room it has stood in, the rooms it sees into from there (through an
opening or an open door), the rooms of things it has seen, and every thing it has had in
view: within the 90-degree field of view, 3,000 units, with no wall or shut
door between (the engine's live heights decide). A thing out of view keeps where it was
last seen; one seen gone (its spot in view, the thing not there) is dropped. A door
keeps the state last perceived (beside it or its middle in view); a secret door is a
wall until found.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from world.doom.engine import Snapshot, Thing
from world.doom.geometry import Heights
from world.doom.layout import DoorSpot, Layout, Way
from world.doom.specials import ThingType, actor_type

SIGHT_RANGE = 3000.0
EYE = 41.0  # the player's eye above his feet
AIM_HEIGHT = 28.0  # a thing is seen at about half a monster's height
HALF_FOV = 45.0
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
LETTERS = {"area": "a", "door": "d", "way": "w", "object": "o", "character": "c"}
# Engine category -> kind, for actors specials.json does not name (they keep their class
# name, split into words); other categories are scenery. The map's switches are things of
# category "Switch" named in words already.
CATEGORY_KINDS: MappingProxyType[str, str] = MappingProxyType({
    "Armor": "armour", "Health": "medkit", "Ammo": "ammo", "Weapon": "weapon", "Key": "key",
    "Powerup": "gadget", "Monster": "monster", "Switch": "switch",
})


def describe(thing: Thing) -> ThingType | None:
    """A thing's kind and name in the benchmark's words; None for scenery and the player.

    The engine names actors by class ("DoomImp"); specials.json's table gives the words
    ("imp", kind "monster").
    """
    known = actor_type(thing.name)
    if known is not None:
        return known
    kind = CATEGORY_KINDS.get(thing.category)
    return None if kind is None else ThingType(kind, _CAMEL.sub(" ", thing.name).lower())


class EpisodeIds:
    """Episode ids for sectors, ways, doors and things: numbered as first shown.

    Each group is numbered 1, 2, ... in the order its members are first handed out (the
    view numbers its rows after sorting and cutting them), so the largest id shown never
    exceeds the count of that group perceived. Ids are keyed by index (areas, ways,
    doors) or engine thing id (things).
    """

    def __init__(self) -> None:
        self._to_ep: dict[tuple[str, int], str] = {}
        self._back: dict[str, tuple[str, int]] = {}
        self._next = dict.fromkeys(LETTERS, 1)

    def _number(self, group: str, key: int) -> str:
        if (group, key) not in self._to_ep:
            ep = f"{LETTERS[group]}{self._next[group]}"
            self._next[group] += 1
            self._to_ep[(group, key)] = ep
            self._back[ep] = (group, key)
        return self._to_ep[(group, key)]

    def of(self, group: str, index: int) -> str:
        """The id of the index-th area, way or door (numbered now if it has none)."""
        return self._number(group, index)

    def thing(self, thing: Thing, group: str) -> str:
        """The id of a thing (numbered now if it has none)."""
        return self._number(group, thing.id)

    def peek(self, group: str, key: int) -> str | None:
        """The id already handed out for an index or thing id, or None (numbers nothing)."""
        return self._to_ep.get((group, key))

    def lookup(self, ep: str) -> tuple[str, int] | None:
        """(group, index or engine thing id) of an id handed out, or None."""
        return self._back.get(ep)

    def handed_out(self, groups: tuple[str, ...]) -> list[str]:
        """Every id of these groups handed out so far, in order."""
        return sorted((e for e, (g, _) in self._back.items() if g in groups),
                      key=lambda e: (e[0], int(e[1:])))


@dataclass
class Sighting:
    """A thing as last seen: where, when, and whether in view now."""

    thing: Thing
    group: str
    kind: str
    name: str  # in the benchmark's words, as first seen (a body is renamed by the engine)
    tic: int
    now: bool
    down: bool = False  # a monster seen dead (the engine keeps its body as gore)


class Knowledge:
    """What the player has perceived, brought up to date from snapshots."""

    def __init__(self, layout: Layout, fixed: tuple[Thing, ...] = ()) -> None:
        self.layout = layout
        self.fixed = fixed  # things of the map itself (switches), never taken
        self.areas: set[int] = set()
        self.visited: set[int] = set()
        self.things: dict[int, Sighting] = {}
        self.gone: set[int] = set()
        self.revealed: set[int] = set()  # secret doors seen open or passed
        self.door_gaps: dict[int, float] = {}  # door -> floor-to-ceiling gap last perceived
        self.doors_now: set[int] = set()  # doors perceived at the last update
        self.lift_floors: dict[int, float] = {}  # lift sector -> floor height last perceived

    def update(self, snap: Snapshot) -> None:
        """Learn from one moment: the sector stood in, its neighbours, things in view."""
        heights = Heights(snap.floors, snap.ceilings)
        here = self.layout.area_at(*snap.xy)
        if here is not None:
            self.visited.add(here)
            self.areas.add(here)
            for door in self.layout.doors:
                # A secret door is a wall until the player sees it open beside him or
                # has stood on both sides of it.
                if door.hidden and here in door.areas and (
                        heights.ceiling[door.sector] > heights.floor[door.sector]
                        or all(a in self.visited for a in door.areas)):
                    self.revealed.add(door.index)
            for way in self.layout.ways:
                if here in way.areas and self._see_through(way, heights):
                    self.areas.update(way.areas)
        self._perceive_doors(snap, here, heights)
        present = {t.id for t in snap.things}
        for sighting in self.things.values():
            sighting.now = False
        described = [(t, describe(t)) for t in snap.things + self.fixed]
        candidates = [(t, k) for t, k in described if k is not None and k.group is not None]
        # A switch stands on its floor; the engine's things carry their own height.
        zs = [t.z if t.id >= 0 else self._floor(snap, t) for t, _ in candidates]
        seen = self.in_view_many(snap, [(t.x, t.y) for t, _ in candidates], zs)
        for (thing, kind), visible in zip(candidates, seen, strict=True):
            if not visible:
                continue
            self.things[thing.id] = Sighting(thing, str(kind.group), kind.kind, kind.name,
                                             snap.tic, True)
            where = self.layout.area_at(thing.x, thing.y)
            if where is not None:
                self.areas.add(where)
        bodies = {t.id: t for t in snap.things if t.category != "Monster"}
        for tid, sighting in list(self.things.items()):
            spot = (sighting.thing.x, sighting.thing.y)
            body = bodies.get(tid) if sighting.group == "character" else None
            if body is not None and not sighting.down and self.in_view(snap, spot, body.z):
                # Seen going down: the body stays where it fell, and stays down.
                self.things[tid] = Sighting(body, "character", sighting.kind, sighting.name,
                                            snap.tic, True, down=True)
                continue
            if tid not in present and tid >= 0 and (
                    math.dist(spot, snap.xy) < 64 or self.in_view(snap, spot, sighting.thing.z)):
                self.gone.add(tid)
                del self.things[tid]

    def _perceive_doors(self, snap: Snapshot, here: int | None, heights: Heights) -> None:
        # A door's state is perceived beside it or with its middle in view; elsewhere it
        # keeps the state last perceived (a door moved unseen is news to no one).
        doors = [d for d in self.layout.doors if self.knows_door(d)]
        beside = [here in d.areas for d in doors]
        far = [d for d, b in zip(doors, beside, strict=True) if not b]
        seen = iter(self.in_view_many(snap, [d.point for d in far],
                                      [heights.floor[d.sector] for d in far]))
        self.doors_now = set()
        for door, near in zip(doors, beside, strict=True):
            if near or next(seen):
                self.doors_now.add(door.index)
                self.door_gaps[door.index] = heights.ceiling[door.sector] - \
                    heights.floor[door.sector]

    def lift_floor(self, snap: Snapshot, sector: int) -> float:
        """A lift's floor as perceived (never perceived: where the map rests it).

        Live while the player stands in its area or has its middle in view, else as last
        perceived.
        """
        rooms = self.layout.rooms
        middle = rooms.sector_shape(sector).representative_point()
        if self.layout.area_at(*snap.xy) == rooms.sector_area[sector] \
                or self.in_view(snap, (middle.x, middle.y), snap.floors[sector]):
            self.lift_floors[sector] = snap.floors[sector]
        return self.lift_floors.get(sector, self.layout.map.sectors[sector].floor)

    def door_gap(self, door: DoorSpot) -> float:
        """A door's opening as last perceived (never perceived: as the map starts it)."""
        if door.index in self.door_gaps:
            return self.door_gaps[door.index]
        sector = self.layout.map.sectors[door.sector]
        return sector.ceiling - sector.floor

    def _see_through(self, way: Way, heights: Heights) -> bool:
        if way.door is None:
            return True
        sector = self.layout.doors[way.door].sector
        return heights.ceiling[sector] - heights.floor[sector] > 0

    def knows_door(self, door: DoorSpot) -> bool:
        """Doors on the ways out of every area the player has been in are known.

        A secret door only once revealed: until then it is a wall.
        """
        return not self.hidden(door) and any(a in self.visited for a in door.areas)

    def hidden(self, door: DoorSpot) -> bool:
        """Whether a door is a secret door the player has not found."""
        return door.hidden and door.index not in self.revealed

    def in_view_many(self, snap: Snapshot, points: list[tuple[float, float]],
                     zs: list[float]) -> list[bool]:
        """`in_view` for many points at once (one pass over the walls)."""
        if not points:
            return []
        p = np.array(points, dtype=float)
        dx, dy = p[:, 0] - snap.xy[0], p[:, 1] - snap.xy[1]
        distance = np.hypot(dx, dy)
        off = (np.degrees(np.arctan2(dy, dx)) - snap.angle + 180) % 360 - 180
        near = (distance <= SIGHT_RANGE) & ((distance <= 32) | (np.abs(off) <= HALF_FOV))
        out = near.copy()
        idx = np.flatnonzero(near)
        if len(idx):
            eye, live = eye_and_heights(snap)
            targets = [(points[i][0], points[i][1], zs[i] + AIM_HEIGHT) for i in idx]
            out[idx] = self.layout.sight.visible_many(eye, targets, live)
        return out.tolist()

    def in_view(self, snap: Snapshot, point: tuple[float, float], z: float) -> bool:
        """Whether a point is in the player's field of view with a clear line to it."""
        return self.in_view_many(snap, [point], [z])[0]

    def _floor(self, snap: Snapshot, thing: Thing) -> float:
        sector = self.layout.rooms.sector_at(thing.x, thing.y)
        return snap.floors[sector] if sector is not None else 0.0


def eye_and_heights(snap: Snapshot) -> tuple[tuple[float, float, float], Any]:
    """The player's eye and the live heights as the sight test takes them."""
    floors, ceilings = snap.floors, snap.ceilings

    def live(sector: int) -> tuple[float, float]:
        return floors[sector], ceilings[sector]

    return (snap.xy[0], snap.xy[1], snap.counters["POSITION_Z"] + EYE), live
