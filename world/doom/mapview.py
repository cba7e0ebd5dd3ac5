"""The map a record carries, drawn from the WAD's geometry (schemas/record/map.schema.json).

Run pages draw the shipped levels' plans from this schema; a Doom map fills it the same
way: one storey, every room's floor (a room of several parts gives one entry a part,
same id and name), doors and the other ways as exits, things at their places. A Doom
episode's record carries this map (world/doom/session.py), in its own ids. Map x and
y are the schema's x and z (north up the page); heights are floor heights. Level ids in
the id table name the map's own numbering ("room 3", "door sector 10", "thing 17").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from shapely.geometry import MultiPolygon, Polygon

from world.doom.roomparts import Placed
from world.doom.rooms import DoomRooms
from world.doom.specials import CHARACTER_KINDS, MARKER_KINDS, hurts

PLAN_VERSION = 1
STOREY = "map"  # one storey: heights are read, not layered
_DIGITS = 1
# Way kind -> the schema's exit kind (a lift or a teleport is drawn as an opening).
_EXIT_KIND = {"open": "opening", "door": "door", "lift": "opening", "teleport": "opening"}


class Numbering(Protocol):
    """An episode's ids: the id of the index-th area, door or way."""

    def of(self, group: str, index: int) -> str:
        """The episode id of an area, door or way by its index in the rooms."""


def _xz(point: Iterable[float]) -> list[float]:
    x, y = point
    return [round(float(x), _DIGITS), round(float(y), _DIGITS)]


def _parts(shape: Polygon | MultiPolygon) -> list[Polygon]:
    parts = list(shape.geoms) if isinstance(shape, MultiPolygon) else [shape]
    return sorted((p for p in parts if not p.is_empty and p.area > 0),
                  key=lambda p: (-p.area, p.bounds))


def _ring(part: Polygon) -> list[list[float]]:
    return [_xz(p) for p in part.exterior.coords[:-1]]


def record_map(rooms: DoomRooms, ids: Numbering, skill: int = 3,
               objectives: Iterable[tuple[str, str]] = (),
               exit_areas: Iterable[int] | None = None,
               thing_id: Callable[[Placed], str | None] | None = None,
               targets: Iterable[str] = (),
               extra: Iterable[Placed] = ()) -> dict[str, Any]:
    """The record's map of a Doom map at the start of an episode.

    Args:
        rooms: The map's rooms.
        ids: The episode's numbering of areas, doors and ways.
        skill: The skill (1-5): things placed only at other skills are left out.
        objectives: (id, text) of each objective, in order.
        exit_areas: The rooms the mission ends in (default: those with a normal exit).
        thing_id: The episode id of a placed thing, or None to leave it out (default: o1,
            o2, ... and c1, c2, ... in the map's order).
        targets: The names (in the benchmark's words) of the things an objective names.
        extra: Things the map does not place but the episode has at its start (switches,
            things a scenario's script spawns), `thing` -1, drawn after the map's own.

    Returns:
        Plain JSON data valid against schemas/record/map.schema.json.
    """
    found = rooms.map
    targeted = set(targets)
    exits = set(e.area for e in rooms.exits if not e.secret) if exit_areas is None \
        else set(exit_areas)
    table: dict[str, str] = {}

    def named(group: str, index: int, level_id: str) -> str:
        ep = ids.of(group, index)
        table[ep] = level_id
        return ep

    areas: list[dict[str, Any]] = []
    for area in rooms.areas:
        ep = named("area", area.index, area.name)
        areas.extend({"id": ep, "name": area.name, "storey": STOREY, "polygon": _ring(part),
                      "secret": area.secret, "exit": area.index in exits}
                     for part in _parts(area.shape))
    out_exits = []
    for w, way in enumerate(rooms.ways):
        state: str | None
        if way.door is not None:
            door = rooms.doors[way.door]
            ep = named("door", way.door, f"door sector {door.sector}")
            sector = found.sectors[door.sector]
            state = "locked" if door.key else "open" if sector.ceiling > sector.floor \
                else "closed"
            hidden = any(found.lines[i].secret for i in door.lines)
        else:
            ep, state, hidden = named("way", w, f"way {w + 1}"), None, False
        out_exits.append({"id": ep, "kind": _EXIT_KIND[way.kind], "storey": STOREY,
                          "areas": [ids.of("area", a) for a in way.areas],
                          "segment": [_xz(p) for p in way.segment], "hidden": hidden,
                          "door": state})
    objects: list[dict[str, Any]] = []
    characters: list[dict[str, Any]] = []
    counts = {"o": 0, "c": 0}
    for placed in (*rooms.things, *extra):
        if skill not in placed.skills or placed.area < 0 or placed.kind in MARKER_KINDS:
            continue
        letter = "c" if placed.kind in CHARACTER_KINDS else "o"
        counts[letter] += 1
        tid = thing_id(placed) if thing_id else f"{letter}{counts[letter]}"
        if tid is None:
            continue
        table[tid] = f"thing {placed.thing}" if placed.thing >= 0 else placed.name
        if letter == "c":
            # (a thing in an area stands in one of its sectors)
            floor = found.sectors[rooms.sector_of(placed.x, placed.y)].floor
            characters.append({"id": tid, "kind": placed.name, "side": "hostile",
                               "at": [round(placed.x, _DIGITS), floor,
                                      round(placed.y, _DIGITS)]})
        else:
            objects.append({"id": tid, "kind": placed.kind, "name": placed.name,
                            "storey": STOREY, "at": _xz((placed.x, placed.y)),
                            "target": placed.name in targeted})
    return {
        "version": PLAN_VERSION,
        "storeys": [{"id": STOREY, "y": 0.0}],
        "areas": areas, "exits": out_exits, "stairs": [],
        "hazards": [{"kind": "damaging floor", "storey": STOREY, "polygon": _ring(part)}
                    for s, shape in enumerate(rooms.sector_shapes)
                    if shape is not None and hurts(found.sectors[s]) for part in _parts(shape)],
        "objects": objects, "characters": characters,
        "objectives": [{"index": i, "id": oid, "text": text}
                       for i, (oid, text) in enumerate(objectives, 1)],
        "ids": dict(sorted(table.items(), key=lambda kv: (kv[0][0], int(kv[0][1:])))),
    }
