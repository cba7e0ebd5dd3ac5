"""Posted guards with their backs turned: walked past while hurt, not woken.

On hard a duel with a pistol guard costs the player about a fifth of its health and
armour even when the first shot is its own, and a level holds up to six guards with one
medkit a storey (or stage). A guard holding his post faces where his post says and never turns on
his own, so while the player is hurt, one whose back is to it is left alone (fight.py
does not count him a threat) as long as the walk stays out of his view cone (firstshot.py
shoots first at one the walk would pass in front of). Patrols are not trusted: their
facing turns as they walk. With healing earlier (supplies.CALM_MARK,
brain.TOP_UP_HEALTH) it won 17 more of 1,600 hard errands and expeditions than the agent
before it, over eight paired sets: a small gain (docs/agents.md).
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.memory import Memory
from agents.reference.supplies import hostile

AVOID_BELOW = 0.7  # health+armour under which a posted guard's back is walked past
SNEAK_NEAR = 200.0  # nearer than this a guard is taken to notice whatever his facing
CONE_SLACK_DEG = 20.0  # margin on a guard's view cone for a walk past his back
POST_MOVE = 40.0  # an unaware guard seen this far from where first seen walks a patrol
WALK_STEPS = 16  # points tested along a straight walk past a guard


def out_of_view(row: dict[str, Any], point: tuple[float, ...] | list[float]) -> bool:
    """Whether a point lies outside a character's view cone (with some slack) or range.

    Only for a character whose facing and view are shown; a point a few steps from him
    counts as seen whatever his facing (he senses who brushes past).
    """
    facing, angle, reach = row.get("facing_deg"), row.get("view_angle_deg"), row.get("view_range")
    if facing is None or angle is None or reach is None:
        return False
    px, _, pz = row["position"]
    dist = math.hypot(point[0] - px, point[2] - pz)
    if dist < SNEAK_NEAR:
        return False
    if dist > reach + SNEAK_NEAR:
        return True
    bearing = math.degrees(math.atan2(point[2] - pz, point[0] - px))
    off = abs((bearing - facing + 180.0) % 360.0 - 180.0)
    return off > angle / 2 + CONE_SLACK_DEG


def _walkers(mem: Memory) -> set[str]:
    # Ids of hostiles seen to move while unaware (patrols). Noted once a turn, from the
    # first turn asked: where each unaware one in sight stands is kept from its first
    # sighting then, and one found farther than POST_MOVE from it walks.
    if mem.posts_turn != mem.turn:
        mem.posts_turn = mem.turn
        for row in mem.view["characters"]:
            if row["seen"] != "now" or row["alertness"] != "unaware":
                continue
            x, _, z = row["position"]
            if math.dist(mem.posts.setdefault(row["id"], (x, z)), (x, z)) > POST_MOVE:
                mem.walkers.add(row["id"])
    return mem.walkers


def asleep(mem: Memory, row: dict[str, Any]) -> bool:
    """Whether an unaware gunman holding his post has his back to a hurt player.

    He is left alone: a fight started on purpose costs a hit or so, and he never turns
    round on his own (a posted guard faces where his post says). Patrols are not.
    """
    if row["alertness"] != "unaware" or not hostile(row):
        return False
    player = mem.view["player"]
    if player["health"] + player["armour"] >= AVOID_BELOW:
        return False
    if row["id"] in _walkers(mem):
        return False
    return out_of_view(row, mem.position)


def unseen_walk(row: dict[str, Any], start: tuple[float, ...] | list[float],
                end: tuple[float, ...] | list[float], steps: int = WALK_STEPS) -> bool:
    """Whether the straight way from start to end stays out of a character's view."""
    return all(out_of_view(row, (start[0] + (end[0] - start[0]) * k / steps, 0.0,
                                 start[2] + (end[2] - start[2]) * k / steps))
               for k in range(steps + 1))
