"""Duels begun ready: a full magazine before the shooting starts, or a reload out of sight.

A gun that runs dry in the middle of a duel stands the player still for its reload while
the gunman keeps firing, and a second guard woken by the first shots gets the same free
shots. Drawing the gun already in hand reloads a magazine that is not full, so while
nobody is after the player the magazine is topped up before walking on (the reload runs
during the next walk); a duel at range that the rounds loaded would not finish is
reloaded for out of the gunman's sight first.

The player learns how many rounds a magazine of each kind holds from its own counter:
the most it has seen loaded in a gun of that kind.
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
from agents.reference.guns import firing_now, reloading_gun, shots_needed
from agents.reference.memory import Decision, Memory
from agents.reference.supplies import AWARE, gun_in_hand, hostile, ready_weapon

# Per memory (so per episode): per weapon kind, the most rounds seen loaded at once.
_FULL: dict[int, dict[str, int]] = {}
# Memories (so episodes) whose last decision was a reload that put off the hold after a kill.
_HOLD_OWED: set[int] = set()


def note_magazines(mem: Memory) -> None:
    """Learn from the counters on screen how many rounds each kind's magazine holds."""
    seen = _FULL.setdefault(id(mem), {})
    for item in mem.carried("weapon"):
        kind = item.get("weapon") or item["id"]
        seen[kind] = max(seen.get(kind, 0), item.get("loaded") or 0)


def magazine(mem: Memory, gun: dict[str, Any]) -> int:
    """Rounds a full magazine of this gun's kind holds, as far as the player has seen."""
    note_magazines(mem)
    return _FULL[id(mem)].get(gun.get("weapon") or gun["id"], 0)


def _reload(mem: Memory, why: str) -> Decision | None:
    # The gun in hand, not full, with rounds carried besides and no reload under way.
    gun = gun_in_hand(mem)
    if gun.get("kind") != "weapon" or gun.get("loaded") is None \
            or mem.view["player"].get("reloading") or not gun.get("ammo"):
        return None
    if gun["loaded"] >= magazine(mem, gun):
        return None
    decision: Decision = ("equip", {"item_id": gun["id"]}, why)
    last, done = mem.last, mem.last_decision
    if done == decision and last is not None and not last["detail"].startswith("Reloading"):
        mem.fail(decision, 2)  # the world did not reload it: the magazine must be full
    return None if mem.failed(decision, 2) else decision


def top_up(mem: Memory, stealth: bool = False) -> Decision | None:
    """While no hostile in sight is after the player, have a full magazine in hand.

    A gadget or tool left in hand after its use is put away for the best gun first: a
    guard met round the next corner would otherwise wait for the draw and a reload.
    Right after a kill that calls for holding the ground (cover.hold_after_kill), the
    reload comes first and the hold right after it, so whoever heard the shots meets a
    full magazine rather than a player walking off to a medkit.
    """
    owed = id(mem) in _HOLD_OWED
    _HOLD_OWED.discard(id(mem))
    if any(r["seen"] == "now" and hostile(r) and r["alertness"] in AWARE
           for r in mem.view["characters"]):
        return None
    if gun_in_hand(mem).get("kind") != "weapon":
        return ready_weapon(mem)
    step = _reload(mem, "topping up the magazine while nobody is shooting")
    if step is not None and hold_after_kill(mem, stealth) is not None:
        _HOLD_OWED.add(id(mem))
    elif step is None and owed and mem.last_decision is not None \
            and mem.last_decision[0] == "equip" \
            and not any(r["seen"] == "now" and (r["friendly"] is True or not r["down"])
                        for r in mem.view["characters"]):
        return ("wait", {"seconds": HOLD_S}, "reloading after a kill; holding here for "
                "whoever heard the shots")
    return step


def reload_first(mem: Memory, rows: list[dict[str, Any]]) -> Decision | None:
    """Before a duel at range the rounds loaded would not finish, reload out of sight.

    Args:
        mem: The agent's memory.
        rows: Threats in the order they are fought (the first is the next target).

    Returns:
        A walk out of the gunmen's sight, or a reload where the player stands when there
        is no cover to reach; None when the magazine holds the duel, a gunman is close
        (turning away costs more shots than the reload saves) or the player is under fire.
    """
    gunmen = [r for r in rows if r["alertness"] in AWARE and r["armed"] is not False]
    gun = gun_in_hand(mem)
    if not gunmen or gun.get("kind") != "weapon" or not gun.get("ammo") \
            or mem.view["player"].get("reloading") or tethered(mem) \
            or min(r["distance"] for r in gunmen) < STAND_RANGE:
        return None
    target = rows[0]
    busy = reloading_gun(mem.view["player"])
    if any(firing_now(g, busy) >= shots_needed(g, target["health"], target["distance"])
           for g in mem.carried("weapon")):
        return None  # the gun in hand holds the duel, or another carried one is drawn
    if mem.last is not None and mem.last["end_reason"] == "damage":
        # Under fire every hit stops a walk, and a reload begun here sends the next
        # decision walking to cover under the same fire: shooting back loses less.
        return None
    area = mem.view["area"]
    if area is not None and mem.failures[("fall_back", area["id"])] < 2:
        step = retreat(mem, gunmen, "falling back to reload before the duel", RELOAD_COVER)
        if step is not None:
            mem.failures[("fall_back", area["id"])] += 1
            return step
    return _reload(mem, "reloading before the duel: the magazine would not finish it")
