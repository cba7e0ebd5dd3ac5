"""Levels: the file format's dataclasses and the loader (the checker is world.levelcheck)."""

from world.level.load import load_level, parse_level
from world.level.model import Level

__all__ = ["Level", "load_level", "parse_level"]
