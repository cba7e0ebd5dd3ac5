"""A path's legs after its first turning point are walked once per turning points (39).

Walking toward a fixed goal asks for paths that differ only in their first leg; the
rest of the walk (doors, storeys, heights on ramps) is kept and reused, and must give
exactly what a fresh walk gives.
"""

from __future__ import annotations

from functools import cache

from harness.rl.env_base import load_level
from world.navmesh.level_paths import build_navmesh
from world.navmesh.query import PathFinder

# On facility's ground floor, west to east along the corridor, toward the archive storey
# (a path up the stair tower: ramps, landings, several storeys).
GOAL = (1000.0, 800.0, 1500.0)
WALK = [(1400.0 + 40.0 * i, 0.0, 1500.0) for i in range(12)]


@cache
def _mesh():
    return build_navmesh(load_level("facility"))


def _goal(finder: PathFinder) -> tuple[float, float, float]:
    found = finder.nearest_reachable(GOAL, max_distance=400.0)
    assert found is not None
    return found[0]


def test_kept_walks_give_the_paths_a_fresh_walk_gives() -> None:
    kept = PathFinder(_mesh())
    goal = _goal(kept)
    paths = [kept.path(start, goal) for start in WALK]
    assert all(p is not None for p in paths)
    assert len({p.storeys for p in paths if p is not None}) >= 1
    assert max(len(p.storeys) for p in paths if p is not None) > 1  # it climbs
    for start, path in zip(WALK, paths, strict=True):
        assert PathFinder(_mesh()).path(start, goal) == path


def test_a_path_from_a_new_start_walks_only_its_first_leg_again() -> None:
    finder = PathFinder(_mesh())
    goal = _goal(finder)
    calls = []
    trace = finder._lifter.trace
    finder._lifter.trace = lambda *args: calls.append(args) or trace(*args)
    first = finder.path(WALK[0], goal)
    assert first is not None and len(first.waypoints) > 3
    walked = len(calls)
    again = finder.path(WALK[1], goal)
    assert again is not None and again.waypoints[2:] == first.waypoints[2:]
    assert len(calls) - walked == 1 < walked
