"""Where the repository's files are, and levels loaded once per test run.

The one place test code finds files: no test module works out a path from its own
`__file__` (tests/README.md). The fixtures of tests/conftest.py hand these out; a
module-level constant or a helper that is not a test (and so takes no fixtures) imports
them from here. A `Level` is frozen, so tests may share one.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from world.level.load import load_level
from world.level.model import Level
from world.navmesh.mesh import NavMesh
from world.navmesh.polyanya_format import read_mesh

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_LEVELS = ROOT / "levels"
SHIPPED_IDS = sorted(p.stem for p in SHIPPED_LEVELS.glob("*.json"))
MATCH_LEVELS = SHIPPED_LEVELS / "matches"  # the shipped match levels (multiplayer track)
MATCH_IDS = sorted(p.stem for p in MATCH_LEVELS.glob("*.json"))
SHIPPED_AGENTS = ROOT / "agents"  # the agents the project ships
SCHEMAS = ROOT / "schemas"
TESTS = ROOT / "tests"
TEST_LEVELS = TESTS / "levels"  # levels written for tests (tests/README.md)
TEST_AGENTS = TESTS / "agents"  # agents written for tests
NAVMESH_DATA = TESTS / "data" / "navmesh"  # Polyanya-format meshes and MovingAI scenarios
# The sweep's table of the episodes greedy and random both failed, and a few of their records
STAGES_DATA = TESTS / "data" / "stages"


@cache
def _load(path: Path) -> Level:
    return load_level(path)


def shipped_path(level_id: str) -> Path:
    """The file of a shipped level."""
    return SHIPPED_LEVELS / f"{level_id}.json"


def local_path(name: str) -> Path:
    """The file of a level of tests/levels, by file name."""
    return TEST_LEVELS / name


def python_agent(script: Path, *args: str) -> str:
    """The command that runs a Python agent with this interpreter."""
    return " ".join([sys.executable, str(script), *args])


def shipped(level_id: str) -> Level:
    """A shipped level by id."""
    return _load(shipped_path(level_id))


def local(name: str) -> Level:
    """A level of tests/levels by file name."""
    return _load(local_path(name))


@cache
def navmesh_data(name: str) -> NavMesh:
    """A mesh of tests/data/navmesh by name (`aurora-west`), read once per run.

    Searches never change a mesh, so the modules that search one share it (and share an
    xdist_group, so that it is read in one process).
    """
    return read_mesh(NAVMESH_DATA / f"{name}.mesh")

TEST_SECRET = bytes(range(32))
"""The secret of every run and suite a test makes without one (tests/conftest.py)."""
