"""The player's view of the world as plain data, with ids in the episode's own numbering."""

from world.observe.ids import IdMap
from world.observe.session import WorldSession

__all__ = ["IdMap", "WorldSession"]
