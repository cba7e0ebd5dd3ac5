"""The code action: walk up to a keypad and key in a code (protocol version 2, issue 37)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from world.actions.approach import (
    facing,
    target_gone,
    walk_within_reach,
    where_it_lay,
)
from world.actions.driver import Act, Finish, Run, Script, drive
from world.actions.result import ActionResult
from world.actions.walking import Approach, approach_thing, gave_up
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
    walk_to = approach_thing(world, "enter_code", args, thing, refs)
    if not isinstance(walk_to, Approach):
        return walk_to
    outcome: list[str] = []

    def script(run: Run) -> Script:
        finish = yield from walk_within_reach(run, walk_to.walker(world), thing,
                                              lambda: target_gone(world, thing))
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

    return drive(world, "enter_code", args, script, walk_to.limit, gave_up)
