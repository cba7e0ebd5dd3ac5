"""Fixtures shared by the macro-action tests: a level and a fresh world on it.

A test module names its level with LEVEL_FILE (default: the rooms level).
"""

import pytest

from world.sim.world import World


@pytest.fixture(scope="module")
def level(request, test_level):
    # The root conftest's, with this package's default level.
    return test_level(getattr(request.module, "LEVEL_FILE", "actions_rooms.json"))


@pytest.fixture
def world(level):
    return World(level, "normal", 1)
