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

from agents.reference.backs import asleep, unseen_walk
from agents.reference.cover import tethered
from agents.reference.fight import CLOSE_RANGE, FIRST_SHOT, attack
from agents.reference.guns import sure_range
from agents.reference.memory import Decision, Memory
from agents.reference.moves import NEAR, walk_to
from agents.reference.reloads import reload_first
from agents.reference.supplies import (
    FRESH,
    armed,
    fresh_first,
    gun_in_hand,
    hostile,
    weapon_against,
)

WALKS = frozenset({"go_to", "go_to_object", "go_to_area", "use_item_on"})
# Alertness shown of one seen not to be after the player ("unknown", as a rival player's
# shows, says nothing: he may be aiming already).
UNAWARE = frozenset({"unaware", "suspicious"})
WHOLE_WALK_S = 45.0  # the longest an action runs: a walk to a medkit in one go
SURE_TIMES = 2.0  # how many of the gun's sure ranges off a first shot is still taken
RECENT_S = 20.0  # a gunman seen unaware this recently is likely still about there
TICKS_PER_S = 30  # the protocol's game ticks per second


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
    # Beyond twice the range where the gun in hand lands nearly every shot, the duel is
    # a long one the walk's end would not have started: the walk goes on.
    reach = min(FIRST_SHOT, SURE_TIMES * sure_range(gun_in_hand(mem)))
    rows = [r for r in mem.view["characters"] if _shot_first(mem, r, end, reach)]
    if not rows:
        return _back_into_sight(mem, end) or decision
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


def _unaware_gunman(row: dict[str, Any]) -> bool:
    return hostile(row) and row["armed"] is True and row["alertness"] in UNAWARE


def _shot_first(mem: Memory, row: dict[str, Any], end: tuple[float, ...],
                reach: float) -> bool:
    # Whether a gunman in sight, unaware and within reach, is shot before the walk to end.
    if row["seen"] != "now" or not _unaware_gunman(row) or row["distance"] > reach:
        return False
    far = row["distance"] >= CLOSE_RANGE
    if not asleep(mem, row):
        return far and _beside(row, end)
    # A posted guard with his back to the player is walked past while the walk stays out
    # of his view. One the walk would pass in front of is shot first: beside its end, or
    # anywhere nearer than close range (he is no threat yet, so fight.py left him alone).
    return not unseen_walk(row, mem.position, end) and (not far or _beside(row, end))


def _beside(row: dict[str, Any], end: tuple[float, ...]) -> bool:
    # Whether a character stands within close range of where a walk ends.
    return math.hypot(row["position"][0] - end[0], row["position"][2] - end[2]) < CLOSE_RANGE \
        and abs(row["position"][1] - end[1]) < CLOSE_RANGE


def _back_into_sight(mem: Memory, end: tuple[float, ...]) -> Decision | None:
    # A gunman seen unaware a little while ago, out of sight now, where the walk ends:
    # the walk would meet him up close all the same. The player goes back to where it
    # saw him from, to shoot first from there (once he is in sight again, the shot above).
    for row in sorted(mem.view["characters"], key=lambda r: (r["distance"], r["id"])):
        seen = row.get("seen_tick")
        spot, alertness = mem.sighted_from.get(row["id"], (None, "unknown"))
        if row["seen"] == "now" or seen is None or spot is None \
                or not _unaware_gunman({**row, "alertness": alertness}) \
                or mem.time_s - seen / TICKS_PER_S > RECENT_S or not _beside(row, end) \
                or mem.distance(row["position"]) < CLOSE_RANGE or mem.distance(spot) < NEAR:
            continue
        step = walk_to(mem, spot, f"back to where {row['kind']} {row['id']} was seen unaware, "
                       "to shoot first from there")
        # Holding fire on the way: shots fired walking mostly miss and wake him, and
        # the first shot is to be fired standing, from the spot.
        return None if step is None else (step[0], {**step[1], "fire_on_way": False}, step[2])
    return None
