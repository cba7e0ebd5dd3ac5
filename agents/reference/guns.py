"""Which carried gun to fight with: its kind, weighed by the rounds it can fire now.

A gun that runs dry in the middle of a duel stands the player still for a reload, or
for good when nothing is carried besides (a heavy cannon found with its twenty rounds),
while the gunman keeps firing. So the gun drawn for a duel is first one whose magazine
holds the shots the duel takes, then one whose rounds (after a reload) do, then one of
the best kind. Drawing a gun takes no game time, far less than any reload.

The shots a duel takes follow from what a player who knows shooters knows of each kind:
the hits that put an ordinary person down, and the range within which nearly every
aimed shot lands (beyond it the share that hits falls with the range).
"""

from __future__ import annotations

import math
from typing import Any

from agents.reference.memory import Decision, Memory

# Per kind: hits that put down an ordinary person (health 1), and the range within which
# nearly every shot hits a running man (a wide spray or a scattergun's cone is short).
GUN_FIRE = {"rifle": (3, 900.0), "smg": (8, 280.0), "heavy_cannon": (2, 350.0),
            "pistol": (4, 550.0), "silenced_pistol": (4, 450.0), "shotgun": (2, 180.0)}
UNKNOWN_FIRE = (4, 450.0)  # a kind not in the table: as a sidearm
# Per kind: health a second its hits take from an unarmoured man when every shot lands
# (a hit's harm times shots a second), as a player who knows shooters knows them.
HARM_RATE = {"pistol": 0.625, "silenced_pistol": 0.5, "smg": 1.4, "rifle": 1.7,
             "shotgun": 0.6, "heavy_cannon": 1.0}
# A duel the player has not chosen yet: an ordinary gunman across a room.
TYPICAL_HEALTH = 1.0
TYPICAL_RANGE = 800.0
ARMS_LENGTH = 100.0  # where a duel with one that only bites is fought: he runs up to bite


def shots_needed(gun: dict[str, Any], health: float, distance: float) -> int:
    """Rounds a gun of this kind fires to put down one of this health at this range."""
    hits, sure = GUN_FIRE.get(gun.get("weapon") or "", UNKNOWN_FIRE)
    return math.ceil(hits * max(health, 0.0) * max(1.0, distance / sure))


def harm(weapon: str | None) -> float:
    """How much faster than a pistol a gunman with this kind of gun takes health, tempered.

    The square root of the ratio: the rate assumes every shot lands, which a spray gun's
    wide cone and a gunman's own misses keep from holding, so a spray gun counts somewhat
    more than a pistol, not twice as much. A kind not known counts as a pistol.
    """
    base = HARM_RATE["pistol"]
    return math.sqrt(HARM_RATE.get(weapon or "", base) / base)


def sure_range(gun: dict[str, Any]) -> float:
    """The range within which nearly every aimed shot of this kind of gun lands."""
    return GUN_FIRE.get(gun.get("weapon") or "", UNKNOWN_FIRE)[1]


def firing_now(gun: dict[str, Any], reloading: str | None) -> int:
    """Rounds the gun fires before it must reload: none while its reload runs."""
    return 0 if gun["id"] == reloading else gun.get("loaded") or 0


def reloading_gun(player: dict[str, Any]) -> str | None:
    """Id of the gun being reloaded: the view shows a reload on the gun in hand."""
    return player["in_hand"] if player.get("reloading") else None


def choose(player: dict[str, Any], guns: list[dict[str, Any]], health: float, distance: float,
           rank: Any) -> list[dict[str, Any]]:
    """Guns best first for one duel: magazine enough, a reload under way, rounds enough, kind.

    Args:
        player: The view's player (which gun is in hand, whether it is reloading).
        guns: Carried guns with rounds, in the order they were picked up.
        health: The opponent's health.
        distance: How far off the opponent stands.
        rank: The kind's rank (higher is better) of a gun.

    Returns:
        The same guns, best first; among equals, the one picked up last.
    """
    busy = reloading_gun(player)

    def key(gun: dict[str, Any]) -> tuple[bool, bool, bool, float]:
        need = shots_needed(gun, health, distance)
        total = (gun.get("loaded") or 0) + (gun.get("ammo") or 0)
        # A reload under way is finished rather than thrown away: drawing another gun
        # stops it, and the other one, if it must reload too, starts from nothing.
        return (firing_now(gun, busy) >= need, gun["id"] == busy, total >= need, rank(gun))

    # A stable sort keeps the order of pickup among equals; the last picked up goes first.
    return list(reversed(sorted(guns, key=key)))


def at_arms_length(guns: list[dict[str, Any]], health: float,
                   rank: Any) -> list[dict[str, Any]]:
    """Guns best first against one that only bites: it runs up, so the duel is close.

    Fewest shots at arm's length first (a scattergun's whole cone lands there), among
    guns whose rounds fire those shots; then the kind's rank.
    """
    def key(gun: dict[str, Any]) -> tuple[bool, int, float]:
        need = shots_needed(gun, health, ARMS_LENGTH)
        total = (gun.get("loaded") or 0) + (gun.get("ammo") or 0)
        return (total < need, need, -rank(gun))

    return sorted(guns, key=key)


def draw(mem: Memory, guns: list[dict[str, Any]]) -> Decision | None:
    """Equip the first gun of a list not already in hand, unless equipping it keeps failing."""
    held = mem.view["player"]["in_hand"]
    for gun in guns:
        if gun["id"] == held:
            return None  # the best gun that can be drawn is already in hand
        decision: Decision = ("equip", {"item_id": gun["id"]}, f"drawing the {gun['name']}")
        if not mem.failed(decision, 2):
            return decision
    return None
