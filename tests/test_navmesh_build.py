"""Navigation meshes built from levels: storeys, doors on edges, ramps, narrow gaps."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import Polygon

from tests.level_factory import base_level, set_at
from tests.shared import shipped
from world.level.load import parse_level
from world.navmesh.build import build_navmesh, build_navmesh_full
from world.navmesh.build_storey import _ring_with_points
from world.navmesh.level_paths import DoorBlock, LevelPaths
from world.navmesh.locate import PointLocator
from world.navmesh.query import PathFinder


@pytest.fixture(scope="module")
def outpost():
    return shipped("outpost")


@pytest.fixture(scope="module", params=[True, False], ids=["merged", "triangles"])
def built(request, outpost):
    return build_navmesh_full(outpost, merge=request.param)


def test_every_storey_has_floor(built, outpost):
    assert set(built.mesh.storeys) == {s.id for s in outpost.storeys}
    assert [s.storey for s in built.report.storeys] == ["ground", "upper"]
    assert all(s.triangles > 0 and s.polygons > 0 for s in built.report.storeys)


def test_every_door_is_a_set_of_shared_edges(built, outpost):
    mesh = built.mesh
    doors = {e.id for e in outpost.exits if e.kind == "door" or e.hidden}
    assert mesh.door_ids == doors
    for p, row in enumerate(mesh.doors):
        for k, door in enumerate(row):
            if door is not None:
                q = mesh.neighbours[p][k]
                assert q >= 0, f"door {door} edge has no polygon on the far side"
                assert set(outpost.exit(door).areas) == {built.places[p], built.places[q]}


def test_openings_carry_no_door(built):
    assert "yard_gap" not in built.mesh.door_ids


def test_polygons_are_convex(built):
    mesh = built.mesh
    for poly in mesh.polygons:
        pts = mesh.points[list(poly)]
        nxt = np.roll(pts, -1, axis=0)
        after = np.roll(pts, -2, axis=0)
        cross = (nxt[:, 0] - pts[:, 0]) * (after[:, 1] - nxt[:, 1]) - (nxt[:, 1] - pts[:, 1]) * (
            after[:, 0] - nxt[:, 0]
        )
        assert (cross >= -1e-6).all()


def test_window_is_not_walkable(built):
    locator = PointLocator(built.mesh)
    assert locator.locate(2100.0, 400.0) == -1
    assert locator.locate(2100.0, 395.0) == -1


def test_area_interiors_are_walkable_on_their_storey(built, outpost):
    locator = PointLocator(built.mesh)
    for area in outpost.areas:
        inner = Polygon(area.polygon).buffer(-60)
        for x, z in [*inner.exterior.coords[:-1], inner.centroid.coords[0]]:
            p = locator.locate(x, z, outpost.area_y(area.id))
            assert p >= 0, (area.id, x, z)
            assert built.mesh.storeys[p] == area.storey
            assert built.places[p] == area.id


def test_stair_heights_interpolate(built, outpost):
    mesh = built.mesh
    stairs = outpost.stairs[0]
    z0, z1 = stairs.bottom.edge[0][1], stairs.top.edge[0][1]
    y0, y1 = outpost.area_y(stairs.bottom.area), outpost.area_y(stairs.top.area)
    ramp = {v for p, poly in enumerate(mesh.polygons) if built.places[p] == stairs.id for v in poly}
    assert len(ramp) > 4  # end rows plus intermediate rows
    for v in ramp:
        z, y = mesh.points[v][1], mesh.heights[v]
        assert y == pytest.approx(y0 + (z - z0) / (z1 - z0) * (y1 - y0))
    middle = next(p for p, poly in enumerate(mesh.polygons) if built.places[p] == stairs.id)
    assert y0 <= mesh.height_at(middle, 1200, 850) <= y1


def test_ramp_shares_its_end_edges_with_both_storeys(built, outpost):
    mesh = built.mesh
    stairs = outpost.stairs[0]
    touching = {
        built.places[q]
        for p, row in enumerate(mesh.neighbours)
        if built.places[p] == stairs.id
        for q in row
        if q >= 0
    }
    assert {stairs.bottom.area, stairs.top.area} <= touching


def test_path_across_storeys_through_the_stairs(outpost):
    finder = PathFinder(build_navmesh(outpost))
    path = finder.path((150.0, 0.0, 400.0), (1400.0, 300.0, 1700.0))
    assert path is not None
    assert path.storeys[0] == "ground" and path.storeys[-1] == "upper"
    assert path.waypoints[-1][1] == pytest.approx(300.0)


def test_blocked_door_stops_the_path_and_is_named(outpost):
    finder = PathFinder(build_navmesh(outpost))
    start, armoury = (150.0, 0.0, 400.0), (2100.0, 0.0, 200.0)
    assert finder.path(start, armoury) is not None
    blocked = frozenset({"armoury_door"})
    assert finder.path(start, armoury, blocked) is None
    assert finder.blocked_by(start, armoury, blocked) == ("armoury_door",)
    explained = LevelPaths(outpost, finder).blocking_doors(start, armoury, blocked)
    assert explained == (DoorBlock(door="armoury_door", key="red_key", panel=None),)


def test_gap_narrower_than_the_agent_does_not_connect():
    data = set_at(base_level(), "exits[0].segment", [[600, 200], [600, 230]])
    mesh = build_navmesh(parse_level(data))
    finder = PathFinder(mesh)
    entry, hall = (300.0, 0.0, 300.0), (1000.0, 0.0, 300.0)
    assert finder.is_walkable(entry) and finder.is_walkable(hall)
    assert finder.path(entry, hall) is None
    wide = PathFinder(build_navmesh(parse_level(base_level())))
    assert wide.path(entry, hall) is not None


def test_hidden_exit_is_a_door_edge():
    mesh = build_navmesh(parse_level(base_level()))
    assert "closet_passage" in mesh.door_ids
    finder = PathFinder(mesh)
    entry, closet = (300.0, 0.0, 300.0), (300.0, 0.0, 800.0)
    assert finder.path(entry, closet) is not None
    assert finder.path(entry, closet, frozenset({"closet_passage"})) is None


def test_overlapping_storeys_share_no_vertex():
    data = base_level()
    # Put the loft straight above the hall, with stairs rising along the hall's north wall.
    set_at(data, "areas[4].polygon", [[600, 0], [1400, 0], [1400, 600], [600, 600]])
    data["stairs"] = []
    data["objects"][4]["at"] = [1300, 500]
    data["characters"][1]["at"] = [700, 100]
    data["characters"][1]["route"] = [{"area": "loft", "at": [800, 200]}]
    built = build_navmesh_full(parse_level(data))
    mesh = built.mesh
    for p, row in enumerate(mesh.neighbours):
        for q in row:
            if q >= 0:
                assert mesh.storeys[p] == mesh.storeys[q]
    keys = {
        (x, z, y) for (x, z), y in zip(mesh.points.tolist(), mesh.heights.tolist(), strict=True)
    }
    assert len(keys) == mesh.vertex_count
    stacked = {(x, z) for x, z, y in keys if y == 300} & {(x, z) for x, z, y in keys if y == 0}
    assert stacked  # the same corners exist on both floors, as separate vertices
    locator = PointLocator(mesh)
    assert mesh.storeys[locator.locate(1000, 300, 300.0)] == "upper"
    assert mesh.storeys[locator.locate(1000, 300, 0.0)] == "ground"


def test_build_is_cached_per_level(outpost):
    assert build_navmesh_full(outpost) is build_navmesh_full(outpost)


def test_doors_on_a_path_match_the_door_segments_it_crosses(outpost):
    # Every door whose gap the path's polyline crosses is reported, and no other.
    from shapely.geometry import LineString

    mesh = build_navmesh(outpost)
    finder = PathFinder(mesh)
    doors = {e.id: LineString(e.segment) for e in outpost.exits if e.kind == "door"}
    ground = [a for a in outpost.areas if a.storey == "ground"]
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(150):
        start, goal = (_random_point_in(ground, rng) for _ in range(2))
        path = finder.path((start[0], 0.0, start[1]), (goal[0], 0.0, goal[1]))
        assert path is not None
        line = LineString([(x, z) for x, _, z in path.waypoints])
        crossed = {d for d, seg in doors.items() if line.crosses(seg)}
        assert set(path.doors) == crossed, (start, goal, path.waypoints)
        checked += 1
    assert checked == 150


def _random_point_in(areas, rng):
    from shapely.geometry import Point

    shape = Polygon(areas[rng.integers(len(areas))].polygon).buffer(-60)
    x0, z0, x1, z1 = shape.bounds
    while True:
        x, z = rng.uniform(x0, x1), rng.uniform(z0, z1)
        if shape.contains(Point(x, z)):
            return float(x), float(z)


def test_points_on_a_ring_edge_are_inserted_in_order_and_others_left_out():
    # On an edge (within 1e-4 of it, not at a corner) a point is inserted, nearest the
    # edge's start first; points near but off an edge, at a corner or far away are not.
    ring = [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]
    extra = [(5, 5e-5), (20, 20), (5, 0), (0, 0), (10 + 1e-5, 5), (5, 1e-3), (-3e-4, 5)]
    assert _ring_with_points(ring, extra) == [
        (0.0, 0.0), (5, 0), (5, 5e-5), (10.0, 0.0), (10 + 1e-5, 5), (10.0, 10.0), (0.0, 10.0)]
