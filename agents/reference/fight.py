"""Staying alive: a gun in hand, answering hostiles that threaten, healing when hurt.

Friendly characters are never chosen as targets (the harness refuses it anyway); in a
stealth mission only hostiles that have already noticed the player are fought.
"""

from __future__ import annotations

from typing import Any

from agents.reference.memory import Decision, Memory
from agents.reference.moves import use_thing

AWARE = frozenset({"alerted", "in_combat"})  # alertness names meaning "after the player"
THREAT_RANGE = 1500.0
CLOSE_RANGE = 700.0
HEALING = ("medkit", "armour")
AMMO = ("ammo", "weapon")


def hostile(row: dict[str, Any]) -> bool:
    """A character that is not on the player's side and not down."""
    return row["friendly"] is not True and not row["down"]


def ready_weapon(mem: Memory) -> Decision | None:
    """Take a loaded weapon in hand when the hand holds something else."""
    player = mem.view["player"]
    guns = [c for c in mem.carried("weapon") if (c["ammo"] or 0) > 0]
    held = next((c for c in player["carried"] if c["id"] == player["in_hand"]), None)
    if held is not None and held["kind"] == "weapon" and (held["ammo"] or 0) > 0:
        return None
    if not guns:
        return None
    decision: Decision = ("equip", {"item_id": guns[0]["id"]}, "drawing a loaded weapon")
    return None if mem.failed(decision) else decision


def armed(mem: Memory) -> bool:
    """Whether a loaded weapon is carried."""
    return any((c["ammo"] or 0) > 0 for c in mem.carried("weapon"))


def threats(mem: Memory, stealth: bool) -> list[dict[str, Any]]:
    """Hostiles seen now that are worth fighting, nearest first."""
    out = []
    for row in mem.view["characters"]:
        if row["seen"] != "now" or not hostile(row) or row["distance"] > THREAT_RANGE:
            continue
        aware = row["alertness"] in AWARE
        if stealth and not aware:
            continue
        # An unaware hostile far off is left alone: a long shot wakes the whole level.
        if (aware or row["distance"] < CLOSE_RANGE) and row["id"] not in mem.downed:
            out.append(row)
    return sorted(out, key=lambda r: (r["alertness"] not in AWARE, r["distance"], r["id"]))


def attack(mem: Memory, row: dict[str, Any], why: str) -> Decision | None:
    """Attack a character unless that keeps failing."""
    decision: Decision = ("attack", {"character_id": row["id"]}, why)
    return None if mem.failed(decision) else decision


def fight(mem: Memory, stealth: bool) -> Decision | None:
    """Answer the most pressing threat, when armed."""
    if not armed(mem):
        return None
    for row in threats(mem, stealth):
        decision = attack(mem, row, f"fighting {row['kind']} {row['id']}")
        if decision is not None:
            return ready_weapon(mem) or decision
    return None


def heal(mem: Memory, below: float) -> Decision | None:
    """Pick up the nearest medkit or armour when health is below a mark."""
    if mem.view["player"]["health"] >= below:
        return None
    return _nearest_pickup(mem, HEALING, "healing up")


def restock(mem: Memory) -> Decision | None:
    """Pick up ammunition or a weapon when nothing carried is loaded."""
    if armed(mem):
        return None
    return _nearest_pickup(mem, AMMO, "looking for ammunition")


def _nearest_pickup(mem: Memory, kinds: tuple[str, ...], why: str) -> Decision | None:
    rows = [o for o in mem.objects.values() if o["kind"] in kinds and o["id"] in _present(mem)]
    for row in sorted(rows, key=lambda r: (mem.distance(r["position"]), r["id"])):
        decision = use_thing(mem, row["id"], f"{why}: {row['name']} {row['id']}")
        if decision is not None:
            return decision
    return None


def _present(mem: Memory) -> set[str]:
    # Pickups vanish from the view once taken; remembered rows of things in the current
    # view or not contradicted by it are still worth a walk.
    shown = {o["id"] for o in mem.view["objects"]}
    return {oid for oid in mem.objects if oid in shown or mem.failures[("go_to_object", oid)] < 2}
