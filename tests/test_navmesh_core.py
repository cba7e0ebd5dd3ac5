
import numpy as np
import pytest

from tests.shared import NAVMESH_DATA
from world.navmesh.locate import PointLocator
from world.navmesh.mesh import NavMesh
from world.navmesh.polyanya_format import parse_mesh, parse_scenarios, read_mesh, read_scenarios
from world.navmesh.search_trace import edge_sides, trace_segment

DATA = NAVMESH_DATA

EXAMPLE = """mesh
2
4 2
0.0 0.0 2 0 -1
1.5 0.0 3 0 1 -1
1.5 1.5 2 1 -1
0.0 1.5 3 -1 1 0
3 0 1 3 -1 -1 1
3 1 2 3 0 -1 -1
"""


def square_pair() -> NavMesh:
    # Two unit squares side by side sharing the edge x = 1; given clockwise on purpose.
    pts = [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (0, 1)]
    return NavMesh.from_polygons(
        pts, [0.0] * 6, [[0, 5, 4, 1], [1, 2, 3, 4]], "0", edge_doors={(4, 1): "door"}
    )


def test_example_mesh_adjacency_follows_version_2():
    mesh = parse_mesh(EXAMPLE, "example.mesh")
    assert mesh.polygon_count == 2 and mesh.vertex_count == 4
    # Polygon 0 is (0, 1, 3); its edge 1 -> 3 (our edge 1) is shared with polygon 1.
    assert mesh.neighbours[0] == (-1, 1, -1)
    assert mesh.neighbours[1] == (-1, -1, 0)
    assert mesh.storeys == ("0", "0")
    assert np.all(mesh.heights == 0)


def test_arena_mesh_is_consistent():
    mesh = read_mesh(DATA / "arena.mesh")
    assert mesh.polygon_count == 120 and mesh.vertex_count == 112
    for p, row in enumerate(mesh.neighbours):
        for q in row:
            if q >= 0:
                assert p in mesh.neighbours[q]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("nomesh\n2\n", "line 1: expected header"),
        ("mesh\n3\n1 1\n", "line 2: format version (only 2 is supported) 3"),
        ("mesh\n2\n4 2\n0 0 2 0 -1\n", "unexpected end of file"),
        ("mesh\n2\n1 1\nx 0 0\n", "line 4: expected a number"),
        (EXAMPLE.replace("3 1 2 3 0 -1 -1", "3 1 2 9 0 -1 -1"), "line 9: vertex of polygon 1 9"),
        (EXAMPLE + "7\n", "line 10: unexpected trailing data"),
        (EXAMPLE.replace("3 0 1 3 -1 -1 1", "3 0 3 1 -1 -1 1"), "not counter-clockwise"),
    ],
)
def test_malformed_mesh_errors_name_file_and_line(text, fragment):
    with pytest.raises(ValueError) as err:
        parse_mesh(text, "bad.mesh")
    assert "bad.mesh" in str(err.value)
    assert fragment in str(err.value)


def test_asymmetric_neighbours_are_rejected():
    text = EXAMPLE.replace("3 1 2 3 0 -1 -1", "3 1 2 3 -1 -1 -1")
    with pytest.raises(ValueError, match="does not share that edge"):
        parse_mesh(text, "bad.mesh")


def test_scenarios_read_and_malformed():
    scenarios = read_scenarios(DATA / "field.scen")
    assert len(scenarios) == 300
    first = scenarios[0]
    assert first.map_name == "field.mesh"
    assert first.start == (325.719, 462.777) and first.length == pytest.approx(349.100813)
    with pytest.raises(ValueError, match="line 1"):
        parse_scenarios("version 2\n", "x.scen")
    with pytest.raises(ValueError, match=r"x\.scen, line 2: expected 9 columns"):
        parse_scenarios("version 1\n0\tm\t0\n", "x.scen")


def test_from_polygons_adjacency_winding_and_doors():
    mesh = square_pair()
    assert mesh.polygons[0] == (1, 4, 5, 0)
    assert mesh.neighbours[0] == (1, -1, -1, -1)
    assert mesh.neighbours[1][3] == 0
    assert mesh.doors[0][0] == "door" and mesh.doors[1][3] == "door"
    assert mesh.door_ids == frozenset({"door"})
    with pytest.raises(ValueError, match="door edges"):
        NavMesh.from_polygons([(0, 0), (1, 0), (0, 1)], [0, 0, 0], [[0, 1, 2]], "0", {(5, 6): "x"})
    with pytest.raises(ValueError, match="zero area"):
        NavMesh.from_polygons([(0, 0), (1, 0), (2, 0)], [0, 0, 0], [[0, 1, 2]], "0")


def test_heights_are_interpolated():
    mesh = NavMesh.from_polygons([(0, 0), (10, 0), (0, 10)], [0, 5, 0], [[0, 1, 2]], "0")
    assert mesh.height_at(0, 4, 3) == pytest.approx(2.0)


def test_locate_inside_boundary_outside():
    loc = PointLocator(square_pair())
    assert loc.locate(0.5, 0.5) == 0
    assert loc.locate(1.5, 0.5) == 1
    assert loc.polygons_at(1.0, 0.5) == [0, 1]
    assert loc.locate(1.0, 0.5) in (0, 1)
    assert loc.locate(2.0, 1.0) == 1
    assert loc.locate(2.0 + 1e-12, 0.5) == 1
    assert loc.locate(2.1, 0.5) == -1
    assert loc.locate(-5, -5) == -1


def test_locate_overlapping_storeys_by_height():
    pts = [(0, 0), (4, 0), (4, 4), (0, 4)] * 2
    mesh = NavMesh.from_polygons(pts, [0] * 4 + [3] * 4, [[0, 1, 2, 3], [4, 5, 6, 7]], ["g", "u"])
    loc = PointLocator(mesh)
    assert loc.locate(2, 2, 0.2) == 0
    assert loc.locate(2, 2, 2.9) == 1
    assert loc.locate(2, 2) == 0  # without a height the lowest floor wins
    assert loc.locate_in_storey(2, 2, "u") == 1
    assert loc.locate_in_storey(2, 2, "x") == -1


def test_arena_locate_finds_every_scenario_point():
    mesh = read_mesh(DATA / "arena.mesh")
    loc = PointLocator(mesh)
    for sc in read_scenarios(DATA / "arena.scen")[:200]:
        p = loc.locate(*sc.start)
        assert p >= 0 and loc.contains(p, *sc.start)


def test_trace_segment_crosses_shared_edge():
    mesh = square_pair()
    vx = list(mesh.points[:, 0])
    vz = list(mesh.points[:, 1])
    polys = list(mesh.polygons)
    sides = edge_sides(vx, vz, polys, 1e-9)
    trace = trace_segment(
        vx, vz, polys, list(mesh.neighbours), 0, (0.5, 0.5), (1.5, 0.25), 1e-9, sides
    )
    assert trace is not None
    assert trace.polygons == (0, 1)
    assert trace.crossings[0].point == pytest.approx((1.0, 0.375))
    walls = [tuple(-1 for _ in row) for row in mesh.neighbours]
    assert trace_segment(vx, vz, polys, walls, 0, (0.5, 0.5), (1.5, 0.5), 1e-9, sides) is None
