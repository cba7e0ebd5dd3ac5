import itertools
import math
import time
from functools import cache

import pytest

from tests.shared import NAVMESH_DATA
from world.navmesh.mesh import NavMesh
from world.navmesh.polyanya_format import read_mesh, read_scenarios
from world.navmesh.query import PathFinder

DATA = NAVMESH_DATA


@cache
def finder_for(name: str) -> PathFinder:
    return PathFinder(read_mesh(DATA / f"{name}.mesh"))


@pytest.mark.parametrize(("name", "step"), [("arena", 5), ("field", 10)])
def test_paths_are_exact_on_shared_scenarios(name, step):
    finder = finder_for(name)
    for sc in read_scenarios(DATA / f"{name}.scen")[::step]:
        path = finder.path(sc.start, sc.goal)
        assert path is not None, sc
        # Scenario lengths are printed with 6 decimals.
        assert path.plane_length == pytest.approx(sc.length, rel=1e-6, abs=1e-6), sc
        assert path.waypoints[0] == (sc.start[0], 0.0, sc.start[1])
        assert path.waypoints[-1] == (sc.goal[0], 0.0, sc.goal[1])
        wps = path.waypoints
        legs = sum(math.dist(a, b) for a, b in itertools.pairwise(wps))
        assert legs == pytest.approx(path.length)


def holed_square() -> NavMesh:
    # A 10 x 10 square around a 2 x 2 hole, plus a separate island at x 20..22.
    pts = [
        (0, 0),
        (10, 0),
        (10, 10),
        (0, 10),
        (4, 4),
        (6, 4),
        (6, 6),
        (4, 6),
        (20, 0),
        (22, 0),
        (22, 2),
        (20, 2),
    ]
    polys = [[0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7], [8, 9, 10, 11]]
    return NavMesh.from_polygons(pts, [0.0] * len(pts), polys, "0")


def test_start_equals_goal_and_same_polygon():
    finder = PathFinder(holed_square())
    same = finder.path((1, 0, 1), (1, 0, 1))
    assert same is not None and same.length == 0.0 and same.doors == ()
    inside = finder.path((1, 1), (3, 1))
    assert inside is not None and inside.length == pytest.approx(2.0)
    assert len(inside.waypoints) == 2


def test_path_around_hole_turns_at_its_corners():
    finder = PathFinder(holed_square())
    path = finder.path((5, 1), (5, 9))
    assert path is not None
    assert path.length == pytest.approx(2 * math.sqrt(10) + 2)
    assert len(path.waypoints) == 4
    # Start and goal on mesh vertices and edges.
    corner = finder.path((0, 0), (10, 10))
    assert corner is not None
    assert corner.length == pytest.approx(2 * math.hypot(4, 6))
    on_edge = finder.path((5, 0), (5, 10))
    assert on_edge is not None
    assert on_edge.length == pytest.approx(2 * math.hypot(1, 4) + 2)


def test_unreachable_goal_is_none_quickly():
    finder = PathFinder(holed_square())
    finder.path((1, 1), (2, 2))
    t0 = time.perf_counter()
    assert finder.path((1, 1), (21, 1)) is None
    assert time.perf_counter() - t0 < 0.01
    assert finder.path((1, 1), (50, 50)) is None  # off the mesh
    assert finder.blocked_by((1, 1), (21, 1), frozenset({"nothing"})) == ()


def door_corridor() -> NavMesh:
    # Three unit squares in a row; the edge x = 2 between the last two is a door.
    pts = [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (2, 1), (1, 1), (0, 1)]
    polys = [[0, 1, 6, 7], [1, 2, 5, 6], [2, 3, 4, 5]]
    return NavMesh.from_polygons(pts, [0.0] * 8, polys, "0", edge_doors={(2, 5): "gate"})


