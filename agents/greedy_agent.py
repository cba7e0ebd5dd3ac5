#!/usr/bin/env python3
"""A greedy baseline: the script a competent outsider writes from PROTOCOL.md in an hour.

Each turn it takes the first rule that applies, reading the structured view only:

1. no usable weapon in hand: equip one carried, else fetch a weapon or ammunition in view;
2. hurt (under half health) and a medkit known: fetch it;
3. an armed hostile in sight: attack the nearest;
4. the last walk was stopped by a closed door: open it (its panel or key if it needs one);
5. an open objective whose target or place is located: go and do it (pick up, use,
   shoot, use a gadget on, attack, walk to; a zone to hold: stand in it; secrets to
   find: the nearest secret trigger in view);
6. every task done: head for the mission exit;
7. the nearest way out into an area it has not visited (its own memory), opening a
   closed door on it first; never into the exit area while tasks are open;
8. otherwise wander through the way out tried least, or wait if only survive is left.

No per-level code, no planning: a step that fails twice, or is taken four times on one
thing, is dropped until something new happens (an area, an item, an objective settled).
"""

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from harness.agent.kit import run_agent

SHOOTABLE = {"breakable", "camera"}
FAILED = {"stuck", "unreachable", "no_known_route", "refused", "target_gone",
          "wrong_storey", "door_closed"}
REACH = 120  # close enough to press use on someone
# Steps on one thing that may be repeated only a few times while nothing new happens.
HANDS_ON = {"go_to", "go_to_object", "turn_and_use", "use_item_on", "shoot_object", "equip"}

# Everything the agent remembers across turns: areas stood in, steps that failed, ways
# out taken, people asked to follow, ways into the exit area seen, the door in the way.
memory = {"visited": set(), "fails": {}, "uses": {}, "tried": {}, "used": set(),
          "exit_ways": {}, "last": None, "prev": None, "progress": None, "blocked": None}


def dist(a, b):
    return math.hypot(a[0] - b[0], a[2] - b[2])


def gave_up(key):
    return memory["fails"].get(key, 0) >= 2 or memory["uses"].get(key, 0) >= 4


def learn(obs):
    """Update the memory from the last result and the view."""
    view, result = obs["view"], obs["last_result"]
    last = memory["last"]
    futile = obs["error"] is not None or (result is not None and (
        result["end_reason"] in FAILED
        # the same step twice in a row, over at once and going nowhere: it is not working
        or (last == memory["prev"] and result["distance_moved"] < 30
            and result["ticks"] < 60)))
    memory["fails"][last] = memory["fails"].get(last, 0) + (last is not None and futile)
    stopped = result is not None and result["end_reason"] == "door_closed"
    memory["blocked"] = result["door"]["door"] if stopped and result.get("door") else None
    memory["visited"].update([view["area"]["id"]] if view["area"] else [])
    progress = (len(memory["visited"]), len(view["player"]["carried"]),
                sum(o["status"] != "todo" for o in view["objectives"]))
    if progress != memory["progress"]:
        memory["progress"] = progress
        memory["fails"].clear()  # something new: what failed before may work now
        memory["uses"].clear()
    exit_area = (view.get("exit") or {}).get("area")
    memory["exit_ways"].update({w["id"]: w["position"] for w in (view["area"] or {}).get(
        "ways_out", []) if w["to"] == exit_area})


def act(key, action, arguments, notes):
    memory["prev"], memory["last"] = memory["last"], key
    if action in HANDS_ON:
        memory["uses"][key] = memory["uses"].get(key, 0) + 1
    if action not in ("attack", "shoot_object"):  # shoot back at attackers on the way
        arguments = {**arguments, "return_fire": True}
    return action, arguments, notes


def walk(key, point, notes):  # opening doors on the way
    return act(key, "go_to", {"x": point[0], "z": point[2], "y": point[1], "use_on_way": True},
               notes)


def armed(item):
    """A weapon that can still hurt: melee, or a gun with rounds loaded or carried."""
    return item is not None and item["kind"] == "weapon" and (
        item.get("ammo") is None or item["ammo"] + (item.get("loaded") or 0) > 0)


