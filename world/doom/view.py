"""The structured view and the record's map of a Doom episode, in the shipped shapes.

The view holds what the player knows (world/doom/known.py) in episode ids and the
benchmark's words, in the schema of schemas/messages/observation.schema.json, so the
harness's text view and every agent read it as they read the shipped world's. The map
(schemas/record/map.schema.json) is the map side's (world/doom/mapview.py) in the
episode's ids.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from world.doom.engine import Thing
from world.doom.geometry import HEADROOM
from world.doom.known import EpisodeIds, describe
from world.doom.mapview import STOREY, record_map
from world.doom.returnfire import BITERS
from world.doom.roomparts import Placed
from world.doom.specials import CHARACTER_KINDS, carried_guns, feeds, guns
from world.observe.view import MAX_OBJECTS

if TYPE_CHECKING:
    from world.doom.session import DoomSession

MATCH_REACH = 32.0  # an engine thing this close to where the map places one of its name is it
# Slot -> gun and gun -> ammunition pool, as specials.json declares them (`guns`).
WEAPONS = {g.slot: g.name for g in guns()}
POOLS = {g.name: g.pool for g in guns()}


def _point(session: DoomSession, xy: tuple[float, float], z: float | None = None) -> list[float]:
    height = session._floor(*xy) if z is None else z
    return [round(xy[0], 1), round(height, 1), round(xy[1], 1)]


def build_view(session: DoomSession) -> dict[str, Any]:
    """The structured view now."""
    snap, known, ids = session.engine.snap, session.known, session.ids
    here = session.layout.area_at(*snap.xy)
    # An area is named by its kind only: the map's numbering ("room 60") would tell
    # how many rooms there are and which one this is in every episode.
    names = [a.kind for a in session.layout.rooms.areas]
    c = snap.counters
    weapon = WEAPONS.get(int(c["SELECTED_WEAPON"]), "fist")
    player = {
        "position": _point(session, snap.xy, c["POSITION_Z"]),
        "facing_deg": round(snap.angle % 360, 1),
        "health": round(max(0.0, c["HEALTH"]) / 100, 3),
        "armour": round(c["ARMOR"] / 100, 3),
        "alive": not snap.dead,
        # The weapon Doom has raised: by `equip`, or by itself (a new gun on pickup).
        "in_hand": f"i{int(c['SELECTED_WEAPON'])}" if weapon != "fist" else None,
        "carried": [{"id": g.item_id, "kind": "weapon", "name": g.name,
                     "ammo": int(c[g.pool]), "weapon": g.name} for g in carried_guns(c)],
        "keys": [],
    }
    area = None
    if here is not None:
        ways = []
        # Numbered nearest first as listed: the order says nothing of the unseen.
        for way in sorted((w for w in session.way_list if session.leads_out(w, here)),
                          key=lambda w: (math.dist(snap.xy, w.point), w.index)):
            to = way.areas[1] if way.areas[0] == here else way.areas[0]
            door = way.door
            ways.append({"id": ids.of("way", way.index), "to": ids.of("area", to),
                         "to_name": names[to],
                         "via": "door" if door is not None else "opening",
                         "door": None if door is None else ids.of("door", door),
                         "position": _point(session, way.point), "visited": to in known.visited,
                         "one_way": way.one_way, "other_storey": False,
                         "distance": round(math.dist(snap.xy, way.point), 1)})
        area = {"id": ids.of("area", here), "name": names[here], "storey": STOREY,
                "ways_out": ways, "windows": []}
    objects: list[dict[str, Any]] = []
    characters: list[dict[str, Any]] = []
    for tid in sorted(known.things):
        s = known.things[tid]
        xy = (s.thing.x, s.thing.y)
        row_area = session.layout.area_at(*xy)
        distance = round(math.dist(snap.xy, xy), 1)
        if s.group == "object":
            objects.append({"id": s.thing, "kind": s.kind,
                            "name": s.name, "position": _point(session, xy, s.thing.z),
                            "area": row_area, "distance": distance,
                            "objective": _targeted(session, s.name), "state": None,
                            "weapon": _weapon_of(s.kind, s.name),
                            "facing_deg": None, "view_angle_deg": None,
                            "view_range": None})
        else:
            characters.append({"id": s.thing, "kind": s.name,
                               "position": _point(session, xy, s.thing.z), "area": row_area,
                               "health": 0.0 if s.down else 1.0, "down": s.down,
                               "alertness": "in_combat",
                               # A demon or a chainsaw bites and fires nothing.
                               "armed": s.thing.name not in BITERS, "weapon": None,
                               "friendly": False,
                               "seen": "now" if s.now else "before",
                               "seen_tick": session.ticks_at(s.tic),
                               "distance": distance, "facing_deg": None,
                               "view_angle_deg": None, "view_range": None})
    # Rows hold the engine's things until cut; nearest first, ties by the thing's place.
    objects.sort(key=lambda o: (o["distance"], o["position"]))
    characters.sort(key=lambda o: (o["distance"], o["position"]))
    # As in the shipped view, the nearest few and the objectives' targets; characters:
    # every one in view, then the nearest others (a map has dozens of monsters).
    objects = objects[:MAX_OBJECTS] + [r for r in objects[MAX_OBJECTS:] if r["objective"]]
    in_view = [r for r in characters if r["seen"] == "now"]
    others = [r for r in characters if r["seen"] != "now"]
    characters = sorted(in_view + others[:max(0, MAX_OBJECTS - len(in_view))],
                        key=lambda o: (o["distance"], o["position"]))
    # Ids only for the rows shown, in the order shown.
    for group, rows in (("character", characters), ("object", objects)):
        for r in rows:
            r["id"] = ids.thing(r["id"], group)
            r["area"] = None if r["area"] is None else ids.of("area", r["area"])
    return {"player": player, "area": area, "objectives": _objectives(session, objects),
            "characters": characters, "objects": objects, "doors": _doors(session, here),
            "hazards": [], "exit": None}


def _weapon_of(kind: str, name: str) -> str | None:
    # A weapon pickup names its own type, ammunition the gun it feeds (PROTOCOL.md).
    if kind == "weapon":
        return name
    return feeds(name) if kind == "ammo" else None


def _targeted(session: DoomSession, name: str) -> bool:
    return any(name in o.targets for o in session.level.objectives)


def _objectives(session: DoomSession, objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for n, item in enumerate(session.judge.items, 1):
        o = item.objective
        targets = [r for r in objects if r["name"] in o.targets]
        first = targets[0] if targets else None
        rows.append({"index": n, "status": item.status, "min_difficulty": o.min_difficulty,
                     "counts": item.counts, "text": o.text,
                     "area": first["area"] if first else None,
                     "area_name": None, "distance": first["distance"] if first else None,
                     "kind": o.kind, "standing": o.kind in ("protect", "stay_unseen"),
                     "targets": [r["id"] for r in targets],
                     "point": first["position"] if first else None, "heading_to": None,
                     "located": bool(targets) if o.targets else None})
    return rows


def _doors(session: DoomSession, here: int | None) -> list[dict[str, Any]]:
    snap, ids = session.engine.snap, session.ids
    rows: list[dict[str, Any]] = []
    for door in session.doors:
        if not session.known.knows_door(door):
            continue
        if door.index in session.known.doors_now:
            state = session.door_state(door)
        else:  # out of sight: as last perceived
            gap = session.known.door_gap(door)
            state = "open" if gap >= HEADROOM else ("locked" if door.key else "closed")
        rows.append({"id": door.index, "position": _point(session, door.point),
                     "between": list(door.areas)[:2],
                     "state": state, "locked_from_this_side": False, "key": None,
                     "key_area": None, "needs_key": door.key is not None, "panel": None,
                     "has_panel": not door.manual, "open_seconds": None, "one_way": False,
                     "distance": round(math.dist(snap.xy, door.point), 1)})
    # Numbered nearest first (ties by place), as listed.
    rows.sort(key=lambda r: (r["distance"], r["position"]))
    for r in rows:
        r["id"] = ids.of("door", r["id"])
        r["between"] = [ids.of("area", a) for a in r["between"]]
    return rows


def build_plan(session: DoomSession, ids: EpisodeIds) -> dict[str, Any]:
    """The map a record carries (world/doom/mapview.py), numbered by `ids` in map order.

    The WAD's things are matched to the engine's at the start (same name, nearest within
    MATCH_REACH) to take their map ids; switches and things the map does not place (a
    scenario's script spawns them) are added. The map has its own numbering (`ids`, not
    the agent's, which follows perception); the session maps one to the other
    (`ids_given`) for the record's end line.
    """
    rooms, level = session.layout.rooms, session.level
    skill = level.skill(session.difficulty)
    present: dict[str, list[Thing]] = {}
    for t in session.engine.snap.things:
        words = describe(t)
        if words is not None and words.group is not None:
            present.setdefault(words.name, []).append(t)
    matched: dict[int, Thing] = {}  # id() of a Placed -> the engine's thing

    def take(placed: Placed) -> Thing | None:
        pool = present.get(placed.name, [])
        best = min(pool, key=lambda t: math.dist((t.x, t.y), (placed.x, placed.y)), default=None)
        if best is None or math.dist((best.x, best.y), (placed.x, placed.y)) > MATCH_REACH:
            return None
        pool.remove(best)
        return best

    for placed in rooms.things:
        if skill in placed.skills and placed.area >= 0:
            found = take(placed)
            if found is not None:
                matched[id(placed)] = found
    extra = []
    for t in [t for pool in present.values() for t in pool] + [t for t, _ in session.switches]:
        words = describe(t)
        assert words is not None
        placed = Placed(-1, 0, words.kind, words.name, t.x, t.y,
                        rooms.area_index(t.x, t.y), frozenset({skill}))
        extra.append(placed)
        matched[id(placed)] = t
    extra.sort(key=lambda p: (matched[id(p)].id < 0, matched[id(p)].id))

    def thing_id(placed: Placed) -> str | None:
        t = matched.get(id(placed))
        return None if t is None else ids.thing(t, "character" if placed.kind
                                                in CHARACTER_KINDS else "object")

    ends_at_exit = any(o.verifier["type"] == "level_exit" for o in level.objectives)
    return record_map(rooms, ids, skill, [(o.id, o.text) for o in level.objectives],
                      exit_areas=None if ends_at_exit else (), thing_id=thing_id,
                      targets=[t for o in level.objectives for t in o.targets], extra=extra)
