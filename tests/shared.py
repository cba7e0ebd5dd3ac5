"""Where the repository's files are, and levels loaded once per test run.

The fixtures of tests/conftest.py hand these out; a helper function that is not a
test (and so takes no fixtures) imports them from here. A `Level` is frozen, so tests
may share one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from world.level.load import load_level
from world.level.model import Level

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_LEVELS = ROOT / "levels"
TEST_LEVELS = ROOT / "tests" / "levels"
SHIPPED_IDS = sorted(p.stem for p in SHIPPED_LEVELS.glob("*.json"))


@cache
def _load(path: Path) -> Level:
    return load_level(path)


def shipped(level_id: str) -> Level:
    """A shipped level by id."""
    return _load(SHIPPED_LEVELS / f"{level_id}.json")


def local(name: str) -> Level:
    """A level of tests/levels by file name."""
    return _load(TEST_LEVELS / name)
