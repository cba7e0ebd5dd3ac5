"""Weapons, shots and damage: rate of fire, magazines, an accuracy roll and hitscan.

A shot travels in a straight line on the shooter's storey; walls and gates stop it,
windows and open doorways do not. Whether it hits is drawn from the world's one seeded
generator, so the same seed always gives the same hits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.level.model import Weapon
from world.sim.actors import Actor
from world.sim.clock import TICKS_PER_SECOND
from world.sim.events import Event

if TYPE_CHECKING:
    from world.sim.world import World

UNARMED = "fists"
PLAYER_SKILL = 1.0  # the player's base chance to hit at point-blank range
MOVING_SHOOTER_SPREAD = 1.0  # extra spread, as a multiple of the weapon's, when walking
MOVING_TARGET_SPREAD = 0.5
OBJECT_RADIUS = 15.0  # size of a shootable object
# Reasons a weapon does not fire at all (a miss has fired).
_NOT_FIRED = frozenset({"cooldown", "reloading", "no_ammo"})


@dataclass(frozen=True)
class ShotResult:
    """What one attempt to fire did.

    Attributes:
        fired: Whether a round left the weapon.
        hit: Whether it struck the target.
        reason: Why it did not fire or did not hit ("cooldown", "reloading", "no_ammo",
            "range", "blocked", "roll", "point"), or "" for a hit.
    """

    fired: bool
    hit: bool = False
    reason: str = ""


# Results are immutable and few: shared instances spare a frozen dataclass build per shot.
_RESULTS: dict[tuple[bool, bool, str], ShotResult] = {}


def _result(fired: bool, hit: bool = False, reason: str = "") -> ShotResult:
    key = (fired, hit, reason)
    result = _RESULTS.get(key)
    if result is None:
        result = _RESULTS[key] = ShotResult(fired, hit, reason)
    return result


_HIT = _result(True, hit=True)


def hit_chance(weapon: Weapon, skill: float, distance: float, target_radius: float,
               shooter_moving: bool, target_moving: bool) -> float:
    """Chance that a shot hits: the share of the spread cone the target covers, times skill.

    Args:
        weapon: The weapon fired.
        skill: The shooter's chance to hit at point-blank range.
        distance: Distance to the target.
        target_radius: Half the target's width.
        shooter_moving: Whether the shooter walked during the last tick.
        target_moving: Whether the target walked during the last tick.

    Returns:
        A probability in [0, 1].
    """
    spread = weapon.spread * (
        1.0 + MOVING_SHOOTER_SPREAD * shooter_moving + MOVING_TARGET_SPREAD * target_moving
    )
    if spread <= 0.0:
        return max(0.0, min(1.0, skill))
    cover = min(1.0, math.atan2(target_radius, max(distance, 1e-6)) / spread)
    return max(0.0, min(1.0, skill * cover))


class Combat:
    """Firing and damage rules for one world."""

    def __init__(self, world: World) -> None:
        """Index the level's weapons (built-in catalogue merged with the level's own)."""
        self.world = world
        self.weapons = {w.id: w for w in world.level.weapons}
        self._cooldown = {w.id: max(1, round(TICKS_PER_SECOND / w.shots_per_s))
                          for w in world.level.weapons}

    def weapon_of(self, actor: Actor) -> Weapon:
        """The weapon type the actor fires now (bare hands when it holds none)."""
        return self.weapons[actor.weapon or UNARMED]

    def add_rounds(self, actor: Actor, weapon_id: str, rounds: int) -> None:
        """Add reserve rounds, loading an empty magazine at once (no reload wait on pickup)."""
        weapon = self.weapons[weapon_id]
        actor.ammo[weapon_id] = actor.ammo.get(weapon_id, 0) + rounds
        loaded = actor.magazine.get(weapon_id, 0)
        if loaded == 0 and weapon.magazine > 0:
            self._load(actor, weapon)

    def _load(self, actor: Actor, weapon: Weapon) -> None:
        loaded = actor.magazine.get(weapon.id, 0)
        want = weapon.magazine - loaded
        take = want if actor.infinite_ammo else min(want, actor.ammo.get(weapon.id, 0))
        if not actor.infinite_ammo:
            actor.ammo[weapon.id] = actor.ammo.get(weapon.id, 0) - take
        actor.magazine[weapon.id] = loaded + take

    def counter(self, actor: Actor, weapon_id: str) -> tuple[int, int, bool]:
        """(loaded, carried besides, reloading) as the gun's counter shows them now.

        A reload whose time has come shows as done, though the rounds move into the
        magazine only when the gun is next readied (`settle`).
        """
        weapon = self.weapons[weapon_id]
        loaded, spare = actor.magazine.get(weapon_id, 0), actor.ammo.get(weapon_id, 0)
        busy = actor.reload_until > 0 and actor.weapon == weapon_id
        if busy and self.world.tick >= actor.reload_until:
            take = weapon.magazine - loaded if actor.infinite_ammo else min(
                weapon.magazine - loaded, spare)
            loaded, spare = loaded + take, spare - (0 if actor.infinite_ammo else take)
            busy = False
        return loaded, spare, busy

    def settle(self, actor: Actor) -> None:
        """Finish a reload whose time has come."""
        if actor.reload_until and self.world.tick >= actor.reload_until:
            actor.reload_until = 0
            self._load(actor, self.weapon_of(actor))

    def top_up(self, actor: Actor) -> None:
        """Start a reload of the gun in hand if its magazine is not full and rounds are carried."""
        self.settle(actor)
        weapon = self.weapon_of(actor)
        if actor.magazine.get(weapon.id, 0) < weapon.magazine:
            self._start_reload(actor, weapon)

    def readiness(self, actor: Actor) -> str:
        """Why the actor cannot fire now ("cooldown", "reloading", "no_ammo"), or ""."""
        return self._unready(actor, self.weapon_of(actor), self.world.tick)

    def _unready(self, actor: Actor, weapon: Weapon, tick: int) -> str:
        # `settle` and `readiness` in one, for a weapon already looked up.
        if actor.reload_until:
            if tick < actor.reload_until:
                return "reloading"
            actor.reload_until = 0
            self._load(actor, weapon)
        if tick - actor.last_shot_tick < self._cooldown[weapon.id]:
            return "cooldown"
        if weapon.magazine > 0 and actor.magazine.get(weapon.id, 0) <= 0:
            return "no_ammo"
        return ""

    def _start_reload(self, actor: Actor, weapon: Weapon) -> None:
        if weapon.magazine == 0 or actor.reload_until:
            return
        if not actor.infinite_ammo and actor.ammo.get(weapon.id, 0) <= 0:
            return
        actor.reload_until = self.world.tick + max(1, round(weapon.reload_s * TICKS_PER_SECOND))
        self.world.emit("reload_started", actor.id, detail=weapon.id)

    def fire(self, shooter: Actor, aim: tuple[float, float], storey: str,
             target: Actor | str | None, target_moving: bool, radius: float) -> ShotResult:
        """Fire at an already validated target.

        Args:
            shooter: The actor firing.
            aim: Ground point (x, z) aimed at.
            storey: The target's storey.
            target: The target actor, the target object id, or None for a point.
            target_moving: Whether the target walked during the last tick.
            radius: Half the target's width.

        Returns:
            What happened.
        """
        weapon = self.weapon_of(shooter)
        why = self.readiness(shooter)
        if why:
            return self._not_fired(shooter, weapon, why)
        target_id = target.id if isinstance(target, Actor) else target
        self._discharge(shooter, weapon, target_id)
        if target is None:
            result = _result(True, reason="point")
        else:
            distance = math.hypot(aim[0] - shooter.x, aim[1] - shooter.z)
            why = self._out_of_reach(weapon, distance, radius, storey, shooter.storey)
            if not why and not self.world.sight.line_of_sight((shooter.x, shooter.z), aim,
                                                              storey):
                why = "blocked"
            if not why:
                chance = hit_chance(weapon, shooter.accuracy, distance, radius, shooter.moving,
                                    target_moving)
                why = "roll" if self.world.rng.random() >= chance else ""
            # (`target` is an actor or an object id here, so its id is a string)
            result = self._land(shooter, weapon, target,
                                target.id if isinstance(target, Actor) else target, why)
        self._after_shot(shooter, weapon)
        return result

    def volley(self, shots: list[tuple[Actor, Actor]]) -> list[ShotResult | None]:
        """Fire many characters' weapons at actors in one pass (a tick's gunfire).

        Lines of fire are tested together per storey and the hit rolls drawn in one
        call, in the order of `shots`; then each shot takes effect in that order, as if
        fired one by one. A shot whose shooter or target went down earlier in the
        volley is not fired.

        Args:
            shots: (shooter, target) pairs, both alive when the volley starts, each
                shooter at most once.

        Returns:
            Per shot, what happened, or None when the shooter or target was down at its
            turn.
        """
        world = self.world
        weapons, tick, hypot = self.weapons, world.tick, math.hypot
        # Per shot: the weapon, the distance (None when not measured) and why it fails.
        armed: list[Weapon] = []
        distances: list[float] = []
        why: list[str] = []
        lines: dict[str, list[int]] = {}
        cooldown = self._cooldown
        for k, (shooter, target) in enumerate(shots):
            weapon = weapons[shooter.weapon or UNARMED]
            armed.append(weapon)
            if (not shooter.reload_until
                    and tick - shooter.last_shot_tick >= cooldown[weapon.id]
                    and (weapon.magazine <= 0 or shooter.magazine.get(weapon.id, 0) > 0)):
                reason = ""  # `_unready`'s answer for a shooter not reloading, inline
            else:
                reason = self._unready(shooter, weapon, tick)
            distance = 0.0
            if not reason:
                distance = hypot(target.x - shooter.x, target.z - shooter.z)
                if distance > weapon.range + (target.radius if weapon.melee else 0.0):
                    reason = "range"
                elif target.storey != shooter.storey:
                    reason = "blocked"
                else:
                    lines.setdefault(shooter.storey, []).append(k)
            distances.append(distance)
            why.append(reason)
        rolled: list[int] = []
        for storey, ks in lines.items():
            clear = world.sight.segments_clear(
                [(shots[k][0].x, shots[k][0].z, shots[k][1].x, shots[k][1].z) for k in ks],
                storey)
            for k, ok in zip(ks, clear, strict=True):
                if ok:
                    rolled.append(k)
                else:
                    why[k] = "blocked"
        if rolled:
            if len(lines) > 1:
                rolled.sort()
            rolls = world.rng.random(len(rolled)).tolist()
            atan2 = math.atan2
            for k, roll in zip(rolled, rolls, strict=True):
                shooter, target = shots[k]
                # `hit_chance` written out, the same operations in the same order.
                spread = armed[k].spread * (
                    1.0
                    + MOVING_SHOOTER_SPREAD * (shooter.vx * shooter.vx + shooter.vz * shooter.vz
                                               > 1.0)
                    + MOVING_TARGET_SPREAD * (target.vx * target.vx + target.vz * target.vz
                                              > 1.0)
                )
                skill = shooter.accuracy
                if spread <= 0.0:
                    chance = max(0.0, min(1.0, skill))
                else:
                    cover = min(1.0, atan2(target.radius, max(distances[k], 1e-6)) / spread)
                    chance = max(0.0, min(1.0, skill * cover))
                if roll >= chance:
                    why[k] = "roll"
        results: list[ShotResult | None] = []
        # The log's append with events built as `EventLog.record` builds them, without
        # its call and check per event: a fight records three events a shot.
        append = world.events.appender("shot_fired", "shot_missed", "shot_hit")
        new = tuple.__new__
        enemy_damage = world.difficulty.enemy_damage
        for k, (shooter, target) in enumerate(shots):
            if not shooter.alive or not target.alive:
                results.append(None)
                continue
            weapon, reason = armed[k], why[k]
            if reason in _NOT_FIRED:
                results.append(self._not_fired(shooter, weapon, reason))
                continue
            # `_discharge`, `_land` and `_after_shot` for an actor target, written out:
            # a fight runs this for every round fired.
            if weapon.magazine > 0:
                shooter.magazine[weapon.id] -= 1
            shooter.last_shot_tick = tick
            append(new(Event, (tick, "shot_fired", shooter.id, target.id,
                               1.0 if weapon.silenced else 0.0, weapon.id)))
            if reason:
                append(new(Event, (tick, "shot_missed", shooter.id, target.id, None, reason)))
                results.append(_result(True, reason=reason))
            else:
                append(new(Event, (tick, "shot_hit", shooter.id, target.id, None, None)))
                amount = weapon.damage
                if shooter.side == "hostile":
                    amount *= enemy_damage
                self.damage(target, amount, shooter.id)
                results.append(_HIT)
            if weapon.magazine > 0 and shooter.magazine[weapon.id] == 0:
                self._start_reload(shooter, weapon)
        return results

    def _not_fired(self, shooter: Actor, weapon: Weapon, why: str) -> ShotResult:
        if why == "no_ammo":
            self._start_reload(shooter, weapon)
            if shooter.reload_until:
                why = "reloading"
        return _result(False, reason=why)

    def _discharge(self, shooter: Actor, weapon: Weapon, target_id: str | None) -> None:
        if weapon.magazine > 0:
            shooter.magazine[weapon.id] -= 1
        shooter.last_shot_tick = self.world.tick
        self.world.emit("shot_fired", shooter.id, target_id, 1.0 if weapon.silenced else 0.0,
                        weapon.id)

    def _after_shot(self, shooter: Actor, weapon: Weapon) -> None:
        if weapon.magazine > 0 and shooter.magazine[weapon.id] == 0:
            self._start_reload(shooter, weapon)

    @staticmethod
    def _out_of_reach(weapon: Weapon, distance: float, radius: float, storey: str,
                      shooter_storey: str) -> str:
        if distance > weapon.range + (radius if weapon.melee else 0.0):
            return "range"
        return "blocked" if storey != shooter_storey else ""

    def _land(self, shooter: Actor, weapon: Weapon, target: Actor | str, target_id: str,
              why: str) -> ShotResult:
        """A fired shot's outcome: a miss for a reason, or a hit dealing damage."""
        world = self.world
        if why:
            world.emit("shot_missed", shooter.id, target_id, detail=why)
            return _result(True, reason=why)
        world.emit("shot_hit", shooter.id, target_id)
        amount = weapon.damage
        if shooter.side == "hostile":
            amount *= world.difficulty.enemy_damage
        if isinstance(target, Actor):
            self.damage(target, amount, shooter.id)
        else:
            world.items.damage(world.objects[target], amount, shooter.id)
        return _result(True, hit=True)

    def damage(self, actor: Actor, amount: float, source: str | None,
               through_armour: bool = False) -> None:
        """Take damage: armour absorbs first unless `through_armour`; health <= 0 is down."""
        if not actor.alive or amount <= 0.0:
            return
        absorbed = 0.0 if through_armour else min(actor.armour, amount)
        actor.armour -= absorbed
        actor.health -= amount - absorbed
        world = self.world
        world.events.record(world.tick, "damage_taken", actor.id, source, amount)
        if actor.health <= 0.0:
            self.down(actor, source)

    def down(self, actor: Actor, source: str | None) -> None:
        """Take an actor out: its body leaves physics; the player going down ends the world."""
        if not actor.alive:
            return
        actor.alive = False
        actor.health = min(actor.health, 0.0)
        actor.move_to = None
        self.world.physics.remove_actor(actor)
        self.world.emit("actor_down", actor.id, source)
        if actor.is_player:
            self.world.end("player_dead")
