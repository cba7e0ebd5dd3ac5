"""Automatic return fire on a Doom map: during any action the player shoots back.

Doom does not say whether a monster has noticed the player, so every monster in plain
view within range counts as attacking, as the shipped world counts one in combat; a
monster that can only bite (a demon, a chainsaw) is no threat from afar, and while
rounds are few it is answered only once it is close (`MELEE_FIRE`), so that rounds are
not spent on monsters still crossing the room while others keep coming. The target is
the nearest such monster; it is chosen again every few tics (a sight test per monster
costs) and its live position followed between.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from world.doom.engine import Snapshot, Thing

THREAT_RANGE = 1500.0  # return fire answers monsters in view this close
MELEE_FIRE = 160.0  # a biting monster is shot from this close while rounds are few
FEW_ROUNDS = 30  # rounds in hand at or below which biting monsters are let come close
MELEE_REACH = 96.0  # a fist or chainsaw in the player's hand hurts only this close
SCAN_TICS = 4  # tics between choices of target
# Monsters (ViZDoom's class names) with no attack from afar.
BITERS = frozenset({"Demon", "Spectre", "MarineChainsawVzd", "MarineFistVzd",
                    "MarineBerserkVzd"})

Point = tuple[float, float]


def rounds(snap: Snapshot) -> float:
    """Rounds of the weapon in hand; a fist or chainsaw (slot 1) counts as loaded."""
    counters = snap.counters
    return counters["SELECTED_WEAPON_AMMO"] if counters["SELECTED_WEAPON"] > 1 else math.inf


def worth_a_shot(snap: Snapshot, monster: Thing) -> bool:
    """Whether the weapon in hand should be fired at a monster now (loaded, in reach)."""
    distance = math.dist(snap.xy, (monster.x, monster.y))
    left = rounds(snap)
    if left <= 0:
        return False
    if left == math.inf:
        return distance < MELEE_REACH
    return monster.name not in BITERS or left > FEW_ROUNDS or distance <= MELEE_FIRE


@dataclass
class ReturnFire:
    """Picks whom the player shoots back at; `sees(things)` tests sight lines to them."""

    sees: Callable[[list[Thing]], list[bool]]
    target_id: int | None = None
    chosen_at: int = -SCAN_TICS

    def target(self, snap: Snapshot) -> Thing | None:
        """The monster to shoot back at after this tic, or None."""
        # Chosen on the tics the other looks at the things share (their list is built
        # once a tic, and building it is most of a look's cost).
        if snap.tic % SCAN_TICS == 0 or snap.tic - self.chosen_at > SCAN_TICS:
            self.chosen_at = snap.tic
            self.target_id = self._choose(snap)
        if self.target_id is None:
            return None
        found = snap.thing(self.target_id)
        if found is None or found.category != "Monster":
            self.target_id = None
            return None
        return found

    def _choose(self, snap: Snapshot) -> int | None:
        rows = sorted((math.dist(snap.xy, (t.x, t.y)), t.id, t) for t in snap.things
                      if t.category == "Monster")
        near = [t for distance, _, t in rows
                if distance <= THREAT_RANGE and worth_a_shot(snap, t)]
        # One sight test for them all: the nearest in plain view is the target.
        return next((t.id for t, seen in zip(near, self.sees(near), strict=True) if seen),
                    None)
