"""Successor generation for Polyanya search nodes (the inner loop of the search).

A search node is a root point ``r`` and an interval ``[R, L]`` on edge ``k`` of the
polygon ``P`` it is about to enter. Edge ``k`` runs from vertex ``a`` to ``b`` of P's
counter-clockwise ring, so seen from the root (outside P) ``a`` is on the left and
``b`` on the right: ``L`` lies towards ``a`` and ``R`` towards ``b``.

The far side of P is the chain ``w0 = b, w1, ..., wm = a``. Observable successors keep
the root and cover the part of the chain between the rays ``r->R`` and ``r->L``;
non-observable successors turn at ``R == b`` (or ``L == a``) when that vertex is a
corner and cover the chain beyond the ray.

Only far edges a path can leave by (open, and not into a dead end the query does not
need) yield successors, so each one is clipped against the two rays on its own: seen
from a root outside the convex P, the chain's orientation against a ray changes sign
once, so an edge's two end orientations tell where it lies. Most polygons of a map
with ragged walls have one or two such edges among many wall sides, and the wall
sides are never looked at.

The step pushes its successors onto the search's open list itself, their h-values
worked out from its local variables; each entry row carries the ids of its ends where
a path may turn (one comparison against the interval's end vertex) and, when the
polygon has only one way on from that edge, that exit flat in the row, so the common
corridor step reads one tuple and runs no loop.

Successor tuples are ``(rx, rz, rid, rec, g, Lx, Lz, lv, Rx, Rz, rv, poly, k)`` where
``rid`` is the root's vertex id (-1 for the start), ``rec`` the root's back-pointer
record ``(x, z, parent_rec)``, and ``lv``/``rv`` the vertex id an endpoint sits on
exactly (or -1).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Collection, Sequence

Successor = tuple
Expand = Callable[[tuple], "tuple | None"]
# Per polygon edge: (x0, z0, v0, x1, z1, v1, twin, ex, ez, limit), the edge from ring
# vertex v0 to the next one v1, its twin index in the neighbour, its direction and
# -eps * its length (how far outside its line a point may be and count as on it).
EdgeRecord = tuple
# Per polygon and entry edge k: (ta, tb, ax, az, bx, bz, ex, ez, limit, exits, *one),
# with ta/tb the vertex ids of a and b where a path may turn there (a corner), else -2,
# exits the far edges a path may leave by, in chain order, each as
# (neighbour, twin, x0, z0, v0, x1, z1, v1, first, last) (first/last: chain ends), and
# one the only exit again when there is exactly one, else `_NO_EXIT` (neighbour -1).
Entry = tuple


_NO_EXIT = (-1, -1, 0.0, 0.0, -1, 0.0, 0.0, -1, False, False)


def build_edges(
    vx: list[float],
    vz: list[float],
    verts: list[tuple[int, ...]],
    twin: list[tuple[int, ...]],
    eps: float,
) -> list[tuple[EdgeRecord, ...]]:
    """Per polygon, the geometry of each edge (built once per mesh).

    Args:
        vx: Vertex x coordinates.
        vz: Vertex z coordinates.
        verts: Counter-clockwise vertex ring per polygon.
        twin: Per polygon edge, its index in the neighbour's ring (-1 = none).
        eps: Geometric tolerance in plane units.

    Returns:
        Per polygon, per edge ``e`` from ``ring[e]`` to ``ring[e + 1]``:
        ``(x0, z0, v0, x1, z1, v1, twin, ex, ez, -eps * length)``.
    """
    edges = []
    for p, ring in enumerate(verts):
        n = len(ring)
        row = []
        for e in range(n):
            u, v = ring[e], ring[(e + 1) % n]
            ex, ez = vx[v] - vx[u], vz[v] - vz[u]
            row.append((vx[u], vz[u], u, vx[v], vz[v], v, twin[p][e], ex, ez,
                        -eps * math.hypot(ex, ez)))
        edges.append(tuple(row))
    return edges


def entries_of(
    edges: tuple[EdgeRecord, ...],
    nbrs: Sequence[int],
    passable: Callable[[int], bool],
    corner: Sequence[bool],
) -> tuple[Entry, ...]:
    """One polygon's entry table: per entry edge, its geometry and the ways out.

    Args:
        edges: The polygon's edge records (see ``build_edges``).
        nbrs: Its neighbour per edge (-1 = wall).
        passable: Whether a path may enter a neighbour polygon at all.
        corner: Per vertex, whether it touches a wall (so paths may turn there).

    Returns:
        Per entry edge ``k``: ``(ta, tb, ax, az, bx, bz, ex, ez, limit, exits)``, with
        ``ta``/``tb`` the ids of its ends a and b, or -2 for an end that is no corner
        (one comparison then tells whether the search turns there).
    """
    n = len(edges)
    ways = [e for e in range(n) if nbrs[e] >= 0 and passable(nbrs[e])]
    rows = []
    for k in range(n):
        ax, az, a, bx, bz, b, _, ex, ez, limit = edges[k]
        exits = []
        for e in sorted(ways, key=lambda e: (e - k) % n):
            j = (e - k - 1) % n  # position on the far chain w0 = b .. wm = a
            if j == n - 1:
                continue  # the entry edge itself
            x0, z0, v0, x1, z1, v1, tw = edges[e][:7]
            exits.append((nbrs[e], tw, x0, z0, v0, x1, z1, v1, j == 0, j == n - 2))
        # The only way on, when there is one, is repeated flat for the common step.
        one = exits[0] if len(exits) == 1 else _NO_EXIT
        rows.append((a if corner[a] else -2, b if corner[b] else -2, ax, az, bx, bz, ex, ez,
                     limit, tuple(exits), *one))
    return tuple(rows)


def entry_tables(
    edges: list[tuple[EdgeRecord, ...]],
    nbr_rows: Sequence[Sequence[int]],
    dead: list[bool],
    corner: Sequence[bool],
) -> list[tuple[Entry, ...] | None]:
    """Entry tables of every polygon outside the dead ends, for one door set.

    Args:
        edges: Per polygon edge records (see ``build_edges``).
        nbr_rows: Neighbour per polygon edge with the door set's walls.
        dead: Per polygon, whether it lies in a dead end.
        corner: Per vertex, whether it touches a wall with the door set's walls.

    Returns:
        Per polygon its entry table (see ``entries_of``), None for dead ends: a query
        that needs one builds its rows itself (``query_entries``).
    """
    def alive(q: int) -> bool:
        return not dead[q]

    return [None if dead[p] else entries_of(edges[p], nbr_rows[p], alive, corner)
            for p in range(len(edges))]


def query_entries(
    tables: list[tuple[Entry, ...] | None],
    edges: list[tuple[EdgeRecord, ...]],
    nbr_rows: Sequence[Sequence[int]],
    dead: list[bool],
    corner: Sequence[bool],
    open_dead: Collection[int],
) -> list[tuple[Entry, ...] | None]:
    """The door set's entry tables with the dead ends a query needs opened.

    Args:
        tables: The door set's tables (see ``entry_tables``); left unchanged.
        edges: Per polygon edge records.
        nbr_rows: Neighbour per polygon edge with the door set's walls.
        dead: Per polygon, whether it lies in a dead end.
        corner: Per vertex, whether it touches a wall with the door set's walls.
        open_dead: Dead-end polygons the query may enter (holding or leading to its
            start or goal).

    Returns:
        A copy of ``tables`` where the open dead ends and their neighbours have rows
        that count the open dead ends as ways out.
    """
    if not open_dead:
        return tables
    out = list(tables)

    def passable(q: int) -> bool:
        return not dead[q] or q in open_dead

    touched = set(open_dead)
    for p in open_dead:
        touched.update(q for q in nbr_rows[p] if q >= 0)
    for p in touched:
        if passable(p):
            out[p] = entries_of(edges[p], nbr_rows[p], passable, corner)
    return out


def make_expand(
    entries: list[tuple[Entry, ...] | None],
    eps: float,
    root_g: dict[int, float],
    goals: frozenset[int],
    goal: tuple[float, float],
    heap: list[tuple],
    tick: Callable[[], int],
    finish: Callable[[tuple], tuple[float, tuple]],
) -> Expand:
    """The successor step of one search (its tables bound once, for speed).

    Args:
        entries: Per polygon and entry edge, the edge's geometry, its turning vertices
            and the far edges a path may leave by (see ``query_entries``).
        eps: Geometric tolerance in plane units.
        root_g: Best g found so far per root vertex (root-level pruning), filled in
            as successors turn at vertices; the caller prunes popped nodes with it.
        goals: The polygons holding the goal.
        goal: The goal point (x, z).
        heap: The open list: successors go onto it as ``(f, tick(), node)``.
        tick: The tie-breaking counter of heap entries (shared with the caller).
        finish: For a node entering a goal polygon, its path's length and its tail
            (see ``search._goal_entry``).

    Returns:
        ``expand(node)``: pushes the successors of ``node`` inside the polygon it
        enters, or, while that is a lone one with the same root outside ``goals``, of
        the node it leads to; a node entering a goal polygon pushes the path's end.
        Returns the node to go on with when the successors are a lone one with the
        same root (it needs no heap round-trip), else None.
    """
    # Best g per (root, polygon) already expanded in full view (root on its edge).
    seen_flat: dict[tuple[int, int], float] = {}
    hypot = math.hypot
    push = heapq.heappush
    inf = math.inf
    gx, gz = goal
    best_goal = inf

    def expand(node: tuple) -> tuple | None:
        nonlocal best_goal
        rx, rz, rid, rec, g, lx, lz, lv, rgx, rgz, rv, poly, k = node
        if poly in goals:
            fg, points = finish(node)
            if fg < best_goal:
                best_goal = fg
                push(heap, (fg, tick(), (points, fg, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1)))
            return None
        right: list[tuple] = []
        left: list[tuple] = []
        # The rays' directions and tolerances; a followed successor keeps a ray whose
        # end it only moved along it (an exit point computed on the ray).
        drx, drz = rgx - rx, rgz - rz
        dlx, dlz = lx - rx, lz - rz
        tol_r = eps * hypot(drx, drz)
        tol_l = eps * hypot(dlx, dlz)
        # A point's orientation against a ray is d x (p - r) = d x p - d x r; the
        # second term is kept per ray.
        cr = drx * rz - drz * rx
        cl = dlx * rz - dlz * rx
        g_r = g_l = plx = plz = prx = prz = 0.0
        plv = prv = ptw = -1
        while True:
            # ta, tb: the entry edge's ends a (left) and b (right) where a path may turn
            # (-2 where it may not: no wall there).
            (ta, tb, ax, az, bx, bz, ex, ez, limit, exits,
             nb, tw, x0, z0, v0, x1, z1, v1, first, last) = entries[poly][k]

            if ex * (rz - az) - ez * (rx - ax) >= limit:
                return _on_edge_line((rx, rz, rid, rec, g, lx, lz, lv, rgx, rgz, rv, poly, k),
                                     ax, az, ex, ez, exits)

            # Turning at b (a) is worth it when the interval ends there and no cheaper
            # way to that vertex is known; the best g is recorded either way.
            turn_r = turn_l = False
            if rv == tb:
                g_r = g + hypot(bx - rx, bz - rz)
                best = root_g.get(tb, inf)
                if g_r <= best + eps:
                    turn_r = True
                    if g_r < best:
                        root_g[tb] = g_r
            if lv == ta:
                g_l = g + hypot(ax - rx, az - rz)
                best = root_g.get(ta, inf)
                if g_l <= best + eps:
                    turn_l = True
                    if g_l < best:
                        root_g[ta] = g_l
            # Orientation of each exit edge's ends against the right ray (o) and the left
            # ray (q). A vertex within eps of a ray counts as on it, so that an exit point
            # computed in floating point next to a vertex becomes that vertex (a corner a
            # later node may need to turn around) instead of a point a rounding error
            # beside it.
            if nb >= 0:
                # The polygon's only way on (most steps, down corridors): the loop below
                # for one exit edge, written out.
                o0 = drx * z0 - drz * x0 - cr
                o1 = drx * z1 - drz * x1 - cr
                q0 = dlx * z0 - dlz * x0 - cl
                q1 = dlx * z1 - dlz * x1 - cl
                past_r = last or o1 > tol_r
                before_l = first or q0 < -tol_l
                if past_r:
                    if o0 >= -tol_r or o1 <= tol_r:
                        sx, sz, sv = x0, z0, v0
                    else:
                        s = o0 / (o0 - o1)
                        sx, sz, sv = x0 + s * (x1 - x0), z0 + s * (z1 - z0), -1
                if before_l:
                    if q1 <= tol_l or q0 >= -tol_l:
                        fx, fz, fv = x1, z1, v1
                    else:
                        s = q0 / (q0 - q1)
                        fx, fz, fv = x0 + s * (x1 - x0), z0 + s * (z1 - z0), -1
                if turn_r and (first or o0 <= tol_r):
                    if past_r:
                        ex1, ez1, ev1 = sx, sz, sv
                    else:
                        ex1, ez1, ev1 = x1, z1, v1
                    if x0 != ex1 or z0 != ez1:
                        right.append((ex1, ez1, ev1, x0, z0, v0, nb, tw))
                if turn_l and (last or q1 >= -tol_l):
                    if before_l:
                        ex0, ez0, ev0 = fx, fz, fv
                    else:
                        ex0, ez0, ev0 = x0, z0, v0
                    if ex0 != x1 or ez0 != z1:
                        left.append((x1, z1, v1, ex0, ez0, ev0, nb, tw))
                if not (past_r and before_l and (sx != fx or sz != fz)):
                    break
                if right or left or nb in goals:
                    pending = (rx, rz, rid, rec, g, fx, fz, fv, sx, sz, sv, nb, tw)
                    if not (right or left):
                        return pending  # a lone successor entering the goal's polygon
                    f = g + heuristic(rx, rz, fx, fz, sx, sz, gx, gz)
                    if f < best_goal:
                        push(heap, (f, tick(), pending))
                    break
                lx, lz, lv, rgx, rgz, rv, poly, k = fx, fz, fv, sx, sz, sv, nb, tw
                if sv >= 0:  # the end moved to a vertex: the ray turned
                    drx, drz = sx - rx, sz - rz
                    tol_r = eps * hypot(drx, drz)
                    cr = drx * rz - drz * rx
                if fv >= 0:
                    dlx, dlz = fx - rx, fz - rz
                    tol_l = eps * hypot(dlx, dlz)
                    cl = dlx * rz - dlz * rx
                continue
            # Several ways on: the latest observable successor is kept in locals (pending
            # while pnb >= 0) until the next one: a lone one is then followed without
            # building a node.
            pnb = -1
            many = False
            for nb, tw, x0, z0, v0, x1, z1, v1, first, last in exits:
                o0 = drx * z0 - drz * x0 - cr
                o1 = drx * z1 - drz * x1 - cr
                q0 = dlx * z0 - dlz * x0 - cl
                q1 = dlx * z1 - dlz * x1 - cl
                # Reaches past the right ray (or is the chain's last edge, which holds the
                # right exit point when the whole chain rounds onto the ray).
                past_r = last or o1 > tol_r
                # Starts before the left ray (or is the chain's first edge).
                before_l = first or q0 < -tol_l
                if past_r:
                    if o0 >= -tol_r or o1 <= tol_r:
                        sx, sz, sv = x0, z0, v0
                    else:
                        s = o0 / (o0 - o1)
                        sx, sz, sv = x0 + s * (x1 - x0), z0 + s * (z1 - z0), -1
                if before_l:
                    if q1 <= tol_l or q0 >= -tol_l:
                        fx, fz, fv = x1, z1, v1
                    else:
                        s = q0 / (q0 - q1)
                        fx, fz, fv = x0 + s * (x1 - x0), z0 + s * (z1 - z0), -1
                if past_r and before_l and (sx != fx or sz != fz):
                    if pnb >= 0:
                        many = True
                        f = g + heuristic(rx, rz, plx, plz, prx, prz, gx, gz)
                        if f < best_goal:
                            push(heap, (f, tick(), (rx, rz, rid, rec, g, plx, plz, plv,
                                                    prx, prz, prv, pnb, ptw)))
                    plx, plz, plv, prx, prz, prv, pnb, ptw = fx, fz, fv, sx, sz, sv, nb, tw
                if turn_r and (first or o0 <= tol_r):
                    # Beyond the right ray: seen only by turning at b.
                    if past_r:
                        ex1, ez1, ev1 = sx, sz, sv
                    else:
                        ex1, ez1, ev1 = x1, z1, v1
                    if x0 != ex1 or z0 != ez1:
                        right.append((ex1, ez1, ev1, x0, z0, v0, nb, tw))
                if turn_l and (last or q1 >= -tol_l):
                    if before_l:
                        ex0, ez0, ev0 = fx, fz, fv
                    else:
                        ex0, ez0, ev0 = x0, z0, v0
                    if ex0 != x1 or ez0 != z1:
                        left.append((x1, z1, v1, ex0, ez0, ev0, nb, tw))
            if pnb < 0:
                break
            if many or right or left or pnb in goals:
                pending = (rx, rz, rid, rec, g, plx, plz, plv, prx, prz, prv, pnb, ptw)
                if not (many or right or left):
                    return pending  # a lone successor entering the goal's polygon
                f = g + heuristic(rx, rz, plx, plz, prx, prz, gx, gz)
                if f < best_goal:
                    push(heap, (f, tick(), pending))
                break
            # A lone successor with the same root needs no heap round-trip: follow it
            # (mostly a view running down a corridor of polygons).
            lx, lz, lv, rgx, rgz, rv, poly, k = plx, plz, plv, prx, prz, prv, pnb, ptw
            if rv >= 0:  # the end moved to a vertex: the ray turned
                drx, drz = rgx - rx, rgz - rz
                tol_r = eps * hypot(drx, drz)
                cr = drx * rz - drz * rx
            if lv >= 0:
                dlx, dlz = lx - rx, lz - rz
                tol_l = eps * hypot(dlx, dlz)
                cl = dlx * rz - dlz * rx
        if right:
            rec_r = (bx, bz, rec)
            for ex1, ez1, ev1, x0, z0, v0, nb, tw in right:
                f = g_r + heuristic(bx, bz, ex1, ez1, x0, z0, gx, gz)
                if f < best_goal:
                    push(heap, (f, tick(), (bx, bz, tb, rec_r, g_r, ex1, ez1, ev1,
                                            x0, z0, v0, nb, tw)))
        if left:
            rec_l = (ax, az, rec)
            for x1, z1, v1, ex0, ez0, ev0, nb, tw in left:
                f = g_l + heuristic(ax, az, x1, z1, ex0, ez0, gx, gz)
                if f < best_goal:
                    push(heap, (f, tick(), (ax, az, ta, rec_l, g_l, x1, z1, v1,
                                            ex0, ez0, ev0, nb, tw)))
        return None

    def _on_edge_line(node: tuple, ax: float, az: float, ex: float, ez: float,
                      exits: tuple) -> tuple | None:
        # The root lies on the line of the entry edge: if it lies on the edge, all of
        # convex P is in view; otherwise the view through the interval has no area.
        rx, rz, rid, rec, g, lx, lz, lv, rgx, rgz, rv, poly, k = node
        u = ((rx - ax) * ex + (rz - az) * ez) / (ex * ex + ez * ez)
        if u < -eps or u > 1.0 + eps:
            # Root beyond the edge on its line (a straight run of collinear polygon
            # sides): walk along that side to the nearer interval end and turn there.
            if (lx - rx) ** 2 + (lz - rz) ** 2 < (rgx - rx) ** 2 + (rgz - rz) ** 2:
                nx, nz, nv = lx, lz, lv
            else:
                nx, nz, nv = rgx, rgz, rv
            if nv < 0:
                return None
            g2 = g + hypot(nx - rx, nz - rz)
            best = root_g.get(nv)
            if best is not None and g2 > best + eps:
                return None
            if best is None or g2 < best:
                root_g[nv] = g2
            f = g2 + heuristic(nx, nz, lx, lz, rgx, rgz, gx, gz)
            if f < best_goal:
                push(heap, (f, tick(), (nx, nz, nv, (nx, nz, rec), g2, lx, lz, lv, rgx, rgz,
                                        rv, poly, k)))
            return None
        key = (rid, poly)
        seen = seen_flat.get(key)
        if seen is not None and g >= seen - eps:
            return None
        seen_flat[key] = g
        if len(exits) == 1:
            nb, tw, x0, z0, v0, x1, z1, v1, _, _ = exits[0]
            return (rx, rz, rid, rec, g, x1, z1, v1, x0, z0, v0, nb, tw)
        for nb, tw, x0, z0, v0, x1, z1, v1, _, _ in exits:
            f = g + heuristic(rx, rz, x1, z1, x0, z0, gx, gz)
            if f < best_goal:
                push(heap, (f, tick(), (rx, rz, rid, rec, g, x1, z1, v1, x0, z0, v0, nb, tw)))
        return None

    return expand


def heuristic(
    rx: float, rz: float, lx: float, lz: float, qx: float, qz: float, gx: float, gz: float
) -> float:
    """Lower bound on root -> interval [R, L] -> goal (the Polyanya h-value).

    Args:
        rx: Root x.
        rz: Root z.
        lx: Left endpoint x.
        lz: Left endpoint z.
        qx: Right endpoint x.
        qz: Right endpoint z.
        gx: Goal x.
        gz: Goal z.

    Returns:
        The length of the shortest root -> interval -> goal path, ignoring walls.
    """
    ix, iz = lx - qx, lz - qz
    side_r = ix * (rz - qz) - iz * (rx - qx)
    side_g = ix * (gz - qz) - iz * (gx - qx)
    if (side_r > 0.0 and side_g > 0.0) or (side_r < 0.0 and side_g < 0.0):
        # Goal on the root's side: mirror it across the interval's line.
        ll = ix * ix + iz * iz
        if ll > 0.0:
            f = 2.0 * side_g / ll
            gx += f * iz
            gz -= f * ix
    if side_r == 0.0:
        return math.hypot(gx - rx, gz - rz)
    if (qx - rx) * (gz - rz) - (qz - rz) * (gx - rx) < 0.0:
        return math.hypot(qx - rx, qz - rz) + math.hypot(gx - qx, gz - qz)
    if (lx - rx) * (gz - rz) - (lz - rz) * (gx - rx) > 0.0:
        return math.hypot(lx - rx, lz - rz) + math.hypot(gx - lx, gz - lz)
    return math.hypot(gx - rx, gz - rz)
