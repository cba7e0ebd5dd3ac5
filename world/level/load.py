"""Load level files: parse JSON, validate against the schema, fill defaults, build dataclasses."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators

from world.errors import LevelError, LevelProblem
from world.level.model import Level, Weapon

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"
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


def _extend_with_defaults(base: type) -> type:
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


_DefaultingValidator = _extend_with_defaults(Draft202012Validator)


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
    if dataclasses.is_dataclass(hint):
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


def read_level_json(path: str | Path) -> Any:
    """Read a level file's JSON, turning unreadable or malformed files into a LevelError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LevelError([LevelProblem(str(path), "$", f"cannot read file: {exc}")]) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        problem = LevelProblem(str(path), "$", f"malformed JSON at {where}: {exc.msg}")
        raise LevelError([problem]) from exc


def load_level(path: str | Path) -> Level:
    """Load and schema-validate one level file (semantic checks live in world.level.check)."""
    return parse_level(read_level_json(path), str(path))
