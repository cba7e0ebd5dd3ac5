"""Waylaying: waiting for those an intercept names just outside the room they walk to.

An intercept is lost the moment one of its characters sets foot in the room it heads
for (the view's `heading_to`), so a player who got there first and waits inside meets
him only once it is too late. Once that room has been seen from inside (its ways out are
known), the player steps back out through the way in nearest to where the characters
were last seen, or else nearest to itself, and waits a few steps beyond it, facing the
way they come: they walk into its fire before they reach the doorway.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.doors import square_to_wall
from agents.reference.memory import Decision, Memory

STEP_OUT = 250.0  # how far beyond the doorway, away from the room, the player waits
THERE = 120.0  # this near the spot counts as standing on it
LOOK_S = 1.0  # one wait there: each ends in a fresh look
LOOKS = 12  # waits there before giving up on them coming this way


def waylay(mem: Memory, heading: dict[str, Any], last_seen: list[list[float]],
           why: str) -> Decision | None:
    """A walk to, or a wait at, a spot just outside the room the characters head for.

    Args:
        mem: The agent's memory.
        heading: The objective's `heading_to` (the room's id, name and middle).
        last_seen: Where the characters were last seen (empty when never seen).
        why: The decision's note.

    Returns:
        The walk or the wait; None while the room's ways out are not known (it has not
        been entered yet) or none leads to a room on the same storey.
    """
    note = mem.areas.get(heading["area"])
    if note is None:
        return None
    ways = [w for w in note.ways.values() if not w["other_storey"]]
    if not ways:
        return None

    def nearness(way: dict[str, Any]) -> tuple[float, str]:
        points = last_seen or [list(mem.position)]
        return (min(math.hypot(way["position"][0] - p[0], way["position"][2] - p[2])
                    for p in points), way["id"])

    way = min(ways, key=nearness)
    wx, wy, wz = way["position"]
    mx, _, mz = heading["position"]
    nx, nz = square_to_wall(wx - mx, wz - mz)  # from the room out through its doorway
    spot = (round(wx + nx * STEP_OUT, 1), wy, round(wz + nz * STEP_OUT, 1))
    x, _, z = mem.position
    if math.hypot(spot[0] - x, spot[2] - z) <= THERE and mem.here != heading["area"]:
        # A dozen looks at most: one who does not come has turned aside (shot at on the
        # way, he may be hunting the player instead), and the decisions are counted.
        waited = ("waylay", heading["area"])
        if mem.failures[waited] >= LOOKS:
            return None
        mem.failures[waited] += 1
        return ("wait", {"seconds": LOOK_S}, f"{why}: waiting outside {heading['name']} by "
                f"way {way['id']}")
    decision: Decision = ("go_to", {"x": spot[0], "z": spot[2], "y": round(wy, 1),
                                    "use_on_way": True, "fire_on_way": True},
                          f"{why}: waylaying outside {heading['name']}")
    return None if mem.failed(decision) else decision
