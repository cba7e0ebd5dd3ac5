"""Keeping the best gun fed: its own rounds are fetched before it runs dry.

Counted over every gun carried, a player with a full pistol never looks short of rounds,
and walks on with a rifle all but empty into a duel it then fights with the pistol: at
range the rifle's duels cost a fraction of the pistol's. So the best kind carried has its
rounds counted on its own, and once less than a magazine and a half is left, rounds
of its kind (a box, or another gun of that kind lying with its own) are fetched between
fights.
"""

from __future__ import annotations

from agents.reference.guns import TYPICAL_HEALTH, TYPICAL_RANGE, shots_needed
from agents.reference.memory import Decision, Memory
from agents.reference.supplies import (
    AWARE,
    GUN_RANK,
    gun_in_hand,
    hostile,
    rank,
    rounds,
    still_there,
    walk_to_nearest,
)

FEED_MAGAZINES = 1.5  # fewer rounds than this many magazines, and its rounds are fetched


def feed_best_gun(mem: Memory) -> Decision | None:
    """Walk to known rounds for the best kind of gun carried when it runs low, or None."""
    guns = mem.carried("weapon")
    if not guns:
        return None
    best = max(guns, key=lambda g: (rank(g), g["id"]))
    if rank(best) <= min(rank(g) for g in guns):
        return None  # nothing better than the rest to keep fed
    left, magazine = rounds(best), mem.magazines.get(best["id"], 0)
    if magazine <= 0 or left >= FEED_MAGAZINES * magazine:
        return None
    present = still_there(mem)
    rows = [o for o in mem.objects.values() if o["kind"] in ("ammo", "weapon")
            and o.get("weapon") == best.get("weapon") and o["id"] in present]
    return walk_to_nearest(mem, rows, lambda row: f"only {left} rounds left for the "
                           f"{best['name']}: fetching {row['name']} {row['id']}")


def best_gun_up(mem: Memory) -> Decision | None:
    """While nobody in sight is after the player, draw the best kind of gun with rounds.

    Only among guns whose rounds (loaded and spare) would finish an ordinary duel.
    """
    held = gun_in_hand(mem)
    # Between fights only: with anyone in sight after the player, or a gunman in sight
    # even unaware, the next fight is his, and the gun for it is the duel's own choice (a
    # magazine that finishes it, a close-fight gun against one that bites), or the two
    # choices would swap guns at every decision.
    if held.get("kind") != "weapon" or any(
            r["seen"] == "now" and hostile(r)
            and (r["alertness"] in AWARE or r["armed"] is not False)
            for r in mem.view["characters"]):
        return None
    # A gun whose last rounds would not finish an ordinary duel is not worth the draw.
    guns = [g for g in mem.carried("weapon")
            if rounds(g) >= shots_needed(g, TYPICAL_HEALTH, TYPICAL_RANGE)]
    best = max(guns, key=lambda g: (rank(g), g["id"]), default=None)
    if best is None or rank(best) <= rank(held) or best.get("weapon") not in GUN_RANK:
        return None  # a kind of unknown worth (a rocket launcher?) is drawn by the duel
    decision: Decision = ("equip", {"item_id": best["id"]}, f"between fights, the "
                          f"{best['name']} in hand")
    return None if mem.failed(decision, 2) else decision
