"""Write levels/facility.json, the large three-storey benchmark level, once.

The committed JSON file is the level; this script is a convenience for its authors,
because the facility repeats one floor plan on three storeys: a corridor of six
segments along x with six rooms to the south and six to the north, and a stair tower
at the east end. What differs per storey (room names, special doors, who stands
where) is in the tables of facility_plan.py. Run it and check the result with
``harness check levels/facility.json``; edit the tables, not the JSON, while the
script is in use.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from facility_plan import (
    ALARMS,
    BRIEF,
    CAMERAS,
    GUARDS,
    NOTE,
    OBJECTS,
    PATROLS,
    ROOM_HEARING,
    SCIENTISTS,
    SECURITY_DOORS,
    SPECIAL_DOORS,
    STOREYS,
)

OUT = Path(__file__).resolve().parents[1] / "levels" / "facility.json"
ROOM = 1000  # room width along x and depth along z
HALL = (1000, 1400)  # z range of the corridor
SEGMENTS = 6
TOWER = (6000, 6800)  # x range of the stair tower
FLIGHT = (TOWER[0] + 50, TOWER[0] + 350)  # x range of both flights of stairs
WELL = 80  # depth of the stairwell opening over the foot of each flight
WELL_MARGIN = 20  # how far the stairwell opening reaches past each side of the flight


def rect(x0: float, z0: float, x1: float, z1: float) -> list[list[float]]:
    """A rectangle as a polygon of four corners.

    Args:
        x0: West edge.
        z0: South edge.
        x1: East edge.
        z1: North edge.

    Returns:
        The corners, counter-clockwise.
    """
    return [[x0, z0], [x1, z0], [x1, z1], [x0, z1]]


def landing_polygon(storey: str) -> list[list[float]]:
    """A storey's stair landing, with a stairwell over the foot of the flight below it.

    The landings stand one above another, and each flight ends at the edge of the
    landing below; the landing above stops short of that edge (an opening in its floor
    over the foot of the flight), so whoever comes down the stairs has room to step off
    them rather than walking into the upper landing's edge.

    Args:
        storey: Storey id.

    Returns:
        The corners, counter-clockwise.
    """
    xa, xb = TOWER
    z0, z1 = HALL
    w0, w1 = FLIGHT[0] - WELL_MARGIN, FLIGHT[1] + WELL_MARGIN
    if storey == "labs":  # over the foot of the ground-to-labs flight, on the north edge
        return [[xa, z0], [xb, z0], [xb, z1], [w1, z1], [w1, z1 - WELL], [w0, z1 - WELL],
                [w0, z1], [xa, z1]]
    if storey == "archive":  # over the foot of the labs-to-archive flight, on the south edge
        return [[xa, z0], [w0, z0], [w0, z0 + WELL], [w1, z0 + WELL], [w1, z0], [xb, z0],
                [xb, z1], [xa, z1]]
    return rect(xa, z0, xb, z1)


def storey_plan(storey: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Areas and exits of one storey's corridor, rooms and stair landing.

    Args:
        storey: Storey id.

    Returns:
        (areas, exits).
    """
    _, prefix, light, south, north = STOREYS[storey]
    z0, z1 = HALL
    areas, exits = [], []
    for k in range(SEGMENTS):
        hall = f"{storey}_hall_{k}"
        name = f"{prefix} corridor, section {k + 1}"
        areas.append({"id": hall, "name": name, "storey": storey,
                      "polygon": rect(k * ROOM, z0, (k + 1) * ROOM, z1), "light": light})
        if k:
            joint = {"id": f"{storey}_joint_{k}", "kind": "opening",
                     "areas": [f"{storey}_hall_{k - 1}", hall],
                     "segment": [[k * ROOM, z0 + 50], [k * ROOM, z1 - 50]]}
            if (storey, k) in SECURITY_DOORS:
                joint.update(kind="door", door={"initial": "closed"})
            exits.append(joint)
        for (key, room_name), (r0, r1), wall in (
            (south[k], (0, ROOM), z0), (north[k], (z1, z1 + ROOM), z1)
        ):
            room = f"{storey}_{key}"
            areas.append({"id": room, "name": room_name, "storey": storey,
                          "polygon": rect(k * ROOM, r0, (k + 1) * ROOM, r1), "light": light})
            exits.append({"id": f"{room}_door", "kind": "door", "areas": [hall, room],
                          "segment": [[k * ROOM + 400, wall], [k * ROOM + 600, wall]],
                          "door": SPECIAL_DOORS.get(room, {"initial": "closed"})})
    landing = f"{storey}_landing"
    areas.append({"id": landing, "name": f"{prefix} stair landing", "storey": storey,
                  "polygon": landing_polygon(storey)})
    exits.append({"id": f"{storey}_landing_gap", "kind": "opening",
                  "areas": [f"{storey}_hall_{SEGMENTS - 1}", landing],
                  "segment": [[TOWER[0], z0 + 50], [TOWER[0], z1 - 50]]})
    return areas, exits


