"""Load level files: parse JSON, validate against the schema, fill defaults, build dataclasses."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
import types
import typing
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators

from world.data_paths import SCHEMA_DIR
from world.errors import LevelError, LevelProblem
from world.level.model import Level, Weapon
from world.schema_validator import SchemaValidator

CATALOGUE = Path(__file__).resolve().parent / "weapons.json"


@cache
def level_schema() -> dict[str, Any]:
    """The level JSON Schema as a dict."""
    return json.loads((SCHEMA_DIR / "level.schema.json").read_text(encoding="utf-8"))


def _resolve_local(sub: dict[str, Any]) -> dict[str, Any]:
    """Follow local "#/$defs/..." references (the only kind the level schema uses)."""
    while "$ref" in sub and "default" not in sub:
        node: Any = level_schema()
        for part in sub["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        sub = node
    return sub


def _extend_with_defaults(base: Any) -> Any:
    # The schema is the one place defaults are written; validation fills them in on the way.
    validate_properties = base.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, sub in properties.items():
                sub = _resolve_local(sub)
                if "default" in sub and name not in instance:
                    instance[name] = json.loads(json.dumps(sub["default"]))
        yield from validate_properties(validator, properties, instance, schema)

    return validators.extend(base, {"properties": set_defaults})


_DefaultingValidator = _extend_with_defaults(SchemaValidator)


@cache
def _validator() -> Draft202012Validator:
    return _DefaultingValidator(level_schema())


def json_path(parts: Iterator[Any] | tuple[Any, ...]) -> str:
    """Render a jsonschema path deque as $.a.b[3].c."""
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def schema_problems(data: Any, file: str) -> list[LevelProblem]:
    """Validate (and fill defaults into) raw level data; return one problem per violation."""
    problems = []
    for error in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.path))):
        # For if/then branches the useful message is the innermost one.
        chosen = min(error.context, key=lambda e: len(e.path)) if error.context else error
        problems.append(LevelProblem(file, json_path(tuple(chosen.absolute_path)), chosen.message))
    return problems


def _convert(hint: Any, value: Any) -> Any:
    """Turn JSON data into the value the type hint describes (dataclasses, tuples, points)."""
    origin = typing.get_origin(hint)
    if value is None:
        return None
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _convert(options[0], value)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v) for v in value)
        return tuple(_convert(a, v) for a, v in zip(args, value, strict=True))
    if origin is typing.Literal or hint in (str, bool):
        return value
    if hint is float:
        return float(value)
    if hint is int:
        return int(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return build(hint, value)
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def build(cls: type, data: dict[str, Any]) -> Any:
    """Build a model dataclass from validated, default-filled JSON data."""
    hints = _hints(cls)
    fields = {f.name for f in dataclasses.fields(cls) if f.init}
    return cls(**{k: _convert(hints[k], v) for k, v in data.items() if k in fields})


@cache
def builtin_weapons() -> tuple[Weapon, ...]:
    """The built-in weapon catalogue, validated against the schema's weapon definition."""
    raw = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    schema = {"$ref": "#/$defs/weapon", "$defs": level_schema()["$defs"]}
    validator = _DefaultingValidator(schema)
    weapons = []
    for i, item in enumerate(raw["weapons"]):
        errors = list(validator.iter_errors(item))
        if errors:
            raise LevelError([LevelProblem(str(CATALOGUE), f"$.weapons[{i}]", errors[0].message)])
        weapons.append(build(Weapon, item))
    return tuple(weapons)


def parse_level(data: Any, file: str = "<level>") -> Level:
    """Validate raw level data against the schema and build the Level.

    Raises:
        LevelError: with one problem per schema violation.
    """
    if (too_many := _entry_problems(data, file)):
        raise LevelError(too_many)  # before hashing, copying and walking every entry
    content_hash = hashlib.sha256(
        json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    data = json.loads(json.dumps(data))  # private copy: defaults are filled in place
    problems = schema_problems(data, file)
    if problems:
        raise LevelError(problems)
    level = build(Level, data)
    own = {w.id for w in level.weapons}
    merged = tuple(w for w in builtin_weapons() if w.id not in own) + level.weapons
    return dataclasses.replace(level, weapons=merged, content_hash=content_hash)


def _entry_problems(data: Any, file: str) -> list[LevelProblem]:
    # The schema's maxItems of each top-level list (areas, objects, characters...), checked
    # first: every entry costs the world time each turn, and the schema walk time per entry.
    if not isinstance(data, dict):
        return []
    caps = {name: sub["maxItems"] for name, sub in level_schema()["properties"].items()
            if "maxItems" in sub}
    return [LevelProblem(file, f"$.{name}", f"{len(data[name])} entries; a level may have at "
                         f"most {cap}") for name, cap in caps.items()
            if isinstance(data.get(name), list) and len(data[name]) > cap]


# A level file is read whole; a larger file is not a level (the largest shipped is 40 KB).
MAX_LEVEL_BYTES = 4 << 20
# Deepest nesting of lists and objects a level file may have (shipped levels use 6). Deeper
# files are refused before parsing: Python's parser and the checks recurse on depth.
MAX_NESTING = 64

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class _NotFinite:
    """Stands in for NaN or Infinity while parsing, so the checker can say where it was."""

    def __init__(self, text: str):
        self.text = text


def _nesting(text: str) -> int:
    deepest = depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _parse_float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else _NotFinite(text)


def _not_finite_paths(data: Any) -> list[str]:
    found: list[str] = []
    stack: list[tuple[str, Any]] = [("$", data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, _NotFinite):
            found.append(path)
        elif isinstance(node, dict):
            stack.extend((f"{path}.{k}", v) for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(node))))
    return found


def read_level_json(path: str | Path) -> Any:
    """Read a level file's JSON, turning unreadable or malformed files into a LevelError.

    Besides malformed JSON this refuses files over MAX_LEVEL_BYTES (before reading them
    whole), NaN and Infinity (JSON has neither; Python's parser accepts them), numbers
    too long to convert, and nesting deeper than MAX_NESTING.
    """
    path = Path(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_LEVEL_BYTES + 1)
        if len(raw) > MAX_LEVEL_BYTES:
            message = f"larger than {MAX_LEVEL_BYTES >> 20} MiB; not a level"
            raise LevelError([LevelProblem(str(path), "$", message)])
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LevelError([LevelProblem(str(path), "$", f"cannot read file: {exc}")]) from exc
    deepest = _nesting(text)
    if deepest > MAX_NESTING:
        message = f"lists and objects nest {deepest} deep; at most {MAX_NESTING} is allowed"
        raise LevelError([LevelProblem(str(path), "$", message)])
    try:
        data = json.loads(text, parse_constant=_NotFinite, parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        problem = LevelProblem(str(path), "$", f"malformed JSON at {where}: {exc.msg}")
        raise LevelError([problem]) from exc
    except (ValueError, RecursionError) as exc:  # e.g. an integer past the digit limit
        problem = LevelProblem(str(path), "$", f"unusable JSON: {exc}")
        raise LevelError([problem]) from exc
    bad = _not_finite_paths(data)
    if bad:
        raise LevelError([LevelProblem(str(path), p, "NaN/Infinity is not allowed") for p in bad])
    return data


def load_level(path: str | Path) -> Level:
    """Load and schema-validate one level file (semantic checks: world.levelcheck)."""
    return parse_level(read_level_json(path), str(path))
