"""The level as a run page draws it: the map a record carries, in the map's own ids.

A record holds this plan in its header so that a page can draw the run from the
record alone, long after the level file has changed or gone. It is derived from the
level, the difficulty and the seed only (replay builds it again and compares), and it
is never shown to the agent: it names everything, seen or not. Its ids number each group
in the level's order (`IdMap.map_id`), not the episode's ids, which follow perception and
are not known when the header is written; the record's end line gives the episode's ids
(level id behind each), so a page can tell which thing an agent's id named.
"""

from __future__ import annotations

from typing import Any

from world.level.model import Level
from world.observe.ids import IdMap

PLAN_VERSION = 1
_DIGITS = 1  # coordinates to a tenth of a world unit (a millimetre): exact for drawing


def _xz(point: tuple[float, float]) -> list[float]:
    return [round(float(point[0]), _DIGITS), round(float(point[1]), _DIGITS)]


def _ring(points) -> list[list[float]]:
    return [_xz(p) for p in points]


def level_plan(level: Level, difficulty: str, ids: IdMap) -> dict[str, Any]:
    """Every storey's outline and what stands on it at the start, in map ids.

    Args:
        level: The level.
        difficulty: The episode's difficulty (characters not present at it are left out).
        ids: The episode's id numbering.

    Returns:
        Plain JSON data, valid against the `map` of schemas/record/header.schema.json:
        storeys (id, floor height), areas, exits, stairs, hazards, placed objects,
        characters at their starting places, objectives (number and text) and the id
        table (map id -> level id).
    """
    exit_area = level.exit_area.area if level.exit_area else None
    storey_of = {a.id: a.storey for a in level.areas}
    rank = level.difficulty_rank(difficulty) if difficulty in level.ids("difficulty") else 0
    targets = {o.object for o in level.objectives if o.object}
    plan: dict[str, Any] = {
        "version": PLAN_VERSION,
        "storeys": [{"id": s.id, "y": s.y} for s in level.storeys],
        "areas": [{"id": ids.map_id("area", a.id), "name": a.name, "storey": a.storey,
                   "polygon": _ring(a.polygon), "secret": a.secret,
                   "exit": a.id == exit_area} for a in level.areas],
        "exits": [{"id": ids.map_id("door" if e.door is not None else "way", e.id),
                   "kind": e.kind, "storey": storey_of[e.areas[0]],
                   "areas": [ids.map_id("area", a) for a in e.areas],
                   "segment": _ring(e.segment), "hidden": e.hidden,
                   "door": None if e.door is None else e.door.initial} for e in level.exits],
        "stairs": [{"id": ids.map_id("way", s.id),
                    "storeys": list(dict.fromkeys((storey_of[s.bottom.area],
                                                   storey_of[s.top.area]))),
                    "polygon": _ring((s.bottom.edge[0], s.bottom.edge[1], s.top.edge[1],
                                      s.top.edge[0]))} for s in level.stairs],
        "hazards": [{"kind": h.kind, "storey": h.storey, "polygon": _ring(h.polygon)}
                    for h in level.hazards],
        "objects": [{"id": ids.map_id("object", o.id), "kind": o.kind, "name": o.name or o.kind,
                     "storey": storey_of[o.area], "at": _xz(o.at), "target": o.id in targets,
                     # Only on decoys, so that maps recorded before decoys replay unchanged.
                     **({"decoy": True} if o.decoy_of is not None else {})}
                    for o in level.objects if o.area is not None and o.at is not None],
        "characters": [{"id": ids.map_id("character", c.id), "kind": c.kind, "side": c.side,
                        "at": [round(c.at[0], _DIGITS), level.area_y(c.area),
                               round(c.at[1], _DIGITS)]}
                       for c in level.characters
                       if level.difficulty_rank(c.min_difficulty) <= rank],
        "objectives": [{"index": i, "id": o.id, "text": o.text}
                       for i, o in enumerate(level.objectives, 1)],
    }
    plan["ids"] = ids.map_table()
    return plan
