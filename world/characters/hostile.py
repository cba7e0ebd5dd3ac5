"""Hostile characters: how each alertness level turns into action, and shooting.

`REACTIONS` holds one function per alertness rank (in the order of the alertness
table): routine when unaware, a look toward the disturbance when suspicious, an
investigation and search when alerted, a fight when in combat.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from world.characters import walker
from world.characters.mind import Mind
from world.characters.perception import heading
from world.characters.routines import ROUTINES
from world.characters.tuning import (
    FIGHT_RANGE,
    MELEE_FRACTION,
    RANGE_FRACTION,
    SEARCH_RADIUS,
    SEARCH_S,
)
from world.sim.actors import PLAYER_ID
from world.sim.clock import seconds_to_ticks

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem
    from world.sim.actors import Actor

Reaction = Callable[["CharactersSystem", "Actor", Mind], None]


def routine(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Nothing wrong: do what the level says this character does."""
    mind.target = None
    ROUTINES[mind.behaviour](sys, actor, mind)


def look(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Something caught the eye or ear: stop and turn toward it."""
    mind.target = None
    walker.stop(actor, mind)
    mind.activity = "looking"
    if mind.last_known is not None:
        actor.facing = heading(actor.x, actor.z, mind.last_known[0], mind.last_known[2])


def _search(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Walk to random spots around the last known position."""
    world = sys.world
    mind.activity = "searching"
    if mind.until == 0 or mind.until < world.tick - seconds_to_ticks(SEARCH_S):
        mind.until = world.tick + seconds_to_ticks(SEARCH_S)
    if mind.waypoints:
        return
    cx, cy, cz = mind.last_known if mind.last_known is not None else mind.post
    angle = float(world.rng.uniform(-math.pi, math.pi))
    reach = float(world.rng.uniform(0.3, 1.0)) * SEARCH_RADIUS
    walker.plan(world, actor, mind, (cx + math.cos(angle) * reach, cy,
                                     cz + math.sin(angle) * reach), force=True)


def investigate(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Alerted: go to where the player or the noise was, then search around it."""
    mind.target = None
    if mind.last_known is None:
        routine(sys, actor, mind)
        return
    if mind.activity in ("searching",) or walker.arrived(actor, mind, mind.last_known, 80.0):
        _search(sys, actor, mind)
        return
    mind.activity = "investigating"
    walker.plan(sys.world, actor, mind, mind.last_known)


def engage(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """In combat: close to a firing position with a clear line and shoot; pursue if lost."""
    world = sys.world
    if mind.target is None:
        mind.target = PLAYER_ID
    target = world.player if mind.target == PLAYER_ID else world.characters.get(mind.target)
    if target is None or not target.alive:
        mind.target, mind.sees = None, False
    if not mind.sees or mind.last_known is None or target is None:
        if mind.last_known is None:
            _search(sys, actor, mind)
            return
        if mind.activity == "searching" or walker.arrived(actor, mind, mind.last_known, 80.0):
            _search(sys, actor, mind)
            return
        mind.activity = "pursuing"
        walker.plan(world, actor, mind, mind.last_known)
        return
    mind.activity = "fighting"
    actor.facing = heading(actor.x, actor.z, target.x, target.z)
    # Unarmed characters fight with the world's bare-hands weapon, so they close right in.
    weapon = world.combat.weapon_of(actor)
    reach = min(FIGHT_RANGE, weapon.range * (MELEE_FRACTION if weapon.melee else RANGE_FRACTION))
    if math.hypot(actor.x - target.x, actor.z - target.z) > reach:
        walker.plan(world, actor, mind, target.position)
    else:
        walker.stop(actor, mind)


REACTIONS: tuple[Reaction, ...] = (routine, look, investigate, engage)
