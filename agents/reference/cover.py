"""Cover: falling back from two gunmen, reloading out of sight, waiting at the doorway.

Gunfights are lost by being outnumbered, not by missing: the player hits far more often
than a guard, so one gunman at a time is a fight worth taking, two at once is not. When
two or more armed hostiles are after the player from a distance, it falls back through
the nearest way out to somewhere already visited and waits there, so pursuers come
through the doorway one by one, close, where the harness's return fire meets them. A
gun all but empty (not yet reloading) in a duel at range is reloaded there the same way, out
of the gunman's sight.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.doors import square_to_wall
from agents.reference.memory import Decision, Memory
from agents.reference.moves import PAST
from agents.reference.supplies import AWARE, gun_in_hand

LOW_MAGAZINE = 2  # rounds loaded at or under which a duel at range waits for the reload
FINISH = 0.3  # health at or under which a gunman is a hit or two from down
RELOAD_COVER = 400.0  # a way out farther than this is no cover within a reload's time
# Gunmen nearer than this are fought where they stand: turning away costs more shots.
STAND_RANGE = 450.0
FALL_BACKS = 2  # falls back per area before standing to fight anyway
AMBUSH_S = 2.0  # one wait at the doorway after falling back
AMBUSHES = 2  # waits per area before going back in
AMBUSH_HEALTH = 0.5  # below this, healing beats waiting for pursuers
HOLD_MARK = 0.8  # below this, the player holds its ground a moment after putting one down
DOORWAY_NEAR = 450.0  # a doorway into the gunmen's room this near is hidden beside
BESIDE_BACK = 120.0  # the spot beside it: this far back from it, this far along its wall
BESIDE_ALONG = 220.0
HOLD_S = 3.0  # long enough for a guard who heard the shots from the next room to show up
OUTGUNNED = 0.4  # health per gunman close by under which the player breaks off
BREAK_REACH = 300.0  # a way out farther than this is no cover from gunmen close by


def tethered(mem: Memory) -> bool:
    """Whether the player must keep near someone who walks on regardless (a guide).

    A fall back, a wait at the doorway or a hold after a fight leaves the guide
    walking away: out of the distance the objective asks, it fails at once.
    """
    return any(o["kind"] == "follow" and o["counts"] and o["status"] == "todo"
               for o in mem.view["objectives"])


def under_fire(mem: Memory, rows: list[dict[str, Any]]) -> bool:
    """Whether the last action was cut short by a hit with a gunman after the player in sight.

    Every further hit would stop a walk again a step later: shooting back gains more.
    """
    last = mem.last
    return last is not None and last["end_reason"] == "damage" and bool(_gunmen(rows))


def _gunmen(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r["alertness"] in AWARE and r["armed"] is not False]


def fall_back(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    gunmen = _gunmen(rows)
    area = mem.view["area"]
    # Near gunmen are fought where they stand (turning away costs more shots), unless
    # none is firing yet: those still searching for the player let it walk off unshot.
    if len(gunmen) < 2 or area is None or tethered(mem) or (
            min(r["distance"] for r in gunmen) < STAND_RANGE
            and any(r["alertness"] == "in_combat" for r in gunmen)):
        return None
    if mem.failures[("fall_back", area["id"])] >= FALL_BACKS:
        return None
    if mem.last is not None and mem.last["end_reason"] == "damage":
        return None  # already under fire: every hit would stop the walk, so shoot back
    decision = retreat(mem, gunmen, f"falling back: {len(gunmen)} gunmen after me")
    if decision is None:
        return None
    mem.failures[("fall_back", area["id"])] += 1
    return decision


def break_off(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    """Step back out of sight through a way just behind when two gunmen or more are close.

    Up close every shot of theirs lands: two gunmen firing at once take health twice as
    fast as the player takes theirs, so a hurt player who stands loses the exchange. The
    doorway it came through a few steps back hides it from both, and they come through
    it one at a time, into its fire (the wait there is `ambush`). Once per area, never
    right after falling back and never under fire (each hit stops the walk a step
    later): then they are fought where they stand.
    """
    area = mem.view["area"]
    close = [r for r in _gunmen(rows) if r["distance"] < STAND_RANGE]
    done = mem.last_decision
    if done is not None and done[2].startswith("falling back"):
        return None  # followed through the doorway: a second walk away is shot at as the first
    if mem.last is not None and mem.last["end_reason"] == "damage":
        return None  # already under fire: every hit stops the walk a step later, shoot back
    if len(close) < 2 or area is None or tethered(mem) \
            or mem.view["player"]["health"] >= OUTGUNNED * len(close) \
            or mem.failures[("break_off", area["id"])] >= 1:
        return None
    decision = retreat(mem, close, f"falling back: {len(close)} gunmen close by",
                       BREAK_REACH, in_room=False)
    if decision is not None:
        mem.failures[("break_off", area["id"])] += 1
    return decision


def reload_away(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    # A gun all but empty (not yet reloading) in a duel at range stands still for the reload
    # while the gunman keeps firing: stepping out of his sight lets the reload run where
    # it costs nothing, and the ambush at the doorway meets him with a full magazine.
    gunmen = _gunmen(rows)
    area = mem.view["area"]
    if not gunmen or area is None or tethered(mem) \
            or min(r["distance"] for r in gunmen) < STAND_RANGE:
        return None
    if not _magazine_low(mem) or mem.failures[("fall_back", area["id"])] >= FALL_BACKS:
        return None
    if gun_in_hand(mem).get("loaded") and min(r["health"] for r in gunmen) <= FINISH:
        return None  # one all but down is finished with what is loaded
    if mem.last is not None and mem.last["end_reason"] == "damage":
        return None  # under fire every hit stops the walk: a long way to cover is worse
    decision = retreat(mem, gunmen, "falling back to reload out of sight", RELOAD_COVER,
                       fire=False)
    if decision is not None:
        mem.failures[("fall_back", area["id"])] += 1
    return decision


def _magazine_low(mem: Memory) -> bool:
    # The counter on the gun in hand, as the player sees it: nearly empty with rounds to
    # reload from. A reload already running ends about when the walk to cover would,
    # so it is waited out where the player stands.
    gun = gun_in_hand(mem)
    if gun.get("kind") != "weapon" or gun.get("loaded") is None \
            or mem.view["player"].get("reloading"):
        return False
    return gun["loaded"] <= LOW_MAGAZINE and (gun.get("ammo") or 0) > 0


def retreat(mem: Memory, gunmen: list[dict[str, Any]], why: str,
            within: float = math.inf, in_room: bool = True, fire: bool = True
            ) -> Decision | None:
    """Walk out of the gunmen's sight through a visited way out within reach, or None.

    The way out farthest from the gunmen, relative to how far the player must walk; with
    none, and `in_room`, a spot beside the doorway into their room (beside_their_way).
    `fire` says whether the walk shoots back on the way: not when it goes to reload, since
    the shots fired walking mostly miss and leave the magazine emptier than it was.
    """
    area = mem.view["area"]
    gx = sum(r["position"][0] for r in gunmen) / len(gunmen)
    gz = sum(r["position"][2] for r in gunmen) / len(gunmen)
    x, _, z = mem.position
    ways = [w for w in area["ways_out"] if w["visited"] and not w["one_way"]
            and not w["other_storey"] and _passable(mem, w) and w["distance"] <= within]
    if not ways:
        return beside_their_way(mem, gunmen, why, within, fire) if in_room else None

    def safety(way: dict[str, Any]) -> float:
        wx, _, wz = way["position"]
        return math.hypot(wx - gx, wz - gz) - math.hypot(wx - x, wz - z)

    way = max(ways, key=lambda w: (safety(w), w["id"]))
    wx, wy, wz = way["position"]
    length = max(math.hypot(wx - x, wz - z), 1.0)
    # Step well past the doorway and off its line, so the frame hides the player.
    beyond = (wx + (wx - x) / length * PAST * 2, wy, wz + (wz - z) / length * PAST * 2)
    args = {"x": round(beyond[0], 1), "z": round(beyond[2], 1), "y": round(beyond[1], 1),
            "use_on_way": True, "fire_on_way": fire}
    decision: Decision = ("go_to", args, f"{why} (to {way['to_name']})")
    if mem.failed(decision, 2):
        return None
    mem.failures[("ambush", way["to"])] = 0
    return decision


def beside_their_way(mem: Memory, gunmen: list[dict[str, Any]], why: str,
                     within: float = math.inf, fire: bool = True) -> Decision | None:
    """With no way back, a spot in this room against the wall beside the gunmen's doorway.

    Gunmen in the next room see into this one only through the doorway between: a spot
    a step back from it and along its wall, on the side they stand toward, is out of
    their line, and whoever comes through to look for the player shows up close.

    Args:
        mem: The agent's memory.
        gunmen: Those to hide from, all in one other area.
        why: The decision's note.
        within: How far the spot may lie.
        fire: Whether the walk shoots back on the way.

    Returns:
        A walk to the spot, or None (they stand in this area or several, no doorway
        between is near, or the walk was tried here twice).
    """
    rooms = {r["area"] for r in gunmen}
    area = mem.view["area"] or {}
    if len(rooms) != 1 or mem.here in rooms:
        return None
    gx = sum(r["position"][0] for r in gunmen) / len(gunmen)
    gz = sum(r["position"][2] for r in gunmen) / len(gunmen)
    x, _, z = mem.position
    for way in sorted(area.get("ways_out", []), key=lambda w: (w["distance"], w["id"])):
        if way["to"] not in rooms or way["other_storey"] or way["distance"] > DOORWAY_NEAR:
            continue
        wx, wy, wz = way["position"]
        nx, nz = square_to_wall(gx - wx, gz - wz)
        # Their side of the doorway's line: a spot there is seen only from steep angles.
        lateral = (gx - wx) * -nz + (gz - wz) * nx
        sides = (1.0, -1.0) if lateral > 0 else (-1.0, 1.0)
        for side in sides:
            sx, sz = wx - nx * BESIDE_BACK + side * -nz * BESIDE_ALONG, \
                wz - nz * BESIDE_BACK + side * nx * BESIDE_ALONG
            if math.hypot(sx - x, sz - z) > within:
                continue
            decision: Decision = ("go_to", {"x": round(sx, 1), "z": round(sz, 1),
                                            "y": round(wy, 1), "fire_on_way": fire},
                                  f"{why} (beside way {way['id']})")
            if not mem.failed(decision, 2):
                mem.failures[("ambush", mem.here or "")] = 0
                return decision
    return None


def _passable(mem: Memory, way: dict[str, Any]) -> bool:
    door = mem.doors.get(way["door"] or "")
    return door is None or door["state"] not in ("locked",)


def hold_after_kill(mem: Memory, stealth: bool) -> Decision | None:
    """Right after putting a gunman down, hurt, wait a moment where the player stands.

    Guards in the next rooms hear the shots and come running: met here, with the gun
    already up and its reload done, each walks into the return fire one at a time, while
    a hurt player who walks on meets him in his room, where he has the first shots.
    Not while an alarm must not sound (nobody should come), nor beside a friendly
    character (an escort or a guide does not wait).

    Args:
        mem: The agent's memory.
        stealth: Whether the mission asks for quiet.

    Returns:
        A short wait, or None.
    """
    done, last = mem.last_decision, mem.last
    if stealth or tethered(mem) or mem.hurried() or mem.on_hazard() or done is None \
            or done[0] != "attack" \
            or last is None or last["end_reason"] != "arrived" \
            or mem.view["player"]["health"] >= HOLD_MARK:
        # nor while a countdown runs: whoever comes is met on the way out; nor on a floor
        # that drains health: the hold would cost more than the guard it waits for
        return None
    if any(r["seen"] == "now" and (r["friendly"] is True or not r["down"])
           for r in mem.view["characters"]):
        return None
    return ("wait", {"seconds": HOLD_S}, f"{done[1]['character_id']} is down; holding here "
            "for whoever heard the shots")


def ambush(mem: Memory) -> Decision | None:
    # Just fell back and nobody is in sight yet: pursuers are on their way through the door.
    done = mem.last_decision
    if done is None or not done[2].startswith("falling back") or mem.here is None \
            or tethered(mem):
        return None
    if mem.view["player"]["health"] < AMBUSH_HEALTH:
        return None
    key = ("ambush", mem.here)
    if mem.failures[key] >= AMBUSHES:
        return None
    mem.failures[key] += 1
    return ("wait", {"seconds": AMBUSH_S}, "falling back: waiting for pursuers at the doorway")