def in_hand(view):
    return next((c for c in view["player"]["carried"] if c["id"] == view["player"]["in_hand"]),
                None)


def equip_gun(view):
    if armed(in_hand(view)):
        return None
    guns = [c for c in view["player"]["carried"] if armed(c) and not gave_up(("equip", c["id"]))]
    if guns:
        return act(("equip", guns[0]["id"]), "equip", {"item_id": guns[0]["id"]},
                   f"drawing {guns[0]['name']}")
    return nearest(view, ("weapon", "ammo"), "unarmed: fetching")


def nearest(view, kinds, why):
    """Go to the nearest object of these kinds in view (pick it up or press use on it)."""
    thing = min((o for o in view["objects"] if o["kind"] in kinds and o["state"] is None
                 and not gave_up(o["id"])), key=lambda o: o["distance"], default=None)
    return None if thing is None else act(thing["id"], "go_to_object",
                                          {"object_id": thing["id"]}, f"{why} {thing['id']}")


def heal(view):
    return None if view["player"]["health"] >= 0.5 else nearest(view, ("medkit",),
                                                                   "hurt: fetching")


def fight(view):
    if not armed(in_hand(view)):
        return None
    hostiles = [c for c in view["characters"] if c["seen"] == "now" and c["armed"]
                and c["friendly"] is False and not c["down"] and not gave_up(c["id"])]
    if not hostiles:
        return None
    foe = min(hostiles, key=lambda c: c["distance"])
    return act(foe["id"], "attack", {"character_id": foe["id"]},
               f"attacking the nearest armed hostile {foe['id']}")


def open_door(view, door_id, why):
    """Open a closed door: by hand, or with its panel or key once known."""
    door = next((d for d in view["doors"] if d["id"] == door_id), None)
    if door is None or door["state"] == "open":
        return None
    if door["state"] == "opening":
        return act(("wait", door_id), "wait", {"seconds": 1}, f"{why}: door {door_id} is opening")
    keys = set(view["player"]["keys"])
    # A panel drives its door; a key is fetched only for a door that needs one.
    helpers = [door["panel"]]
    if door["state"] == "locked" or door["needs_key"]:
        helpers.append(door["key"])
    for helper in helpers:
        if helper and helper not in keys and not gave_up(helper):
            return act(helper, "go_to_object", {"object_id": helper},
                       f"{why}: door {door_id} needs {helper}, going to it")
    if gave_up(door_id) or (door["state"] == "locked" and door["key"] not in keys):
        return None
    if door["distance"] < REACH:
        return act(door_id, "turn_and_use", {"x": door["position"][0], "z": door["position"][2]},
                   f"{why}: opening door {door_id}")
    return act(door_id, "go_to_object", {"object_id": door_id},
               f"{why}: walking to door {door_id} to open it")


def blocked_door(view):
    return memory["blocked"] and open_door(view, memory["blocked"], "a door stopped me")


def pursue(view, objective):
    """One step toward an objective whose target or place is known, or None."""
    objects = {o["id"]: o for o in view["objects"]}
    characters = {c["id"]: c for c in view["characters"]}
    doing = f"objective {objective['index']}"
    for target in objective["targets"]:
        if gave_up(target):
            continue
        if target in objects:
            thing = objects[target]
            if thing["state"] == "broken":
                continue
            if objective["kind"] == "gadget_on_object":  # try each gadget carried
                gadget = next((c["id"] for c in view["player"]["carried"]
                               if c["kind"] == "gadget" and not gave_up((target, c["id"]))),
                              None)
                if gadget is not None:
                    return act((target, gadget), "use_item_on",
                               {"item_id": gadget, "object_id": target},
                               f"{doing}: using {gadget} on {target}")
            elif objective["kind"] == "destroy_object" or thing["kind"] in SHOOTABLE:
                return act(target, "shoot_object", {"object_id": target},
                           f"{doing}: shooting {target}")
            else:  # pick it up or press use on it
                return act(target, "go_to_object", {"object_id": target},
                           f"{doing}: going to {target}")
        elif target in characters:
            person = characters[target]
            if person["down"]:
                continue
            if objective["kind"] in ("neutralise", "intercept") and not person["friendly"]:
                return act(target, "attack", {"character_id": target},
                           f"{doing}: attacking {target}")
            if objective["kind"] == "escort" and target not in memory["used"]:
                if person["distance"] > REACH:
                    return walk((target, tuple(person["position"])), person["position"],
                                f"{doing}: walking up to {target}")
                memory["used"].add(target)
                return act(target, "turn_and_use", {"x": person["position"][0],
                                                    "z": person["position"][2]},
                           f"{doing}: asking {target} to follow")
            if objective["kind"] == "follow" and person["distance"] > 300:
                return walk((target, tuple(person["position"])), person["position"],
                            f"{doing}: keeping up with {target}")
    if objective["kind"] == "find_secrets" and (step := nearest(view, ("secret_trigger",),
                                                                   f"{doing}: trying")):
        return step
    point = objective["point"]
    if point is not None and objective["kind"] not in ("follow", "intercept"):
        key = ("point", tuple(point))
        if not gave_up(key) and dist(point, view["player"]["position"]) > 60:
            return walk(key, point, f"{doing}: walking to its place")
        if objective["kind"] == "hold_zone":  # a match's zone, reached: stand in it
            return act(None, "wait", {"seconds": 2}, f"{doing}: holding its place")
    return None


