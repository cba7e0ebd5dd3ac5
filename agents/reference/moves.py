"""Getting places: walking to points and areas, and exploring the unknown.

Walks always press use on doors met and fire at hostiles seen, so one decision carries
the player as far as the floor allows; when a door stops the walk, `doors.open_way`
works out what opens it.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.memory import Decision, Memory

NEAR = 150.0  # close enough to a point to count as there
USE_REACH = 100.0  # a little inside the world's reach, so one press on a person always lands
ARRIVED = 40.0  # a walk to a point this near would not move the player
PAST = 160.0  # how far beyond a doorway to aim, so the walk ends inside the next area
PAST_TRIES = 3  # walks past one way out, while nothing new is visited
SCOUT_TRIES = 3  # scouting steps toward one way out, while nothing new is visited
SCOUT_FROM = 700.0  # a target farther than this is approached one unseen area at a time
SCOUT_AIM = 0.9  # how well a way out must point at the target (cosine) to be scouted
STOREY_GAP = 150.0  # a target higher or lower than this stands on another storey
HURT = 0.35  # below this health, no detours to look into new rooms
# Kinds whose conduct asks the agent to fight only those already after it.
STEALTHY = frozenset({"stay_unseen", "no_alarm"})
UPSTAIRS_AIM = 0.5  # while unseen, how well a new area must point at a target upstairs
STOREY_LEG = 6.0  # game seconds per walk toward another storey, to look around between
BACK_OFF = 120.0  # how far short of a way out into an unexplored area a walk to it stops


def walk_to(mem: Memory, point: list[float] | tuple[float, ...], why: str) -> Decision | None:
    """Walk to a point, opening doors and firing on the way; None if that keeps failing.

    A far target is approached one unseen area at a time (see `scout`).
    """
    return scout(mem, point, why) or _walk(mem, point, why)


def upstairs_leg(mem: Memory, decision: Decision) -> Decision:
    """Turn an errand on another storey into short legs toward it, gun in hand.

    Walking to an object or using a gadget on it crosses storeys in one go, with the
    gadget drawn (so no return fire) and the landings passed unseen; a walk in legs
    with the gun ready sees each landing, and the errand itself runs on its storey.

    Args:
        mem: The memory.
        decision: The decision chosen.

    Returns:
        The decision, or a leg of a walk toward its object.
    """
    if decision[0] not in ("go_to_object", "use_item_on") or "time_limit_s" in decision[1]:
        return decision
    row = mem.objects.get(decision[1]["object_id"]) or mem.doors.get(decision[1]["object_id"])
    if row is None or abs(row["position"][1] - mem.position[1]) < STOREY_GAP:
        return decision
    step = climb(mem, row["position"], decision[2])
    if step is None and decision[0] == "use_item_on":
        step = walk_to(mem, row["position"], decision[2])
    if step is None:
        step = ("go_to_object", {"object_id": decision[1]["object_id"],
                                 "time_limit_s": STOREY_LEG}, decision[2])
    return step


def climb(mem: Memory, point: list[float] | tuple[float, ...], why: str) -> Decision | None:
    """Take a flight of stairs never taken before when the target is on another storey.

    A walk that crosses storeys in one go passes the head of each flight without a look:
    a medkit or a camera there goes unseen. Stopping just past the top of each new
    flight lets the next decision see what waits there.
    """
    area = mem.view["area"]
    if area is None or abs(point[1] - mem.position[1]) < STOREY_GAP:
        return None
    for way in sorted(area["ways_out"], key=lambda w: (w["distance"], w["id"])):
        if way["via"] == "stairs" and not way["visited"]:
            decision: Decision = ("go_to_area", {"exit_id": way["id"]},
                                  f"{why} (taking the stairs to {way['to_name']} first)")
            if not mem.failed(decision, 2):
                return decision
    return None


def _walk(mem: Memory, point: list[float] | tuple[float, ...], why: str) -> Decision | None:
    args: dict[str, Any] = {"x": round(point[0], 1), "z": round(point[2], 1),
                            "y": round(point[1], 1), "use_on_way": True, "fire_on_way": True}
    if abs(point[1] - mem.position[1]) >= STOREY_GAP:
        # The view notes what the player sees only between decisions: a long climb in
        # one walk would pass the medkits and cameras of every landing unseen.
        args["time_limit_s"] = STOREY_LEG
    decision: Decision = ("go_to", args, why)
    return None if mem.failed(decision) else decision


def use_thing(mem: Memory, thing_id: str, why: str,
              toward: list[float] | tuple[float, ...] | None = None) -> Decision | None:
    """Walk up to an object or door and press use; None if that keeps failing.

    Args:
        mem: The memory.
        thing_id: The object or door.
        why: The note for the decision.
        toward: Where the thing probably lies when it has not been seen yet, to scout.
    """
    row = mem.objects.get(thing_id) or mem.doors.get(thing_id)
    point = row["position"] if row is not None else toward
    # A thing in the room the player stands in is walked to directly: scouting would
    # step through a doorway that merely points the same way, into a room not needed.
    here = row is not None and mem.here is not None and row.get("area") == mem.here
    step = scout(mem, point, why) if point is not None and not here else None
    if step is not None:
        return step
    args: dict[str, Any] = {"object_id": thing_id}
    if row is None and point is not None and abs(point[1] - mem.position[1]) >= STOREY_GAP:
        # Not seen yet and probably on another storey: walk in legs to look around.
        args["time_limit_s"] = STOREY_LEG
    decision: Decision = ("go_to_object", args, why)
    return None if mem.failed(decision) else decision


def enter_area(mem: Memory, area_id: str, point: list[float] | None, why: str) -> Decision | None:
    """Head into an area: through a way out when it is next door, else to a known spot."""
    if mem.here == area_id:
        return None
    way = next((w for w in mem.view["area"]["ways_out"] if w["to"] == area_id), None) \
        if mem.view["area"] else None
    if way is not None:
        decision = through(mem, way, why)
        if decision is not None:
            return decision
    if point is None:
        point = _spot_of(mem, area_id)
    return walk_to(mem, point, why) if point is not None else None


def _spot_of(mem: Memory, area_id: str) -> tuple[float, ...] | None:
    note = mem.areas.get(area_id)
    if note is not None and note.spot is not None:
        return note.spot
    for other in mem.areas.values():
        for way in other.ways.values():
            if way["to"] == area_id:
                return tuple(_this_side(way["position"], other.spot))
    return None


def through(mem: Memory, way: dict[str, Any], why: str) -> Decision | None:
    """Pass a way out of the current area: straight through, or opening its door on the way."""
    door = mem.doors.get(way["door"] or "")
    if (door is None and way["door"] is None) or (
            door is not None and door["state"] in ("open", "opening", "broken")):
        decision: Decision = ("go_to_area", {"exit_id": way["id"]}, why)
        if not mem.failed(decision, 2):
            return decision
    if way["door"] is not None and not way["visited"]:
        # A shut door into a room never seen: open it first (walks keep to known floor,
        # and an open door shows the room beyond), then go through.
        opening: Decision = ("go_to_object", {"object_id": way["door"]}, f"{why}: opening "
                             f"{way['door']}")
        if not mem.failed(opening, 2):
            return opening
    # A door in the way: walk to a point just past it, pressing use as it is met. A walk
    # that arrives without entering (the point lies over a ledge, under another floor)
    # is tried a few times only: its point moves with the player, so each one "arrives".
    tried = ("past", way["id"])
    if mem.failures[tried] >= PAST_TRIES:
        return None
    mem.failures[tried] += 1
    x, _, z = mem.position
    wx, wy, wz = way["position"]
    length = max(math.hypot(wx - x, wz - z), 1.0)
    beyond = (wx + (wx - x) / length * PAST, wy, wz + (wz - z) / length * PAST)
    return _walk(mem, beyond, why)


def scout(mem: Memory, point: list[float] | tuple[float, ...], why: str) -> Decision | None:
    """Step into the unseen area that lies toward a far target, and stop just inside.

    One long walk through rooms never seen runs past whatever they hold (a camera
    watching the corridor, a guard at the far end) before the agent can look; stopping
    inside each new area on the way lets the next decision see it first. A target on
    another storey is approached one new flight of stairs at a time (see `climb`).
    """
    area = mem.view["area"]
    if area is None:
        return None
    step = climb(mem, point, why)
    if step is not None:
        return step
    x, y, z = mem.position
    tx, tz = point[0] - x, point[2] - z
    far = math.hypot(tx, tz)
    other_storey = abs(point[1] - y) >= STOREY_GAP
    if other_storey and stealthy(mem):
        # Unseen, a camera beyond the next doorway would watch the whole walk to the
        # stairs: step into each new area that lies roughly the right way and look
        # (only the best-aimed one, so side rooms are left alone).
        aim_at, far = UPSTAIRS_AIM, max(far, 1.0)
    elif other_storey:
        # Otherwise a target upstairs or downstairs is reached by the stairs, not
        # through the rooms that happen to lie toward it on this storey.
        return None
    elif far < SCOUT_FROM or mem.view["player"]["health"] < HURT:
        # Hurt, the player heads straight for what it knows (a medkit) rather than
        # looking into new rooms on the way, where a fresh guard may wait.
        return None
    else:
        aim_at = SCOUT_AIM
    best: tuple[float, dict[str, Any]] | None = None
    for way in area["ways_out"]:
        if way["visited"] or way["one_way"] or way["other_storey"]:
            continue
        if other_storey and _shut(mem, way):
            # On the way to the stairs while unseen, a room behind a shut door is a side
            # room more often than the way on, and opening it wakes whoever waits inside
            # for a fight nothing asked for: the walk goes on and looks from the open ways.
            continue
        wx, wz = way["position"][0] - x, way["position"][2] - z
        near = math.hypot(wx, wz)
        aim = (wx * tx + wz * tz) / (max(near, 1.0) * far)
        if (near < far or other_storey) and aim >= aim_at and (best is None or aim > best[0]):
            best = (aim, way)
    if best is None:
        return None
    # A few times only while nothing new is visited: a walk in legs toward a way out can
    # end past the target, from where the way points elsewhere and the next leg heads
    # back for the target, from where the way points right again, for ever.
    tried = ("scout", best[1]["id"])
    if mem.failures[tried] >= SCOUT_TRIES:
        return None
    mem.failures[tried] += 1
    return through(mem, best[1], f"{why} (looking into {best[1]['to_name']} first)")


def _shut(mem: Memory, way: dict[str, Any]) -> bool:
    door = mem.doors.get(way["door"] or "")
    return door is not None and door["state"] not in ("open", "opening", "broken")


def stealthy(mem: Memory) -> bool:
    """Whether an alarm must not sound or the player must stay unseen (an objective open)."""
    return any(o["counts"] and o["status"] == "todo" and o["kind"] in STEALTHY
               for o in mem.view["objectives"])


def explore(mem: Memory, storey: str | None = None) -> Decision | None:
    """Go through the nearest way out that leads somewhere not yet visited.

    With `storey`, the ways out of that storey's areas come first (the hunt for a key,
    which usually lies on the storey of its door).
    """
    area = mem.view["area"]
    shut = exit_while_open(mem)
    given_up: set[str] = set()
    if area is not None and storey in (None, area["storey"]):
        fresh = sorted((w for w in area["ways_out"] if not w["visited"] and w["to"] != shut
                        and not locked_for_me(mem, w)),
                       key=lambda w: (w["one_way"], w["distance"]))
        for way in fresh:
            decision = through(mem, way, f"exploring {way['to_name']} ({way['to']})")
            if decision is not None:
                return decision
            given_up.add(way["id"])
            # Remembered beyond this area: a walk back here from elsewhere to a way
            # given up would find it given up again, and walk off to the next such way
            # and back, for ever (until a new area is visited, which clears failures).
            mem.failures[("explore_through", way["id"])] += 1
    frontier = []
    for note in mem.areas.values():
        for way in note.ways.values():
            # A way out of this very area that every try to pass has failed is no place to
            # walk to: standing beside it, the next turn would walk to another such way
            # and back, for ever.
            if way["to"] not in mem.visited and not way["one_way"] and way["to"] != shut \
                    and not locked_for_me(mem, way) and way["id"] not in given_up \
                    and not mem.failures[("explore_through", way["id"])]:
                frontier.append((storey not in (None, note.storey), mem.distance(way["position"]),
                                 way, note.spot))
    for _, _, way, spot in sorted(frontier, key=lambda f: (f[0], f[1], f[2]["id"])):
        # Walks keep to known floor: stop on this side of the way out, from where the
        # next turn goes through it.
        point = _this_side(way["position"], spot)
        if mem.distance(point) < ARRIVED:
            continue  # standing there already: going through it was tried from here
        decision = walk_to(mem, point, f"heading for unexplored {way['to_name']}")
        if decision is not None:
            return decision
    return None


def clear_next_door(mem: Memory, skip: set[str | None], why: str) -> Decision | None:
    """Look into an unexplored room beside this one (not those in `skip`), or None.

    Shots carry: a guard in an unexplored room next door joins a fight started from
    here, from behind, so the rooms beside the player are looked into before it starts.
    """
    area = mem.view["area"]
    if area is None:
        return None
    shut = exit_while_open(mem)
    for way in sorted(area["ways_out"], key=lambda w: (w["distance"], w["id"])):
        if way["visited"] or way["one_way"] or way["other_storey"] or way["to"] in skip \
                or way["to"] == shut or locked_for_me(mem, way):
            continue
        step = through(mem, way, f"looking into {way['to_name']} {why}")
        if step is not None:
            return step
    return None


def locked_for_me(mem: Memory, way: dict[str, Any]) -> bool:
    # A locked door whose key has not been seen is no way to explore by: its key (or
    # its other side) is found elsewhere first.
    door = mem.doors.get(way["door"] or "")
    if door is None or door["state"] != "locked" or not door.get("needs_key"):
        return False  # a lock with no key opens from one side: worth a try
    key = door["key"]  # named once seen: then it can be fetched
    return not (key and (key in mem.view["player"]["keys"] or mem.holds(key)
                         or key in mem.objects))


def _this_side(point: list[float], spot: tuple[float, ...] | None) -> list[float]:
    # A point BACK_OFF units from a way out towards where the player stood in its area.
    if spot is None or abs(spot[1] - point[1]) >= STOREY_GAP:
        return point
    dx, dz = spot[0] - point[0], spot[2] - point[2]
    d = math.hypot(dx, dz)
    if d <= BACK_OFF:
        return list(spot)
    return [point[0] + dx / d * BACK_OFF, point[1], point[2] + dz / d * BACK_OFF]


def exit_while_open(mem: Memory) -> str | None:
    """The exit area while entering it would end the mission with objectives open."""
    exit_row = mem.view["exit"]
    if exit_row is None:
        return None
    if mem.searching:
        return exit_row["area"]  # looking for words still unread (clues.search_before_exit)
    # Only reaching the exit itself may be left: anything else still to do keeps it shut.
    if any(o["counts"] and o["status"] == "todo" and o["area"] != exit_row["area"]
           and o["kind"] not in ("protect", "stay_unseen", "no_alarm")
           for o in mem.view["objectives"]):
        return exit_row["area"]
    return None


def wander(mem: Memory) -> Decision | None:
    """Walk to the least recently stood-in remembered area (a roam when nothing is left)."""
    spots = [(n.spot, aid) for aid, n in sorted(mem.areas.items())
             if n.spot is not None and aid != mem.here]
    if not spots:
        return None
    spot, aid = spots[(mem.turn // 2) % len(spots)]
    return walk_to(mem, spot, f"roaming towards {aid}")


LOOK_LEG = 320.0  # how far a look across the current area walks


def look_around(mem: Memory) -> Decision | None:
    """Walk a leg across the current area when nothing else is left, a heading at a time.

    A level that is one large area (a maze drawn as one room) has no way out to explore
    and no other area to roam to; its far parts are seen only by walking there. The
    eight headings are tried in turn from one that moves on with each decision, each
    given up after it fails once (a point in a wall or beyond reach).
    """
    x, y, z = mem.position
    for k in range(8):
        heading = math.radians(45.0 * ((mem.turn + k) % 8))
        point = (x + LOOK_LEG * math.cos(heading), y, z + LOOK_LEG * math.sin(heading))
        decision: Decision = ("go_to", {"x": round(point[0], 1), "z": round(point[2], 1),
                                        "y": round(y, 1), "use_on_way": True,
                                        "fire_on_way": True},
                              "looking around the far parts of this area")
        if not mem.failed(decision, 1):
            return decision
    return None


def hop(mem: Memory, point: list[float], seconds: float, why: str) -> Decision | None:
    """A walk of at most `seconds` game seconds toward a point (a look around after it)."""
    decision = walk_to(mem, point, why)
    if decision is None:
        return None
    decision[1]["time_limit_s"] = seconds
    return decision
