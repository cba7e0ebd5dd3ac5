"""What a template declares, and helpers to declare parameters.

Its name, mission kind, one-line description, parameters (a JSON Schema per parameter,
with type, range and default) and the function that builds a level dict from the
level's one generator and the parameters.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Params = Mapping[str, Any]
Build = Callable[[random.Random, str, Params], dict[str, Any]]


@dataclass(frozen=True)
class Template:
    """One mission template.

    Attributes:
        name: The name used in `TEMPLATE@SEED` (snake_case).
        kind: The mission kind, as docs and listings group templates.
        description: One line saying what the mission asks.
        params: Parameter name -> JSON Schema (type, minimum/maximum or enum, default,
            description); the one declaration of what may be set and what it does.
        categories: The task categories of its levels, most important first.
        build: (generator, level id, parameters with defaults filled) -> level dict.
        match: Its levels are match levels (the multiplayer track, `harness match`), not
            one agent's missions: mission sweeps and the procedural environments leave
            it out.
    """

    name: str
    kind: str
    description: str
    params: Mapping[str, Mapping[str, Any]]
    categories: tuple[str, ...]
    build: Build
    match: bool = False

    def schema(self) -> dict[str, Any]:
        """The parameters as one JSON Schema object (no other parameters allowed)."""
        return {"type": "object", "additionalProperties": False,
                "properties": {k: dict(v) for k, v in self.params.items()}}

    def defaults(self) -> dict[str, Any]:
        """Every parameter's default."""
        return {k: v["default"] for k, v in self.params.items()}


def int_param(low: int, high: int, default: int, description: str) -> dict[str, Any]:
    """An integer parameter's schema."""
    return {"type": "integer", "minimum": low, "maximum": high, "default": default,
            "description": description}


def number_param(low: float, high: float, default: float, description: str) -> dict[str, Any]:
    """A number parameter's schema."""
    return {"type": "number", "minimum": low, "maximum": high, "default": default,
            "description": description}


def describe_param(name: str, schema: Mapping[str, Any]) -> str:
    """One parameter as `name (integer 4..30, default 10)`."""
    if "enum" in schema:
        allowed = "|".join(str(v) for v in schema["enum"])
        return f"{name} ({allowed}, default {schema['default']})"
    if schema["type"] == "boolean":
        return f"{name} (true|false, default {str(schema['default']).lower()})"
    return (f"{name} ({schema['type']} {schema['minimum']}..{schema['maximum']}, "
            f"default {schema['default']})")
