"""Hand actions: equip, use_item_on and turn_and_use."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from world.actions.approach import facing, plan_approach, walk_within_reach
from world.actions.driver import Act, Finish, Run, Script, decided, drive
from world.actions.follow import Walker
from world.actions.places import locate
from world.actions.result import ActionResult
from world.actions.timing import Limit, limit_for, route_limit
from world.actions.walking import USE_EXTRA_S, gave_up
from world.sim.world import PlayerIntent, World

# turn_and_use picks the usable thing within reach closest to the facing direction,
# inside this half-angle.
USE_CONE = math.radians(45.0)


def equip(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Draw a carried item; the world's typed error propagates when it is not carried.

    Args:
        world: The world.
        args: item_id.

    Returns:
        The result (one tick: drawing takes a moment).
    """
    item = args["item_id"]
    pid = world.player.id

    def script(run: Run) -> Script:
        # The world checks the item before any tick runs, so a bad id costs no time.
        yield Act(lambda w: w.equip(pid, item), PlayerIntent())
        return Finish("arrived", "Now holding {item}.", {"item": item})

    return drive(world, "equip", args, script, Limit(1), gave_up)


def use_item_on(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Draw an item, walk within reach of an object and use the item on it once.

    Args:
        world: The world.
        args: item_id, object_id, time_limit_s.

    Returns:
        The result. The world's typed errors propagate for an item not carried.
    """
    item, thing = args["item_id"], args["object_id"]
    refs = {"item": item, "target": thing}
    pid = world.player.id
    world.equip(pid, item)
    goal, planned = plan_approach(world, thing)
    if isinstance(planned, Finish):
        return decided("use_item_on", args, planned)
    length = 0.0 if planned is None else planned.path.length
    limit = limit_for(args, route_limit(length, world.player.speed, USE_EXTRA_S))

    def script(run: Run) -> Script:
        walker = None if planned is None else Walker(world, goal, planned, use_on_way=True)
        finish = yield from walk_within_reach(run, walker, thing)
        if finish is not None:
            return finish
        aim = facing(world, locate(world, thing).xz)
        yield Act(lambda w: w.use_item_on(pid, item, thing), PlayerIntent(face=aim))
        return Finish("arrived", "Used {item} on {target}.", refs)

    return drive(world, "use_item_on", args, script, limit, gave_up)


def _in_direction(world: World, heading: float) -> str | None:
    # The usable door, object or character within reach nearest to the heading (then nearest).
    player = world.player
    best = None
    candidates = sorted(world.doors) + sorted(
        oid for oid, o in world.objects.items() if o.present and o.x is not None
    ) + sorted(cid for cid, a in world.characters.items() if a.alive)  # a hostage, a guide
    for thing in candidates:
        if not world.within_reach(player, thing):
            continue
        x, z = locate(world, thing).xz
        off = abs((math.atan2(z - player.z, x - player.x) - heading + math.pi)
                  % (2 * math.pi) - math.pi)
        if world.distance_to(player, thing) < player.radius + 1.0:
            off = 0.0  # standing on it: any heading will do
        if off <= USE_CONE:
            key = (off, world.distance_to(player, thing), thing)
            best = key if best is None or key < best else best
    return None if best is None else best[2]


def turn_and_use(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Face a point and press use once on what is within reach that way.

    Args:
        world: The world.
        args: x, z.

    Returns:
        The result (one tick).
    """
    heading = facing(world, (float(args["x"]), float(args["z"])))
    thing = _in_direction(world, heading)

    def script(run: Run) -> Script:
        if thing is None:
            yield PlayerIntent(face=heading)
            return Finish("arrived", "Turned; nothing usable is within reach that way.")
        yield PlayerIntent(face=heading, use=thing)
        return Finish("arrived", "Turned and pressed use on {target}.", {"target": thing})

    return drive(world, "turn_and_use", args, script, Limit(1), gave_up)
