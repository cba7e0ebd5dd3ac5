"""The successor step's tables: the ways out of each polygon, and the dead ends a query opens."""

from functools import cache

import pytest

from tests.shared import NAVMESH_DATA, navmesh_data
from world.navmesh.polyanya_format import read_scenarios
from world.navmesh.query import PathFinder
from world.navmesh.search_intervals import entries_of, entry_tables, query_entries

DATA = NAVMESH_DATA


# The Aurora mesh is read once for this module and its neighbour (tests/shared.py); each
# keeps a path finder of its own, whose opened tables its tests look at.
pytestmark = pytest.mark.xdist_group("aurora_mesh")


@cache
def aurora_west() -> PathFinder:
    return PathFinder(navmesh_data("aurora-west"))


def _square_edges() -> tuple[tuple, ...]:
    # The unit square 0 (0, 0), 1 (1, 0), 2 (1, 1), 3 (0, 1), counter-clockwise; the
    # twin index of edge e is 10 + e so that the test can tell them apart.
    xs, zs = (0.0, 1.0, 1.0, 0.0), (0.0, 0.0, 1.0, 1.0)
    edges = []
    for e in range(4):
        u, v = e, (e + 1) % 4
        ex, ez = xs[v] - xs[u], zs[v] - zs[u]
        edges.append((xs[u], zs[u], u, xs[v], zs[v], v, 10 + e, ex, ez, -1e-9))
    return tuple(edges)


def test_entry_exits_are_the_open_far_edges_in_chain_order():
    # Edge 1 is a wall, edge 3 leads into a polygon no path may enter (8). Vertex 1
    # counts as no corner here (as if no wall touched it).
    corner = (True, False, True, True)
    rows = entries_of(_square_edges(), (5, -1, 7, 8), lambda q: q != 8, corner)
    assert len(rows) == 4
    ta, tb, ax, az, bx, bz, ex, ez, limit, exits = rows[0][:10]
    # The entry edge's ends keep their ids where a path may turn, -2 elsewhere.
    assert (ta, tb, ax, az, bx, bz, ex, ez, limit) == (0, -2, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0,
                                                       -1e-9)
    assert rows[1][:2] == (-2, 2)
    # Entered by edge 0 the far chain is w0 = 1, 2, 3, w3 = 0: the only way out is
    # edge 2, from vertex 2 to 3, second on the chain (neither first nor last); a lone
    # way out is repeated flat after the tuple of exits.
    assert exits == ((7, 12, 1.0, 1.0, 2, 0.0, 1.0, 3, False, False),)
    assert rows[0][10:] == exits[0]
    # Entered by edge 2 the chain is 3, 0, 1, 2: edge 0 is its middle edge.
    assert rows[2][9] == ((5, 10, 0.0, 0.0, 0, 1.0, 0.0, 1, False, False),)
    # Entered by the wall edge 1 the chain is 2, 3, 0, 1: edge 2 first, edge 0 last;
    # with two ways out the flat slot holds no neighbour (-1).
    assert rows[1][9] == (
        (7, 12, 1.0, 1.0, 2, 0.0, 1.0, 3, True, False),
        (5, 10, 0.0, 0.0, 0, 1.0, 0.0, 1, False, True),
    )
    assert rows[1][10] == -1


def test_query_entries_open_the_dead_ends_a_query_needs_and_no_others():
    search = aurora_west().search
    _, nbr_rows, corner, dead, way_out, _ = search._tables_for(frozenset())
    tables = entry_tables(search._edges, nbr_rows, dead, corner)
    # A dead end right next to the rest of the mesh, and its way out.
    pocket = next(p for p in range(len(dead)) if dead[p] and way_out[p] >= 0
                  and not dead[way_out[p]])
    out = way_out[pocket]
    assert tables[pocket] is None

    def leads_into(rows, target: int) -> bool:
        return any(exit_[0] == target for row in rows for exit_ in row[9])

    assert not leads_into(tables[out], pocket)
    opened = query_entries(tables, search._edges, nbr_rows, dead, corner, frozenset({pocket}))
    assert leads_into(opened[out], pocket)
    assert opened[pocket] is not None and leads_into(opened[pocket], out)
    # The door set's own tables are left as they were for the next query.
    assert tables[pocket] is None and not leads_into(tables[out], pocket)
    assert query_entries(tables, search._edges, nbr_rows, dead, corner, frozenset()) is tables


def test_one_floor_doorless_path_matches_the_full_rewalk():
    # On a mesh without doors, storeys or slopes the turning points are the path; the
    # re-walk of every leg, made anyway, must give the same answer.
    plain = aurora_west()
    rewalk = PathFinder(plain.mesh)
    assert plain._plain
    rewalk._plain = False
    for sc in read_scenarios(DATA / "aurora-west.scen")[::10]:
        assert plain.path(sc.start, sc.goal) == rewalk.path(sc.start, sc.goal), sc


def test_opened_tables_are_kept_per_set_of_dead_ends_and_stay_exact():
    # Route progress asks from one spot toward several goals, report after report: the
    # tables with the same dead ends opened are made once and give the same paths.
    scenarios = read_scenarios(DATA / "aurora-west.scen")[::40]
    kept = aurora_west()
    first = [kept.path(sc.start, sc.goal) for sc in scenarios]
    opened = kept.search._tables_for(frozenset())[5][1]
    assert 0 < len(opened) <= 32
    again = [kept.path(sc.start, sc.goal) for sc in scenarios]
    fresh = [PathFinder(kept.mesh).path(sc.start, sc.goal) for sc in scenarios]
    assert first == again == fresh
