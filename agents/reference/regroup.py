"""Regrouping after a noisy kill: step out of sight, reload there and let the next come close.

A guard in the next room hears the shots and walks to where they were fired. A hurt
player who holds that very spot, in a doorway or in the open, is seen by him from across
his room, and he gets the first shots of a duel at range that the player, already down
two hits, loses. Stepping back through a way out already walked puts a door frame
between them: the reload runs unseen, and the guard who comes looking shows up close,
where the player's shots land, and is seen at a short look before he has found the player.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.cover import hold_after_kill, retreat
from agents.reference.duels import MEND
from agents.reference.memory import Decision, Memory
from agents.reference.reloads import top_up_calm
from agents.reference.supplies import AWARE, hostile, nearest_pickup

HURRIED = frozenset({"intercept"})  # objectives that a hold out of sight would lose
REGROUP_REACH = 350.0  # a way out farther than this is a walk a guard may catch: hold nearer
REGROUP_S = 8.0  # a guard two rooms off walks to the shots in about this long
LOOK_S = 1.0  # each look while holding: a guard seen arriving is shot before he shoots
CLEAR_FIRST = 1500.0  # an unaware gunman this near in the room is dealt with before a door
CLOSE_IN = 450.0  # how near the walk to him goes before the fight (shots from there land)
OPEN_LEG_S = 3.0  # the walk toward him is cut short, so a look decides the fight
LET_COME = 700.0  # a searching guard farther than this is let come nearer before the fight
DOORWAY = 300.0  # a player this near the way into the fallen one's room stands in its view
BACK = 150.0  # how far back from that doorway, and how far along its wall, the player hides
ALONG = 250.0
SNAP_DEG = 40.0


def step_out_of_sight(mem: Memory, stealth: bool) -> Decision | None:
    """Right after a kill that calls for a hold, reload, then walk out of sight.

    The reload runs on during the walk, so it is started first; the walk holds its fire:
    shots at a guard still searching, from afar, only show him where the player is.

    Args:
        mem: The agent's memory.
        stealth: Whether the mission asks for quiet (no hold then).

    Returns:
        The top-up; or a walk past the way out farthest from the fallen gunman (or
        beside the doorway into his room); or None (no hold called for, or no cover
        within reach: the hold then happens where the player stands, see duels.py).
    """
    done = mem.last_decision
    if any(o["kind"] in HURRIED and o["counts"] and o["status"] == "todo"
           for o in mem.view["objectives"]):
        return None  # one on the run gets away during the hold: the chase goes on
    if hold_after_kill(mem, stealth) is not None:
        step = top_up_calm(mem)
        if step is not None:
            mem.hold_owed = True
            return step
    elif not (mem.hold_owed and done is not None and done[0] == "equip"):
        return None
    if mem.view["player"]["health"] < MEND and nearest_pickup(mem, ("medkit",), "", 1):
        return None  # a hit or two from down: a known medkit first (duels.reload_then_hold)
    fallen = sorted((r for r in mem.view["characters"] if r["seen"] == "now" and r["down"]
                     and r["friendly"] is not True), key=lambda r: (r["distance"], r["id"]))
    if not fallen:
        return None
    why = f"{fallen[0]['id']} is down; stepping out of sight for whoever heard the shots"
    step = retreat(mem, fallen[:1], why, REGROUP_REACH, in_room=False) \
        or _beside_doorway(mem, fallen[0], why)
    if step is None:
        return None
    mem.hold_owed = False
    mem.regroup_until = mem.time_s + REGROUP_S
    return step[0], {**step[1], "fire_on_way": False}, step[2]


def _beside_doorway(mem: Memory, fallen: dict[str, Any], why: str) -> Decision | None:
    # No way back within reach, but the shots went through a doorway into the fallen
    # one's room: a spot along the wall beside it, a step back, is out of that room's
    # view, and whoever comes through the doorway is met a few metres off.
    area = mem.view["area"] or {}
    x, _, z = mem.position
    for way in sorted(area.get("ways_out", []), key=lambda w: (w["distance"], w["id"])):
        if way["to"] != fallen["area"] or way["distance"] > DOORWAY or way["other_storey"]:
            continue
        wx, wy, wz = way["position"]
        # Into that room: from the doorway toward the fallen one (the player may stand
        # on the doorway's line itself, so its own bearing says little).
        dx, dz = fallen["position"][0] - wx, fallen["position"][2] - wz
        length = math.hypot(dx, dz)
        if length < 1.0:
            continue
        nx, nz = _wall_normal(dx / length, dz / length)
        spots = [(wx - nx * BACK + side * -nz * ALONG, wz - nz * BACK + side * nx * ALONG)
                 for side in (1.0, -1.0)]
        for sx, sz in sorted(spots, key=lambda p: (math.hypot(p[0] - x, p[1] - z), p)):
            decision: Decision = ("go_to", {"x": round(sx, 1), "z": round(sz, 1),
                                            "y": round(wy, 1)},
                                  f"{why} (beside way {way['id']})")
            if not mem.failed(decision, 2):
                return decision
    return None


def _wall_normal(nx: float, nz: float) -> tuple[float, float]:
    # The doorway's wall is not in the view; the bearing into the room only roughly crosses
    # it. Walls mostly run along the axes, so a bearing within SNAP_DEG of one is taken
    # as square to that wall: a hiding spot along a slanted guess would stand in line
    # with the doorway for someone across the room.
    for ax, az in ((1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)):
        if nx * ax + nz * az >= math.cos(math.radians(SNAP_DEG)):
            return ax, az
    return nx, nz


def hold_out_of_sight(mem: Memory) -> Decision | None:
    """After stepping out of sight, hold there in short looks until the hold's time is up.

    A guard seen searching far off (not yet fighting) is let come: walking out to him
    leaves the cover and gives him the first shots at range. Anyone else in sight (one
    fighting, one near, a friend) ends the hold: the fight or the errand decides then.
    """
    if mem.time_s >= mem.regroup_until or mem.on_hazard():
        return None  # a floor that drains health makes every look cost more than it saves
    seen = [r for r in mem.view["characters"] if r["seen"] == "now"
            and (r["friendly"] is True or hostile(r))]
    if any(r["friendly"] is True or r["alertness"] == "in_combat"
           or r["distance"] < LET_COME for r in seen):
        mem.regroup_until = -1.0
        return None
    coming = [r["id"] for r in seen]
    why = f"holding out of sight; letting {', '.join(coming)} come" if coming \
        else "holding out of sight for whoever heard the shots"
    return ("wait", {"seconds": LOOK_S}, why)


def room_before_door(mem: Memory, decision: Decision, stealth: bool) -> Decision:
    """Before opening a door, close in on an unaware gunman in this room first.

    A door opened while a gunman is still on his feet in the room lets the guard behind
    it see the fight the gunman soon starts: the player meets both at once. Fought with
    the door still shut, the one behind it only hears the shots, comes later and alone,
    and finds the player out of sight (step_out_of_sight). Not while an alarm must not
    sound (the gunman is left alone then); the fight itself starts once he is near
    enough to count as a threat.

    Args:
        mem: The agent's memory.
        decision: The step chosen.
        stealth: Whether the mission asks for quiet.

    Returns:
        A short walk toward the gunman in place of opening a closed door, or the decision.
    """
    if stealth or not _opens_door(mem, decision):
        return decision
    guards = sorted((r for r in mem.view["characters"] if r["seen"] == "now" and hostile(r)
                     and r["armed"] is not False and r["area"] == mem.here
                     and r["alertness"] not in AWARE and r["distance"] < CLEAR_FIRST),
                    key=lambda r: (r["distance"], r["id"]))
    for row in guards:
        x, y, z = mem.position
        px, _, pz = row["position"]
        keep = CLOSE_IN / max(row["distance"], 1.0)
        step: Decision = ("go_to", {"x": round(px - (px - x) * keep, 1),
                                    "z": round(pz - (pz - z) * keep, 1), "y": round(y, 1),
                                    "time_limit_s": OPEN_LEG_S},
                          f"{row['id']} is still up in this room: dealing with him before "
                          "opening a door")
        if row["distance"] > CLOSE_IN and not mem.failed(step, 2):
            return step
    return decision


def _opens_door(mem: Memory, decision: Decision) -> bool:
    # Pressing use on a closed door, or walking through a way out whose door is shut.
    action, args = decision[0], decision[1]
    if action == "go_to_object":
        door = mem.doors.get(args["object_id"])
        return door is not None and door["state"] in ("closed", "locked")
    if action == "go_to_area":
        way = next((w for w in (mem.view["area"] or {}).get("ways_out", [])
                    if w["id"] == args["exit_id"]), None)
        door = mem.doors.get((way or {}).get("door") or "")
        return door is not None and door["state"] in ("closed", "locked")
    return False

