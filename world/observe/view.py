"""The structured view: what the player could know at this moment, as plain data.

Every id is written through the episode's `IdMap`. Nothing hidden leaks: characters
appear only once seen (marked "now" or "before"), hidden exits only once revealed, a
key's whereabouts only once its area has been visited or the key has been seen.
"""

from __future__ import annotations

import math
from typing import Any

from world.actions.places import visited_areas
from world.characters.cameras import DEFAULT_VIEW_ANGLE_DEG, DEFAULT_VIEW_RANGE
from world.observe.ids import IdMap
from world.sim.world import World

SIGHT_RANGE = 3000.0  # how far the view reports things the player has a clear line to
MAX_OBJECTS = 12
MAX_DOORS = 10
WEAPON_KINDS = frozenset({"weapon", "ammo"})  # object kinds whose weapon type is shown
# Object kinds that watch through a fixed cone, shown with its heading, angle and reach so
# a player can plan a way past or a shot from behind it.
CONE_KINDS = frozenset({"camera"})
NO_CONE = {"facing_deg": None, "view_angle_deg": None, "view_range": None}


def _r(v: float) -> float:
    return round(float(v), 1)


class Memory:
    """What the player has seen so far: characters (last sighting) and objects."""

    def __init__(self) -> None:
        self.characters: dict[str, tuple[tuple[float, float, float], int]] = {}
        self.objects: set[str] = set()
        self.visited: set[str] = set()


def _cone(world: World, facing_rad: float, angle: float, reach: float,
          hostile: bool = True) -> dict[str, Any]:
    # Heading as the player's is shown; the reach in full light (dim areas shorten it),
    # with the difficulty's sight multiplier where the watcher is not on the player's side.
    scale = world.difficulty.enemy_sight if hostile else 1.0
    return {"facing_deg": _r(math.degrees(facing_rad) % 360), "view_angle_deg": _r(angle),
            "view_range": _r(reach * scale)}


def _object_cone(world: World, spec: Any) -> dict[str, Any]:
    if spec.kind not in CONE_KINDS:
        return NO_CONE
    return _cone(world, math.radians(spec.facing_deg),
                 spec.view_angle_deg or DEFAULT_VIEW_ANGLE_DEG,
                 spec.view_range or DEFAULT_VIEW_RANGE)


def _sees(world: World, pos: tuple[float, float, float], storey: str) -> bool:
    p = world.player
    if storey != p.storey or math.hypot(pos[0] - p.x, pos[2] - p.z) > SIGHT_RANGE:
        return False
    return bool(world.line_of_sight((p.x, p.z), (pos[0], pos[2]), storey))


def _centroid(world: World, area_id: str) -> tuple[float, float, float]:
    poly = world.level.area(area_id).polygon
    return (sum(x for x, _ in poly) / len(poly), world.level.area_y(area_id),
            sum(z for _, z in poly) / len(poly))


def _dist(world: World, pos: tuple[float, float, float]) -> float:
    p = world.player
    return _r(math.dist((p.x, p.y, p.z), pos))


def build_view(world: World, ids: IdMap, memory: Memory, report: Any) -> dict[str, Any]:
    """The structured view of this moment.

    Args:
        world: The world.
        ids: The episode's id numbering.
        memory: What the player has seen before (updated here).
        report: The objectives system's mission report, or None without one.

    Returns:
        Plain data valid against the observation schema's "view".
    """
    here = world.actor_area(world.player) or world.player.area
    if here is not None:
        memory.visited.add(here)
    visited = visited_areas(world) | memory.visited
    return {
        "player": _player(world, ids),
        "area": _area(world, ids, here, visited),
        "objectives": _objectives(world, ids, report),
        "characters": _characters(world, ids, memory),
        "objects": _objects(world, ids, memory, visited, here),
        "doors": _doors(world, ids, memory, visited, here),
        "hazards": _hazards(world),
        "exit": _exit(world, ids, report),
    }


def _player(world: World, ids: IdMap) -> dict[str, Any]:
    p = world.player
    carried = []
    for oid in p.inventory:
        spec = world.level.object(oid)
        ammo = p.ammo.get(spec.weapon) if spec.weapon else None
        carried.append({"id": ids.ep("object", oid), "kind": spec.kind,
                        "name": spec.name or spec.kind, "ammo": ammo,
                        "weapon": spec.weapon})
    keys = [ids.ep("object", o) for o in p.inventory if world.level.object(o).kind == "key"]
    return {
        "position": [_r(p.x), _r(p.y), _r(p.z)],
        "facing_deg": _r(math.degrees(p.facing) % 360),
        "health": round(max(0.0, p.health), 3), "armour": round(p.armour, 3),
        "alive": p.alive,
        "in_hand": None if p.in_hand is None else ids.ep("object", p.in_hand),
        "carried": carried, "keys": keys,
    }


