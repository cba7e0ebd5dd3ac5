"""One plan per objective kind, declared in one table: what to do next for an open objective.

Each plan reads the objective's row of the structured view (kind, the ids it names, the
place it leads to next) and the memory, and returns a decision or None when it has
nothing useful to do right now (the agent then tries the next objective or explores).
Standing conditions (protect, stay unseen, no alarm) need no step of their own: they
shape how the agent fights, not where it goes.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from agents.reference.memory import Decision, Memory
from agents.reference.moves import (
    enter_area,
    explore,
    look_around,
    scout,
    stealthy,
    use_thing,
    walk_to,
)
from agents.reference.people import (
    SPARED,
    STANDING,
    escort,
    follow,
    frags,
    intercept,
    neutralise,
    open_work,
    targets_in_sight,
)
from agents.reference.stealth import quietly
from agents.reference.supplies import AWARE, armed, heal, ready_weapon, restock

Objective = dict[str, Any]
Plan = Callable[[Memory, Objective], Decision | None]

CLOSE_SHOT = 250.0  # a target this near is walked no closer before shooting
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

__all__ = ["AWARE", "PLANS", "SPARED", "STANDING", "open_work", "targets_in_sight"]
