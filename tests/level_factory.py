"""Make deliberately broken variants of a valid base level, in code.

Each variant starts from a fresh copy of tests/levels/base.json; `set_at` changes one
field by a JSON-path-like string such as ``exits[1].door.key``.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

LEVELS = Path(__file__).resolve().parent / "levels"
_STEP = re.compile(r"([a-z_]+)|\[(\d+)\]")


@cache
def _base() -> dict[str, Any]:
    return json.loads((LEVELS / "base.json").read_text(encoding="utf-8"))


def base_level() -> dict[str, Any]:
    """A fresh, valid level dict to break."""
    return copy.deepcopy(_base())


def _steps(path: str) -> list[str | int]:
    return [name if name else int(index) for name, index in _STEP.findall(path)]


def get_at(data: Any, path: str) -> Any:
    """The value at a path like ``objects[2].area``."""
    for step in _steps(path):
        data = data[step]
    return data


def set_at(data: Any, path: str, value: Any) -> Any:
    """Set the value at a path (dict keys are created), returning the data."""
    *parents, last = _steps(path)
    node = data
    for step in parents:
        node = node[step]
    node[last] = value
    return data


def delete_at(data: Any, path: str) -> Any:
    """Remove the key or list item at a path, returning the data."""
    *parents, last = _steps(path)
    node = data
    for step in parents:
        node = node[step]
    del node[last]
    return data


def write_level(directory: Path, data: Any, name: str | None = None) -> Path:
    """Write a level dict as ``<id>.json`` (or ``name``) in directory."""
    path = directory / (name or f"{data['id']}.json")
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path