def _ways(world: World, area: str) -> list[tuple[str, str, str, tuple, bool]]:
    # (level id, area beyond, kind, segment, is_stairs) for every way out, level order.
    out = []
    for e in world.level.exits:
        runtime = world.doors.get(e.id)
        if area in e.areas and (runtime is None or runtime.revealed):
            out.append((e.id, e.areas[1] if e.areas[0] == area else e.areas[0], e.kind,
                        e.segment, False))
    for s in world.level.stairs:
        for end, other in ((s.bottom, s.top), (s.top, s.bottom)):
            if end.area == area:
                out.append((s.id, other.area, "stairs", end.edge, True))
    return out


def _area(world: World, ids: IdMap, here: str | None, visited) -> dict[str, Any] | None:
    if here is None:
        return None
    spec = world.level.area(here)
    ways, windows = [], []
    for level_id, beyond, kind, seg, stairs in _ways(world, here):
        y = world.level.area_y(here)
        pos = ((seg[0][0] + seg[1][0]) / 2, y, (seg[0][1] + seg[1][1]) / 2)
        point = [_r(pos[0]), _r(pos[1]), _r(pos[2])]
        to, to_name = ids.ep("area", beyond), world.level.area(beyond).name
        if kind == "window":
            windows.append({"id": ids.ep("way", level_id), "to": to, "to_name": to_name,
                            "position": point})
            continue
        door = world.level.exit(level_id).door if not stairs else None
        ways.append({
            "id": ids.ep("way", level_id), "to": to, "to_name": to_name, "via": kind,
            "door": ids.ep("door", level_id) if kind == "door" else None,
            "position": point, "visited": beyond in visited,
            "one_way": bool(door and door.one_way_from),
            "other_storey": world.level.area(beyond).storey != spec.storey,
            "distance": _dist(world, pos),
        })
    return {"id": ids.ep("area", here), "name": spec.name, "storey": spec.storey,
            "ways_out": ways, "windows": windows}


def _objectives(world: World, ids: IdMap, report: Any) -> list[dict[str, Any]]:
    statuses = {o.id: o for o in report.objectives} if report is not None else {}
    lowest = world.level.difficulties[0].id
    rank = world.level.difficulty_rank(world.difficulty.id)
    out = []
    for index, obj in enumerate(world.level.objectives, 1):
        rep = statuses.get(obj.id)
        area = obj.area
        out.append({
            "index": index,
            "status": rep.status if rep else "todo",
            "min_difficulty": obj.min_difficulty or lowest,
            "counts": rep.counts if rep else
            world.level.difficulty_rank(obj.min_difficulty) <= rank,
            "text": obj.text,
            "area": ids.ep("area", area) if area else None,
            "area_name": world.level.area(area).name if area else None,
            "distance": _dist(world, _centroid(world, area)) if area else None,
            "kind": obj.kind,
            "targets": _objective_targets(world, ids, obj),
            "point": _objective_point(world, obj.id),
            "heading_to": _heading_to(world, ids, obj),
        })
    return out


# Objective kinds whose named characters walk to a place the objective is about (the
# mission is lost when they get there), so the player knows where they are going.
DESTINATION_KINDS = frozenset({"intercept"})


def _heading_to(world: World, ids: IdMap, obj: Any) -> dict[str, Any] | None:
    if obj.kind not in DESTINATION_KINDS:
        return None
    for cid in obj.characters:
        if cid not in world.characters:
            continue  # appears only from a higher difficulty
        spec = world.level.character(cid)
        area = spec.destination or (spec.route[-1].area if spec.route else None)
        if area is not None:
            return {"area": ids.ep("area", area), "name": world.level.area(area).name,
                    "position": [_r(c) for c in _centroid(world, area)]}
    return None


def _objective_targets(world: World, ids: IdMap, obj: Any) -> list[str]:
    # The things an objective names (its object, then the gadgets of the type it asks for,
    # then its characters), so a program can act on an objective without parsing its
    # wording. Ids reveal no place.
    out = [ids.ep("object", obj.object)] if obj.object else []
    if obj.gadget:
        out += [ids.ep("object", o.id) for o in world.level.objects
                if o.kind == "gadget" and o.gadget == obj.gadget]
    return out + [ids.ep("character", c) for c in obj.characters]


def _objective_point(world: World, objective_id: str) -> list[float] | None:
    # The fixed place the objective leads to next (an object's spot, an area, the next
    # waypoint), as its own judge states it; None where there is none.
    system = next((s for n, s in world.systems() if n == "objectives"), None)
    state = getattr(system, "states", {}).get(objective_id)
    if state is None or state.status != "todo":
        return None
    point = state.verifier.target(world)
    return None if point is None else [_r(c) for c in point]


def _alertness(world: World) -> dict[str, Any]:
    for name, system in world.systems():
        if name == "characters":
            from world.characters.views import character_views

            return character_views(system)
    return {}


