"""The reference agent asks for return fire on every action that takes the argument.

The player fires only when its action is a fighting one or asks to (PROTOCOL.md, "What
the player does by reflex"). The reference agent's tactics were written when the player
shot back at attackers during every action, so it asks for that reflex everywhere it can;
which actions take `return_fire` is read from the tool definitions in `start`, never
assumed. Kept apart from the tactics (brain, fight, cover...) so that it stays one rule.
"""

from __future__ import annotations

from typing import Any

Decision = tuple[str, dict[str, Any], str]
REFLEX_ARGUMENT = "return_fire"


def reflex_actions(start: dict[str, Any]) -> frozenset[str]:
    """The actions whose tool definition in `start` takes `return_fire`."""
    names = set()
    for tool in start.get("tools") or ():
        function = tool.get("function") or {}
        properties = (function.get("parameters") or {}).get("properties") or {}
        if REFLEX_ARGUMENT in properties:
            names.add(function.get("name"))
    return frozenset(n for n in names if isinstance(n, str))


def with_reflex(decision: Decision, start: dict[str, Any]) -> Decision:
    """The decision with `return_fire` set, when its action takes it and it is not given."""
    action, args, why = decision
    if action not in reflex_actions(start) or REFLEX_ARGUMENT in args:
        return decision
    return action, {**args, REFLEX_ARGUMENT: True}, why
