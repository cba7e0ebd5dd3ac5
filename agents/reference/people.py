"""Plans for objectives about characters: put down, cut off, out-frag, escort, follow.

Each reads the objective's row of the structured view and the memory, as the plans in
plans.py do (whose table PLANS lists these too), and returns a decision or None. Also
here: which objective kinds are standing conditions, and whether other work is open.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.fight import CLOSE_RANGE, attack, rearm_between_fights
from agents.reference.memory import Decision, Memory
from agents.reference.moves import (
    NEAR,
    USE_REACH,
    clear_next_door,
    enter_area,
    explore,
    hop,
    walk_to,
    wander,
)
from agents.reference.reloads import reload_first
from agents.reference.supplies import AWARE, FRESH, HAND_WORK, fresh_first, hostile, weapon_against
from agents.reference.waylay import waylay

Objective = dict[str, Any]

ESCORT_LEASH = 450.0  # wait for followers farther than this
ESCORT_WAITS = 3  # waits for a follower out of sight before going back for it
ASIDE = 70.0  # how far to one side of a person the player steps to press use on him again
FOLLOW_CLOSE = 250.0  # walk toward a leader farther than this
PICKUP_DETOUR = 700.0  # in a free-for-all, guns and medkits this near are fetched between fights
PATCHED = 0.6  # in a free-for-all, health under which a medkit comes before the next hunt
SIGHT_FIGHT = 1300.0  # objective targets in sight nearer than this are fought before errands


def neutralise(mem: Memory, obj: Objective) -> Decision | None:
    """Attack every named character (or every hostile of the named area) until down."""
    why = f"objective {obj['index']}: put down"
    rows = _people(mem, obj)
    for row in sorted(rows, key=lambda r: (r["seen"] != "now", r["distance"], r["id"])):
        decision = attack(mem, row, f"{why} {row['id']}")
        if decision is not None and row["seen"] == "now":
            return weapon_against(mem, row) or _reload_for(mem, row, decision) or decision
        step = walk_to(mem, row["position"], f"{why} {row['id']} (last seen there)")
        if step is not None and row["distance"] > NEAR:
            return step
    if obj["area"]:
        return enter_area(mem, obj["area"], obj.get("point"), f"{why}: searching {obj['area']}")
    return None


def targets_in_sight(mem: Memory, objectives: list[Objective]) -> Decision | None:
    """Fight the characters an open objective asks down that are in sight now, from here.

    Errands listed before such an objective would otherwise walk the player into their
    room, where they wake and shoot at once, two or more together; shot at from the
    doorway or window where they were first seen, they come one by one, into return
    fire. A hurt player fetches a known medkit first, since it starts this fight. Only
    while an errand by hand is open: otherwise nothing would lead the player in.
    """
    if not any(o["kind"] in HAND_WORK for o in objectives):
        return None
    for obj in objectives:
        if obj["kind"] not in ("neutralise", "intercept"):
            continue
        rows = [r for r in _people(mem, obj) if r["seen"] == "now" and hostile(r)
                and r["distance"] < SIGHT_FIGHT]
        for row in sorted(rows, key=lambda r: (r["distance"], r["id"])):
            if row["alertness"] not in AWARE and row["distance"] > CLOSE_RANGE:
                step = clear_next_door(mem, {row["area"]}, f"before fighting {row['id']}")
                if step is not None:
                    return step
            if row["alertness"] not in AWARE:
                step = fresh_first(mem, FRESH, f"patching up before fighting {row['id']}")
                if step is not None:
                    return step
            decision = attack(mem, row, f"objective {obj['index']}: put down {row['id']} "
                              "from here")
            if decision is not None:
                return weapon_against(mem, row) or _reload_for(mem, row, decision) or decision
    return None


def intercept(mem: Memory, obj: Objective) -> Decision | None:
    """Head along the way the named characters go until they are in sight, then attack.

    Chasing from behind means fighting them and their escort at once on their own
    ground; walking toward where they are going meets them head on, from range. The
    room they head for is not waited in (they are stopped too late there): once seen, the
    player waits just outside it, where they come (waylay.py).
    """
    heading = obj.get("heading_to")
    rows = _people(mem, obj)
    if heading is None or any(r["seen"] == "now" for r in rows):
        return neutralise(mem, obj)
    why = f"objective {obj['index']}: cutting off before {heading['name']}"
    return waylay(mem, heading, [r["position"] for r in rows], why) \
        or walk_to(mem, heading["position"], why)


def frags(mem: Memory, obj: Objective) -> Decision | None:
    """Hunt the nearest hostile, guns and health nearby picked up first; else roam.

    With nobody in sight and another objective open, that objective goes first (the
    roaming finds the next fight anyway): a gun or armour it asks to claim wins the
    fights still to come, and left for after the last frag it is fetched under fire.
    """
    step = rearm_between_fights(mem, PICKUP_DETOUR, PATCHED)
    if step is not None:
        return step
    rows = [r for r in mem.view["characters"] if hostile(r) and r["seen"] == "now"]
    for row in sorted(rows, key=lambda r: (r["distance"], r["id"])):
        decision = attack(mem, row, f"objective {obj['index']}: frag {row['id']}")
        if decision is not None:
            return weapon_against(mem, row) or _reload_for(mem, row, decision) or decision
    if open_work(mem, obj):
        return None
    return explore(mem) or wander(mem)


def escort(mem: Memory, obj: Objective) -> Decision | None:
    """Ask each named character to follow, then lead them to the area, waiting for them."""
    why = f"objective {obj['index']}: escort"
    for cid in obj["targets"]:
        row = mem.people.get(cid)
        if cid in mem.escorted or row is None or row["down"]:
            continue
        if row["distance"] > USE_REACH:
            step = walk_to(mem, _beside(mem, row), f"{why}: walking up to {cid}")
            if step is not None:
                return step
        decision: Decision = ("turn_and_use", {"x": row["position"][0], "z": row["position"][2]},
                              f"{why}: asking {cid} to follow")
        if mem.failures[("turn_and_use", cid)] == 0 and mem.failed(decision, 1):
            mem.failures[("turn_and_use", cid)] += 1
            step = walk_to(mem, _aside(mem, row),  # the press landed on a thing behind him
                           f"{why}: stepping beside {cid} to ask")
            if step is not None:
                return step
        if not mem.failed(decision):
            return decision
    if any(cid not in mem.people for cid in obj["targets"]):
        return None
    lagging = [mem.people[c] for c in obj["targets"] if c in mem.escorted
               and not mem.people[c]["down"] and mem.people[c]["distance"] > ESCORT_LEASH]
    if lagging:
        row = lagging[0]
        waited = ("wait_for", row["id"])
        mem.failures[waited] = mem.failures[waited] + 1 if row["seen"] != "now" else 0
        if mem.failures[waited] > ESCORT_WAITS:
            # Out of sight through several waits, it has lost the player (or never set
            # off): walk back and ask again rather than wait on a stale position.
            mem.failures[waited] = 0
            mem.escorted.discard(row["id"])
            step = walk_to(mem, row["position"], f"{why}: going back for {row['id']}")
            if step is not None:
                return step
        return ("wait", {"seconds": 1.5}, f"{why}: waiting for {row['id']} to catch up")
    point = obj.get("point")
    if point is None:
        return None
    return hop(mem, point, 4.0, f"{why}: leading them to {obj['area_name']}")


def follow(mem: Memory, obj: Objective) -> Decision | None:
    """Stay close to the leader: ask it once, then keep within a few metres."""
    cid = obj["targets"][0] if obj["targets"] else None
    row = mem.people.get(cid) if cid else None
    if row is None or row["down"]:
        return None
    why = f"objective {obj['index']}: follow {cid}"
    if row["distance"] > FOLLOW_CLOSE:
        return hop(mem, _beside(mem, row), 2.0, why)
    if cid not in mem.escorted and row["distance"] <= USE_REACH:
        decision: Decision = ("turn_and_use", {"x": row["position"][0], "z": row["position"][2]},
                              f"{why}: letting {cid} know")
        if not mem.failed(decision, 1):
            return decision
    return ("wait", {"seconds": 1.0}, f"{why}: staying close")


def _reload_for(mem: Memory, row: dict[str, Any], decision: Decision) -> Decision | None:
    # Only a shot about to be fired waits for a reload: a walk to close in reloads on the way.
    return reload_first(mem, row) if decision[0] == "attack" else None


def _people(mem: Memory, obj: Objective) -> list[dict[str, Any]]:
    if obj["targets"]:
        return [mem.people[c] for c in obj["targets"] if c in mem.people and not
                mem.people[c]["down"] and c not in mem.downed]
    return [r for r in mem.people.values() if hostile(r) and r["area"] == obj["area"]
            and r["friendly"] is not True]


def _beside(mem: Memory, row: dict[str, Any]) -> list[float]:
    return row["position"]


def _aside(mem: Memory, row: dict[str, Any]) -> list[float]:
    # Beside the character, square to the line from the player: off the line behind him.
    x, _, z = mem.position
    px, py, pz = row["position"]
    length = max(math.hypot(px - x, pz - z), 1.0)
    return [px - (pz - z) / length * ASIDE, py, pz + (px - x) / length * ASIDE]


def open_work(mem: Memory, besides: Objective) -> bool:
    """Whether a counted objective other than this one still needs doing."""
    return any(o["counts"] and o["status"] == "todo" and o is not besides
               and o["kind"] not in STANDING for o in mem.view["objectives"])


# Kinds held until broken: nothing to go and do, only things not to do.
STANDING = frozenset({"protect", "stay_unseen", "no_alarm"})
# Kinds whose characters must never be shot.
SPARED = frozenset({"protect", "escort", "follow"})
