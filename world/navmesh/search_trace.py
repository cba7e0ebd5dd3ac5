"""Walk a straight segment through a mesh by adjacency, recording the edges crossed.

Polyanya returns only turning points; callers also need the door portals and storeys
a path passes, so each straight leg is re-walked polygon by polygon. The walk only
ever moves to a topological neighbour, so it stays on the right storey where floors
overlap in projection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Crossing:
    """One edge crossed by a traced segment.

    Attributes:
        polygon: Polygon left.
        edge: Index of the crossed edge in that polygon's ring.
        entered: Polygon entered.
        point: Crossing point (x, z).
    """

    polygon: int
    edge: int
    entered: int
    point: tuple[float, float]


@dataclass(frozen=True)
class Trace:
    """Result of walking one segment.

    Attributes:
        polygons: Polygons visited in order (first is the start polygon).
        crossings: Edges crossed in order.
    """

    polygons: tuple[int, ...]
    crossings: tuple[Crossing, ...]

    @property
    def end_polygon(self) -> int:
        """Polygon that contains the segment's end point."""
        return self.polygons[-1]


Side = tuple[int, float, float, float, float, float]


def edge_sides(vx: list[float], vz: list[float], verts: list[tuple[int, ...]],
               eps: float) -> list[tuple[Side, ...]]:
    """Each polygon's edges as a walk reads them, worked out once for a mesh.

    Args:
        vx: Vertex x coordinates.
        vz: Vertex z coordinates.
        verts: Counter-clockwise vertex ring per polygon.
        eps: Geometric tolerance in plane units.

    Returns:
        Per polygon, per edge k: (k, ax, az, ex, ez, -eps * length), with (ax, az)
        the edge's first vertex and (ex, ez) the vector to its second.
    """
    table = []
    for ring in verts:
        n = len(ring)
        sides = []
        for k in range(n):
            a, b = ring[k], ring[(k + 1) % n]
            ax, az = vx[a], vz[a]
            ex, ez = vx[b] - ax, vz[b] - az
            sides.append((k, ax, az, ex, ez, -eps * math.hypot(ex, ez)))
        table.append(tuple(sides))
    return table


def trace_segment(
    vx: list[float],
    vz: list[float],
    verts: list[tuple[int, ...]],
    nbrs: list[tuple[int, ...]],
    start_poly: int,
    p: tuple[float, float],
    q: tuple[float, float],
    eps: float,
    sides: list[tuple[Side, ...]],
) -> Trace | None:
    """Walk from ``start_poly`` (which contains ``p``) along segment p -> q.

    Where the segment leaves a polygon exactly through a vertex, the walk turns
    around that vertex through the polygons sharing it until the segment's way on
    is found.

    Args:
        vx: Vertex x coordinates.
        vz: Vertex z coordinates.
        verts: Counter-clockwise vertex ring per polygon.
        nbrs: Neighbour per edge (-1 = wall or blocked door).
        start_poly: Polygon containing ``p``.
        p: Segment start (x, z).
        q: Segment end (x, z).
        eps: Geometric tolerance in plane units.
        sides: `edge_sides` of the mesh for this ``eps``, kept by the caller (a walk
            reads each edge instead of working it out again).

    Returns:
        The trace, or None when the segment leaves the walkable mesh.
    """
    px, pz = p
    qx, qz = q
    seg = math.hypot(qx - px, qz - pz)
    t_tol = eps / seg if seg > 0 else 0.0
    poly = start_poly
    visited = {poly}
    polys = [poly]
    crossings: list[Crossing] = []
    for _ in range(len(verts) + 1):
        ring = verts[poly]
        exits: list[tuple[float, int]] = []
        for k, ax, az, ex, ez, limit in sides[poly]:
            sq = ex * (qz - az) - ez * (qx - ax)
            if sq >= limit:
                continue
            sp = ex * (pz - az) - ez * (px - ax)
            exits.append((sp / (sp - sq) if sp > 0.0 else 0.0, k))
        if not exits:
            return Trace(tuple(polys), tuple(crossings))
        exits.sort()
        t_min = exits[0][0]
        chosen = None
        for t, k in exits:
            if t > t_min + t_tol:
                break
            nb = nbrs[poly][k]
            if nb >= 0 and nb not in visited and _on_edge(vx, vz, ring, k, p, q, t, eps):
                chosen = (t, k, nb)
                break
        if chosen is None:
            return None
        t, k, nb = chosen
        point = (px + t * (qx - px), pz + t * (qz - pz))
        crossings.append(Crossing(poly, k, nb, point))
        poly = nb
        visited.add(nb)
        polys.append(nb)
    return None


def _on_edge(
    vx: list[float],
    vz: list[float],
    ring: tuple[int, ...],
    k: int,
    p: tuple[float, float],
    q: tuple[float, float],
    t: float,
    eps: float,
) -> bool:
    # Collinear edges of one polygon tie on t (the crossing of their common line), so
    # the crossing point itself must lie within the edge for the edge to be the exit.
    a, b = ring[k], ring[(k + 1) % len(ring)]
    ex, ez = vx[b] - vx[a], vz[b] - vz[a]
    length_sq = ex * ex + ez * ez
    if length_sq == 0.0:
        return False
    x = p[0] + t * (q[0] - p[0])
    z = p[1] + t * (q[1] - p[1])
    u = ((x - vx[a]) * ex + (z - vz[a]) * ez) / length_sq
    slack = eps / math.sqrt(length_sq)
    return -slack <= u <= 1.0 + slack
