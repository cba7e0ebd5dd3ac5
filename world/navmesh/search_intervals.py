"""Successor generation for Polyanya search nodes (the inner loop of the search).

A search node is a root point ``r`` and an interval ``[R, L]`` on edge ``k`` of the
polygon ``P`` it is about to enter. Edge ``k`` runs from vertex ``a`` to ``b`` of P's
counter-clockwise ring, so seen from the root (outside P) ``a`` is on the left and
``b`` on the right: ``L`` lies towards ``a`` and ``R`` towards ``b``.

The far side of P is the chain ``w0 = b, w1, ..., wm = a``. Observable successors keep
the root and cover the part of the chain between the rays ``r->R`` and ``r->L``;
non-observable successors turn at ``R == b`` (or ``L == a``) when that vertex is a
corner and cover the chain beyond the ray.

Successor tuples are ``(rx, rz, rid, rec, g, Lx, Lz, lv, Rx, Rz, rv, poly, k)`` where
``rid`` is the root's vertex id (-1 for the start), ``rec`` the root's back-pointer
record ``(x, z, parent_rec)``, and ``lv``/``rv`` the vertex id an endpoint sits on
exactly (or -1).
"""

from __future__ import annotations

import math
from collections.abc import Callable

Successor = tuple
Expand = Callable[[tuple], list[Successor]]


def make_expand(
    chains: list[tuple[tuple, ...]],
    nbr_rows: list[tuple[int, ...]],
    corner: list[bool],
    dead: list[bool],
    eps: float,
    open_dead: frozenset[int],
    root_g: dict[int, float],
) -> Expand:
    """The successor function of one search (its tables bound once, for speed).

    Args:
        chains: Per polygon and entry edge, the entry-edge geometry and far chain
            (see ``build_chains``).
        nbr_rows: Neighbour per polygon edge with the query's blocked doors as walls.
        corner: Per vertex, whether it touches a wall (so paths may turn there).
        dead: Per polygon, whether it lies in a dead end (a pocket left only by
            the edge it is entered by).
        eps: Geometric tolerance in plane units.
        open_dead: Dead-end polygons a path may still need (those holding or
            leading to the start or goal); successors entering other dead ends are
            dropped.
        root_g: Best g found so far per root vertex (root-level pruning), filled in
            as successors turn at vertices; the caller prunes popped nodes with it.

    Returns:
        ``expand(node)``: the successors of ``node`` inside the polygon it enters.
    """
    # Best g per (root, polygon) already expanded in full view (root on its edge).
    seen_flat: dict[tuple[int, int], float] = {}
    hypot = math.hypot

    def expand(node: tuple) -> list[Successor]:
        rx, rz, rid, rec, g, lx, lz, lv, rgx, rgz, rv, poly, k = node
        a, b, ax, az, bx, bz, ex, ez, elen, idx, ws, wx, wz, tw = chains[poly][k]
        nbrs = nbr_rows[poly]
        out: list[Successor] = []

        if ex * (rz - az) - ez * (rx - ax) >= -eps * elen:
            # Root on the edge's line: if it lies on the edge, all of convex P is in
            # view; otherwise the view through the interval has no area.
            u = ((rx - ax) * ex + (rz - az) * ez) / (elen * elen)
            if u < -eps or u > 1.0 + eps:
                # Root beyond the edge on its line (a straight run of collinear
                # polygon sides): walk along that side to the nearer interval end
                # and turn there.
                if (lx - rx) ** 2 + (lz - rz) ** 2 < (rgx - rx) ** 2 + (rgz - rz) ** 2:
                    nx, nz, nv = lx, lz, lv
                else:
                    nx, nz, nv = rgx, rgz, rv
                if nv < 0:
                    return out
                g2 = g + hypot(nx - rx, nz - rz)
                best = root_g.get(nv)
                if best is not None and g2 > best + eps:
                    return out
                if best is None or g2 < best:
                    root_g[nv] = g2
                out.append((nx, nz, nv, (nx, nz, rec), g2, lx, lz, lv, rgx, rgz, rv, poly, k))
                return out
            key = (rid, poly)
            seen = seen_flat.get(key)
            if seen is not None and g >= seen - eps:
                return out
            seen_flat[key] = g
            for j in range(len(idx) - 1):
                nb = nbrs[idx[j]]
                if nb < 0 or (dead[nb] and nb not in open_dead):
                    continue
                out.append((rx, rz, rid, rec, g, wx[j + 1], wz[j + 1], ws[j + 1],
                            wx[j], wz[j], ws[j], nb, tw[j]))
            return out

        m = len(idx) - 1
        # Orientation of each far vertex against the right ray (o) and left ray (q).
        drx, drz = rgx - rx, rgz - rz
        dlx, dlz = lx - rx, lz - rz
        # A vertex within eps of a ray counts as on it, so that an exit point computed
        # in floating point next to a vertex becomes that vertex (a corner a later
        # node may need to turn around) instead of a point a rounding error beside it.
        tol_r = eps * hypot(drx, drz)
        tol_l = eps * hypot(dlx, dlz)
        ir = m
        o_prev = drx * (wz[0] - rz) - drz * (wx[0] - rx)
        o_cur = 0.0
        for i in range(1, m + 1):
            o_cur = drx * (wz[i] - rz) - drz * (wx[i] - rx)
            if o_cur > tol_r:
                ir = i
                break
            o_prev = o_cur
        # Right exit point pr on far edge ir-1.
        if o_prev >= -tol_r or o_cur <= tol_r:
            prx, prz, pr_v = wx[ir - 1], wz[ir - 1], ws[ir - 1]
        else:
            s = o_prev / (o_prev - o_cur)
            prx = wx[ir - 1] + s * (wx[ir] - wx[ir - 1])
            prz = wz[ir - 1] + s * (wz[ir] - wz[ir - 1])
            pr_v = -1
        il = 0
        q_next = dlx * (wz[m] - rz) - dlz * (wx[m] - rx)
        q_cur = 0.0
        for i in range(m - 1, -1, -1):
            q_cur = dlx * (wz[i] - rz) - dlz * (wx[i] - rx)
            if q_cur < -tol_l:
                il = i
                break
            q_next = q_cur
        if q_next <= tol_l or q_cur >= -tol_l:
            plx, plz, pl_v = wx[il + 1], wz[il + 1], ws[il + 1]
        else:
            s = q_cur / (q_cur - q_next)
            plx = wx[il] + s * (wx[il + 1] - wx[il])
            plz = wz[il] + s * (wz[il + 1] - wz[il])
            pl_v = -1

        # Observable successors: same root, chain between the two exit points.
        for j in range(ir - 1, il + 1):
            nb = nbrs[idx[j]]
            if nb < 0 or (dead[nb] and nb not in open_dead):
                continue
            if j == ir - 1:
                sx, sz, sv = prx, prz, pr_v
            else:
                sx, sz, sv = wx[j], wz[j], ws[j]
            if j == il:
                fx, fz, fv = plx, plz, pl_v
            else:
                fx, fz, fv = wx[j + 1], wz[j + 1], ws[j + 1]
            if sx == fx and sz == fz:
                continue
            out.append((rx, rz, rid, rec, g, fx, fz, fv, sx, sz, sv, nb, tw[j]))

        if rv == b and corner[b]:
            g2 = g + hypot(bx - rx, bz - rz)
            best = root_g.get(b)
            if best is None or g2 <= best + eps:
                if best is None or g2 < best:
                    root_g[b] = g2
                rec2 = (bx, bz, rec)
                for j in range(ir):
                    nb = nbrs[idx[j]]
                    if nb < 0 or (dead[nb] and nb not in open_dead):
                        continue
                    if j == ir - 1:
                        fx, fz, fv = prx, prz, pr_v
                    else:
                        fx, fz, fv = wx[j + 1], wz[j + 1], ws[j + 1]
                    if wx[j] == fx and wz[j] == fz:
                        continue
                    out.append((bx, bz, b, rec2, g2, fx, fz, fv, wx[j], wz[j], ws[j], nb, tw[j]))
        if lv == a and corner[a]:
            g2 = g + hypot(ax - rx, az - rz)
            best = root_g.get(a)
            if best is None or g2 <= best + eps:
                if best is None or g2 < best:
                    root_g[a] = g2
                rec2 = (ax, az, rec)
                for j in range(il, m):
                    nb = nbrs[idx[j]]
                    if nb < 0 or (dead[nb] and nb not in open_dead):
                        continue
                    if j == il:
                        sx, sz, sv = plx, plz, pl_v
                    else:
                        sx, sz, sv = wx[j], wz[j], ws[j]
                    if sx == wx[j + 1] and sz == wz[j + 1]:
                        continue
                    out.append((ax, az, a, rec2, g2, wx[j + 1], wz[j + 1], ws[j + 1],
                                sx, sz, sv, nb, tw[j]))
        return out

    return expand