def tower() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The stair tower's switchbacks: extra landings, galleries and two flights.

    The ground-to-labs flight climbs north from the ground landing; the labs-to-archive
    flight climbs south from the labs landing. Each arrives at a landing joined back to
    the main landing of its storey by a gallery beside the flight.

    Returns:
        (areas, exits, stairs).
    """
    xa, xb = TOWER
    mid = xa + 400
    areas = [
        {"id": "labs_stair_top", "name": "Labs upper stair head", "storey": "labs",
         "polygon": rect(xa, 2400, xb, 2800)},
        {"id": "labs_stair_gallery", "name": "Labs stair gallery", "storey": "labs",
         "polygon": rect(mid, HALL[1], xb, 2400)},
        {"id": "archive_stair_top", "name": "Archive stair head", "storey": "archive",
         "polygon": rect(xa, -400, xb, 0)},
        {"id": "archive_stair_gallery", "name": "Archive stair gallery", "storey": "archive",
         "polygon": rect(mid, 0, xb, HALL[0])},
    ]
    exits = [
        {"id": "labs_gallery_top", "kind": "opening",
         "areas": ["labs_stair_top", "labs_stair_gallery"],
         "segment": [[mid + 50, 2400], [xb - 50, 2400]]},
        {"id": "labs_gallery_foot", "kind": "opening",
         "areas": ["labs_stair_gallery", "labs_landing"],
         "segment": [[mid + 50, HALL[1]], [xb - 50, HALL[1]]]},
        {"id": "archive_gallery_top", "kind": "opening",
         "areas": ["archive_stair_top", "archive_stair_gallery"],
         "segment": [[mid + 50, 0], [xb - 50, 0]]},
        {"id": "archive_gallery_foot", "kind": "opening",
         "areas": ["archive_stair_gallery", "archive_landing"],
         "segment": [[mid + 50, HALL[0]], [xb - 50, HALL[0]]]},
    ]
    flight = [[FLIGHT[0], 0], [FLIGHT[1], 0]]
    stairs = [
        {"id": "stairs_ground_labs",
         "bottom": {"area": "ground_landing", "edge": [[p[0], HALL[1]] for p in flight]},
         "top": {"area": "labs_stair_top", "edge": [[p[0], 2400] for p in flight]}},
        {"id": "stairs_labs_archive",
         "bottom": {"area": "labs_landing", "edge": [[p[0], HALL[0]] for p in flight]},
         "top": {"area": "archive_stair_top", "edge": [[p[0], 0] for p in flight]}},
    ]
    return areas, exits, stairs


def outside() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The yard where the player starts and the loading dock that ends the mission.

    Returns:
        (areas, exits).
    """
    areas = [
        {"id": "yard", "name": "Front yard", "storey": "ground",
         "polygon": rect(-1200, 600, 0, 1800)},
        {"id": "dock", "name": "Loading dock", "storey": "ground",
         "polygon": rect(5000, 2400, 6000, 3000)},
    ]
    exits = [
        {"id": "front_door", "kind": "door", "areas": ["yard", "ground_hall_0"],
         "segment": [[0, HALL[0] + 100], [0, HALL[1] - 100]], "door": {"initial": "closed"}},
        {"id": "dock_door", "kind": "door", "areas": ["ground_vehicle_bay", "dock"],
         "segment": [[5300, 2400], [5700, 2400]], "door": {"initial": "closed"}},
    ]
    return areas, exits


