"""One plan per objective kind, declared in one table: what to do next for an open objective.

Each plan reads the objective's row of the structured view (kind, the ids it names, the
place it leads to next) and the memory, and returns a decision or None when it has
nothing useful to do right now (the agent then tries the next objective or explores).
Standing conditions (protect, stay unseen, no alarm) need no step of their own: they
shape how the agent fights, not where it goes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from agents.reference.fight import CLOSE_RANGE, attack, rearm_between_fights
from agents.reference.memory import Decision, Memory
from agents.reference.moves import (
    NEAR,
    clear_next_door,
    enter_area,
    explore,
    hop,
    look_around,
    scout,
    stealthy,
    use_thing,
    walk_to,
    wander,
)
from agents.reference.reloads import reload_first
from agents.reference.stealth import quietly
from agents.reference.supplies import (
    AWARE,
    FRESH,
    HAND_WORK,
    armed,
    fresh_first,
    heal,
    hostile,
    ready_weapon,
    restock,
    weapon_against,
)

Objective = dict[str, Any]
Plan = Callable[[Memory, Objective], Decision | None]

USE_REACH = 100.0  # a little inside the world's reach, so one press always lands
ESCORT_LEASH = 450.0  # wait for followers farther than this
ESCORT_WAITS = 3  # waits for a follower out of sight before going back for it
ASIDE = 70.0  # how far to one side of a person the player steps to press use on him again
FOLLOW_CLOSE = 250.0  # walk toward a leader farther than this
PICKUP_DETOUR = 700.0  # in a free-for-all, guns and medkits this near are fetched between fights
PATCHED = 0.6  # in a free-for-all, health under which a medkit comes before the next hunt
CLOSE_SHOT = 250.0  # a target this near is walked no closer before shooting
SIGHT_FIGHT = 1300.0  # objective targets in sight nearer than this are fought before errands
SURVIVE_HEAL = 0.75  # health below which a player told to stay alive fetches a medkit
GADGET_DRAW = 300.0  # a gadget's object farther than this is walked to gun in hand first
GADGET_LEG = 2.0  # game seconds per leg of that walk, to look around between legs


def _goal_point(obj: Objective) -> list[float] | None:
    return obj.get("point")


def reach_area(mem: Memory, obj: Objective) -> Decision | None:
    """Walk into the area; the mission exit waits until everything else is done."""
    exit_row = mem.view["exit"]
    if obj["area"] is None:
        # Its place is not known yet: exploring finds it.
        return None
    if exit_row and obj["area"] == exit_row["area"] and open_work(mem, obj):
        return None
    # Standing in its area and still to do, it waits on another objective (the view does
    # not say which): walking back there before some objective's status changes would
    # only pull the player away from what it waits on.
    statuses = tuple(o["status"] for o in mem.view["objectives"])
    if mem.here == obj["area"]:
        mem.waiting[obj["index"]] = statuses
    if mem.waiting.get(obj["index"]) == statuses:
        return None
    return enter_area(mem, obj["area"], _goal_point(obj), f"objective {obj['index']}: "
                      f"reach {obj['area_name']}")


def collect_item(mem: Memory, obj: Objective) -> Decision | None:
    """Walk up to the item and take it."""
    if not obj["targets"]:
        return None  # not seen yet: exploring finds it
    item = obj["targets"][0]
    if mem.holds(item):
        return None
    why = f"objective {obj['index']}: take {item}"
    return use_thing(mem, item, why) or _towards(mem, obj, why)


def use_object(mem: Memory, obj: Objective) -> Decision | None:
    """Walk up to the object and press use."""
    if not obj["targets"]:
        return None
    why = f"objective {obj['index']}: use {obj['targets'][0]}"
    return use_thing(mem, obj["targets"][0], why) or _towards(mem, obj, why)


def destroy_object(mem: Memory, obj: Objective) -> Decision | None:
    """Get within a clear shot of the object and fire at it."""
    if not obj["targets"]:
        return None
    target = obj["targets"][0]
    row = mem.objects.get(target)
    why = f"objective {obj['index']}: destroy {target}"
    if not armed(mem):
        return restock(mem)
    if row is not None and mem.distance(row["position"]) < CLOSE_SHOT \
            and mem.failures[("close_shot", target)] == 0:
        # Refused from afar (no clear line): standing next to it, the shot is worth
        # one more try.
        mem.failures[("close_shot", target)] = 1
        mem.failures[("shoot_object", target)] = 0
    if row is not None and mem.distance(row["position"]) < 900:
        shot: Decision = ("shoot_object", {"object_id": target}, why)
        if not mem.failed(shot, 2):
            return ready_weapon(mem) or shot
    point = row["position"] if row is not None else _goal_point(obj)
    if point is not None and mem.distance(point) > CLOSE_SHOT:
        return walk_to(mem, point, why)
    return None


def gadget_on_object(mem: Memory, obj: Objective) -> Decision | None:
    """Fetch the gadget if needed, then use it on the object."""
    target, gadgets = split_gadgets(mem, obj)
    held = [g for g in gadgets if mem.holds(g)]
    if not held:
        for gadget in gadgets:
            decision = use_thing(mem, gadget, f"objective {obj['index']}: fetching gadget "
                                 f"{gadget} for {target}")
            if decision is not None:
                return decision
        return None
    if target is None:
        return None  # the thing to use it on is not seen yet
    why = f"objective {obj['index']}: use {held[0]} on {target}"
    row = mem.objects.get(target)
    point = row["position"] if row is not None else _goal_point(obj)
    if row is not None and stealthy(mem) and row.get("area") not in (None, mem.here):
        # Seen through a doorway, the thing may be watched from a corner not yet in
        # view: step into its room and look before the gadget's one walk to it.
        step = enter_area(mem, row["area"], None, f"{why} (looking into its room first)")
        if step is not None and not mem.failed(step):
            return step
    step = scout(mem, point, why) if point is not None else None
    if step is not None:
        return step
    if point is not None and mem.distance(point) > GADGET_DRAW and not stealthy(mem):
        # `use_item_on` walks with the gadget drawn: a guard met on the way gets free
        # shots, then more while the gun comes out. The walk goes gun in hand and the
        # gadget comes out only a few steps from the thing. (Not while an alarm must
        # not sound: `quietly` already cuts those walks into legs, and a gadget in hand
        # never fires at a guard merely passed.)
        step = walk_to(mem, point, why)
        if step is not None and step[0] == "go_to":
            # Shots fired while walking mostly miss and wake the guard: the walk holds
            # its fire and stops every few steps, so a guard come into view is shot at
            # standing (or, by a hurt player, passed while he has not noticed).
            step = (step[0], {**step[1], "fire_on_way": False,
                              "time_limit_s": min(step[1].get("time_limit_s", GADGET_LEG),
                                                  GADGET_LEG)}, step[2])
        if step is not None:
            return step
    decision = ("use_item_on", {"item_id": held[0], "object_id": target}, why)
    return None if mem.failed(decision) else decision


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
        return enter_area(mem, obj["area"], _goal_point(obj), f"{why}: searching {obj['area']}")
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
    ground; walking toward where they are going meets them head on, from range.
    """
    heading = obj.get("heading_to")
    if heading is None or any(r["seen"] == "now" for r in _people(mem, obj)):
        return neutralise(mem, obj)
    return walk_to(mem, heading["position"],
                   f"objective {obj['index']}: cutting off before {heading['name']}")


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
    point = _goal_point(obj)
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


