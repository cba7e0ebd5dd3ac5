"""The code action: walk up to a keypad and key in a code (protocol version 2, issue 37)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from world.actions.approach import (
    facing,
    known_gone,
    plan_approach,
    target_gone,
    walk_within_reach,
    where_it_lay,
)
from world.actions.driver import Act, Finish, Run, Script, decided, drive
from world.actions.follow import Walker
from world.actions.result import ActionResult
from world.actions.timing import limit_for, route_limit
from world.actions.walking import USE_EXTRA_S, gave_up
from world.sim.world import PlayerIntent, World

# What the keypad's answer says, by outcome. A wrong code says only that it was wrong
# and how many tries remain (the keypad's counter), never which digits were wrong.
ANSWERS = {
    "accepted": "The keypad {target} accepted the code.",
    "refused": "The keypad {target} refused the code; {left} more wrong code(s) lock it out.",
    "locked_out": "The keypad {target} is locked out and takes no code.",
}
LOCKED_NOW = "The keypad {target} refused the code and locked out for good."


def enter_code(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Walk within reach of a keypad and enter a code once.

    Args:
        world: The world.
        args: object_id, code, time_limit_s.

    Returns:
        The result; its sentence says whether the keypad accepted the code. The world's
        typed error propagates for an object that is not a keypad.
    """
    thing, code = args["object_id"], args["code"]
    refs = {"target": thing}
    pid = world.player.id
    world.check_code_on(pid, thing, reach=False)
    gone = known_gone(world, thing)
    if gone is not None:
        return decided("enter_code", args, Finish("refused", gone + ".", refs))
    goal, planned = plan_approach(world, thing)
    if isinstance(planned, Finish):
        return decided("enter_code", args, planned)
    length = 0.0 if planned is None else planned.path.length
    limit = limit_for(args, route_limit(length, world.player.speed, USE_EXTRA_S))
    outcome: list[str] = []

    def script(run: Run) -> Script:
        walker = None if planned is None or goal is None else Walker(world, goal, planned,
                                                                     use_on_way=True)
        finish = yield from walk_within_reach(run, walker, thing, lambda: target_gone(world, thing))
        if finish is not None:
            return finish
        aim = facing(world, where_it_lay(world, thing).xz)
        yield Act(lambda w: outcome.append(w.enter_code(pid, thing, code)), PlayerIntent(face=aim))
        keypad = world.objects[thing]
        said = outcome[0] if outcome else "locked_out"
        if said == "refused" and keypad.locked_out:
            return Finish("arrived", LOCKED_NOW, refs)
        left = keypad.spec.attempts - keypad.wrong_codes
        return Finish("arrived", ANSWERS[said].replace("{left}", str(left)), refs)

    return drive(world, "enter_code", args, script, limit, gave_up)