def _characters(world: World, ids: IdMap, memory: Memory) -> list[dict[str, Any]]:
    from world.characters.views import weapon_seen

    views = _alertness(world)
    out = []
    for cid, actor in world.characters.items():
        if _sees(world, actor.position, actor.storey):
            memory.characters[cid] = (actor.position, world.tick)
        if cid not in memory.characters:
            continue
        pos, tick = memory.characters[cid]
        now = tick == world.tick
        v = views.get(cid)
        t = actor.template
        # Where it looks is known only while it is in view.
        cone = NO_CONE if not now or t is None else _cone(
            world, actor.facing, t.view_angle_deg, t.view_range, actor.side != "friendly")
        weapon, gun = (v.weapon, v.armed) if v is not None else weapon_seen(world, actor)
        out.append({
            "id": ids.ep("character", cid), "kind": actor.kind,
            "position": [_r(c) for c in pos],
            "area": ids.ep("area", actor.area) if now and actor.area else None,
            "health": round(max(0.0, actor.health), 3) if now else 1.0,
            "down": not actor.alive if now else False,
            "alertness": v.alertness if (v is not None and now) else "unknown",
            "armed": gun, "weapon": weapon,
            "friendly": actor.side == "friendly",
            "seen": "now" if now else "before", "seen_tick": tick,
            "distance": _dist(world, pos), **cone,
        })
    return sorted(out, key=lambda c: (c["distance"], c["id"]))


def _objects(world: World, ids: IdMap, memory: Memory, visited, here) -> list[dict[str, Any]]:
    targets = {o.object for o in world.level.objectives if o.object}
    rows = []
    for oid, obj in world.objects.items():
        if obj.x is None or obj.holder is not None or not obj.present:
            continue
        pos = (obj.x, world.level.storey(obj.storey).y, obj.z)
        if _sees(world, pos, obj.storey) or obj.spec.area == here:
            memory.objects.add(oid)
        if oid not in memory.objects and oid not in targets:
            continue
        rows.append({
            "id": ids.ep("object", oid), "kind": obj.spec.kind,
            "name": obj.spec.name or obj.spec.kind,
            "position": [_r(c) for c in pos],
            "area": ids.ep("area", obj.spec.area) if obj.spec.area else None,
            "distance": _dist(world, pos), "objective": oid in targets,
            "state": "broken" if obj.broken else ("sounding" if obj.active else None),
            # The gun a weapon pickup is, or the gun an ammunition pickup feeds, as its
            # box would say: rounds for a gun not carried are of no use.
            "weapon": obj.spec.weapon if obj.spec.kind in WEAPON_KINDS else None,
            **_object_cone(world, obj.spec),
        })
    rows.sort(key=lambda r: (r["distance"], r["id"]))
    near = rows[:MAX_OBJECTS]
    return near + [r for r in rows[MAX_OBJECTS:] if r["objective"]]


def _doors(world: World, ids: IdMap, memory: Memory, visited, here) -> list[dict[str, Any]]:
    own = {level_id for level_id, *_ in _ways(world, here)} if here else set()
    rows = []
    for e in world.level.exits:
        runtime = world.doors.get(e.id)
        if e.kind != "door" or runtime is None or not runtime.revealed:
            continue
        if e.id not in own and not (set(e.areas) & visited):
            continue
        d = e.door
        y = world.level.area_y(e.areas[0])
        pos = ((e.segment[0][0] + e.segment[1][0]) / 2, y, (e.segment[0][1] + e.segment[1][1]) / 2)
        key_area = None
        if d.key:
            spec = world.level.object(d.key)
            if spec.area and (spec.area in visited or d.key in memory.objects):
                key_area = ids.ep("area", spec.area)
        rows.append({
            "id": ids.ep("door", e.id), "position": [_r(c) for c in pos],
            "between": [ids.ep("area", a) for a in e.areas], "state": runtime.state,
            "locked_from_this_side": bool(d.locked_from and here and d.locked_from != here
                                          and runtime.state == "locked"),
            "key": ids.ep("object", d.key) if d.key else None, "key_area": key_area,
            "panel": ids.ep("object", d.panel) if d.panel else None,
            "open_seconds": d.open_seconds, "one_way": bool(d.one_way_from),
            "distance": _dist(world, pos), "_own": e.id in own,
        })
    rows.sort(key=lambda r: (not r["_own"], r["distance"], r["id"]))
    kept = [r for r in rows if r["_own"]] + [r for r in rows if not r["_own"]]
    kept = kept[: max(MAX_DOORS, len(own))]
    for r in kept:
        del r["_own"]
    return kept


def _hazards(world: World) -> list[dict[str, Any]]:
    out = []
    texts = {c.id: c.text for c in world.level.countdowns}
    for cid, c in world.hazards.countdowns.items():
        left = c.remaining_s(world.tick)
        if left is not None and not c.expired:
            out.append({"kind": "countdown", "text": texts[cid], "seconds_left": _r(left)})
    return out


def _exit(world: World, ids: IdMap, report: Any) -> dict[str, Any] | None:
    ex = world.level.exit_area
    if ex is None:
        return None
    distance = _dist(world, _centroid(world, ex.area))
    open_ = report is not None and any(o.counts and o.status == "todo" for o in report.objectives)
    warning = None
    if open_ and distance <= max(ex.warn_distance, 1.0):
        warning = "entering this area ends the mission while objectives are still open"
    return {"area": ids.ep("area", ex.area), "name": world.level.area(ex.area).name,
            "distance": distance, "warning": warning}
