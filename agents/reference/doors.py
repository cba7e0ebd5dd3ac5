"""Doors that stop a walk: what opens each (the key it needs, the panel that drives it).

Worked out from the door's own row and what the player has seen; a door whose opener
has not been seen yet is looked around first, then the level is explored for it.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.codes import key_in
from agents.reference.memory import Decision, Memory
from agents.reference.moves import STOREY_GAP, enter_area, explore, use_thing
from agents.reference.supplies import AWARE, FRESH, hostile, still_there, walk_to_nearest

KIT_DETOUR = 1200.0  # a known medkit nearer than this is fetched before opening onto guards
LOOKED_ROUND = 300.0  # standing this near a door, what lies around it has been seen
GUARD_NEAR = 2500.0  # a gunman seen nearer than this may stand behind the door or come to it
KIT_BY_DOOR = 300.0  # a medkit this near a door is the one within reach after the fight there
STEP_BACK = 100.0  # the spot beside the door: this far back from it, and this far aside
STEP_ASIDE = 60.0
SNAP = 0.7  # a bearing within about 45 degrees of an axis counts as square to the wall


def open_way(mem: Memory) -> Decision | None:
    """Deal with the door that stopped the last walk: use it, fetch its key or press its panel.

    A hurt player about to open a door with gunmen about fetches a known medkit first.
    """
    step = _open_way(mem)
    if step is None or not _opens_door(mem, step):
        return step
    return fresh_for_door(mem) or step


def spare_kit(mem: Memory, decision: Decision) -> Decision:
    """Open a door from the side away from a known medkit lying beside it, when not hurt much.

    Walking up to the door over the medkit spends it on a graze (a medkit is taken by
    walking over it whenever the player is at all hurt) that would not send the player
    to heal before a fight (supplies.FRESH), while it is the one within reach after the
    duel the door opens onto, when it turns the next duel round.

    Args:
        mem: The agent's memory.
        decision: The step chosen.

    Returns:
        A walk to a spot beside the door away from the medkit, or the decision.
    """
    health = mem.view["player"]["health"]
    if not _opens_door(mem, decision) or health < FRESH or health >= 1.0:
        return decision
    door = mem.doors.get(decision[1]["object_id"])
    present = still_there(mem)
    kits = [o for o in mem.objects.values() if o["kind"] == "medkit" and o["id"] in present
            and door is not None and o["area"] == mem.here
            and math.dist(o["position"], door["position"]) < KIT_BY_DOOR]
    if door is None or not kits:
        return decision
    kit = min(kits, key=lambda o: (math.dist(o["position"], door["position"]), o["id"]))
    dx, _, dz = door["position"]
    x, y, z = mem.position
    # Into the next room: from the player toward the door, snapped to the wall's axis.
    nx, nz = square_to_wall(dx - x, dz - z)
    side = 1.0 if (kit["position"][0] - dx) * -nz + (kit["position"][2] - dz) * nx > 0 else -1.0
    sx = dx - nx * STEP_BACK - side * -nz * STEP_ASIDE
    sz = dz - nz * STEP_BACK - side * nx * STEP_ASIDE
    if math.hypot(sx - x, sz - z) < STEP_ASIDE:
        return decision  # already there: the door is opened from here
    step: Decision = ("go_to", {"x": round(sx, 1), "z": round(sz, 1), "y": round(y, 1),
                                "fire_on_way": True},
                      f"leaving {kit['name']} {kit['id']} for after the fight behind "
                      f"{door['id']}: opening it from the other side")
    return decision if mem.failed(step, 2) else step


def square_to_wall(dx: float, dz: float) -> tuple[float, float]:
    """A unit bearing snapped to the nearest axis when within about 45 degrees of it.

    Walls mostly run along the axes: a bearing to or through a doorway is taken as square
    to the doorway's wall.
    """
    length = max(math.hypot(dx, dz), 1.0)
    ux, uz = dx / length, dz / length
    if abs(ux) >= SNAP:
        return (1.0 if ux > 0 else -1.0), 0.0
    if abs(uz) >= SNAP:
        return 0.0, (1.0 if uz > 0 else -1.0)
    return ux, uz


def _opens_door(mem: Memory, step: Decision) -> bool:
    # A press on a door or on a panel: what lies behind it meets the player next.
    thing = step[1].get("object_id", "") if step[0] == "go_to_object" else ""
    row = mem.objects.get(thing)
    return thing in mem.doors or (row is not None and row["kind"] == "panel")


def fresh_for_door(mem: Memory) -> Decision | None:
    """A walk to a known medkit nearby before opening a door while hurt with gunmen about.

    A door opened onto a guard starts a duel at his range, and a second one nearby,
    woken by the shots, starts the next before any medkit can be reached: the health
    lost in the first decides the second. Not when an alarm must not sound (the walk
    back crosses guarded ground for nothing) nor with a gunman already after the player.
    """
    if mem.view["player"]["health"] >= FRESH:
        return None
    rows = [r for r in mem.view["characters"] if hostile(r) and r["armed"] is not False
            and r["id"] not in mem.downed and r["distance"] < GUARD_NEAR]
    if not rows or any(r["seen"] == "now" and r["alertness"] in AWARE for r in rows):
        return None
    present = still_there(mem)
    # Only kits on this storey: one just above or below is near in a straight line but a
    # long walk round by the stairs, and the gunmen that prompted the detour drop out of
    # range on the way, so the next turn walks back to the door, and so on for ever.
    kits = [o for o in mem.objects.values() if o["kind"] == "medkit" and o["id"] in present
            and mem.distance(o["position"]) < KIT_DETOUR
            and abs(o["position"][1] - mem.position[1]) < STOREY_GAP]
    return walk_to_nearest(mem, kits, lambda kit: "healing before opening the way with "
                           f"gunmen about: {kit['name']} {kit['id']}")


def _open_way(mem: Memory) -> Decision | None:
    door_id = mem.blocking_door
    if door_id is None:
        return None
    opener = mem.openers.get(door_id)
    keypad = mem.objects.get(opener or "")
    if keypad is not None and keypad["kind"] == "keypad":
        # No code read yet: explore for the note that holds it.
        return key_in(mem, keypad["id"], f"for door {door_id}") or explore(mem)
    if opener is not None and not mem.holds(opener) and opener not in mem.view["player"]["keys"]:
        step = use_thing(mem, opener, f"{opener} opens {door_id}", _last_target(mem))
        if step is not None:
            return step
    door = mem.doors.get(door_id)
    if door is None:
        # Known (the briefing's floor plan) but not in view: go and look at it.
        look: Decision = ("go_to_object", {"object_id": door_id},
                          f"going to look at door {door_id}")
        return look if not mem.failed(look, 1) else None
    local = _panel_here(mem, door_id)
    if local is not None:
        return local
    if (door.get("has_panel") and not door["panel"]) or (
            door.get("needs_key") and not door["key"] and door["state"] == "locked"):
        # What opens it has not been seen: look around the door first (a panel is
        # usually beside it), then explore.
        # Once: failures are forgotten whenever a new area is visited, and a walk back to
        # the door after each room explored spends the episode on the way there.
        if mem.distance(door["position"]) < LOOKED_ROUND:
            mem.looked_round.add(door_id)
        look = ("go_to_object", {"object_id": door_id},
                f"looking around door {door_id} for what opens it")
        if door_id in mem.looked_round or mem.failed(look, 1):
            # Rooms on the door's storey first: going round other storeys (each stair
            # climb a long walk, each storey its own guards) finds the key last.
            return explore(mem, _storey_of(mem, door))
        return look
    if door["state"] == "closed":
        return use_thing(mem, door["id"], f"opening door {door['id']}")
    if door["key"]:
        if door["key"] in mem.view["player"]["keys"] or mem.holds(door["key"]):
            return use_thing(mem, door["id"], f"unlocking door {door['id']} with its key")
        key = mem.objects.get(door["key"])
        if key is not None:
            return use_thing(mem, key["id"], f"fetching key {key['id']} for door {door['id']}")
        if door["key_area"]:
            return enter_area(mem, door["key_area"], None,
                              f"the key for {door['id']} is in {door['key_area']}")
    if door["panel"]:
        keypad = mem.objects.get(door["panel"])
        if keypad is not None and keypad["kind"] == "keypad":
            # No code read yet: explore for the note that holds it.
            return key_in(mem, keypad["id"], f"for door {door['id']}") or explore(mem)
        return use_thing(mem, door["panel"], f"pressing panel {door['panel']} for {door['id']}")
    return None


def _storey_of(mem: Memory, door: dict[str, Any]) -> str | None:
    # The storey of a visited area on either side of the door.
    notes = [mem.areas[a] for a in door["between"] if a in mem.areas]
    return notes[0].storey if notes else None


def _panel_here(mem: Memory, door_id: str) -> Decision | None:
    # A door with no handle that shuts behind the player is often worked by a second
    # panel on this side: a panel in the room is tried once before the named one.
    door = mem.doors[door_id]
    if not door["panel"] or mem.here not in door["between"]:
        return None
    rows = [o for o in mem.objects.values() if o["kind"] == "panel" and o["area"] == mem.here
            and o["id"] != door["panel"]]
    for row in sorted(rows, key=lambda r: (mem.distance(r["position"]), r["id"])):
        key = ("panel_here", f"{door_id}:{row['id']}")
        if mem.failures[key] == 0:
            mem.failures[key] = 1
            return ("go_to_object", {"object_id": row["id"]},
                    f"pressing panel {row['id']} on this side of {door_id}")
    return None


def _last_target(mem: Memory) -> tuple[float, ...] | None:
    # Where the walk that met the closed door was heading: the door's opener is
    # usually on the way there.
    done = mem.last_decision
    if done is None:
        return None
    args = done[1]
    row = mem.objects.get(args.get("object_id", "")) or mem.doors.get(args.get("object_id", ""))
    if row is not None:
        return tuple(row["position"])
    if "x" in args:
        return (args["x"], args.get("y", mem.position[1]), args["z"])
    return None
