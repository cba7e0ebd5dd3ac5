"""Shared set-up for the characters tests: build a test level's world with characters."""

from __future__ import annotations

from collections import Counter

from tests.shared import local
from world.characters import CharactersSystem
from world.sim.world import World


def make(name: str, difficulty: str | None = None, seed: int = 0):
    """A fresh world of tests/levels/<name>.json with the characters system attached."""
    level = local(f"{name}.json")
    world = World(level, difficulty or level.difficulties[0].id, seed)
    return world, CharactersSystem.attach(world)


def run(world, ticks: int, intent=None) -> None:
    for _ in range(ticks):
        world.step(intent)


def kinds(world, since: int = 0) -> Counter:
    return Counter(e.kind for e in world.events.since(since))


def events(world, kind: str, since: int = 0) -> list:
    return [e for e in world.events.since(since) if e.kind == kind]
