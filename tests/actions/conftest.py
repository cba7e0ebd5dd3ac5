"""Fixtures shared by the macro-action tests: a level and a fresh world on it.

A test module names its level with LEVEL_FILE (default: the rooms level).
"""

from pathlib import Path

import pytest

from world.level.load import load_level
from world.sim.world import World

LEVELS = Path(__file__).resolve().parents[1] / "levels"


@pytest.fixture(scope="module")
def level(request):
    return load_level(LEVELS / getattr(request.module, "LEVEL_FILE", "actions_rooms.json"))


@pytest.fixture
def world(level):
    return World(level, "normal", 1)