def build_chains(
    vx: list[float], vz: list[float], verts: list[tuple[int, ...]], twin: list[tuple[int, ...]]
) -> list[tuple[tuple, ...]]:
    """Precompute, per polygon and entry edge, what ``expand`` needs.

    Args:
        vx: Vertex x coordinates.
        vz: Vertex z coordinates.
        verts: Counter-clockwise vertex ring per polygon.
        twin: Per polygon edge, its index in the neighbour's ring (-1 = none).

    Returns:
        Per polygon, per edge ``k``: ``(a, b, ax, az, bx, bz, ex, ez, length, idx,
        ws, wx, wz, tw)`` where ``idx`` are the edge indices ``k + 1, k + 2, ...`` of
        the far chain, ``ws``/``wx``/``wz`` its vertices ``w0 = b .. wm = a`` and
        ``tw`` the twin index of each chain edge.
    """
    chains = []
    for p, ring in enumerate(verts):
        n = len(ring)
        rows = []
        for k in range(n):
            a, b = ring[k], ring[(k + 1) % n]
            idx = tuple((k + 1 + i) % n for i in range(n))
            ws = tuple(ring[e] for e in idx)
            ex, ez = vx[b] - vx[a], vz[b] - vz[a]
            rows.append(
                (
                    a, b, vx[a], vz[a], vx[b], vz[b], ex, ez, math.hypot(ex, ez), idx, ws,
                    tuple(vx[w] for w in ws), tuple(vz[w] for w in ws),
                    tuple(twin[p][e] for e in idx),
                )
            )  # fmt: skip
        chains.append(tuple(rows))
    return chains


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
