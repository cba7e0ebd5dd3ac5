"""harness/core/messages.py's text: TypedDicts of the protocol's messages, from their schemas.

The schemas in schemas/messages/ are the one source of truth for what travels on the wire;
this derives Python types from them so that mypy checks the code that builds and reads
messages. `python3 -m harness.docgen.protocol` writes it with the other generated files
(tests/test_protocol_tables.py holds them current).
"""
from __future__ import annotations

import json
import keyword
import re
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "schemas" / "messages"
RECORD_SCHEMAS = ROOT / "schemas" / "record"
MESSAGES_PY = ROOT / "harness" / "core" / "messages.py"
# The messages of the text track, in the order they travel.
MESSAGES = ("start", "hello", "observation", "action", "summary")
# Record lines typed here too (their class is `Record` + the name): they hold messages.
RECORD_LINES = ("turn",)
SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool",
           "null": "None"}

HEADER = '''"""TypedDicts of the protocol's messages and record lines, by harness.docgen.protocol.

Do not edit: change the schema in schemas/messages/ (or schemas/record/) and run the tool
again. A value typed here has passed (or is about to pass) the schema's validator; the
types let mypy check the code that builds and reads messages and record lines.
"""
from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

'''


def _literal(values: list[Any], indent: int) -> str:
    """A Literal over the values, one per line when it would not fit on one; null is None."""
    if None in values:
        return _literal([v for v in values if v is not None], indent) + " | None"
    flat = "Literal[" + ", ".join(json.dumps(v) for v in values) + "]"
    if len(flat) + indent <= 90:
        return flat
    pad = " " * (indent + 4)
    return "Literal[\n" + "".join(f"{pad}{json.dumps(v)},\n" for v in values) + " " * indent + "]"


def _union(parts: list[str]) -> str:
    """The parts joined as a union, None last (as ruff asks)."""
    unique = list(dict.fromkeys(parts))
    return " | ".join([p for p in unique if p != "None"] + [p for p in unique if p == "None"])


def _docstring(text: str) -> list[str]:
    """A class docstring's lines holding the schema's description."""
    text = text.rstrip(".") + "."
    if len(text) <= 86:
        return [f'    """{text}"""']
    body = textwrap.wrap(text, 92)
    return ['    """What the schema says of it.', "", *("    " + line for line in body), '    """']


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", name) if part)


class _Writer:
    """Turns schema nodes into type expressions, collecting the classes and aliases made."""

    def __init__(self, enums: dict[str, Any]) -> None:
        self.blocks: list[str] = []
        self.made: set[str] = set()
        self.shapes: dict[str, str] = {}  # an object schema's JSON -> its class
        self.enums = enums["$defs"]

    def alias(self, name: str, values: list[Any]) -> str:
        if name not in self.made:
            self.made.add(name)
            self.blocks.append(f"{name} = {_literal(values, 0)}\n")
        return name

    def ref(self, ref: str, doc: dict[str, Any], owner: str) -> str:
        file, _, pointer = ref.partition("#/$defs/")
        message = file.removesuffix(".schema.json")
        if not pointer and message in MESSAGES:
            # A record line holding a whole message: the message's own class.
            return _camel(message) + "Message"
        if file == "enums.schema.json":
            node = self.enums[pointer]
            if "enum" in node:
                return self.alias(_camel(pointer), node["enum"])
            return self.expr(node, doc, _camel(pointer))
        return self.expr(doc["$defs"][pointer], doc, owner + _camel(pointer))

    def expr(self, node: dict[str, Any], doc: dict[str, Any], name: str) -> str:
        if "$ref" in node:
            return self.ref(node["$ref"], doc, name)
        if "const" in node:
            return f"Literal[{json.dumps(node['const'])}]"
        if "enum" in node:
            return _literal(node["enum"], 4)
        for key in ("oneOf", "anyOf"):
            if key in node:
                subs = node[key]
                # One branch besides null needs no number in its class's name.
                plain = sum(sub.get("type") != "null" for sub in subs) == 1
                parts = [self.expr(sub, doc, name if plain else f"{name}{i}")
                         for i, sub in enumerate(subs)]
                return _union(parts)
        kind = node.get("type")
        if isinstance(kind, list):
            parts = [self.expr({**node, "type": k}, doc, name) for k in kind]
            return _union(parts)
        if kind == "array":
            items = node.get("items", {})
            return f"list[{self.expr(items, doc, name + 'Item') if items else 'Any'}]"
        if kind == "object":
            if node.get("properties"):
                return self.typed_dict(node, doc, name)
            extra = node.get("additionalProperties")
            if isinstance(extra, dict):
                return f"dict[str, {self.expr(extra, doc, name + 'Value')}]"
            return "dict[str, Any]"
        return SCALARS.get(kind, "Any") if isinstance(kind, str) else "Any"

    def typed_dict(self, node: dict[str, Any], doc: dict[str, Any], name: str) -> str:
        if name in self.made:
            return name
        # An object written alike in two schemas (a match block in start and observation)
        # is one class, named where it first appears.
        shape = json.dumps(node, sort_keys=True)
        if shape in self.shapes:
            return self.shapes[shape]
        self.shapes[shape] = name
        self.made.add(name)
        required = set(node.get("required", ()))
        fields = []
        for key, sub in node["properties"].items():
            kind = self.expr(sub, doc, name + _camel(key))
            fields.append((key, kind if key in required else f"NotRequired[{kind}]"))
        title = (node.get("title") or node.get("description") or name).split("\n")[0]
        if any(keyword.iskeyword(key) or not key.isidentifier() for key, _ in fields):
            body = ", ".join(f"{json.dumps(k)}: {t}" for k, t in fields)
            self.blocks.append(f"{name} = TypedDict({json.dumps(name)}, {{{body}}})\n")
        else:
            lines = [f"class {name}(TypedDict):", *_docstring(title), ""]
            lines += [f"    {key}: {kind}" for key, kind in fields]
            self.blocks.append("\n".join(lines) + "\n")
        return name


def render(schemas: dict[str, dict[str, Any]]) -> str:
    """The module's text.

    Args:
        schemas: Message schemas by name (`start`, `enums`...) that are generated in the
            same pass; the others are read from schemas/messages/.
    """
    def schema(name: str) -> dict[str, Any]:
        if name in schemas:
            return schemas[name]
        loaded: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
        return loaded

    writer = _Writer(schema("enums"))
    for message in MESSAGES:
        doc = schema(message)
        writer.expr(doc, doc, _camel(message) + "Message")
    for line in RECORD_LINES:
        doc = json.loads((RECORD_SCHEMAS / f"{line}.schema.json").read_text())
        writer.expr(doc, doc, "Record" + _camel(line))
    return HEADER + "\n" + "\n\n".join(writer.blocks)
