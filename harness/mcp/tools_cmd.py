"""`harness tools`: the action tools in the function-calling dialect of a model's API.

The tools are those the start message sends (the track's actions, each from the one
action catalogue); only their wrapping changes with the dialect:

- openai: chat-completions `tools` as `start` has them;
- openai-strict: the same with `strict: true`, whose schemas OpenAI restricts: every
  property is required (an optional one takes null as well), every object closes with
  `additionalProperties: false`, and keywords strict mode does not take (length and
  range bounds) are dropped from the schema and restated in the property's description;
- anthropic: the Messages API's `name`, `description`, `input_schema`;
- mcp: a Model Context Protocol tool's `name`, `description`, `inputSchema`.

A strict-mode model fills optional arguments with null; an agent drops the nulls before
it sends the action, since the action schema does not take null for them.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from harness.core.tracks import TRACKS, TrackSpec
from world.face import ActionSpec

# Keywords OpenAI's strict mode is documented not to take, each with the words that
# restate it in a description (the harness still checks the bound on every action).
STRICT_DROPPED: Mapping[str, str] = {
    "minLength": "at least {} characters",
    "maxLength": "at most {} characters",
    "pattern": "matching {}",
    "format": "format {}",
    "minimum": "at least {}",
    "exclusiveMinimum": "more than {}",
    "maximum": "at most {}",
    "exclusiveMaximum": "less than {}",
    "multipleOf": "a multiple of {}",
    "minItems": "at least {} items",
    "maxItems": "at most {} items",
    "uniqueItems": "items unique: {}",
    "default": "default {}",
}


def _strict_property(schema: Mapping[str, Any], required: bool) -> dict[str, Any]:
    out = {k: copy.deepcopy(v) for k, v in schema.items() if k not in STRICT_DROPPED}
    bounds = [words.format(json.dumps(schema[k])) for k, words in STRICT_DROPPED.items()
              if k in schema]
    if bounds:
        text = str(out.get("description", "")).rstrip(".")
        out["description"] = f"{text} ({'; '.join(bounds)})." if text else "; ".join(bounds)
    if out.get("type") == "object":
        out = strict_schema(out)
    if not required:
        kind = out.get("type")
        kinds = list(kind) if isinstance(kind, list) else [kind] if kind else []
        if kinds and "null" not in kinds:
            out["type"] = [*kinds, "null"]
    return out


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """An object schema rewritten for OpenAI's strict mode.

    Args:
        schema: A JSON Schema of type object.

    Returns:
        Every property required, the optional ones nullable, no extra keys allowed and
        no keyword strict mode refuses.
    """
    properties = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    out = {k: copy.deepcopy(v) for k, v in schema.items()
           if k not in ("properties", "required", "additionalProperties")
           and k not in STRICT_DROPPED}
    out["properties"] = {name: _strict_property(prop, name in required)
                         for name, prop in properties.items()}
    out["required"] = list(properties)
    out["additionalProperties"] = False
    return out


def _openai(action: ActionSpec) -> dict[str, Any]:
    return action.tool_definition()


def _openai_strict(action: ActionSpec) -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": action.name, "description": action.description, "strict": True,
        "parameters": strict_schema(action.arguments_schema())}}


def _anthropic(action: ActionSpec) -> dict[str, Any]:
    return {"name": action.name, "description": action.description,
            "input_schema": action.arguments_schema()}


def _mcp(action: ActionSpec) -> dict[str, Any]:
    return {"name": action.name, "title": action.name.replace("_", " ").capitalize(),
            "description": action.description, "inputSchema": action.arguments_schema()}


@dataclass(frozen=True)
class Dialect:
    """One function-calling dialect: how an action becomes a tool, and what it is."""

    render: Callable[[ActionSpec], dict[str, Any]]
    help: str


DIALECTS: Mapping[str, Dialect] = {
    "openai": Dialect(_openai, "chat-completions tools, as the start message has them"),
    "openai-strict": Dialect(_openai_strict, "chat-completions tools with strict: true"),
    "anthropic": Dialect(_anthropic, "Anthropic Messages API tools"),
    "mcp": Dialect(_mcp, "Model Context Protocol tools (tools/list)"),
}


def tools(dialect: str, track: str = "macro") -> list[dict[str, Any]]:
    """The track's action tools in one dialect, in the catalogue's order.

    Raises:
        KeyError: Unknown dialect (the parser offers only known ones).
    """
    render = DIALECTS[dialect].render
    return [render(action) for action in TrackSpec(track).actions()]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the command's arguments."""
    choices = ", ".join(f"{name} ({d.help})" for name, d in DIALECTS.items())
    parser.add_argument("--format", choices=list(DIALECTS), default="openai",
                        help=f"the dialect: {choices}; default openai")
    parser.add_argument("--track", choices=list(TRACKS), default="macro",
                        help="whose actions: the track's (default macro)")


def run(args: argparse.Namespace) -> int:
    """Print the tools as a JSON list; always 0."""
    json.dump(tools(args.format, args.track), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
