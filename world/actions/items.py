"""Hand actions: equip, use_item_on and turn_and_use."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from world.actions.approach import (
    facing,
    target_gone,
    walk_within_reach,
    where_it_lay,
)
from world.actions.driver import Act, Finish, Run, Script, drive
from world.actions.places import locate, required_args
from world.actions.result import ActionResult
from world.actions.routes import known_of
from world.actions.timing import Limit
from world.actions.walking import Approach, approach_thing, gave_up
from world.errors import WorldError
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
        in_hand = world.player.in_hand == item
        yield Act(lambda w: w.equip(pid, item), PlayerIntent())
        if in_hand and world.player.reload_until:
            return Finish("arrived", "Reloading {item}.", {"item": item})
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
    # Everything but the distance is checked before anything changes: an item that
    # cannot work there is refused now, not after the walk.
    world.check_item_on(pid, item, thing, reach=False)
    walk_to = approach_thing(world, "use_item_on", args, thing, refs)
    if not isinstance(walk_to, Approach):
        return walk_to

    def still_there() -> Finish | None:
        try:
            world.check_item_on(pid, item, thing, reach=False)
        except WorldError as exc:
            why = str(exc).replace("{", "{{").replace("}", "}}")
            return Finish("target_gone", f"Stopped: {{item}} can no longer be used there "
                          f"({why}).", refs)
        return target_gone(world, thing)

    def script(run: Run) -> Script:
        finish = yield from walk_within_reach(run, walk_to.walker(world), thing, still_there)
        if finish is not None:
            return finish
        aim = facing(world, where_it_lay(world, thing).xz)
        yield Act(lambda w: w.use_item_on(pid, item, thing), PlayerIntent(face=aim))
        return Finish("arrived", "Used {item} on {target}.", refs)

    return drive(world, "use_item_on", args, _drawn_first(world, item, script), walk_to.limit,
                 gave_up)


def _drawn_first(
    world: World, item: str, script: Callable[[Run], Script]
) -> Callable[[Run], Script]:
    # The item is drawn just before the first tick, so an action that ends before any
    # tick (unreachable, refused) leaves the world untouched.
    pid = world.player.id

    def drawn(run: Run) -> Script:
        steps = script(run)
        try:
            step = next(steps)
        except StopIteration as stop:
            return stop.value
        call, intent = (step.call, step.intent) if isinstance(step, Act) else (None, step)

        def draw_then(w: World) -> None:
            w.equip(pid, item)
            if call is not None:
                call(w)

        step = Act(draw_then, intent)
        while True:
            yield step
            try:
                step = steps.send(None)
            except StopIteration as stop:
                return stop.value

    return drawn


def _in_direction(world: World, heading: float) -> str | None:
    # The usable door, object or character within reach nearest to the heading (then nearest).
    # Only what the player knows is pressed: never a hidden passage not yet revealed (a
    # wall to it), nor a thing it has not seen.
    player = world.player
    best = None
    known = known_of(world)
    candidates = sorted(i for i, d in world.doors.items() if d.revealed) + sorted(
        oid for oid, o in world.objects.items() if o.present and o.x is not None
        and (known is None or oid in known.objects)
    ) + sorted(cid for cid, a in world.characters.items() if a.alive and (
        known is None or cid in known.characters))  # a hostage, a guide
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
    x, z = required_args(args, "x", "z")
    heading = facing(world, (x, z))
    thing = _in_direction(world, heading)

    def script(run: Run) -> Script:
        if thing is None:
            yield PlayerIntent(face=heading)
            return Finish("arrived", "Turned; nothing usable is within reach that way.")
        yield PlayerIntent(face=heading, use=thing)
        return Finish("arrived", "Turned and pressed use on {target}.", {"target": thing})

    return drive(world, "turn_and_use", args, script, Limit(1), gave_up)
