"""Field tables of the protocol's messages, read from their schemas.

Each message schema in schemas/messages/ is walked once: every field becomes a row
(its path, type, unit, range and meaning), so PROTOCOL.md's field tables say what the
schemas say. A field's meaning is its schema `description`; its unit is the schema's
`unit` annotation (a keyword validators ignore).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from world.face import SCHEMA_DIR

MESSAGES = ("start", "hello", "observation", "action", "summary")


@dataclass(frozen=True)
class FieldRow:
    """One field of a message: where it is and what the schema says of it."""

    path: str
    type: str
    unit: str
    range: str
    meaning: str


@cache
def _schema(file: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMA_DIR / "messages" / file).read_text(
        encoding="utf-8"))
    return data


def _resolve(node: dict[str, Any], file: str) -> tuple[dict[str, Any], str, str]:
    # Follow $ref (within the file or into another message schema); the referring node's
    # own description wins. Returns the node, its file and the name of an enumeration.
    enum_name = ""
    while "$ref" in node:
        target, _, pointer = node["$ref"].partition("#")
        target = target or file
        found: Any = _schema(target)
        for part in pointer.strip("/").split("/"):
            found = found[part]
        if target == "enums.schema.json":
            enum_name = pointer.rsplit("/", 1)[-1]
        extra = {k: v for k, v in node.items() if k != "$ref"}
        node, file = {**found, **extra}, target
    return node, file, enum_name


def _nullable(node: dict[str, Any], file: str) -> tuple[dict[str, Any], str, bool, str]:
    # `anyOf: [X, null]` reads as X that may be null.
    node, file, enum_name = _resolve(node, file)
    options = node.get("anyOf")
    if options and len(options) == 2 and {"type": "null"} in options:
        other = next(o for o in options if o != {"type": "null"})
        inner, file, enum_name = _resolve(other, file)
        merged = {**inner, **{k: v for k, v in node.items() if k != "anyOf"}}
        return merged, file, True, enum_name
    return node, file, False, enum_name


def _type(node: dict[str, Any], file: str, nullable: bool, enum_name: str) -> str:
    if "const" in node:
        kind = "integer" if isinstance(node["const"], int) else "string"
    elif "enum" in node and all(isinstance(v, int) and not isinstance(v, bool)
                                for v in node["enum"]):
        kind = "integer"  # protocol_version's 1, 2, 3
    elif enum_name or "enum" in node:
        kind = "string"
    else:
        raw = node.get("type", "any")
        kinds = [raw] if isinstance(raw, str) else list(raw)
        nullable = nullable or "null" in kinds
        kind = " or ".join(k for k in kinds if k != "null") or "null"
    if kind == "array" and isinstance(node.get("items"), dict):
        item, _, item_null, item_enum = _nullable(node["items"], file)
        kind = f"array of {_type(item, file, item_null, item_enum)}"
    return kind + (" or null" if nullable else "")


def _range(node: dict[str, Any], enum_name: str) -> str:
    parts = []
    if "const" in node:
        parts.append(f"always {json.dumps(node['const'])}")
    if enum_name:
        parts.append(f"one of `{enum_name}` (Enumerations)")
    elif "enum" in node:
        parts.append(", ".join(json.dumps(v) for v in node["enum"]))
    low = node.get("minimum", node.get("exclusiveMinimum"))
    high = node.get("maximum", node.get("exclusiveMaximum"))
    if low is not None and high is not None:
        parts.append(f"{low:g} to {high:g}")
    elif low is not None:
        parts.append(f"{'above' if 'exclusiveMinimum' in node else 'at least'} {low:g}")
    elif high is not None:
        parts.append(f"at most {high:g}")
    if "minItems" in node and node.get("minItems") == node.get("maxItems"):
        parts.append(f"{node['minItems']} items")
    elif "maxItems" in node:
        parts.append(f"at most {node['maxItems']} items")
    if "maxLength" in node:
        parts.append(f"at most {node['maxLength']:,} characters")
    if "pattern" in node:
        parts.append(f"matches `{node['pattern']}`")
    return "; ".join(parts)


def _walk(node: dict[str, Any], file: str, path: str, required: bool,
          rows: list[FieldRow]) -> None:
    node, file, nullable, enum_name = _nullable(node, file)
    if path:
        meaning = " ".join(str(node.get("description", "")).split())
        rows.append(FieldRow(path + ("" if required else "?"), _type(node, file, nullable,
                                                                      enum_name),
                             str(node.get("unit", "")), _range(node, enum_name), meaning))
    children = node.get("properties", {})
    needed = set(node.get("required", []))
    for name, child in children.items():
        _walk(child, file, f"{path}.{name}" if path else name, name in needed, rows)
    items = node.get("items")
    if isinstance(items, dict):
        item, item_file, _, _ = _nullable(items, file)
        if "properties" in item:
            for name, child in item["properties"].items():
                _walk(child, item_file, f"{path}[].{name}", name in set(item.get("required", [])),
                      rows)


def field_rows(message: str, schema: dict[str, Any] | None = None) -> list[FieldRow]:
    """Every field of one message type, in schema order, nested paths dotted.

    Args:
        message: The message type (its schema file's name without ".schema.json").
        schema: The schema itself when it is being generated (the action's), else None
            to read the file.
    """
    rows: list[FieldRow] = []
    file = f"{message}.schema.json"
    _walk(schema if schema is not None else _schema(file), file, "", True, rows)
    return rows


def field_table(message: str, schema: dict[str, Any] | None = None) -> str:
    """A Markdown table of one message's fields (`?` marks a field that may be absent)."""
    lines = ["| field | type | unit | range | meaning |", "|---|---|---|---|---|"]
    for row in field_rows(message, schema):
        cells = [f"`{row.path}`", row.type, row.unit, row.range, row.meaning]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)
