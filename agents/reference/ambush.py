"""The first shot of a duel: let the rival walk into the player's sights, then make it sure.

Pistols at the same range trade hit for hit, so a duel is won by the side that fires
first and steadier: a standing shooter against a walking target (a walker's aim and a
walker's outline both spread the shots). Two players who walk out of their rooms at once
meet in the open on even terms. At the start, with no rival in sight, the player steps
beside its room's way out, out of the line through the doorway, and holds there for a
moment, looking out every few tenths of a second: a rival that rushes for the exit is
caught walking across the open by a player who steps out after it and shoots first from
a stand, and one that comes to the doorway is met standing. The hold is short, so a
rival racing for the exit is still in reach when the player steps out.

A rival in sight that is not shooting yet is walked toward, a short leg at a time,
until the first shot is sure to hit (at long range a pistol misses a walker one time in
three, and a miss draws the rival's fire with nothing gained): the shots then trade at a
range where neither side misses, and the side that fired first wins the trade.
A shot fired in the tick after a walk is a walking shooter's (twice the spread): after a
walk, the player stands still for a moment before the first shot.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.doors import square_to_wall
from agents.reference.memory import Decision, Memory

OPENING_S = 1.2  # game seconds the player holds in its start room before walking out
LOOK_S = 0.3  # one look while holding: a rival that shows up is answered this soon
BACK = 100.0  # the holding spot: this far back from the way out into the room
ALONG = 150.0  # and this far along the doorway's wall, out of the line through it
THERE = 40.0  # this near the spot, the player holds where it stands
SPOT_REACH = 300.0  # a holding spot farther than this from the player is not walked to
# A rival seen farther than this at the start is hidden from, not fought: at that range
# a pistol misses about half its shots, standing or not, and the trade is a coin toss.
LONG_SHOT = 1200.0
SURE = 520.0  # a pistol from a stand hits a walking target every time within this range
CLOSE_LEG = 0.3  # game seconds of one step toward a rival not yet shooting
CLOSE_LEGS = 4  # steps toward one rival before shooting anyway
CLOSE_FROM = 800.0  # a rival farther than this is not walked toward: a second under its gun
EXIT_NEAR = 400.0  # a rival this near the exit next door is shot at once
STEADY_S = 0.13  # a walker takes about 4 ticks to come to rest: then it shoots standing
POINT_BLANK = 320.0  # within this range even a walker hits a walker every time
WALKS = ("go_to", "go_to_area", "go_to_object")  # actions that walk the player


def lie_in_wait(mem: Memory, rivals_in_sight: list[dict[str, Any]]) -> Decision | None:
    """At a match's start, a step beside the way out and a short look, or None.

    Only while the player has not left its start room, for the first `OPENING_S` game
    seconds, with no armed rival in sight within `LONG_SHOT` (a nearer one is fought), no
    objective listed in the view, and a way out known.
    """
    near = [r for r in rivals_in_sight if r["distance"] < LONG_SHOT]
    if near or mem.time_s >= OPENING_S or len(mem.visited) != 1:
        return None
    if mem.view["objectives"]:
        return None  # an objective to play (a zone, flags): the hold would cost its race
    ways = (mem.view["area"] or {}).get("ways_out", [])
    if not ways:
        return None
    way = min(ways, key=lambda w: (w["distance"], w["id"]))
    # Found once, from where the player starts: seen from the spot, the doorway's wall
    # would be guessed anew.
    spot = mem.opening_spot = mem.opening_spot or beside(mem.position, way["position"])
    x, _, z = mem.position
    away = math.hypot(spot[0] - x, spot[2] - z)
    if away > SPOT_REACH:
        return None  # a big room: the walk there and back would cost the race
    if away > THERE:
        step: Decision = ("go_to", {"x": round(spot[0], 1), "z": round(spot[2], 1),
                                    "y": round(spot[1], 1)},
                          f"opening: stepping beside way {way['id']}, out of its line")
        if not mem.failed(step, 3):  # a walk cut short by a hit is tried again
            return step
    left = OPENING_S - mem.time_s
    return ("wait", {"seconds": round(min(LOOK_S, max(left, 0.1)), 2)},
            "opening: holding out of sight for a rival to walk into view")


def beside(player: tuple[float, ...] | list[float],
           way: list[float]) -> tuple[float, float, float]:
    """A spot in the player's room a step back from the way out and along its wall.

    Someone beyond the doorway sees into the room only through it: a spot off its line,
    on the side of the doorway the player stands toward (toward the room's middle),
    is seen only from close to the doorway.
    """
    wx, wy, wz = way
    nx, nz = square_to_wall(wx - player[0], wz - player[2])
    lateral = (player[0] - wx) * -nz + (player[2] - wz) * nx
    side = 1.0 if lateral >= 0 else -1.0
    return (wx - nx * BACK + side * -nz * ALONG, wy, wz - nz * BACK + side * nx * ALONG)


def close_in(mem: Memory, rival: dict[str, Any],
             exit_way: dict[str, Any] | None) -> Decision | None:
    """A short step toward a rival in sight that is not shooting yet, or None to shoot.

    Only before the first shot (the last decision was no attack and the player was not
    hurt by its last action), while the rival stands between `SURE` and `CLOSE_FROM` and
    is not about to
    walk out through the exit next door, a few legs at most per rival.
    """
    key = ("close in", rival["id"])
    done = mem.last_decision
    if _hurt(mem) or (done is not None and done[0] == "attack"):
        mem.failures[key] = CLOSE_LEGS  # the shooting has begun: no more walking into it
    if not SURE < rival["distance"] <= CLOSE_FROM or mem.failures[key] >= CLOSE_LEGS:
        return None
    if exit_way is not None and math.hypot(rival["position"][0] - exit_way["position"][0],
                                           rival["position"][2] - exit_way["position"][2]) \
            < EXIT_NEAR:
        return None
    mem.failures[key] += 1
    x, y, z = rival["position"]
    return ("go_to", {"x": round(x, 1), "z": round(z, 1), "y": round(y, 1),
                      "time_limit_s": CLOSE_LEG},
            f"closing on rival {rival['id']} ({rival['distance']:.0f} away) for a sure shot")


def _hurt(mem: Memory) -> bool:
    # The last action cost health: someone is shooting at the player.
    last = mem.last
    return last is not None and (last["end_reason"] == "damage" or any(
        c.startswith("you lost") for c in last.get("changes", [])))


def steady(mem: Memory, rival: dict[str, Any]) -> Decision | None:
    """A moment's stand after a walk, before the first shot at a rival beyond point blank."""
    done, last = mem.last_decision, mem.last
    if done is None or last is None or done[0] not in WALKS or last["distance_moved"] < 1.0 \
            or rival["distance"] <= POINT_BLANK:
        return None
    return ("wait", {"seconds": STEADY_S}, f"steadying the aim on rival {rival['id']}")
