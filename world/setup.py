"""The one place an episode's world is assembled: the simulation plus its systems."""

from __future__ import annotations

from world.characters.system import CharactersSystem
from world.level.model import Level
from world.objectives import install as install_objectives
from world.sim.world import World


def create_world(level: Level, difficulty: str, seed: int) -> World:
    """A world for one episode with the characters' minds and the objectives judge.

    Args:
        level: The level.
        difficulty: One of the level's difficulty ids.
        seed: The episode seed; the world's one random generator is made from it.

    Returns:
        The world at tick 0, with every system registered.
    """
    world = World(level, difficulty, seed)
    CharactersSystem.attach(world)
    install_objectives(world)
    return world