def survive(mem: Memory, obj: Objective) -> Decision | None:
    """Keep healthy; let time pass only once nothing else is left to do.

    Holding on is what remains after the other objectives: waiting while a tonic lies
    uncollected or a brazier still burns would run the clock out on them.
    """
    step = heal(mem, SURVIVE_HEAL)
    if step is not None or open_work(mem, obj):
        return step
    if mem.draining:
        # Health ran out while standing still with nobody in view: something underfoot
        # hurts (an acid floor), so waiting only loses more. Medkits are fetched up to
        # full health, and with none known the level is walked for more.
        step = heal(mem, 1.0) or explore(mem) or look_around(mem)
        if step is not None:
            return step
    return ("wait", {"seconds": 2.0}, f"objective {obj['index']}: holding on")



def find_secrets(mem: Memory, obj: Objective) -> Decision | None:
    """Press every secret trigger seen, then explore the ways they reveal."""
    for row in sorted(mem.objects.values(), key=lambda r: (mem.distance(r["position"]), r["id"])):
        if row["kind"] == "secret_trigger" and mem.used[row["id"]] == 0:
            decision = use_thing(mem, row["id"], f"objective {obj['index']}: trying {row['name']}")
            if decision is not None:
                return decision
    return explore(mem)


def waypoints(mem: Memory, obj: Objective) -> Decision | None:
    """Walk to the next waypoint."""
    point = _goal_point(obj)
    return None if point is None else walk_to(mem, point, f"objective {obj['index']}: next mark")


def _reload_for(mem: Memory, row: dict[str, Any], decision: Decision) -> Decision | None:
    # Only a shot about to be fired waits for a reload: a walk to close in reloads on the way.
    return reload_first(mem, row) if decision[0] == "attack" else None


def _people(mem: Memory, obj: Objective) -> list[dict[str, Any]]:
    if obj["targets"]:
        return [mem.people[c] for c in obj["targets"] if c in mem.people and not
                mem.people[c]["down"] and c not in mem.downed]
    return [r for r in mem.people.values() if hostile(r) and r["area"] == obj["area"]
            and r["friendly"] is not True]


def split_gadgets(mem: Memory, obj: Objective) -> tuple[str | None, list[str]]:
    """The object a gadget objective names (None while unseen) and the gadgets for it.

    The view lists only known things, so the object is told from the gadgets by kind,
    not by place in the list.
    """
    gadgets = [t for t in obj["targets"] if mem.holds(t)
               or (mem.objects.get(t) or {}).get("kind") == "gadget"]
    target = next((t for t in obj["targets"] if t not in gadgets), None)
    return target, gadgets


def _towards(mem: Memory, obj: Objective, why: str) -> Decision | None:
    point = _goal_point(obj)
    return walk_to(mem, point, why) if point is not None else None


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

PLANS: MappingProxyType[str, Plan] = MappingProxyType({
    "reach_area": quietly(reach_area),
    "collect_item": quietly(collect_item),
    "use_object": quietly(use_object),
    "destroy_object": destroy_object,
    "gadget_on_object": quietly(gadget_on_object),
    "neutralise": quietly(neutralise),
    "intercept": intercept,
    "frags": frags,
    "escort": escort,
    "follow": follow,
    "survive": survive,
    "find_secrets": find_secrets,
    "waypoints": waypoints,
})

__all__ = ["AWARE", "PLANS", "SPARED", "STANDING", "open_work"]
