"""Exactness on a real benchmark: a cut of the StarCraft map Aurora as a Polyanya mesh.

`aurora-west.mesh` keeps the polygons of two rectangles of the published mesh (see the
data README); `aurora-west.scen` keeps the published start/goal pairs whose shortest
paths the cut leaves unchanged, with the Polyanya authors' exact lengths (to 0.001).
"""

from functools import cache

import pytest

from tests.shared import NAVMESH_DATA, navmesh_data
from world.navmesh.polyanya_format import read_scenarios
from world.navmesh.query import PathFinder

DATA = NAVMESH_DATA


# The Aurora mesh is read once for this module and its neighbour (tests/shared.py); each
# keeps a path finder of its own, whose opened tables its tests look at.
pytestmark = pytest.mark.xdist_group("aurora_mesh")


@cache
def finder() -> PathFinder:
    return PathFinder(navmesh_data("aurora-west"))


def test_path_turns_at_a_corner_met_by_a_ray_through_computed_points():
    # The shortest path runs straight from the corner (267, 482) through the corner
    # (263, 480) to the corner (207, 452), where it turns. The window seen past
    # (263, 480) has zero width and its ends are computed crossings; where it meets
    # (207, 452) they are within rounding of that vertex and must become it, or no
    # node turns there and the search goes the long way round (316.5).
    path = finder().path((338, 474), (213, 434))
    assert path is not None
    assert path.plane_length == pytest.approx(163.459, abs=1e-3)
    assert (207.0, 0.0, 452.0) in path.waypoints


def test_aurora_pairs_within_a_thousandth_of_the_reference():
    scenarios = read_scenarios(DATA / "aurora-west.scen")
    assert len(scenarios) == 170
    worst = []
    for sc in scenarios:
        path = finder().path(sc.start, sc.goal)
        assert path is not None, sc
        if abs(path.plane_length - sc.length) > 1e-3 * sc.length:
            worst.append((sc.start, sc.goal, sc.length, path.plane_length))
    assert worst == []
