"""The structured view: what the player could know at this moment, as plain data.

Every id is written through the episode's `IdMap`, and only things the player knows
(`Knowledge`) appear: characters once seen (marked "now" or "before", with the state they
were last seen in), objects once seen or briefed, doors once seen (in the state last
perceived), hidden exits once
revealed, a key's or an objective's place only once it is known.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

from world.characters.cameras import DEFAULT_VIEW_ANGLE_DEG, DEFAULT_VIEW_RANGE
from world.characters.views import character_views
from world.objectives.registry import VERIFIERS
from world.observe.ids import IdMap
from world.observe.knowledge import SIGHT_RANGE, Knowledge, sees, way_lines
from world.observe.located import objective_place
from world.observe.reveal import look_alike_rows, look_alikes_of, shown_objectives
from world.observe.vocabulary import object_state
from world.sim.world import World

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem

MAX_OBJECTS = 12
MAX_DOORS = 10
WEAPON_KINDS = frozenset({"weapon", "ammo"})  # object kinds whose weapon type is shown
# Object kinds that watch through a fixed cone, shown with its heading, angle and reach so
# a player can plan a way past or a shot from behind it.
CONE_KINDS = frozenset({"camera"})
NO_CONE = {"facing_deg": None, "view_angle_deg": None, "view_range": None}
__all__ = ["SIGHT_RANGE", "Knowledge", "build_view"]


def _r(v: float) -> float:
    return round(float(v), 1)


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


def _centroid(world: World, area_id: str) -> tuple[float, float, float]:
    poly = world.level.area(area_id).polygon
    return (sum(x for x, _ in poly) / len(poly), world.level.area_y(area_id),
            sum(z for _, z in poly) / len(poly))


def _dist(world: World, pos: tuple[float, float, float]) -> float:
    p = world.player
    return _r(math.dist((p.x, p.y, p.z), pos))


def build_view(world: World, ids: IdMap, known: Knowledge, report: Any) -> dict[str, Any]:
    """The structured view of this moment.

    Args:
        world: The world.
        ids: The episode's id numbering.
        known: What the player knows (updated here with this moment).
        report: The objectives system's mission report, or None without one.

    Returns:
        Plain data valid against the observation schema's "view".
    """
    known.update(world)
    here = world.actor_area(world.player) or world.player.area
    return {
        "player": _player(world, ids),
        "area": _area(world, ids, here, known),
        "objectives": _objectives(world, ids, report, known),
        "characters": _characters(world, ids, known),
        "objects": _objects(world, ids, known),
        "doors": _doors(world, ids, known, here),
        "hazards": _hazards(world, here),
        "exit": _exit(world, ids, report, known),
    }


def _player(world: World, ids: IdMap) -> dict[str, Any]:
    p = world.player
    carried = []
    reloading = False
    for oid in p.inventory:
        spec = world.level.object(oid)
        ammo = p.ammo.get(spec.weapon) if spec.weapon else None
        loaded = None
        # The gun's counter: rounds in its magazine (none for a weapon without one).
        if spec.weapon and world.combat.weapons[spec.weapon].magazine > 0:
            loaded, ammo, busy = world.combat.counter(p, spec.weapon)
            reloading = reloading or busy
        carried.append({"id": ids.ep("object", oid), "kind": spec.kind,
                        "name": spec.name or spec.kind, "ammo": ammo, "loaded": loaded,
                        "weapon": spec.weapon})
    keys = [ids.ep("object", o) for o in p.inventory if world.level.object(o).kind == "key"]
    return {
        "position": [_r(p.x), _r(p.y), _r(p.z)],
        "facing_deg": _r(math.degrees(p.facing) % 360),
        "health": round(max(0.0, p.health), 3), "armour": round(p.armour, 3),
        "alive": p.alive,
        # A reload shows on the gun in hand, as it would on screen.
        "reloading": reloading,
        "in_hand": None if p.in_hand is None else ids.ep("object", p.in_hand),
        "carried": carried, "keys": keys,
    }


def _ways(world: World, area: str) -> list[tuple[str, str, str, tuple, bool]]:
    # (level id, area beyond, kind, segment, is_stairs) for every way out, level order.
    return [(i, beyond, kind, seg, kind == "stairs")
            for i, beyond, kind, seg in way_lines(world, area)]


def _area(world: World, ids: IdMap, here: str | None, known: Knowledge) -> dict[str, Any] | None:
    if here is None:
        return None
    spec = world.level.area(here)
    area_id = ids.ep("area", here)  # the player's own area is named first
    ways, windows = [], []
    # Nearest first (ties by place), so ways and the areas beyond are numbered in an
    # order that says nothing of the level file.
    rows = []
    for level_id, beyond, kind, seg, stairs in _ways(world, here):
        y = world.level.area_y(here)
        pos = ((seg[0][0] + seg[1][0]) / 2, y, (seg[0][1] + seg[1][1]) / 2)
        rows.append((_dist(world, pos), pos, level_id, beyond, kind, stairs))
    for _, pos, level_id, beyond, kind, stairs in sorted(rows, key=lambda r: r[:2]):
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
            "position": point, "visited": beyond in known.visited,
            "one_way": bool(door and door.one_way_from),
            "other_storey": world.level.area(beyond).storey != spec.storey,
            "distance": _dist(world, pos),
        })
    return {"id": area_id, "name": spec.name, "storey": spec.storey,
            "ways_out": ways, "windows": windows}


def _objectives(world: World, ids: IdMap, report: Any, known: Knowledge) -> list[dict[str, Any]]:
    statuses = {o.id: o for o in report.objectives} if report is not None else {}
    lowest = world.level.difficulties[0].id
    rank = world.level.difficulty_rank(world.difficulty.id)
    out = []
    for index, obj in enumerate(shown_objectives(world), 1):
        rep = statuses.get(obj.id)
        # An objective's place is given only once the player knows it (the mission exit
        # is named by the briefing, its distance only once known); otherwise the
        # paraphrase alone says what to look for.
        exit_ = world.level.exit_area
        named = obj.area in known.areas or (exit_ is not None and obj.area == exit_.area)
        area = obj.area if named else None
        out.append({
            "index": index,
            "status": rep.status if rep else "todo",
            "min_difficulty": obj.min_difficulty or lowest,
            "counts": rep.counts if rep else
            world.level.difficulty_rank(obj.min_difficulty) <= rank,
            "text": obj.text,
            "area": ids.ep("area", area) if area else None,
            "area_name": world.level.area(area).name if area else None,
            "distance": _dist(world, _centroid(world, area)) if area in known.areas else None,
            "kind": obj.kind,
            "standing": rep.standing if rep else VERIFIERS[obj.kind].standing,
            "targets": _objective_targets(world, ids, obj, known),
            "point": _objective_point(world, obj, known),
            "heading_to": _heading_to(world, ids, obj),
        })
        row = out[-1]
        # Whether the player knows where to go for it; None for an objective with no
        # place (a standing rule, a time to survive).
        placed = bool(obj.area or obj.object or obj.gadget or obj.characters or obj.points)
        row["located"] = (bool(row["area"] or row["point"] or row["targets"])
                          if placed else None)
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


def _objective_targets(world: World, ids: IdMap, obj: Any, known: Knowledge) -> list[str]:
    # The known things an objective names (its object, then the gadgets of the type it
    # asks for, then its characters), so a program can act on an objective without
    # parsing its wording. Ids reveal no place; unknown things have no id yet.
    out = [obj.object] if obj.object else []
    if obj.gadget:
        out += [o.id for o in world.level.objects if o.kind == "gadget" and o.gadget == obj.gadget]
    rows = [ids.ep("object", o) for o in out if o in known.objects]
    if obj.object and len(look_alikes_of(world, obj.object)) > 1:
        rows = look_alike_rows(world, ids, obj.object, known)
    return rows + [ids.ep("character", c) for c in obj.characters if c in known.characters]



def _objective_point(world: World, obj: Any, known: Knowledge) -> list[float] | None:
    # The fixed place the objective leads to next, once the player knows it (see
    # `objective_place`: the progress figures count distance toward the same places).
    point = objective_place(world, obj, known)
    return None if point is None else [_r(c) for c in point]


def _alertness(world: World) -> dict[str, Any]:
    # The world's minds are the characters system whenever one is installed.
    return character_views(cast("CharactersSystem", world.minds)) if world.minds is not None \
        else {}


def _characters(world: World, ids: IdMap, known: Knowledge) -> list[dict[str, Any]]:
    views = _alertness(world)
    out = []
    for cid, seen in known.characters.items():
        actor = world.characters.get(cid)
        if actor is None:
            continue
        now = seen.tick == world.tick and not seen.heard
        v = views.get(cid)
        t = actor.template
        # Where it looks is known only while it is in view; otherwise the state it was
        # last seen in stands (a character seen going down stays down).
        cone = NO_CONE if not now or t is None else _cone(
            world, actor.facing, t.view_angle_deg, t.view_range, actor.side != "friendly")
        # What it held when last seen (a heard shot tells only that it has a gun).
        weapon, gun = seen.weapon, seen.armed
        out.append({
            # A shot heard tells neither who fired nor on which side.
            "id": cid, "kind": "unknown" if seen.heard else actor.kind,
            "position": [_r(c) for c in seen.position],
            "area": seen.area,
            "health": seen.health, "down": seen.down,
            "alertness": v.alertness if (v is not None and now) else "unknown",
            "armed": gun, "weapon": weapon,
            "friendly": None if seen.heard else not world.opposes(actor),
            "seen": "heard" if seen.heard else ("now" if now else "before"),
            "seen_tick": seen.tick,
            "distance": _dist(world, seen.position), **cone,
            # Someone with something to say (issue 37), as a game marks one; never the words.
            **({"talks": True} if not (seen.heard or seen.down)
               and world.level.words_of(cid) else {}),
        })
    return _numbered(ids, "character", out)


def _numbered(ids: IdMap, group: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Rows (with level ids) nearest first, ties by place; ids are given in that order, so
    # things first perceived together are numbered by where they are, nothing else.
    rows.sort(key=lambda r: (r["distance"], r["position"]))
    return _write_ids(ids, group, rows)


# Fields of a view row holding level ids, and the group each is numbered in.
_ROW_IDS = (("between", "area"), ("area", "area"), ("key", "object"), ("key_area", "area"),
            ("panel", "object"))


def _write_ids(ids: IdMap, group: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Episode ids for the rows kept, in their order: only what is shown gets a number.
    for r in rows:
        r["id"] = ids.ep(group, r["id"])
        for name, of in _ROW_IDS:
            value = r.get(name)
            if isinstance(value, list):
                r[name] = [ids.ep(of, v) for v in value]
            elif value is not None:
                r[name] = ids.ep(of, value)
    return rows


def _objects(world: World, ids: IdMap, known: Knowledge) -> list[dict[str, Any]]:
    targets = {t for o in shown_objectives(world) if o.object
               for t in look_alikes_of(world, o.object)}
    rows = []
    for oid, obj in world.objects.items():
        # Listed as last perceived: a thing taken or broken unseen still lies there as far
        # as the player knows, until it sees the spot (`Knowledge.gone`).
        if obj.x is None or oid not in known.objects or oid in known.gone:
            continue
        if not obj.present and obj.holder == world.player.id:
            continue
        x, z, storey = obj.spot
        pos = (x, world.level.storey(storey).y, z)
        rows.append({
            "id": oid, "kind": obj.spec.kind,
            "name": obj.spec.name or obj.spec.kind,
            "position": [_r(c) for c in pos],
            "area": obj.area,
            "distance": _dist(world, pos), "objective": oid in targets,
            "state": object_state(obj),
            # The gun a weapon pickup is, or the gun an ammunition pickup feeds, as its
            # box would say: rounds for a gun not carried are of no use.
            "weapon": obj.spec.weapon if obj.spec.kind in WEAPON_KINDS else None,
            **_object_cone(world, obj.spec),
        })
    rows.sort(key=lambda r: (r["distance"], r["position"]))
    kept = rows[:MAX_OBJECTS] + [r for r in rows[MAX_OBJECTS:] if r["objective"]]
    return _numbered(ids, "object", kept)


def _doors(world: World, ids: IdMap, known: Knowledge, here: str | None) -> list[dict[str, Any]]:
    own = {level_id for level_id, *_ in _ways(world, here)} if here else set()
    rows = []
    for e in world.level.exits:
        runtime = world.doors.get(e.id)
        if e.kind != "door" or runtime is None or not runtime.revealed:
            continue
        if e.id not in own and e.id not in known.doors:
            continue
        d = e.door
        if d is None:  # (a door's exit has one)
            continue
        state = known.door_state(world, e.id)  # as last perceived
        y = world.level.area_y(e.areas[0])
        pos = ((e.segment[0][0] + e.segment[1][0]) / 2, y, (e.segment[0][1] + e.segment[1][1]) / 2)
        # A key or a panel has an id only once the player has seen it; that the door
        # needs one shows on the door itself.
        key = d.key if d.key in known.objects else None
        # Where the key was seen lying, unless it was seen taken or broken since.
        key_area = world.level.object(key).area if key and key not in known.gone else None
        panel = d.panel if d.panel in known.objects else None
        rows.append({
            "id": e.id, "position": [_r(c) for c in pos],
            "between": list(e.areas), "state": state,
            "locked_from_this_side": bool(d.locked_from and here and d.locked_from != here
                                          and state == "locked"),
            "key": key, "key_area": key_area,
            "needs_key": d.key is not None,
            "panel": panel,
            "has_panel": d.panel is not None,
            "open_seconds": d.open_seconds, "one_way": bool(d.one_way_from),
            "distance": _dist(world, pos), "_own": e.id in own,
        })
    rows.sort(key=lambda r: (not r["_own"], r["distance"], r["position"]))
    kept = rows[: max(MAX_DOORS, len(own))]
    for r in kept:
        del r["_own"]
    return _write_ids(ids, "door", kept)


def _hazard_in_view(world: World, hazard: Any, here: str | None) -> bool:
    # In the player's area, or some corner or its middle in sight on the player's storey.
    if hazard.storey != world.player.storey:
        return False
    ring = hazard.polygon
    mid = (sum(x for x, _ in ring) / len(ring), sum(z for _, z in ring) / len(ring))
    if here is not None and any(world.area_at(x, z, hazard.storey) == here
                                for x, z in (*ring, mid)):
        return True
    y = world.level.storey(hazard.storey).y
    return any(sees(world, (x, y, z), hazard.storey) for x, z in (mid, *ring))


def _hazards(world: World, here: str | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for h in world.level.hazards:
        if not _hazard_in_view(world, h, here):
            continue
        effect = ("kills on entry" if h.kills
                  else f"drains {h.damage_per_s * 100:.0f}% health a second while inside")
        out.append({"kind": h.kind, "text": f"{h.kind} on the floor: {effect}",
                    "seconds_left": None, "extent": [[_r(x), _r(z)] for x, z in h.polygon],
                    "effect": effect})
    texts = {c.id: c.text for c in world.level.countdowns}
    for cid, c in world.hazards.countdowns.items():
        left = c.remaining_s(world.tick)
        if left is not None and not c.expired:
            out.append({"kind": "countdown", "text": texts[cid], "seconds_left": _r(left),
                        "extent": None, "effect": None})
    return out


def _exit(world: World, ids: IdMap, report: Any, known: Knowledge) -> dict[str, Any] | None:
    # The briefing names the way out; how far it is shows once its area is known.
    ex = world.level.exit_area
    if ex is None:
        return None
    distance = _dist(world, _centroid(world, ex.area)) if ex.area in known.areas else None
    # Only objectives the player knows of: one not yet revealed must not show as a warning.
    shown = {o.id for o in shown_objectives(world)}
    open_ = report is not None and any(o.counts and o.status == "todo" and o.id in shown
                                       for o in report.objectives)
    warning = None
    if open_ and distance is not None and distance <= max(ex.warn_distance, 1.0):
        warning = "entering this area ends the mission while objectives are still open"
    return {"area": ids.ep("area", ex.area), "name": world.level.area(ex.area).name,
            "distance": distance, "warning": warning}
