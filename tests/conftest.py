"""Fixtures shared by the test modules: where the repository's files are, levels and worlds.

Levels are loaded once per run (tests/shared.py). A module
picks the level of `level` and `world` with LEVEL_FILE (a file of tests/levels, default
sim_rooms.json) and the world's difficulty and seed with DIFFICULTY and SEED (default
easy and 1). `shipped_level_id` runs a test once per level shipped in levels/.
Tests marked `full` run only with `--full` (tests/README.md has the whole layout).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from harness.core import keys
from tests.shared import ROOT, SHIPPED_IDS, TEST_SECRET, local, shipped
from world.level.model import Level
from world.objectives import ObjectivesSystem
from world.observe.session import WorldSession, build_world
from world.sim import World


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true",
                     help="also run the tests marked full (the whole matrix of shipped records)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Deselected rather than skipped, so a run without --full lists no skip per test.
    full = [item for item in items if item.get_closest_marker("full")]
    if full and not config.getoption("--full"):
        config.hook.pytest_deselected(items=full)
        items[:] = [item for item in items if not item.get_closest_marker("full")]
    if hasattr(config, "workerinput"):  # a pytest-xdist worker
        _slow_first(items)


def _slow_first(items: list[pytest.Item]) -> None:
    """Hand out the slow tests outside any xdist_group before the quick ones.

    Under `--dist loadgroup` the groups go out first (the most tests first), then each
    other test as a unit of its own in this order. Slow ones first means the run ends on
    quick tests spread over both workers, not on one worker's whole episode while the
    other waits. Grouped tests keep their order, so a group's module fixtures are made
    once; a run without workers keeps the files' order.
    """
    def late(item: pytest.Item) -> bool:
        return not (item.get_closest_marker("slow") and not item.get_closest_marker("xdist_group"))

    items.sort(key=late)  # stable: each part keeps the collection's order


@pytest.fixture(scope="session", autouse=True)
def _fixed_secret() -> Iterator[None]:
    # A run or suite given no secret makes a fresh one (harness/core/keys.py); in tests it is
    # always this one, so an episode played twice is the same episode. Session-wide, so
    # that module fixtures' runs have it too.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(keys, "new_secret", lambda: TEST_SECRET)
        yield


@pytest.fixture(scope="session", autouse=True)
def harness_key_home(tmp_path_factory) -> Path:
    """The harness key (harness.core.seal) of the test run, never the user's own."""
    home = tmp_path_factory.mktemp("state")
    os.environ["XDG_STATE_HOME"] = str(home)  # agents and workers started later inherit it
    return home


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's top folder."""
    return ROOT


@pytest.fixture(scope="session")
def shipped_level() -> Callable[[str], Level]:
    """Load a shipped level by id: `shipped_level("outpost")`."""
    return shipped


@pytest.fixture(scope="session")
def test_level() -> Callable[[str], Level]:
    """Load a level of tests/levels by file name: `test_level("sim_rooms.json")`."""
    return local


@pytest.fixture(params=SHIPPED_IDS)
def shipped_level_id(request: pytest.FixtureRequest) -> str:
    """Each shipped level's id in turn."""
    return str(request.param)


@pytest.fixture(scope="module")
def level(request: pytest.FixtureRequest) -> Level:
    """The module's test level (LEVEL_FILE, default sim_rooms.json)."""
    return local(getattr(request.module, "LEVEL_FILE", "sim_rooms.json"))


@pytest.fixture
def world(level: Level, request: pytest.FixtureRequest) -> World:
    """A bare world (no systems) on the module's level at DIFFICULTY and SEED."""
    return World(level, getattr(request.module, "DIFFICULTY", "easy"),
                 getattr(request.module, "SEED", 1))


@pytest.fixture(scope="session")
def built_world() -> Callable[[str, str, int], tuple[World, ObjectivesSystem]]:
    """An episode's world on a shipped level, every system wired, with its objectives judge."""
    def build(level_id: str, difficulty: str, seed: int = 0) -> tuple[World, ObjectivesSystem]:
        return build_world(shipped(level_id), difficulty, seed)

    return build


@pytest.fixture(scope="session")
def session() -> Callable[[str, str, int], WorldSession]:
    """The session the harness drives, on a shipped level: `session("outpost", "easy")`."""
    def start(level_id: str, difficulty: str, seed: int = 0) -> WorldSession:
        return WorldSession(shipped(level_id), difficulty, seed)

    return start