def test_doors_block_and_are_reported():
    finder = PathFinder(door_corridor())
    open_path = finder.path((0.5, 0.5), (2.5, 0.5))
    assert open_path is not None and open_path.doors == ("gate",)
    assert open_path.length == pytest.approx(2.0)
    blocked = frozenset({"gate"})
    assert finder.path((0.5, 0.5), (2.5, 0.5), blocked) is None
    assert finder.blocked_by((0.5, 0.5), (2.5, 0.5), blocked) == ("gate",)
    assert finder.blocked_by((0.5, 0.5), (2.5, 0.5), frozenset()) == ()
    assert finder.path((0.5, 0.5), (1.5, 0.5), blocked).doors == ()
    assert finder.components(blocked)[0] != finder.components(blocked)[2]


def two_storeys() -> NavMesh:
    # Ground floor (y 0) at x 0..10; a ramp along z 8..10 climbing to y 4 at x 20;
    # a landing at x 20..22; an upper floor at x 4..20, z 0..6 (y 4) that overhangs
    # the ground floor. No vertex is shared between the overlapping floors.
    pts = [
        (0, 0),
        (10, 0),
        (10, 8),
        (10, 10),
        (0, 10),  # 0-4 ground
        (20, 8),
        (20, 10),  # 5-6 ramp top
        (20, 0),
        (22, 0),
        (22, 10),
        (20, 6),  # 7-10 landing
        (4, 0),
        (4, 6),
    ]  # 11-12 upper floor
    heights = [0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4]
    polys = [[0, 1, 2, 3, 4], [2, 5, 6, 3], [7, 8, 9, 6, 5, 10], [11, 7, 10, 12]]
    return NavMesh.from_polygons(pts, heights, polys, ["ground", "ground", "upper", "upper"])


def test_two_storey_ramp_path_heights():
    finder = PathFinder(two_storeys())
    assert finder.locate((6, 0, 3)) == 0
    assert finder.locate((6, 4, 3)) == 3
    assert finder.locator.locate_in_storey(6, 3, "upper") == 3
    path = finder.path((5, 0, 3), (6, 4, 3))
    assert path is not None
    assert path.storeys == ("ground", "upper")
    plane = [(x, z) for x, _, z in path.waypoints]
    assert plane == [(5, 3), (10, 8), (20, 8), (20, 6), (6, 3)]
    assert [y for _, y, _ in path.waypoints] == pytest.approx([0, 0, 4, 4, 4])
    expected = math.hypot(5, 5) + math.hypot(10, 4) + 2 + math.hypot(14, 3)
    assert path.length == pytest.approx(expected)
    # Halfway up the ramp the floor is at half height.
    mid = finder.path((12, 0.5, 9), (18, 3.5, 9))
    assert mid is not None and [w[1] for w in mid.waypoints] == pytest.approx([0.8, 3.2])
    # Downwards from the upper floor to the ground directly below it.
    down = finder.path((6, 4, 3), (6, 0, 3))
    assert down is not None and down.length > 30


def test_nearest_reachable_hole_and_island():
    finder = PathFinder(holed_square())
    point, moved = finder.nearest_reachable((5, 0, 4.5), max_distance=2)
    assert point == pytest.approx((5, 0, 4)) and moved == pytest.approx(0.5)
    assert finder.nearest_reachable((5, 0, 5), max_distance=0.5) is None
    near, moved = finder.nearest_reachable((19, 1), max_distance=5)
    assert near == pytest.approx((20, 0, 1)) and moved == pytest.approx(1)
    near, moved = finder.nearest_reachable((19, 1), from_point=(1, 1), max_distance=10)
    assert near == pytest.approx((10, 0, 1)) and moved == pytest.approx(9)
    assert finder.is_walkable((1, 0, 1)) and not finder.is_walkable((5, 0, 5))
    assert not finder.is_walkable((1, 3, 1))


def test_nearest_reachable_picks_storey_by_height():
    finder = PathFinder(two_storeys())
    upper, _ = finder.nearest_reachable((6, 4.2, 6.5), max_distance=1)
    assert upper == pytest.approx((6, 4, 6))
    ground, moved = finder.nearest_reachable((6, 0.1, 6.5), max_distance=1)
    assert ground == pytest.approx((6, 0, 6.5)) and moved == 0
