"""Two guards at once, split: watch their room through a doorway's slice, shoot the one alone.

A duel is even at best (a guard fires as fast as the player and hits most shots), so two
gunmen fought at once win: the second one's shots land while the first goes down. Two
guards not yet aware of the player, seen together, are not fought from where they both
see the player. The player steps back from the doorway between them and itself, on the
line through it to the nearer one and far enough that the doorway's frame hides the
others: from there it sees only a slice of their room, and whoever stands in the slice
sees only it. It watches in short looks; once a single gunman is in sight it opens on him
(the first shot is the player's), and the other, who only heard the shots, comes looking
through the doorway later, alone and close, where the player's shots land first.
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.cover import retreat, tethered
from agents.reference.doors import square_to_wall
from agents.reference.memory import Decision, Memory
from agents.reference.reloads import RUN_SPEED
from agents.reference.supplies import AWARE, hostile, ready_weapon

CROWD_RANGE = 1500.0  # armed hostiles nearer than this count toward a crowd
WAY_REACH = 450.0  # the doorway stepped back beside lies no farther than this
BACKS = (250.0, 400.0, 550.0)  # how far back from the doorway the watching spot is tried
HALF_OPENING = 60.0  # half a doorway's width (an opening or a door), as levels build them
BODY = 20.0
WATCH_S = 5.0  # how long the slice is watched before the fight is taken as it comes
LOOK_S = 1.0
LONE_SHOT = 1200.0  # a lone gunman farther than this is let come nearer
SLIP_REACH = 600.0  # a way out farther than this is too long a walk under a searcher's eyes


def _crowd(mem: Memory) -> list[dict[str, Any]]:
    return [r for r in mem.view["characters"] if r["seen"] == "now" and hostile(r)
            and r["armed"] is not False and r["id"] not in mem.downed
            and r["distance"] < CROWD_RANGE]


def split_up(mem: Memory, stealth: bool) -> Decision | None:
    """With two or more gunmen in sight and none yet after the player, watch a doorway's slice.

    Args:
        mem: The agent's memory.
        stealth: Whether the mission asks for quiet (the guards are left alone then).

    Returns:
        A walk to a spot back from the doorway between the player and them (on the
        player's side of it, or back through the way just walked in when already in their
        room) from which only the nearer one is in sight, once per area; None otherwise.
    """
    crowd = _crowd(mem)
    area = mem.view["area"]
    if stealth or tethered(mem) or area is None or len(crowd) < 2 \
            or any(r["alertness"] in AWARE for r in crowd) or mem.hurried():
        return None
    key = ("split", mem.here or "")
    if mem.failures[key]:
        return None
    rooms = {r["area"] for r in crowd}
    if rooms == {mem.here}:
        # Already in their room: back out through the way walked in.
        ways = [w for w in area["ways_out"] if w["visited"] and not w["one_way"]]
    else:
        ways = [w for w in area["ways_out"] if w["to"] in rooms]
    ways = [w for w in ways if not w["other_storey"] and w["distance"] <= WAY_REACH]
    first = min(crowd, key=lambda r: (r["distance"], r["id"]))
    others = [r for r in crowd if r is not first]
    for way in sorted(ways, key=lambda w: (w["distance"], w["id"])):
        spot = _slice_spot(way["position"], first, others)
        if spot is None:
            continue
        mem.failures[key] += 1
        x, _, z = mem.position
        mem.split_until = mem.time_s + math.hypot(spot[0] - x, spot[1] - z) / RUN_SPEED \
            + WATCH_S
        return ("go_to", {"x": round(spot[0], 1), "z": round(spot[1], 1),
                          "y": round(way["position"][1], 1), "use_on_way": True,
                          "fire_on_way": False},
                f"{len(crowd)} gunmen together ({', '.join(r['id'] for r in crowd)}): "
                f"stepping back in line with {first['id']} through way {way['id']} to "
                "take them one at a time")
    return None


def _slice_spot(door: list[float], first: dict[str, Any],
                others: list[dict[str, Any]]) -> tuple[float, float] | None:
    # On the line from the first gunman through the doorway, far enough back that every
    # line of sight from there to another gunman meets the doorway's wall outside its
    # opening: the nearer the spot to the doorway, the wider the slice of their room it
    # sees. The wall is taken square to the bearing into their room (walls mostly run
    # along the axes).
    wx, _, wz = door
    fx, _, fz = first["position"]
    length = math.hypot(wx - fx, wz - fz)
    if length < 1.0:
        return None
    ux, uz = (wx - fx) / length, (wz - fz) / length
    nx, nz = square_to_wall(-ux, -uz)
    for back in BACKS:
        px, pz = wx + ux * back, wz + uz * back
        if all(_hidden(px, pz, o["position"], wx, wz, nx, nz) for o in others):
            return px, pz
    return None


def _hidden(px: float, pz: float, target: list[float], wx: float, wz: float, nx: float,
            nz: float) -> bool:
    # Whether the sight line from (px, pz) to the target crosses the doorway's wall (the
    # line through the doorway square to (nx, nz)) clear of the opening, bodies' width
    # counted.
    tx, tz = target[0], target[2]
    near, far = (px - wx) * nx + (pz - wz) * nz, (tx - wx) * nx + (tz - wz) * nz
    if near * far >= 0:
        return False  # both on one side of the wall: nothing between them
    t = near / (near - far)
    cx, cz = px + (tx - px) * t, pz + (tz - pz) * t
    return abs((cx - wx) * -nz + (cz - wz) * nx) > HALF_OPENING + BODY


def watch_slice(mem: Memory) -> Decision | None:
    """While watching a doorway's slice: wait in short looks, open on a gunman alone in it.

    Anyone after the player ends the watch (the fight decides then), as does its time.
    """
    if mem.time_s >= mem.split_until:
        return None
    crowd = _crowd(mem)
    if any(r["alertness"] in AWARE for r in crowd) or mem.view["player"]["health"] <= 0:
        mem.split_until = -1.0
        return None
    if len(crowd) == 1 and crowd[0]["distance"] < LONE_SHOT:
        mem.split_until = -1.0
        lone = crowd[0]
        return ready_weapon(mem) or ("attack", {"character_id": lone["id"]},
                                     f"{lone['id']} alone in sight: taking him first")
    why = (f"watching {len(crowd)} gunmen through the doorway for one alone" if crowd
           else "watching through the doorway for a gunman alone")
    return ("wait", {"seconds": LOOK_S}, why)


def slip_out(mem: Memory, stealth: bool) -> Decision | None:
    """Two gunmen in sight, one already searching and none firing yet: step out of sight.

    A searching guard fires the moment he finds the player, and the other joins at the
    first shot: the fight against both at once is lost more often than won, and the
    doorway's slice (split_up) is no use once one is looking. Back through a way already
    walked, with the gun quiet, the player waits at the doorway (cover.ambush): the
    searcher comes through it alone and close, the other later or not at all. Once per
    area; not while an alarm must not sound, nor tethered to a guide, nor in a hurry.
    """
    crowd = _crowd(mem)
    if stealth or tethered(mem) or mem.view["area"] is None or len(crowd) < 2 \
            or mem.hurried() or any(r["alertness"] == "in_combat" for r in crowd) \
            or not any(r["alertness"] in AWARE for r in crowd):
        return None
    key = ("slip", mem.here or "")
    if mem.failures[key]:
        return None
    searching = ", ".join(r["id"] for r in crowd if r["alertness"] in AWARE)
    step = retreat(mem, crowd, f"falling back out of sight: {len(crowd)} gunmen together, "
                   f"{searching} searching", SLIP_REACH, fire=False)
    if step is not None:
        mem.failures[key] += 1
    return step
