"""Reloading on purpose: topping up a part-empty magazine while the reload costs nothing.

A gun reloads on its own only when its magazine runs dry, and in a wave or a duel at
range that comes in the middle of the fight, with the attackers closer than they are
now. Drawing the gun already in hand again starts a reload (the protocol's `equip`), so
the player tops up while nobody can hurt it within the reload's time: between waves or
after a kill, and before a duel its magazine would not finish. Never in the middle of a
duel the magazine still finishes: those rounds are the fight.
"""

from __future__ import annotations

from typing import Any

from agents.reference.guns import shots_needed, sure_range
from agents.reference.memory import Decision, Memory
from agents.reference.supplies import AWARE, gun_in_hand, hostile

# Seconds a reload takes per kind, as a player who knows shooters knows them.
RELOAD_S = {"pistol": 1.2, "silenced_pistol": 1.2, "smg": 1.6, "rifle": 2.0,
            "shotgun": 2.5, "heavy_cannon": 2.5}
UNKNOWN_RELOAD_S = 2.5  # a kind not in the table: the slowest
RUN_SPEED = 300.0  # units a second one running in covers
REACH = 100.0  # bare hands land from about this near
TOP_UP_SHARE = 0.75  # between fights, a magazine under this share of full is topped up


def _reloadable(mem: Memory) -> dict[str, Any] | None:
    # The gun in hand, when its magazine is short of the most it was seen holding, rounds
    # are carried to fill it and no reload runs. One try per count of rounds loaded and
    # carried (a reload moves rounds): a top-up the world did not start is not asked again.
    gun = gun_in_hand(mem)
    loaded, spare = gun.get("loaded"), gun.get("ammo") or 0
    if gun.get("kind") != "weapon" or loaded is None or spare <= 0 \
            or mem.view["player"].get("reloading"):
        return None
    if loaded >= mem.magazines.get(gun["id"], 0) or mem.failures[_tried(gun)]:
        return None
    return gun


def _worth_it(mem: Memory, gun: dict[str, Any]) -> bool:
    # A round or two short is not worth the reload's time without a shot: a gunman who
    # shows up meanwhile gets free shots.
    return gun["loaded"] < mem.magazines[gun["id"]] * TOP_UP_SHARE


def _safe(mem: Memory, seconds: float) -> bool:
    # Nobody after the player lands a hit within the reload: no gunman in sight, and bare
    # hands still farther than a run of that long (beyond arm's reach, for no time).
    for row in mem.view["characters"]:
        if row["seen"] != "now" or not hostile(row) or row["alertness"] not in AWARE:
            continue
        if row["armed"] is not False:
            return False
        if (row["distance"] - REACH) / RUN_SPEED <= seconds:
            return False
    return True


def _tried(gun: dict[str, Any]) -> tuple[str, str, int, int]:
    return ("top_up", gun["id"], gun["loaded"], gun.get("ammo") or 0)


def _top_up(mem: Memory, gun: dict[str, Any], why: str) -> Decision:
    mem.failures[_tried(gun)] += 1
    return ("equip", {"item_id": gun["id"]}, f"{why}: reloading the {gun['name']} "
            f"({gun['loaded']} loaded)")


def top_up_calm(mem: Memory) -> Decision | None:
    """Reload a part-empty magazine while nobody after the player could hurt it meanwhile."""
    gun = _reloadable(mem)
    if gun is None or not _worth_it(mem, gun) or not _safe(
            mem, RELOAD_S.get(gun.get("weapon") or "", UNKNOWN_RELOAD_S)):
        return None
    return _top_up(mem, gun, "topping up between fights")


def reload_first(mem: Memory, row: dict[str, Any]) -> Decision | None:
    """Before a duel the magazine would not finish, reload while the reload costs least.

    The reload comes within the duel anyway; started now, it runs while the opponent
    (and whoever runs in behind him) is farthest off, and the next duel starts with a
    full magazine. Under a gunman's eyes only when the magazine holds half the shots or
    less: the count a duel takes is a guess, and a reload he watches gives him free shots
    whenever the magazine would have done. With bare hands running in who would arrive
    before the reload is done, only when the rounds loaded would not put one down from
    where he will soon be (within the gun's sure range): he closes while they are fired,
    and the reload would leave him the first blows.
    """
    gun = _reloadable(mem)
    need = shots_needed(gun, row["health"], row["distance"]) if gun is not None else 0
    if gun is None or gun["loaded"] >= need:
        return None
    if not _safe(mem, 0.0):
        if gun["loaded"] * 2 > need:
            return None
    elif not _safe(mem, RELOAD_S.get(gun.get("weapon") or "", UNKNOWN_RELOAD_S)):
        close = min(row["distance"], sure_range(gun))
        if gun["loaded"] >= shots_needed(gun, row["health"], close):
            return None
    return _top_up(mem, gun, f"before fighting {row['id']}")
