"""Return fire on a Doom map: in an action that fights or asks for it, the player shoots back.

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
from world.doom.specials import actor_type

THREAT_RANGE = 1500.0  # return fire answers monsters in view this close
MELEE_FIRE = 160.0  # a biting monster is shot from this close while rounds are few
FEW_ROUNDS = 30  # rounds in hand at or below which biting monsters are let come close
MELEE_REACH = 96.0  # a fist or chainsaw in the player's hand hurts only this close
SCAN_TICS = 4  # tics between choices of target
# Monsters (ViZDoom's class names) with no attack from afar.
BITERS = frozenset({"Demon", "Spectre", "MarineChainsawVzd", "MarineFistVzd",
                    "MarineBerserkVzd"})

BLAST = 160.0  # a barrel bursting this near the player hurts him (Doom's blast: 128 units)
BARREL_RADIUS = 16.0  # a barrel's 10-unit body and the player's aim's wobble
SPREAD = math.radians(6.0)  # the shotgun's pellets fan out about 5.6 degrees either way

Point = tuple[float, float]


def rounds(snap: Snapshot) -> float:
    """Rounds of the weapon in hand; a fist or chainsaw (slot 1) counts as loaded."""
    counters = snap.counters
    return counters["SELECTED_WEAPON_AMMO"] if counters["SELECTED_WEAPON"] > 1 else math.inf


def clear_of_barrels(snap: Snapshot, monster: Thing) -> bool:
    """Whether a shot at a monster cannot burst a barrel beside the player.

    A barrel within BLAST of the player, in the line of fire (its radius and the
    shotgun's spread, seen from here) and not beyond the monster, would take the shot
    and blow up in his face (Doom's blast does up to 128 damage within 128 units). The
    fire waits; the sidestep or the walk soon opens another line.
    """
    reach = math.dist(snap.xy, (monster.x, monster.y))
    bearing = math.atan2(monster.y - snap.xy[1], monster.x - snap.xy[0])
    for barrel in snap.things:
        words = actor_type(barrel.name)
        if words is None or words.kind != "breakable":
            continue
        near = math.dist(snap.xy, (barrel.x, barrel.y))
        if near > BLAST or near > reach + BARREL_RADIUS:
            continue
        off = math.atan2(barrel.y - snap.xy[1], barrel.x - snap.xy[0]) - bearing
        off = abs((off + math.pi) % (2 * math.pi) - math.pi)
        if off <= math.atan2(BARREL_RADIUS, max(near, 1.0)) + SPREAD:
            return False
    return True


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
