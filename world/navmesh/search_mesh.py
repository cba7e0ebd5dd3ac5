"""The polygons the path search walks: the mesh's own, merged where the union is convex.

Polyanya's work grows with the number of polygons a path's windows cross, and a
triangulated floor has about twice as many as it needs (the Polyanya authors merge
their benchmark meshes for the same reason). Shortest paths depend only on the walkable
region and its walls, not on how it is cut into convex pieces, so the search runs on a
merged copy while everything else (point location, doors and storeys passed, heights)
keeps the mesh's own polygons. Edges carrying a door or a one-way wall are never merged
away, so blocking a door still turns exactly its edges into walls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from world.navmesh.mesh import NavMesh


@dataclass(frozen=True)
class SearchMesh:
    """Convex polygons for the search, each a union of mesh polygons.

    Attributes:
        polygons: Counter-clockwise vertex ring per search polygon (mesh vertex ids).
        neighbours: Search polygon across each edge (-1 = wall).
        doors: Door id per edge (None = not a door).
        one_way_walls: ``(search polygon, edge)`` pairs that may not be left through.
        of: For each mesh polygon, the search polygon containing it.
    """

    polygons: tuple[tuple[int, ...], ...]
    neighbours: tuple[tuple[int, ...], ...]
    doors: tuple[tuple[str | None, ...], ...]
    one_way_walls: frozenset[tuple[int, int]]
    of: tuple[int, ...]


def merge_for_search(mesh: NavMesh) -> SearchMesh:
    """Merge neighbouring polygons while their union stays convex (Hertel-Mehlhorn).

    Shared edges are tried longest first (ties in polygon, edge order), which leaves
    fewer, rounder polygons; the result depends only on the mesh.

    Args:
        mesh: The mesh.

    Returns:
        The search polygons with their adjacency, doors and one-way walls.
    """
    vx = [float(v) for v in mesh.points[:, 0]]
    vz = [float(v) for v in mesh.points[:, 1]]
    rings: dict[int, list[int]] = {p: list(ring) for p, ring in enumerate(mesh.polygons)}
    # Directed edge (u, v) -> the mesh polygon and edge index it comes from, and the
    # group (surviving ring) that currently holds it.
    origin: dict[tuple[int, int], tuple[int, int]] = {}
    for p, ring in enumerate(mesh.polygons):
        n = len(ring)
        for k in range(n):
            origin[(ring[k], ring[(k + 1) % n])] = (p, k)
    owner = {edge: pk[0] for edge, pk in origin.items()}
    into = list(range(len(mesh.polygons)))  # the polygon each one was merged into
    diagonals = []
    for p, ring in enumerate(mesh.polygons):
        n = len(ring)
        for k, q in enumerate(mesh.neighbours[p]):
            if q <= p or mesh.doors[p][k] is not None:
                continue
            u, v = ring[k], ring[(k + 1) % n]
            back = origin.get((v, u))
            if back is None or back[0] != q:
                continue
            if (p, k) in mesh.one_way_walls or back in mesh.one_way_walls:
                continue
            diagonals.append((-math.hypot(vx[v] - vx[u], vz[v] - vz[u]), u, v))
    diagonals.sort(key=lambda d: d[0])  # stable: equal lengths keep mesh order
    for _, u, v in diagonals:
        p, q = owner[(u, v)], owner[(v, u)]
        if p == q:
            continue
        a, b = rings[p], rings[q]
        i = a.index(v)
        j = b.index(u)
        # p holds u -> v: walk p from v round to u, then q from u round to v.
        merged = a[i:] + a[:i] + (b[j:] + b[:j])[1:-1]
        if not (_convex_at(vx, vz, merged, len(a) - 1) and _convex_at(vx, vz, merged, 0)):
            continue
        rings[p] = merged
        del rings[q]
        into[q] = p
        del owner[(u, v)], owner[(v, u)]
        for k in range(len(merged)):
            owner[(merged[k], merged[(k + 1) % len(merged)])] = p
    new_id = {p: i for i, p in enumerate(sorted(rings))}
    of = []
    for p in range(len(into)):
        while into[p] != p:
            into[p] = into[into[p]]
            p = into[p]
        of.append(new_id[p])
    polygons: list[tuple[int, ...]] = []
    neighbours: list[tuple[int, ...]] = []
    doors: list[tuple[str | None, ...]] = []
    one_way = set()
    for p in sorted(rings):
        cycle = rings[p]
        # Start each ring at its smallest vertex id so the layout is canonical.
        s = cycle.index(min(cycle))
        cycle = cycle[s:] + cycle[:s]
        n = len(cycle)
        row_n, row_d = [], []
        for k in range(n):
            mp, mk = origin[(cycle[k], cycle[(k + 1) % n])]
            across = mesh.neighbours[mp][mk]
            row_n.append(-1 if across < 0 else of[across])
            row_d.append(mesh.doors[mp][mk])
            if (mp, mk) in mesh.one_way_walls:
                one_way.add((len(polygons), k))
        polygons.append(tuple(cycle))
        neighbours.append(tuple(row_n))
        doors.append(tuple(row_d))
    return SearchMesh(
        tuple(polygons), tuple(neighbours), tuple(doors), frozenset(one_way), tuple(of)
    )


def _convex_at(vx: list[float], vz: list[float], ring: list[int], i: int) -> bool:
    # Straight angles are kept (the walls of grid maps are long runs of them); a
    # rounding-level reflex angle is not, so every search polygon is truly convex.
    n = len(ring)
    o, a, b = ring[i - 1], ring[i], ring[(i + 1) % n]
    return (vx[a] - vx[o]) * (vz[b] - vz[o]) - (vz[a] - vz[o]) * (vx[b] - vx[o]) >= 0.0
