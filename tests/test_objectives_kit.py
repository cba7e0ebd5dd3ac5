"""Shared helpers for the objectives tests: a small level with swappable objectives.

Not a test module by itself; the other objectives tests import from it.
"""

from __future__ import annotations

import copy
import json
from functools import cache

from tests.shared import local_path
from world.level.load import parse_level
from world.objectives import install
from world.sim import PlayerIntent, World

BASE = local_path("objectives_base.json")


@cache
def _base() -> dict:
    return json.loads(BASE.read_text(encoding="utf-8"))


def level_data(objectives: list[dict], exit_area: str | None = None, **extra) -> dict:
    """The base level with these objectives, an optional exit area and top-level extras."""
    data = copy.deepcopy(_base())
    data["objectives"] = objectives
    if exit_area is not None:
        data["exit_area"] = {"area": exit_area}
    data.update(extra)
    return data


def make(objectives: list[dict], difficulty: str = "normal", exit_area: str | None = None,
         **extra):
    """A fresh world of the base level with the objectives system installed."""
    level = parse_level(level_data(objectives, exit_area, **extra), "objectives_test")
    world = World(level, difficulty, seed=7)
    return world, install(world)


def tick(world: World, n: int = 1, intent: PlayerIntent | None = None) -> None:
    """Advance n ticks (the objectives system judges each one)."""
    for _ in range(n):
        world.step(intent)


def status(system, world: World, oid: str) -> str:
    """The reported status of one objective."""
    return next(o.status for o in system.report(world).objectives if o.id == oid)


def entry(system, world: World, oid: str):
    """The report entry of one objective."""
    return next(o for o in system.report(world).objectives if o.id == oid)


def walk_to(world: World, x: float, z: float, limit: int = 600) -> None:
    """Walk the player straight toward a point until close (no obstacles in between)."""
    for _ in range(limit):
        if world.player.distance_to(x, z) < 10 or world.ended:
            return
        world.step(PlayerIntent(move_to=(x, z)))


def objective(oid: str, kind: str, **fields) -> dict:
    """An objective record with a default paraphrase."""
    return {"id": oid, "kind": kind, "text": f"Test objective {oid}.", **fields}
