"""Every action's executor, registered once against the catalogue, and the entry point.

`execute` is what the protocol runner calls with an action already validated against
its schema and with level ids. Typed world errors (an unknown id, an item not carried)
propagate; the runner reports them as invalid actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from world.actions.catalog import catalog
from world.actions.codes import enter_code
from world.actions.combat import attack, shoot_object
from world.actions.items import equip, turn_and_use, use_item_on
from world.actions.result import ActionResult
from world.actions.waiting import wait
from world.actions.walking import go_to, go_to_area, go_to_object
from world.errors import UnknownIdError
from world.sim.world import World

Executor = Callable[[World, Mapping[str, Any]], ActionResult]

EXECUTORS: Mapping[str, Executor] = MappingProxyType({
    "go_to": go_to,
    "go_to_area": go_to_area,
    "go_to_object": go_to_object,
    "turn_and_use": turn_and_use,
    "attack": attack,
    "shoot_object": shoot_object,
    "equip": equip,
    "use_item_on": use_item_on,
    "enter_code": enter_code,
    "wait": wait,
})


catalog().check_executors(EXECUTORS, "action executors")


def execute(world: World, name: str, args: Mapping[str, Any]) -> ActionResult:
    """Run one macro action on the world.

    Args:
        world: The world, advanced in place.
        name: A declared action name.
        args: Its arguments, already valid against the action's schema; ids are level ids.

    Returns:
        How the action ended.

    Raises:
        UnknownIdError: for an undeclared action or an id the world does not know.
        InvalidRequestError: for a request the world refuses (an item not carried).
    """
    executor = EXECUTORS.get(name)
    if executor is None:
        raise UnknownIdError("action", name, catalog().action_names)
    return executor(world, args)
