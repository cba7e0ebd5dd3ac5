"""The rules each function-calling dialect sets for a tool, written as small checkers.

Read from the dialects' own documentation:
- OpenAI chat completions, `tools[].function`: `name` of a-z, A-Z, 0-9, underscores
  and dashes, at most 64 characters; `description` a string; `parameters` a JSON Schema
  object.
- OpenAI strict mode ("Structured Outputs", supported schemas): `strict: true`; the
  root is an object (not anyOf); every object sets `additionalProperties: false` and
  lists every property in `required` (optional ones are a union with null); only the
  supported keywords (type, description, properties, required, additionalProperties,
  enum, const, anyOf, items, $ref, $defs); at most 100 properties and 5 levels of
  nesting (the limits first published; later ones are larger).
- Anthropic Messages API, `tools[]`: `name` matching ^[a-zA-Z0-9_-]{1,64}$,
  `description`, `input_schema` a JSON Schema whose type is object.
- Model Context Protocol, `Tool` in tools/list: `name` of 1 to 128 characters from
  A-Z, a-z, 0-9, `_`, `-`, `.`; optional `title` and `description` strings;
  `inputSchema` a JSON Schema object with `type: "object"`; no other keys than the
  spec's (`outputSchema`, `annotations`, `_meta`).
Each checker returns the problems found (empty when the tool follows the rules).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from jsonschema import Draft202012Validator, SchemaError

OPENAI_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MCP_NAME = re.compile(r"^[a-zA-Z0-9_.-]{1,128}$")
STRICT_KEYWORDS = frozenset({"type", "description", "properties", "required",
                             "additionalProperties", "enum", "const", "anyOf", "items",
                             "$ref", "$defs", "title"})
STRICT_TYPES = frozenset({"string", "number", "boolean", "integer", "object", "array",
                          "null"})
STRICT_MAX_PROPERTIES = 100
STRICT_MAX_DEPTH = 5


def _keys(tool: Mapping[str, Any], required: set[str], allowed: set[str], where: str
          ) -> list[str]:
    problems = [f"{where}: missing {k!r}" for k in sorted(required - set(tool))]
    problems += [f"{where}: unexpected key {k!r}" for k in sorted(set(tool) - allowed)]
    return problems


def _object_schema(schema: Any, where: str) -> list[str]:
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        return [f"{where}: not a JSON Schema of type object"]
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return [f"{where}: invalid JSON Schema: {exc.message}"]
    return []


def check_openai(tool: Mapping[str, Any]) -> list[str]:
    """Problems of one chat-completions tool."""
    problems = _keys(tool, {"type", "function"}, {"type", "function"}, "tool")
    function = tool.get("function") or {}
    name = str(function.get("name"))
    problems += _keys(function, {"name", "parameters"},
                      {"name", "description", "parameters", "strict"}, name)
    if tool.get("type") != "function":
        problems.append(f"{name}: type must be 'function'")
    if not OPENAI_NAME.match(name):
        problems.append(f"{name}: name must match {OPENAI_NAME.pattern}")
    if not isinstance(function.get("description", ""), str):
        problems.append(f"{name}: description must be a string")
    return problems + _object_schema(function.get("parameters"), f"{name} parameters")


def _strict_node(node: Any, where: str, depth: int, counts: list[int]) -> list[str]:
    if not isinstance(node, Mapping):
        return [f"{where}: not a schema object"]
    problems = [f"{where}: keyword {k!r} is not supported in strict mode"
                for k in sorted(set(node) - STRICT_KEYWORDS)]
    kinds = node.get("type")
    for kind in kinds if isinstance(kinds, list) else [kinds] if kinds else []:
        if kind not in STRICT_TYPES:
            problems.append(f"{where}: type {kind!r} is not supported")
    if "object" in (kinds if isinstance(kinds, list) else [kinds]):
        properties = node.get("properties") or {}
        counts[0] += len(properties)
        if depth > STRICT_MAX_DEPTH:
            problems.append(f"{where}: nested deeper than {STRICT_MAX_DEPTH} levels")
        if node.get("additionalProperties") is not False:
            problems.append(f"{where}: additionalProperties must be false")
        if sorted(node.get("required") or ()) != sorted(properties):
            problems.append(f"{where}: every property must be required")
        for name, child in properties.items():
            problems += _strict_node(child, f"{where}.{name}", depth + 1, counts)
    for k, child in enumerate(node.get("anyOf") or ()):
        problems += _strict_node(child, f"{where}.anyOf[{k}]", depth, counts)
    if isinstance(node.get("items"), Mapping):
        problems += _strict_node(node["items"], f"{where}.items", depth + 1, counts)
    return problems


def check_openai_strict(tool: Mapping[str, Any]) -> list[str]:
    """Problems of one chat-completions tool in strict mode."""
    problems = check_openai(tool)
    function = tool.get("function") or {}
    name = str(function.get("name"))
    if function.get("strict") is not True:
        problems.append(f"{name}: strict must be true")
    parameters = function.get("parameters") or {}
    if "anyOf" in parameters:
        problems.append(f"{name}: the root schema must not be anyOf")
    counts = [0]
    problems += _strict_node(parameters, f"{name} parameters", 1, counts)
    if counts[0] > STRICT_MAX_PROPERTIES:
        problems.append(f"{name}: more than {STRICT_MAX_PROPERTIES} properties")
    return problems


def check_anthropic(tool: Mapping[str, Any]) -> list[str]:
    """Problems of one Messages API tool."""
    name = str(tool.get("name"))
    problems = _keys(tool, {"name", "input_schema"},
                     {"name", "description", "input_schema", "cache_control"}, name)
    if not OPENAI_NAME.match(name):
        problems.append(f"{name}: name must match {OPENAI_NAME.pattern}")
    return problems + _object_schema(tool.get("input_schema"), f"{name} input_schema")


def check_mcp(tool: Mapping[str, Any]) -> list[str]:
    """Problems of one MCP tool."""
    name = str(tool.get("name"))
    problems = _keys(tool, {"name", "inputSchema"},
                     {"name", "title", "description", "inputSchema", "outputSchema",
                      "annotations", "_meta"}, name)
    if not MCP_NAME.match(name):
        problems.append(f"{name}: name must match {MCP_NAME.pattern}")
    for key in ("title", "description"):
        if key in tool and not isinstance(tool[key], str):
            problems.append(f"{name}: {key} must be a string")
    return problems + _object_schema(tool.get("inputSchema"), f"{name} inputSchema")


CHECKERS: Mapping[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "openai": check_openai,
    "openai-strict": check_openai_strict,
    "anthropic": check_anthropic,
    "mcp": check_mcp,
}