def placed(area_id: str, dx: float, dz: float, areas: dict[str, dict[str, Any]]) -> list[float]:
    """A point given as an offset from an area's south-west corner.

    Args:
        area_id: The area.
        dx: Offset along x.
        dz: Offset along z.
        areas: Areas by id.

    Returns:
        [x, z].
    """
    x0, z0 = areas[area_id]["polygon"][0]
    return [x0 + dx, z0 + dz]


def objects(areas: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every object: carried gadgets, pickups, targets, panels, alarms, cameras, spawns.

    Args:
        areas: Areas by id.

    Returns:
        The objects.
    """
    out: list[dict[str, Any]] = [
        {"id": "sidearm", "kind": "weapon", "name": "silenced pistol",
         "weapon": "silenced_pistol", "amount": 48},
        {"id": "spy_camera", "kind": "gadget", "name": "pocket camera", "gadget": "camera"},
        {"id": "copier", "kind": "gadget", "name": "data copier", "gadget": "data_copier"},
    ]
    for oid, kind, name, area, dx, dz, extra in OBJECTS:
        out.append({"id": oid, "kind": kind, "name": name, "area": area,
                    "at": placed(area, dx, dz, areas), **extra})
    soldier = {"kind": "soldier", "side": "hostile", "weapon": "smg", "accuracy": 0.4}
    for storey, room in ALARMS.items():
        spawn = f"{storey}_reinforcement_spawn"
        landing = f"{storey}_landing"
        out.append({"id": spawn, "kind": "spawn_point", "name": "stair landing",
                    "area": landing, "at": placed(landing, 600, 200, areas)})
        out.append({"id": f"{storey}_alarm", "kind": "alarm", "name": f"{STOREYS[storey][1]} alarm",
                    "area": room, "at": placed(room, 900, 100, areas),
                    "zone": sorted(a for a in areas if areas[a]["storey"] == storey),
                    "spawn_points": [spawn], "reinforcement": soldier,
                    "reinforcement_count": 3, "reinforcement_interval_s": 6})
    for cid, area, dx, dz, facing, storey in CAMERAS:
        out.append({"id": cid, "kind": "camera", "name": "security camera", "area": area,
                    "at": placed(area, dx, dz, areas), "facing_deg": facing,
                    "view_angle_deg": 60, "view_range": 900, "alarm": f"{storey}_alarm",
                    "health": 0.3})
    return out


def characters(areas: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Guards, corridor patrols and the friendly scientists.

    Args:
        areas: Areas by id.

    Returns:
        The characters.
    """
    out: list[dict[str, Any]] = []
    for cid, kind, weapon, area, dx, dz, behaviour, least in GUARDS:
        item = {"id": cid, "kind": kind, "side": "hostile", "weapon": weapon, "area": area,
                "at": placed(area, dx, dz, areas), "behaviour": behaviour}
        if "_hall_" not in area and area != "yard":
            item["hearing_range"] = ROOM_HEARING
        if least:
            item["min_difficulty"] = least
        out.append(item)
    for cid, storey, first, last, least in PATROLS:
        # Second patrols walk the other way so the two cross mid-route.
        ends = [f"{storey}_hall_{first}", f"{storey}_hall_{last}"]
        if least:
            ends.reverse()
        route = [{"area": a, "at": placed(a, 500, 200, areas)} for a in ends]
        item = {"id": cid, "kind": "guard", "side": "hostile", "weapon": "pistol",
                "area": ends[0], "at": route[0]["at"], "behaviour": "patrol", "route": route}
        if least:
            item["min_difficulty"] = least
        out.append(item)
    for cid, area, dx, dz, behaviour in SCIENTISTS:
        out.append({"id": cid, "kind": "scientist", "side": "friendly", "area": area,
                    "at": placed(area, dx, dz, areas), "behaviour": behaviour})
    return out


def level() -> dict[str, Any]:
    """The whole facility level as JSON data.

    Returns:
        The level.
    """
    areas, exits = outside()
    for storey in STOREYS:
        more_areas, more_exits = storey_plan(storey)
        areas += more_areas
        exits += more_exits
    tower_areas, tower_exits, stairs = tower()
    areas += tower_areas
    exits += tower_exits

    by_id = {a["id"]: a for a in areas}
    return {
        "format_version": 1,
        "id": "facility",
        "title": "The research facility",
        "brief": BRIEF,
        "design_note": NOTE,
        "categories": ["stealth", "puzzle", "exploration", "combat"],
        "difficulties": [
            {"id": "easy", "enemy_health": 0.8, "enemy_accuracy": 0.6, "enemy_damage": 0.7,
             "enemy_reaction_s": 0.9, "enemy_sight": 0.8, "reinforcements": 0.7},
            # Normal sits a step above easy on every multiplier but well short of hard:
            # its mission is three storeys of duels one after another, so a guard that
            # took half the player's health in one exchange made it a war of attrition.
            {"id": "normal", "enemy_health": 0.9, "enemy_accuracy": 0.62, "enemy_damage": 0.72,
             "enemy_reaction_s": 0.8, "enemy_sight": 0.9, "reinforcements": 0.85},
            # Hard is harder by its cast and the no-alarm rule; its gunmen shoot like
            # normal's but see further. Sharper aim, damage or reactions on top of ten
            # more guards left no run alive (each duel cost half the player's health).
            {"id": "hard", "enemy_health": 0.9, "enemy_accuracy": 0.62, "enemy_damage": 0.72,
             "enemy_reaction_s": 0.8, "enemy_sight": 1.0, "reinforcements": 1.5},
        ],
        "budgets": {"max_decisions": 400, "max_game_seconds": 1800},
        "navmesh": {"agent_radius": 20, "step_height": 30},
        "storeys": [{"id": s, "y": spec[0]} for s, spec in STOREYS.items()],
        "areas": areas,
        "stairs": stairs,
        "exits": exits,
        "objects": objects(by_id),
        "characters": characters(by_id),
        "start": {"area": "yard", "at": [-1000, 1200], "facing_deg": 0,
                  "inventory": ["sidearm", "spy_camera", "copier"], "in_hand": "sidearm"},
        "exit_area": {"area": "dock"},
        "objectives": [
            {"id": "copy_data", "kind": "gadget_on_object", "object": "mainframe",
             "gadget": "data_copier",
             "text": "Copy the data from the mainframe in the server hall.",
             "weight": 2},
            {"id": "plant_device", "kind": "gadget_on_object", "object": "uplink_mast",
             "gadget": "device", "text": "Plant the tracking device on the uplink transmitter.",
             "weight": 2},
            {"id": "photograph", "kind": "gadget_on_object", "object": "prototype",
             "gadget": "camera", "text": "Photograph the prototype in the test bay.",
             "min_difficulty": "normal"},
            {"id": "spare_scientists", "kind": "protect",
             "characters": [s[0] for s in SCIENTISTS], "text": "Do not harm any scientist."},
            {"id": "quiet", "kind": "no_alarm", "text": "Do not let any alarm sound.",
             "min_difficulty": "hard"},
            {"id": "leave", "kind": "reach_area", "area": "dock",
             "after": ["copy_data", "plant_device"], "text": "Leave through the loading dock."},
        ],
    }


def dump(data: dict[str, Any]) -> str:
    """Render a level with one array item per line, like the hand-written levels.

    Args:
        data: The level.

    Returns:
        The JSON text.
    """
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        value = data[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = [json.dumps(v, separators=(", ", ": ")) for v in value]
            lines.append(f'  "{key}": [')
            lines += [f"    {item}," for item in items[:-1]] + [f"    {items[-1]}", f"  ]{comma}"]
        else:
            lines.append(f'  "{key}": {json.dumps(value, separators=(", ", ": "))}{comma}')
    return "\n".join([*lines, "}"]) + "\n"


if __name__ == "__main__":
    OUT.write_text(dump(level()), encoding="utf-8")
    print(f"wrote {OUT}")
