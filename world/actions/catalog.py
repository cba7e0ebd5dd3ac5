"""The declared macro actions and end reasons, read from schemas/actions.json.

Everything that names an action or an end reason (the executors' registry, the tool
definitions in `start`, the action message schema, PROTOCOL.md's tables, run pages)
derives from this one declaration.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from world.data_paths import SCHEMA_DIR

ACTIONS_FILE = SCHEMA_DIR / "actions.json"
# How a run page colours an end reason (its `tone`): done as asked; stopped because the
# mission moved on; stopped short, worth another try; failed or refused.
TONES = ("ok", "good", "warn", "bad")


@dataclass(frozen=True)
class ActionSpec:
    """One macro action as declared: its name, words and argument schema."""

    name: str
    summary: str
    description: str
    walking: bool
    parameters: MappingProxyType
    required: tuple[str, ...]

    def arguments_schema(self) -> dict[str, Any]:
        """JSON Schema of this action's arguments object (no extra keys allowed)."""
        return {
            "type": "object",
            "properties": json.loads(json.dumps(dict(self.parameters))),
            "required": list(self.required),
            "additionalProperties": False,
        }

    def tool_definition(self) -> dict[str, Any]:
        """The action as a tool definition in the common LLM function-calling shape."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.arguments_schema(),
            },
        }


@dataclass(frozen=True)
class EndReason:
    """One way a macro action can end.

    `summary` says what it means; `plain` is the few words a run page shows a person
    instead of the code; `tone` is how the page colours it (one of `TONES`).
    """

    name: str
    summary: str
    plain: str
    tone: str


@dataclass(frozen=True)
class Catalog:
    """Every declared action and end reason, in declaration order."""

    actions: tuple[ActionSpec, ...]
    end_reasons: tuple[EndReason, ...]
    time_cap_s: float

    def action(self, name: str) -> ActionSpec:
        """The action with this name (KeyError if none)."""
        return {a.name: a for a in self.actions}[name]

    @property
    def action_names(self) -> tuple[str, ...]:
        """Action names in declaration order."""
        return tuple(a.name for a in self.actions)

    @property
    def end_reason_names(self) -> tuple[str, ...]:
        """End reason names in declaration order."""
        return tuple(r.name for r in self.end_reasons)

    def tool_definitions(self) -> list[dict[str, Any]]:
        """Tool definitions for every action, in declaration order."""
        return [a.tool_definition() for a in self.actions]

    def check_executors(self, executors: Iterable[str], whose: str) -> None:
        """Fail loudly when a table of executors and the declared actions differ.

        An action declared but missing an executor would reach the world as a lookup
        error, a harness failure an agent could cause at will.

        Raises:
            RuntimeError: naming the actions missing an executor and the extra executors.
        """
        declared, registered = set(self.action_names), set(executors)
        if declared != registered:
            raise RuntimeError(
                f"{whose} out of step with the catalogue: missing "
                f"{sorted(declared - registered)}, undeclared {sorted(registered - declared)}"
            )


REFLEX_ARGUMENT = "return_fire"


def reflex_on(action: str, args: Mapping[str, Any]) -> bool:
    """Whether the player shoots back at attackers during this action (the reflex rule).

    Always in a fighting action, one whose declaration takes no `return_fire` (`attack`,
    `shoot_object`); in any other only when its arguments ask (`return_fire: true`).
    PROTOCOL.md, "What the player does by reflex".
    """
    if REFLEX_ARGUMENT not in catalog().action(action).parameters:
        return True
    return bool(args.get(REFLEX_ARGUMENT, False))


@cache
def catalog() -> Catalog:
    """Load the declaration once per process."""
    raw = json.loads(ACTIONS_FILE.read_text(encoding="utf-8"))
    actions = tuple(
        ActionSpec(
            name=a["name"],
            summary=a["summary"],
            description=a["description"],
            walking=a["walking"],
            parameters=MappingProxyType(a["parameters"]),
            required=tuple(a["required"]),
        )
        for a in raw["actions"]
    )
    reasons = tuple(EndReason(r["name"], r["summary"], r["plain"], r["tone"])
                    for r in raw["end_reasons"])
    for r in reasons:
        if r.tone not in TONES:
            raise ValueError(f"{ACTIONS_FILE.name}: end reason {r.name!r}: tone {r.tone!r} "
                             f"is not one of {', '.join(TONES)}")
    return Catalog(actions=actions, end_reasons=reasons, time_cap_s=float(raw["time_cap_s"]))
