"""One-way doors in path search: crossed only from the side they open from.

In the rooms level the east room joins the hub by a one-way door (it opens from the
east room only) and by a second door that is locked from the hub's side.
"""

from dataclasses import replace

import pytest

from tests.shared import local
from world.levelcheck.reach import Regions, reachable_regions
from world.navmesh.build import build_navmesh_full
from world.navmesh.query import PathFinder

LEVEL = local("sim_rooms.json")
HUB, EAST = (1100.0, 150.0), (1300.0, 150.0)
LOCKED = frozenset({"d_lockside"})


@pytest.fixture(scope="module")
def built():
    return build_navmesh_full(LEVEL)


@pytest.fixture(scope="module")
def finder(built):
    return PathFinder(built.mesh)


def test_only_the_shut_side_of_the_one_way_door_is_walled(built):
    mesh = built.mesh
    sides = {(built.places[p], mesh.doors[p][k]) for p, k in mesh.one_way_walls}
    assert sides == {("hub", "d_oneway")}


def test_from_the_side_it_opens_from_the_path_crosses_it(finder):
    path = finder.path(EAST, HUB)
    assert path is not None and path.doors == ("d_oneway",)
    assert path.against == ()


def test_from_the_other_side_the_path_goes_around(finder):
    path = finder.path(HUB, EAST)
    assert path is not None and path.doors == ("d_lockside",)
    assert path.length > finder.path(EAST, HUB).length


def test_no_other_way_gives_no_path_and_names_the_one_way_door(finder):
    assert finder.path(HUB, EAST, LOCKED) is None
    assert finder.blocked_by(HUB, EAST, LOCKED) == ("d_oneway",)
    # The way back is open, so nothing blocks it.
    assert finder.path(EAST, HUB, LOCKED).doors == ("d_oneway",)
    assert finder.blocked_by(EAST, HUB, LOCKED) == ()


def test_components_join_both_sides_of_a_one_way_door(finder):
    labels = finder.components(LOCKED)
    assert labels[finder.locate(HUB)] == labels[finder.locate(EAST)]
    both = LOCKED | {"d_oneway"}
    assert finder.components(both)[finder.locate(HUB)] != finder.components(both)[
        finder.locate(EAST)
    ]


def test_nearest_reachable_follows_the_one_way_door(finder):
    assert finder.nearest_reachable(EAST, HUB, 50.0, LOCKED) is None
    assert finder.nearest_reachable(HUB, EAST, 50.0, LOCKED) is not None


def test_the_level_checker_agrees():
    # Without the second door the one-way door is the only way between the rooms.
    exits = tuple(e for e in LEVEL.exits if e.id != "d_lockside")
    level = replace(LEVEL, exits=exits, content_hash="")
    built = build_navmesh_full(level)
    finder = PathFinder(built.mesh)
    regions = Regions(built)
    (hub,) = regions.of_area("hub")
    (east,) = regions.of_area("r_east")
    assert east not in reachable_regions(level, regions, hub)
    assert hub in reachable_regions(level, regions, east)
    assert finder.path(HUB, EAST) is None
    assert finder.path(EAST, HUB) is not None
