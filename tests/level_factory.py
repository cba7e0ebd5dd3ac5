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

from tests.shared import local_path, shipped_path

_STEP = re.compile(r"([a-z_]+)|\[(\d+)\]")


@cache
def _base() -> dict[str, Any]:
    return json.loads(local_path("base.json").read_text(encoding="utf-8"))


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


def short_copy(directory: Path, level_id: str, max_decisions: int,
               max_game_seconds: float | None = None) -> Path:
    """A shipped level written under directory with a smaller budget of decisions.

    For tests whose point shows in the first turns of an episode and that check every
    line of its record (or replay it), so they need not play the level's whole budget.
    The raw track's decisions follow the game seconds (one per frame skip of ticks), so
    a raw-track test shortens those too.
    """
    data = json.loads(shipped_path(level_id).read_text(encoding="utf-8"))
    data["budgets"]["max_decisions"] = max_decisions
    if max_game_seconds is not None:
        data["budgets"]["max_game_seconds"] = max_game_seconds
    directory.mkdir(parents=True, exist_ok=True)
    return write_level(directory, data)


def knowledge_level() -> dict[str, Any]:
    """Three rooms in a row for what-the-player-knows tests.

    The player starts in "s" (an area id that is also an English word, so that a text
    rewritten by id would show), with an acid pool and a medkit in sight. A shut plain
    door leads east into "mid", where a bare-handed guard stands; an opening leads on
    into "far", where the key lies. Area "level" lies north of "s" through an opening.
    """
    room = [[0, 0], [600, 0], [600, 600], [0, 600]]

    def shifted(dx: float, dz: float = 0) -> list[list[float]]:
        return [[x + dx, z + dz] for x, z in room]

    return {
        "format_version": 1, "id": "knowing", "title": "Three rooms",
        "brief": "Find the key in the far room.",
        "difficulties": [{"id": "easy"}],
        "budgets": {"max_decisions": 50, "max_game_seconds": 300},
        "navmesh": {"agent_radius": 20},
        "storeys": [{"id": "ground", "y": 0}],
        "areas": [
            {"id": "s", "name": "Start room", "storey": "ground", "polygon": room},
            {"id": "mid", "name": "Middle room", "storey": "ground", "polygon": shifted(600)},
            {"id": "far", "name": "Far room", "storey": "ground", "polygon": shifted(1200)},
            {"id": "level", "name": "North room", "storey": "ground",
             "polygon": shifted(0, -600)},
        ],
        "exits": [
            {"id": "mid_door", "kind": "door", "areas": ["s", "mid"],
             "segment": [[600, 200], [600, 400]], "door": {"initial": "closed"}},
            {"id": "far_gap", "kind": "opening", "areas": ["mid", "far"],
             "segment": [[1200, 200], [1200, 400]]},
            {"id": "north_gap", "kind": "opening", "areas": ["s", "level"],
             "segment": [[200, 0], [400, 0]]},
        ],
        "objects": [
            {"id": "medkit", "kind": "medkit", "area": "s", "at": [100, 500], "amount": 0.25},
            {"id": "far_key", "kind": "key", "area": "far", "at": [1700, 100]},
        ],
        "characters": [
            {"id": "guard", "kind": "guard", "side": "hostile", "weapon": "fists", "area": "mid",
             "at": [900, 300], "behaviour": "stay"},
        ],
        "hazards": [
            {"id": "acid_pool", "kind": "acid", "storey": "ground",
             "polygon": [[300, 400], [500, 400], [500, 560], [300, 560]], "damage_per_s": 0.1},
        ],
        "start": {"area": "s", "at": [150, 300], "facing_deg": 0},
        "objectives": [
            {"id": "take_key", "kind": "collect_item", "object": "far_key",
             "text": "Pick up the key."},
        ],
    }
