"""Duels begun ready: a gun in hand, the hold after a kill kept, a reload out of sight.

The reload itself (drawing the gun in hand again) lives in reloads.py; this module
decides where it fits around a fight:

- a gadget or tool left in hand after its use is put away for the best gun while nobody
  is after the player: a guard met round the next corner would wait for the draw;
- right after a kill that calls for holding the ground (cover.hold_after_kill), the
  top-up comes first and the hold right after it, so whoever heard the shots meets a full
  magazine, not a hurt player walking off to a medkit;
- a duel at range that the rounds loaded would not finish is reloaded for out of the
  gunman's sight, when a way out is near and the player is not under fire;
- a kill that left the player a hit or two from down is followed by a walk to a known medkit,
  not by the hold: whoever heard the shots finishes a player who waits for him there.
- armour lying a few steps off is put on in place of that hold: whoever heard the shots
  comes all the same, and his hits land on the armour.
"""

from __future__ import annotations

from typing import Any

from agents.reference.cover import (
    HOLD_S,
    RELOAD_COVER,
    STAND_RANGE,
    hold_after_kill,
    retreat,
    tethered,
)
from agents.reference.guns import (
    ARMS_LENGTH,
    TYPICAL_HEALTH,
    TYPICAL_RANGE,
    firing_now,
    reloading_gun,
    shots_needed,
)
from agents.reference.memory import Decision, Memory
from agents.reference.reloads import top_up_calm
from agents.reference.supplies import (
    AWARE,
    LOW_ROUNDS,
    armour_nearby,
    gun_in_hand,
    hostile,
    nearest_pickup,
    ready_weapon,
    rounds,
)

# Health under which a known medkit comes before holding the ground after a kill: a hit
# or two from down (a rifle's hit from across a hall takes a third of it).
MEND = 0.45

# A gun firing this many times the shots across a room that it fires at arm's length is
# one for close fights only (a scattergun: 9 against 2; a spray gun: 23 against 8).
CLOSE_ONLY = 4
CLOSE_BY = 600.0  # a hostile remembered this near keeps the close-fight gun in hand


def _calm(mem: Memory) -> bool:
    return not any(r["seen"] == "now" and hostile(r) and r["alertness"] in AWARE
                   for r in mem.view["characters"])


def gun_up(mem: Memory) -> Decision | None:
    """While nobody in sight is after the player, a gun rather than a gadget in hand, and
    the gun for an ordinary duel rather than one drawn for a close fight."""
    if not _calm(mem):
        return None
    if gun_in_hand(mem).get("kind") == "weapon":
        return close_gun_put_away(mem)
    return ready_weapon(mem)


def close_gun_put_away(mem: Memory) -> Decision | None:
    # A gun whose every round counts at arm's length (a scattergun, drawn for one that
    # bites, or raised by the world on pickup) spends them on long shots while walking
    # on: between fights the gun for an ordinary duel is drawn, the other kept for the
    # next close one.
    # Not with one remembered close by (he may step back into view any moment), nor
    # with the other guns short of rounds: then every fight is a close one.
    if any(hostile(r) and r["distance"] < CLOSE_BY for r in mem.view["characters"]) \
            or sum(rounds(c) for c in mem.carried("weapon")
                   if c["id"] != mem.view["player"]["in_hand"]) < LOW_ROUNDS:
        return None
    gun = gun_in_hand(mem)
    if shots_needed(gun, TYPICAL_HEALTH, ARMS_LENGTH) * CLOSE_ONLY > shots_needed(
            gun, TYPICAL_HEALTH, TYPICAL_RANGE):
        return None  # a gun that does well enough from across a room
    return ready_weapon(mem)


def reload_then_hold(mem: Memory, stealth: bool) -> Decision | None:
    """Right after a kill that calls for a hold, top up first, then hold the ground.

    Args:
        mem: The agent's memory.
        stealth: Whether the mission asks for quiet (no hold then).

    Returns:
        The top-up, or on the next decision the hold it put off; a walk to a known
        medkit instead of the hold when the player is a hit or two from down; None otherwise.
    """
    owed, mem.hold_owed = mem.hold_owed, False
    if hold_after_kill(mem, stealth) is not None:
        step = top_up_calm(mem)
        if step is not None:
            mem.hold_owed = True
        return step or _mend_first(mem)
    done = mem.last_decision
    if owed and done is not None and done[0] == "equip" and _calm(mem) \
            and not any(r["seen"] == "now" and (r["friendly"] is True or not r["down"])
                        for r in mem.view["characters"]):
        # Armour a few steps off is put on in place of the hold: the one who heard the
        # shots comes anyway, and his hits then land on the armour.
        return _mend_first(mem) or armour_nearby(mem) or (
            "wait", {"seconds": HOLD_S}, "reloading after a kill; holding here for whoever "
            "heard the shots")
    return None


def reload_in_cover(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    """Before a duel at range the rounds loaded would not finish, reload out of sight.

    Args:
        mem: The agent's memory.
        rows: Threats in the order they are fought (the first is the next target).

    Returns:
        A walk out of the gunmen's sight through a near way out; None when the loaded
        rounds (of any carried gun) hold the duel, over half a magazine is loaded, a
        gunman is close (turning away costs
        more shots than the reload saves), the player is under fire (every hit stops the
        walk) or no way out is near (the reload is then started where the player stands).
    """
    gunmen = [r for r in rows if r["alertness"] in AWARE and r["armed"] is not False]
    gun = gun_in_hand(mem)
    area = mem.view["area"]
    if not gunmen or area is None or gun.get("kind") != "weapon" or not gun.get("ammo") \
            or mem.view["player"].get("reloading") or tethered(mem) \
            or min(r["distance"] for r in gunmen) < STAND_RANGE \
            or (mem.last is not None and mem.last["end_reason"] == "damage") \
            or mem.failures[("fall_back", area["id"])] >= 2:
        return None
    if (gun.get("loaded") or 0) * 2 > mem.magazines.get(gun["id"], 0):
        return None  # over half a magazine: the walk away costs more than it saves
    target, busy = rows[0], reloading_gun(mem.view["player"])
    if any(firing_now(g, busy) >= shots_needed(g, target["health"], target["distance"])
           for g in mem.carried("weapon")):
        return None  # the gun in hand holds the duel, or another carried one is drawn
    step = retreat(mem, gunmen, "falling back to reload before the duel", RELOAD_COVER,
                   fire=False)
    if step is not None:
        mem.failures[("fall_back", area["id"])] += 1
    return step


def _mend_first(mem: Memory) -> Decision | None:
    # A hold is worth its wait only to a player who survives the next duel: one a hit from
    # down walks to a known medkit instead, with the top-up started just before running
    # on the way.
    if mem.view["player"]["health"] >= MEND or not _calm(mem):
        return None
    return nearest_pickup(mem, ("medkit",), "a hit from down after the fight: healing before "
                          "holding", tries=1)