def open_tasks(view):
    return [o for o in view["objectives"] if o["counts"] and o["status"] == "todo"
            and not o["standing"]]


def objectives(view):
    tasks = open_tasks(view)
    exit_area = (view.get("exit") or {}).get("area")
    for objective in tasks:
        if exit_area is not None and objective["area"] == exit_area and len(tasks) > 1:
            continue  # entering the exit area with tasks open fails the mission
        step = pursue(view, objective)
        if step is not None:
            return step
    return None


def go_through(view, way, why):
    if way["door"] is not None and (step := open_door(view, way["door"], why)) is not None:
        return step
    memory["tried"][way["id"]] = memory["tried"].get(way["id"], 0) + 1
    return act(way["id"], "go_to_area", {"exit_id": way["id"]}, f"{why}: through {way['id']}")


def head_for_exit(view):
    exit_info = view.get("exit")
    if exit_info is None or open_tasks(view):
        return None
    ways = (view["area"] or {}).get("ways_out", [])
    for way in ways:
        if way["to"] == exit_info["area"] and not gave_up(way["id"]):
            return go_through(view, way, "all tasks done, leaving")
    here = view["player"]["position"]
    for way_id, position in sorted(memory["exit_ways"].items(),
                                   key=lambda item: dist(item[1], here)):
        key = ("exit", way_id)
        if not gave_up(key):
            return walk(key, position, "all tasks done, walking to the way into the exit area")
    return None


def usable_ways(view):
    exit_area = (view.get("exit") or {}).get("area")
    tasks_open = bool(open_tasks(view))
    return [w for w in (view["area"] or {}).get("ways_out", [])
            if not gave_up(w["id"]) and not (tasks_open and w["to"] == exit_area)]


def explore(view):
    fresh = [w for w in usable_ways(view) if w["to"] not in memory["visited"]]
    if not fresh:
        return None
    way = min(fresh, key=lambda w: (memory["tried"].get(w["id"], 0), w["distance"]))
    return go_through(view, way, f"exploring {way['to_name']}")


def idle(view):
    tasks = open_tasks(view)
    ways = usable_ways(view)
    if ways and not (tasks and all(o["kind"] == "survive" for o in tasks)):
        way = min(ways, key=lambda w: (memory["tried"].get(w["id"], 0), w["distance"]))
        return go_through(view, way, "nothing new: wandering")
    return act(None, "wait", {"seconds": 2}, "nothing to do: waiting")


# Tried in order; the first that returns a step decides.
RULES = (equip_gun, heal, fight, blocked_door, objectives, head_for_exit, explore, idle)


def decide(observation, start):
    learn(observation)
    view = observation["view"]
    return next(step for rule in RULES if (step := rule(view)) is not None)


if __name__ == "__main__":
    run_agent(decide, name="greedy-agent", version="1",
              description="Goes to located targets, else the nearest unvisited way out; "
                          "fights armed hostiles in sight.")
