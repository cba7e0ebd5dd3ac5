"""Any request on a shipped level either runs or is refused with the world untouched.

A seeded stream of actions, with ids drawn from every id of the level (and one that
names nothing), plays on one world. Each action either returns a result with a
declared end reason, or raises a typed world error; a refusal, and a result decided
before any tick, leave the state hash, the tick and the event log as they were.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from harness.episode.runner import resolve_level
from tests.shared import SHIPPED_IDS
from world.actions.catalog import catalog
from world.actions.registry import execute
from world.errors import WorldError
from world.setup import create_world
from world.sim.world import World

LEVELS = SHIPPED_IDS
ACTIONS = 60
LIMIT_S = 3  # short walks keep the stream cheap


def _arguments(world: World, ids: list[str], rng: random.Random) -> dict[str, Callable]:
    # Action -> its random arguments; every declared action is listed (checked below).
    p = world.player

    def near(spread: float) -> dict[str, float]:
        return {"x": p.x + rng.uniform(-spread, spread), "z": p.z + rng.uniform(-spread, spread)}

    return {
        "go_to": lambda: {**near(800.0), "time_limit_s": LIMIT_S},
        "go_to_area": lambda: {"exit_id": rng.choice(ids), "time_limit_s": LIMIT_S},
        "go_to_object": lambda: {"object_id": rng.choice(ids), "time_limit_s": LIMIT_S},
        "turn_and_use": lambda: near(200.0),
        "attack": lambda: {"character_id": rng.choice(ids), "time_limit_s": LIMIT_S},
        "shoot_object": lambda: {"object_id": rng.choice(ids), "time_limit_s": LIMIT_S},
        "equip": lambda: {"item_id": rng.choice(ids)},
        "use_item_on": lambda: {"item_id": rng.choice([*p.inventory, "nothing"]),
                                "object_id": rng.choice(ids), "time_limit_s": LIMIT_S},
        "enter_code": lambda: {"object_id": rng.choice(ids),
                               "code": rng.choice(["0", "1234", "4817", "7391"]),
                               "time_limit_s": LIMIT_S},
        "wait": lambda: {"seconds": 0.5},
    }


def _play(level_id: str, difficulty: str) -> dict[str, Any]:
    level, _ = resolve_level(level_id)
    world = create_world(level, difficulty, 0)
    rng = random.Random(7)
    ids = sorted({o.id for o in level.objects} | {c.id for c in level.characters}
                 | {e.id for e in level.exits} | {s.id for s in level.stairs} | {"nothing"})
    seen = {"refusals": 0, "results": 0}
    for turn in range(ACTIONS):
        table = _arguments(world, ids, rng)
        assert set(table) == set(catalog().action_names)
        action = rng.choice(sorted(table))
        args = table[action]()
        before = (world.state_hash(), world.tick, len(world.events))
        where = f"{level_id}/{difficulty} action {turn}: {action} {args}"
        try:
            result = execute(world, action, args)
        except WorldError as exc:
            assert str(exc), where
            assert (world.state_hash(), world.tick, len(world.events)) == before, where
            seen["refusals"] += 1
            continue
        seen["results"] += 1
        assert result.ticks == world.tick - before[1], where
        if result.ticks == 0:
            assert (world.state_hash(), world.tick) == before[:2], where
        if not world.player.alive:
            break
    return seen


@pytest.mark.parametrize("level", ["outpost", "arena_frags", "hold_centre"])
def test_requests_on_a_few_levels_run_or_change_nothing(level: str) -> None:
    seen = _play(level, "normal")
    assert seen["refusals"] > 5 and seen["results"] > 5  # both paths were taken


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
@pytest.mark.parametrize("level", LEVELS)
def test_requests_on_every_level_run_or_change_nothing(level: str, difficulty: str) -> None:
    seen = _play(level, difficulty)
    assert seen["refusals"] + seen["results"] > 0
