"""The first shot: a gunman not yet after the player is shot from afar, not walked up to.

A gunman in sight who has not noticed the player is left alone while the player passes
at a distance (a long shot wakes him, and often the room beside him). But a walk that
ends near him wakes him anyway, at a range where he and whoever stands with him hit as
often as the player does, and it is he who fires first while the player is still
walking. So when the walk chosen ends within close range of such a gunman in sight, the
player opens fire from where it stands instead: the first shots are its own, fired
standing at a man who stands still, and his companions come across the room into its
fire one by one.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.cover import tethered
from agents.reference.fight import CLOSE_RANGE, FIRST_SHOT, attack
from agents.reference.memory import Decision, Memory
from agents.reference.reloads import reload_first
from agents.reference.supplies import FRESH, armed, fresh_first, hostile, weapon_against

WALKS = frozenset({"go_to", "go_to_object", "go_to_area", "use_item_on"})
# Alertness shown of one seen not to be after the player ("unknown", as a rival player's
# shows, says nothing: he may be aiming already).
UNAWARE = frozenset({"unaware", "suspicious"})
WHOLE_WALK_S = 45.0  # the longest an action runs: a walk to a medkit in one go


def first_shot(mem: Memory, decision: Decision, stealth: bool) -> Decision:
    """The decision, or an attack from here on a gunman its walk would end beside.

    Args:
        mem: The agent's memory.
        decision: The decision the tactics chose.
        stealth: Whether the mission asks for quiet (then a walk is never turned into
            a fight: passing unseen is the point).

    Returns:
        The decision as chosen, a walk to a known medkit first when the player is
        hurt, or the attack (with the gun and reload the duel asks for).
    """
    if stealth or decision[0] not in WALKS or tethered(mem) or not armed(mem):
        return decision
    end = _destination(mem, decision)
    if end is None:
        return decision
    rows = [r for r in mem.view["characters"] if r["seen"] == "now" and hostile(r)
            and r["armed"] is True and r["alertness"] in UNAWARE
            and CLOSE_RANGE <= r["distance"] <= FIRST_SHOT
            and math.hypot(r["position"][0] - end[0], r["position"][2] - end[2]) < CLOSE_RANGE
            and abs(r["position"][1] - end[1]) < CLOSE_RANGE]
    for row in sorted(rows, key=lambda r: (r["distance"], r["id"])):
        step = _patch_up_once(mem, row)
        if step is not None:
            return step
        shot = attack(mem, row, f"shooting first at {row['kind']} {row['id']}, whom the "
                      "walk would wake up close")
        if shot is not None and shot[0] == "attack":
            return weapon_against(mem, row) or reload_first(mem, row) or shot
    return decision


def _destination(mem: Memory, decision: Decision) -> tuple[float, float, float] | None:
    # Where the walk ends, as far as the player knows.
    action, args = decision[0], decision[1]
    if action == "go_to":
        return (args["x"], args.get("y", mem.position[1]), args["z"])
    if action == "go_to_area":
        way: dict[str, Any] | None = next(
            (w for w in (mem.view["area"] or {}).get("ways_out", [])
             if w["id"] == args["exit_id"]), None)
        return tuple(way["position"]) if way is not None else None
    row = mem.objects.get(args.get("object_id", "")) or mem.doors.get(args.get("object_id", ""))
    return tuple(row["position"]) if row is not None else None


def _patch_up_once(mem: Memory, row: dict[str, Any]) -> Decision | None:
    # A hurt player fetches a known medkit before the fight it starts, in one walk (a
    # walk cut into legs ends out of the gunman's sight, and the errand would take over
    # again), and once per medkit: an errand that keeps coming back into his sight does
    # not swing the player between the two for the rest of its time.
    step = fresh_first(mem, FRESH, f"patching up before shooting first at {row['id']}")
    if step is None or step[0] != "go_to_object" or step[1]["object_id"] in mem.patched:
        return None
    mem.patched.add(step[1]["object_id"])
    return step[0], {**step[1], "time_limit_s": WHOLE_WALK_S}, step[2]
