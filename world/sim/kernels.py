"""Compiled loops for the hottest array passes (the ray scan, sight tests), numba optional.

Each kernel is plain Python over scalars, in the same operations and the same order as the
numpy code it stands in for, so its results are bit for bit the same: numba compiles it
without fastmath (no reassociation, no fused multiply-add), and a division whose divisor
the numpy code treats as zero is never made.

The kernels are off until `enable()` switches them on; the Gymnasium environments do,
where their many steps repay loading numba (about a second of processor time a process,
even from its cache), and one-shot processes (`harness run`, an agent's tools) keep the
numpy passes and their quick start. `enable()` leaves them off where numba is not
installed, cannot compile or cache them, or `MISSION_HARNESS_NUMPY=1` is set; callers
read `COMPILED` at each call, and tests run both ways. Compiled code is cached on disk
beside this file (`cache=True`), so only the first use on a machine pays the compile.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np

# Whether the callers use the compiled kernels (`enable`).
COMPILED = False
# Not empty once numba was there but failed to load or compile the kernels.
_failed: list[bool] = []


def enable() -> bool:
    """Switch the compiled kernels on if numba is there and not refused; whether they are on."""
    global COMPILED, ray_pass, sight_crossed, body_changes
    if COMPILED or _failed or os.environ.get("MISSION_HARNESS_NUMPY") == "1":
        return COMPILED
    try:
        import numba  # here, not at the top: start-up cost (harness run never loads numba)
    except ImportError:
        return False
    try:
        # error_model="numpy": no Python exception checks around the arithmetic.
        jit: Any = numba.njit(cache=True, error_model="numpy")
        ray_pass, sight_crossed = jit(_ray_pass), jit(_sight_crossed)
        body_changes = jit(_body_changes)
        _warm()
    except Exception:  # a numba that cannot cache or compile here
        # The numpy passes give the same results: only slower, never wrong or down.
        ray_pass, sight_crossed, body_changes = _ray_pass, _sight_crossed, _body_changes
        _failed.append(True)  # not tried again by every environment made after
        return False
    COMPILED = True
    return True


def _warm() -> None:
    # Load (or compile) each kernel now, for the types the callers pass, so the cost is
    # paid when an environment is made, not inside its first steps.
    one, pair = np.zeros(1), np.zeros((1, 2))
    ints = np.zeros(1, dtype=np.intp)
    ray_pass(0.0, 0.0, pair + 1.0, pair, pair, ints, np.zeros((0, 3)), np.zeros((0, 0)),
             ints[:0], 1.0, np.zeros((1, 2), dtype=np.float32), ints.copy(), ints.copy())
    sight_crossed(np.zeros((1, 4)), one, one, one, one, np.zeros(1, dtype=np.bool_))
    body_changes(np.zeros((1, 4)), ints, np.zeros((1, 4)), 1e-9, np.zeros(1, dtype=np.bool_),
                 np.zeros((1, 4)), ints.copy())


def _ray_pass(ox: float, oz: float, d: np.ndarray, starts: np.ndarray, dirs: np.ndarray,
             channels: np.ndarray, circles: np.ndarray, b: np.ndarray,
             circle_channels: np.ndarray, max_range: float, out: np.ndarray,
             channel: np.ndarray, k_out: np.ndarray) -> None:
    """The ray scan's pass (`world.raw.rayscan`): fills `out`, `channel` and `k_out`.

    Per ray, the nearest of the segments (start, direction, channel) and then the circles
    (x, z, radius; `b` is each ray's direction dotted with each circle's offset, taken
    by the caller as numpy takes it); the first of equal distances wins, as `argmin` has
    it. `k_out` is the index of the hit among the circles (negative: a segment).
    """
    n, m, c = d.shape[0], starts.shape[0], circles.shape[0]
    inf = math.inf
    for i in range(n):
        dx, dz = d[i, 0], d[i, 1]
        best, k = inf, 0
        for j in range(m):
            ex, ez = dirs[j, 0], dirs[j, 1]
            denom = dx * ez - dz * ex
            if abs(denom) <= 1e-12:
                continue
            ax, az = starts[j, 0] - ox, starts[j, 1] - oz
            t = (ax * ez - az * ex) / denom
            u = (ax * dz - az * dx) / denom
            if t <= 1e-9 or u < 0 or u > 1:
                continue
            if t < best:
                best, k = t, j
        for j in range(c):
            cx, cz, r = circles[j, 0] - ox, circles[j, 1] - oz, circles[j, 2]
            bj = b[i, j]
            inside = r * r - ((cx * cx + cz * cz) - bj * bj)
            if not (inside >= 0 and bj > 0):
                continue
            t = bj - math.sqrt(max(inside, 0.0))
            t = max(t, 0.0)
            if t < best:
                best, k = t, m + j
        k_out[i] = k - m
        if best < max_range:
            out[i, 0] = best / max_range
            ch = channels[k] if k < m else circle_channels[k - m]
            channel[i] = ch
            out[i, ch] += 1.0
        else:
            out[i, 0] = max_range / max_range
            channel[i] = 0


def _sight_crossed(keys: np.ndarray, ax: np.ndarray, az: np.ndarray, ex: np.ndarray,
                  ez: np.ndarray, crossed: np.ndarray) -> None:
    """`world.sim.sight`'s test: crossed[i] when segment keys[i] (px, pz, qx, qz) is blocked."""
    for i in range(keys.shape[0]):
        px, pz = keys[i, 0], keys[i, 1]
        dx, dz = keys[i, 2] - px, keys[i, 3] - pz
        hit = False
        for j in range(ax.shape[0]):
            wx, wz = ax[j] - px, az[j] - pz
            side_p = wx * ez[j] - wz * ex[j]
            denom = dx * ez[j] - dz * ex[j]
            side_a = wx * dz - wz * dx
            if side_p * (side_p - denom) < 0 and side_a * (denom - side_a) >= 0:
                hit = True
                break
        crossed[i] = hit


def _body_changes(buf: np.ndarray, rows: np.ndarray, known: np.ndarray, creep: float,
                  shifted: np.ndarray, now: np.ndarray, changed: np.ndarray) -> int:
    """`world.sim.bodies.Bulk.changes` in one loop: fills `now` and the first n of `changed`.

    Row i of `now` is buf[rows[i]]; it changed when its x or z moved more than `creep`
    from `known`, its velocity changed at all, or it was `shifted` last time; `shifted`
    becomes whether x or z moved. Returns n, the number of rows that changed.
    """
    n = 0
    for i in range(rows.shape[0]):
        r = rows[i]
        moved = False
        other = shifted[i]
        for c in range(4):
            v = buf[r, c]
            now[i, c] = v
            if abs(v - known[i, c]) > (creep if c < 2 else 0.0):
                if c < 2:
                    moved = True
                else:
                    other = True
        if moved or other:
            changed[n] = i
            n += 1
        shifted[i] = moved
    return n


# The kernels the callers call: plain Python until `enable` puts compiled ones here.
ray_pass = _ray_pass
sight_crossed = _sight_crossed
body_changes = _body_changes
