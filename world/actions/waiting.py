"""The wait action: let game time pass, standing still."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from world.actions.driver import Finish, Run, Script, drive
from world.actions.result import ActionResult
from world.actions.timing import explicit
from world.sim.world import World


def wait(world: World, args: Mapping[str, Any]) -> ActionResult:
    """Stand still for a number of game seconds (capped), unless interrupted.

    Args:
        world: The world.
        args: seconds.

    Returns:
        The result; running the full time counts as arrived (the job is done).
    """
    limit = explicit(float(args["seconds"]))

    def script(run: Run) -> Script:
        while True:
            yield None

    def done(run: Run) -> Finish:
        return Finish("arrived", f"Waited {limit.seconds:g} s.")

    return drive(world, "wait", args, script, limit, done)
