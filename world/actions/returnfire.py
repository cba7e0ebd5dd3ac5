"""Automatic return fire: during any action, a player holding a gun shoots back.

Only opponents (`World.opposes`: hostile characters, and in a match the players of the
other teams) that are attacking the player are shot at: those that fired at
or hurt the player within the last few seconds, or that the character system reports
as in combat, and only while they are in plain view. Friendly characters are never targets,
whatever stands next to them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from world.sim.actors import Actor
from world.sim.clock import seconds_to_ticks
from world.sim.events import Event
from world.sim.intent import Minds
from world.sim.world import World

# How long a character that shot at the player still counts as attacking.
ATTACK_MEMORY_S = 3.0

# Event kind -> (which field names the attacker, which names the victim).
_ATTACK_EVENTS: dict[str, tuple[str, str]] = {
    "shot_fired": ("subject", "other"),
    "shot_hit": ("subject", "other"),
    "shot_missed": ("subject", "other"),
    "damage_taken": ("other", "subject"),
}

# Alert levels a character system may report (through an `alertness(actor_id)` method)
# that mean the character is fighting.
_COMBAT_ALERTS = frozenset({"in_combat"})


def gun_problem(world: World, actor: Actor) -> str | None:
    """Why the actor cannot shoot, or None when it holds a weapon with rounds left.

    Args:
        world: The world.
        actor: The actor (usually the player).

    Returns:
        A plain-words reason, or None.
    """
    if actor.weapon is None:
        return "the player holds no weapon"
    spec = world.combat.weapon_of(actor)
    if spec.magazine > 0 and (
        actor.magazine.get(spec.id, 0) + actor.ammo.get(spec.id, 0) <= 0
    ):
        return f"the {spec.id} in hand has no ammunition left"
    return None


def holds_gun(world: World, actor: Actor) -> bool:
    """Whether the actor holds a ranged weapon with rounds left."""
    return gun_problem(world, actor) is None and not world.combat.weapon_of(actor).melee


class ReturnFire:
    """Remembers who attacks the player and picks whom to shoot back at."""

    def __init__(self, world: World) -> None:
        """Start watching, remembering attacks from the last few seconds."""
        self.world = world
        self.memory = seconds_to_ticks(ATTACK_MEMORY_S)
        self.last_attack: dict[str, int] = {}
        # The characters system's alertness and list of fighters, if the world has one:
        # most ticks of a calm mission then cost one short scan instead of a sight test
        # per hostile.
        self._alertness = world.minds.alertness if world.minds is not None else None
        self._fighting: Minds | None = world.minds
        recent = []
        for i in range(len(world.events) - 1, -1, -1):
            event = world.events[i]
            if event.tick < world.tick - self.memory:
                break
            recent.append(event)
        self.observe(recent[::-1])

    def observe(self, events: Sequence[Event]) -> None:
        """Note attacks on the player among new events."""
        pid = self.world.player.id
        for e in events:
            roles = _ATTACK_EVENTS.get(e.kind)
            if roles is None:
                continue
            attacker, victim = getattr(e, roles[0]), getattr(e, roles[1])
            if victim == pid and attacker is not None and attacker != pid:
                self.last_attack[attacker] = e.tick

    def _attacking(self, actor: Actor) -> bool:
        since = self.last_attack.get(actor.id)
        if since is not None and self.world.tick - since <= self.memory:
            return True
        return self._alertness is not None and self._alertness(actor.id) in _COMBAT_ALERTS

    def _suspects(self) -> list[str]:
        """Ids that may be attacking, in id order: all characters without a fighters list."""
        if self._fighting is None:
            return sorted(self.world.characters)
        tick, memory = self.world.tick, self.memory
        ids = {cid for cid, since in self.last_attack.items() if tick - since <= memory}
        ids.update(self._fighting.fighting())
        return sorted(ids)

    def target(self) -> str | None:
        """The nearest visible opponent attacking the player, if the player holds a gun."""
        world, player = self.world, self.world.player
        if not player.alive or not holds_gun(world, player):
            return None
        best: tuple[float, str] | None = None
        chars = world.characters
        for cid in self._suspects():
            ch = chars.get(cid)
            if ch is None:
                continue
            if not self.world.opposes(ch) or not ch.alive or ch.storey != player.storey:
                continue
            if not self._attacking(ch):
                continue
            if not world.line_of_sight(player.position, ch.position, player.storey):
                continue
            d = math.hypot(ch.x - player.x, ch.z - player.z)
            if best is None or d < best[0]:
                best = (d, cid)
        return None if best is None else best[1]
