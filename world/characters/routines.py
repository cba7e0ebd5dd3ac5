"""What a calm character does: one routine per behaviour name of the level format.

`ROUTINES` maps each behaviour the level schema allows to the function that runs it when
the character has nothing more pressing to do (no threat, no fear).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from world.characters import walker
from world.characters.mind import Mind
from world.characters.tuning import FOLLOW_FAR, FOLLOW_NEAR, IDLE_PAUSE_S, IDLE_RADIUS
from world.sim.clock import seconds_to_ticks

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem
    from world.sim.actors import Actor

Routine = Callable[["CharactersSystem", "Actor", Mind], None]


def _post(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Walk back to the post if away from it, then face the way the level says."""
    if math.hypot(actor.x - mind.post[0], actor.z - mind.post[2]) > walker.ARRIVE * 2:
        mind.activity = "returning"
        walker.plan(sys.world, actor, mind, mind.post)
        return
    walker.stop(actor, mind)
    actor.facing = mind.post_facing
    mind.activity = "at_post"


def guard(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Hold the post."""
    _post(sys, actor, mind)


def stay(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Never move on one's own (a hostage, a scientist waiting to be led)."""
    if mind.following:
        follow(sys, actor, mind)
        return
    walker.stop(actor, mind)
    mind.activity = "waiting"


def patrol(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Walk the route in a loop."""
    if not mind.route:
        _post(sys, actor, mind)
        return
    mind.activity = "patrolling"
    x, z = mind.route[mind.route_index % len(mind.route)]
    storey = sys.route_storey(mind, mind.route_index % len(mind.route))
    goal = walker.goal_of(sys.world, x, z, storey)
    if math.hypot(actor.x - x, actor.z - z) <= walker.ARRIVE * 2:
        mind.route_index = (mind.route_index + 1) % len(mind.route)
        x, z = mind.route[mind.route_index]
        goal = walker.goal_of(sys.world, x, z, sys.route_storey(mind, mind.route_index))
    walker.plan(sys.world, actor, mind, goal)


def idle(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Wander near the post, pausing between strolls."""
    mind.activity = "idling"
    if mind.waypoints or sys.world.tick < mind.until:
        return
    rng = sys.world.rng
    angle = float(rng.uniform(-math.pi, math.pi))
    reach = float(rng.uniform(0.3, 1.0)) * IDLE_RADIUS
    x = mind.post[0] + math.cos(angle) * reach
    z = mind.post[2] + math.sin(angle) * reach
    walker.plan(sys.world, actor, mind, (x, mind.post[1], z), force=True)
    mind.until = sys.world.tick + seconds_to_ticks(IDLE_PAUSE_S * float(rng.uniform(0.5, 1.5)))


def follow(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Keep close to the player, through doors and up stairs."""
    player = sys.world.player
    mind.activity = "following"
    dist = math.hypot(actor.x - player.x, actor.z - player.z)
    if dist <= FOLLOW_NEAR or (not mind.waypoints and dist <= FOLLOW_FAR):
        walker.stop(actor, mind)
        return
    walker.plan(sys.world, actor, mind, player.position)


def follow_on_use(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Wait until the player uses the character, then follow."""
    stay(sys, actor, mind)


def follow_player(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Follow the player from the start."""
    mind.following = True
    follow(sys, actor, mind)


def route(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Walk the route once to its end; entering the destination area ends the walk."""
    if mind.following:
        follow(sys, actor, mind)
        return
    if mind.done:
        walker.stop(actor, mind)
        mind.activity = "arrived"
        return
    destination = sys.template(actor).destination
    if destination is not None and actor.area == destination:
        mind.done = True
        walker.stop(actor, mind)
        mind.activity = "arrived"
        sys.world.emit("destination_reached", actor.id, destination)
        return
    if mind.route_index >= len(mind.route):
        if destination is None:
            mind.done = True
            mind.activity = "arrived"
            sys.world.emit("destination_reached", actor.id, actor.area)
            return
        goal = sys.area_centre(destination)
    else:
        x, z = mind.route[mind.route_index]
        goal = walker.goal_of(sys.world, x, z, sys.route_storey(mind, mind.route_index))
        if math.hypot(actor.x - x, actor.z - z) <= walker.ARRIVE * 2:
            mind.route_index += 1
            route(sys, actor, mind)
            return
    mind.activity = "walking_route"
    walker.plan(sys.world, actor, mind, goal)


def roam(sys: CharactersSystem, actor: Actor, mind: Mind) -> None:
    """Wander the level toward pickups and open ground (arena bots)."""
    sys.bots.roam(sys, actor, mind)


ROUTINES: dict[str, Routine] = {
    "guard": guard,
    "patrol": patrol,
    "idle": idle,
    "stay": stay,
    "follow_on_use": follow_on_use,
    "follow_player": follow_player,
    "route": route,
    "roam": roam,
}
