"""The search's own polygons (merged where convex) and its dead-end pruning."""

import heapq
import math

import pytest
from shapely.geometry import LineString, Polygon, box
from shapely.ops import unary_union

from tests.shared import NAVMESH_DATA, local
from world.navmesh.build import build_navmesh_full
from world.navmesh.mesh import NavMesh
from world.navmesh.polyanya_format import read_mesh
from world.navmesh.query import PathFinder
from world.navmesh.search import dead_ends
from world.navmesh.search_mesh import merge_for_search

DATA = NAVMESH_DATA
ROOMS = local("sim_rooms.json")


def _area(pts, ring) -> float:
    return 0.5 * sum(
        pts[ring[k]][0] * pts[ring[(k + 1) % len(ring)]][1]
        - pts[ring[(k + 1) % len(ring)]][0] * pts[ring[k]][1]
        for k in range(len(ring))
    )


def test_merged_polygons_are_convex_cover_the_mesh_and_keep_adjacency():
    mesh = read_mesh(DATA / "field.mesh")
    merged = merge_for_search(mesh)
    pts = mesh.points.tolist()
    assert len(merged.polygons) < mesh.polygon_count / 2
    for ring in merged.polygons:
        n = len(ring)
        for i in range(n):
            (ox, oz), (ax, az), (bx, bz) = (pts[ring[i - 1]], pts[ring[i]],
                                            pts[ring[(i + 1) % n]])
            assert (ax - ox) * (bz - oz) - (az - oz) * (bx - ox) >= 0.0
    # Each search polygon is exactly the union of the mesh polygons mapped to it.
    covered = [0.0] * len(merged.polygons)
    for p, ring in enumerate(mesh.polygons):
        covered[merged.of[p]] += _area(pts, ring)
    for q, ring in enumerate(merged.polygons):
        assert covered[q] == pytest.approx(_area(pts, ring), rel=1e-9)
    # Adjacency stays symmetric and names the polygon sharing the edge.
    edge_owner = {}
    for q, ring in enumerate(merged.polygons):
        for k in range(len(ring)):
            edge_owner[(ring[k], ring[(k + 1) % len(ring)])] = q
    for q, ring in enumerate(merged.polygons):
        for k, nb in enumerate(merged.neighbours[q]):
            back = edge_owner.get((ring[(k + 1) % len(ring)], ring[k]), -1)
            assert nb == back


def test_door_edges_and_one_way_walls_survive_the_merge():
    mesh = build_navmesh_full(ROOMS).mesh
    merged = merge_for_search(mesh)

    def edges(polygons, doors):
        return {
            (ring[k], ring[(k + 1) % len(ring)]): doors[p][k]
            for p, ring in enumerate(polygons)
            for k in range(len(ring))
            if doors[p][k] is not None
        }

    assert mesh.door_ids
    assert edges(merged.polygons, merged.doors) == edges(mesh.polygons, mesh.doors)

    def walls(polygons, one_way):
        return {(polygons[p][k], polygons[p][(k + 1) % len(polygons[p])]) for p, k in one_way}

    assert mesh.one_way_walls
    assert walls(merged.polygons, merged.one_way_walls) == walls(mesh.polygons,
                                                                 mesh.one_way_walls)


def test_dead_ends_strip_whole_pockets_and_point_the_way_out():
    # A ring 0-1-2-3 with a pocket hanging off polygon 1: 4, then 5 and 6 beyond 4.
    nbrs = [[1, 3], [0, 2, 4], [1, 3], [2, 0], [1, 5, 6], [4], [4]]
    dead, way_out = dead_ends(nbrs)
    assert dead == [False, False, False, False, True, True, True]
    assert way_out[4:] == [1, 4, 4]
    # A component that is all pocket is dead throughout, its last polygon with no way out.
    dead, way_out = dead_ends([[1], [0, 2], [1]])
    assert dead == [True, True, True]
    assert sorted(way_out) == [-1, 1, 1]


POCKET = [(3, 1), (4, 1), (4, 2), (5, 2), (5, 3), (6, 3)]


def pocket_mesh() -> tuple[NavMesh, Polygon]:
    # Unit squares: a ring around the hole [1, 2] x [1, 2], and off its right side a
    # staircase pocket that no merge can make one convex polygon.
    cells = [(x, z) for x in range(3) for z in range(3) if (x, z) != (1, 1)] + POCKET
    index: dict[tuple[int, int], int] = {}
    polys = []
    for x, z in cells:
        ring = [(x, z), (x + 1, z), (x + 1, z + 1), (x, z + 1)]
        polys.append([index.setdefault(v, len(index)) for v in ring])
    pts = sorted(index, key=index.get)
    region = unary_union([box(x, z, x + 1, z + 1) for x, z in cells])
    return NavMesh.from_polygons(pts, [0.0] * len(pts), polys, "0"), region


def visibility_length(region: Polygon, start, goal) -> float:
    # Independent answer: Dijkstra over the region's corners, a leg allowed where the
    # segment stays in the region.
    corners = [tuple(c) for ring in (region.exterior, *region.interiors) for c in ring.coords]
    nodes = [tuple(start), tuple(goal), *dict.fromkeys(corners)]
    best = {0: 0.0}
    heap = [(0.0, 0)]
    while heap:
        d, i = heapq.heappop(heap)
        if i == 1:
            return d
        if d > best[i]:
            continue
        for j, q in enumerate(nodes):
            if j != i and region.covers(LineString([nodes[i], q])):
                nd = d + math.dist(nodes[i], q)
                if nd < best.get(j, math.inf):
                    best[j] = nd
                    heapq.heappush(heap, (nd, j))
    return math.inf


@pytest.mark.parametrize(
    ("start", "goal"),
    [
        ((6.8, 3.5), (0.5, 1.5)),  # from the pocket's far end round the hole
        ((0.5, 2.5), (6.5, 3.2)),  # from the ring into the pocket's far end
        ((3.2, 1.8), (6.9, 3.9)),  # from the pocket's mouth to its end
        ((5.5, 2.1), (1.5, 0.2)),  # from the pocket's middle
    ],
)
def test_paths_start_and_end_inside_dead_end_pockets(start, goal):
    mesh, region = pocket_mesh()
    finder = PathFinder(mesh)
    merged = finder.search.merged
    dead, _ = dead_ends(merged.neighbours)
    assert sum(dead) >= 2  # the pocket is several search polygons, stripped in turn
    assert dead[merged.of[finder.locate(start)]] or dead[merged.of[finder.locate(goal)]]
    path = finder.path(start, goal)
    assert path is not None
    assert path.plane_length == pytest.approx(visibility_length(region, start, goal), rel=1e-9)
    # Same question, fresh finder: the same turning points (determinism).
    again = PathFinder(mesh).path(start, goal)
    assert again is not None and again.waypoints == path.waypoints
