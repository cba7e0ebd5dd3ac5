"""Friendly characters: civilians who flee gunfire, people who follow, allies on a route.

`FLEES` says which kinds run from gunfire. Everyone else keeps to their routine (stay,
follow, route...) from `routines.ROUTINES`; using a `follow_on_use` character (or any
character that waits, such as a hostage) makes it follow the player.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from world.characters import walker
from world.characters.mind import Mind, Point3
from world.characters.routines import ROUTINES
from world.characters.tuning import FLEE_DISTANCE, FLEE_S
from world.sim.clock import seconds_to_ticks

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem
    from world.sim.actors import Actor

# Kinds that run from gunfire they hear; the value is how far they try to get.
FLEES: dict[str, float] = {"civilian": FLEE_DISTANCE, "courier": FLEE_DISTANCE}
# Behaviours that start following the player when the player uses the character.
FOLLOW_WHEN_USED: frozenset[str] = frozenset({"follow_on_use"})


def frighten(sys: CharactersSystem, actor: Actor, mind: Mind, source: Point3) -> None:
    """React to gunfire heard: kinds that flee start running from its source."""
    if actor.kind not in FLEES:
        return
    mind.last_known = source
    mind.until = sys.world.tick + seconds_to_ticks(FLEE_S)
    if mind.activity != "fleeing":
        mind.activity = "fleeing"
        mind.clear_path()


def used_by_player(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """The player pressed use on the character: those who wait to be led now follow."""
    if mind.behaviour not in FOLLOW_WHEN_USED or mind.following:
        return
    mind.following = True
    mind.done = False
    sys.world.emit("character_followed", actor.id, "player")


def _flee(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    world = sys.world
    if mind.waypoints:
        return
    sx, _, sz = mind.last_known if mind.last_known is not None else actor.position
    away = math.atan2(actor.z - sz, actor.x - sx)
    # Try straight away from the shot first, then ever wider angles either side.
    for turn in (0.0, 0.6, -0.6, 1.2, -1.2, 2.0, -2.0):
        distance = FLEES[actor.kind]
        goal = (actor.x + math.cos(away + turn) * distance, actor.y,
                actor.z + math.sin(away + turn) * distance)
        near = world.paths.nearest_reachable(goal, actor.position, distance * 0.6,
                                             world.blocked_doors(actor.id))
        if near is not None and math.dist(near[0], (sx, near[0][1], sz)) > math.hypot(
            actor.x - sx, actor.z - sz
        ):
            walker.plan(world, actor, mind, near[0], force=True)
            return


def decide(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """One decision of a friendly character."""
    if mind.activity == "fleeing":
        if sys.world.tick < mind.until:
            _flee(sys, actor, mind)
            return
        mind.activity = "calm"
        walker.stop(actor, mind)
    ROUTINES[mind.behaviour](sys, actor, mind)
