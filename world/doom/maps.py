"""A map's rooms and route grid, built once per process.

Building them takes about a second on E1M1; episodes on the same map in one process
(an eval worker, a test run) share them. Both are frozen apart from the grid's cache of
walkable cells per set of heights, which changes speed, never answers.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from world.doom.navgrid import NavGrid, build_navgrid
from world.doom.rooms import DoomRooms, build_rooms
from world.doom.sight import Sight
from world.doom.wad import load_map


@cache
def load_rooms(wad: Path, map_name: str) -> DoomRooms:
    """The rooms of a map of a WAD file (see rooms.build_rooms)."""
    return build_rooms(load_map(wad, map_name.upper()))


@cache
def load_navgrid(wad: Path, map_name: str) -> NavGrid:
    """The route grid of a map of a WAD file (see navgrid.build_navgrid)."""
    return build_navgrid(load_rooms(wad, map_name))


@cache
def load_sight(wad: Path, map_name: str) -> Sight:
    """The sight lines of a map of a WAD file (see sight.Sight)."""
    return Sight(load_rooms(wad, map_name).map)
