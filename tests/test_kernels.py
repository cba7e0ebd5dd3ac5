"""The compiled kernels (world/sim/kernels.py) and the numpy passes they stand in for agree.

tests/test_raw_golden.py plays its fixed episodes on whichever path is installed (the
compiled one where numba is); here the same digests are checked on the numpy path, and
each kernel is compared bit for bit with its numpy pass on made-up scenes, ties and
parallel lines included.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")

from tests.test_raw_golden import GOLDEN, episode_digest
from world.raw import rayscan
from world.sim import kernels

needs_numba = pytest.mark.skipif(not kernels.enable(), reason="numba is not installed")


@pytest.mark.parametrize("key", list(GOLDEN))
def test_the_numpy_path_keeps_the_golden_digest(monkeypatch: pytest.MonkeyPatch,
                                                key: tuple[str, int, int]) -> None:
    # (The environment switches the kernels on when made, unless refused.)
    monkeypatch.setenv("MISSION_HARNESS_NUMPY", "1")
    monkeypatch.setattr(kernels, "COMPILED", False)
    assert episode_digest(*key) == GOLDEN[key]
    assert not kernels.COMPILED


def _scene(rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    # Segments on a coarse grid, so rays meet ends, corners and parallel lines exactly.
    starts = rng.integers(-12, 13, size=(60, 2)).astype(float) * 50.0
    dirs = rng.integers(-3, 4, size=(60, 2)).astype(float) * 50.0
    dirs[:8, 1] = 0.0  # horizontal walls, parallel to the rays along x
    codes = np.repeat([0, 1], [40, 20])
    circles = np.column_stack([rng.integers(-6, 7, size=(9, 2)) * 50.0,
                               rng.choice([15.0, 20.0, 50.0], size=9)])
    circles[1] = circles[0]  # two circles in one place: the first wins the tie
    return starts, dirs, codes, circles


@needs_numba
@pytest.mark.parametrize("seed", range(4))
def test_ray_pass_matches_the_numpy_scan(seed: int) -> None:
    rng = np.random.default_rng(seed)
    starts, dirs, codes, circles = _scene(rng)
    labels = [(5 + i % 3, f"c{i}") for i in range(len(circles))]
    angles = np.concatenate([np.linspace(np.pi, -np.pi, 64), [0.0, np.pi / 2]])
    d = np.empty((len(angles), 2))
    np.cos(angles, out=d[:, 0])
    np.sin(angles, out=d[:, 1])
    d[-2:] = [[1.0, 0.0], [0.0, 1.0]]  # exactly along the grid
    o = rng.integers(-5, 6, size=2).astype(float) * 50.0
    scanner = object.__new__(rayscan.RayScanner)
    scanner.spec = rayscan.ScanSpec(len(d), 360.0, 400.0)
    scanner._rows = np.arange(len(d))
    for n_circles in (len(circles), 0):
        scene = (o, d, starts, dirs, codes, circles[:n_circles], labels[:n_circles])
        want = scanner._pass_numpy(*scene)
        got = scanner._pass_compiled(*scene)
        for a, b in zip(want, got, strict=True):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
        kinds = set(got[1].tolist())  # misses, walls, doors and (with circles) circles
        assert {0, 1, 2} <= kinds and (max(kinds) > 2) == bool(n_circles)


@needs_numba
def test_sight_kernel_matches_the_numpy_test(monkeypatch: pytest.MonkeyPatch) -> None:
    from world.sim import sight

    rng = np.random.default_rng(5)
    starts, dirs, _codes, _circles = _scene(rng)
    arrays = (starts[:, 0].copy(), starts[:, 1].copy(), dirs[:, 0].copy(), dirs[:, 1].copy())
    tester = object.__new__(sight.Sight)
    tester.arrays = lambda storey: arrays  # type: ignore[method-assign]
    # Grid points: lines through wall ends and along walls, as corners make them.
    keys = [(px, pz, qx, qz) for px, pz, qx, qz
            in (rng.integers(-12, 13, size=(400, 4)) * 50.0).tolist()]
    got = tester._test("s", keys)
    monkeypatch.setattr(kernels, "COMPILED", False)
    want = tester._test("s", keys)
    assert got == want and True in got and False in got


@needs_numba
def test_body_changes_kernel_matches_the_numpy_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from world.sim.bodies import CREEP, Bulk

    rng = np.random.default_rng(3)
    buf = rng.normal(size=(12, 4))
    known = buf[::-1].copy()
    known[:4] = buf[[11, 10, 9, 8]]  # rows 0-3 unchanged: only `shifted` can name them
    known[4, :2] += CREEP / 2  # crept less than CREEP: no move
    known[5, 2] += CREEP / 2  # a velocity change, however small, counts
    shifted = np.zeros(12, dtype=bool)
    shifted[[1, 4]] = True

    def bulk() -> SimpleNamespace:
        return SimpleNamespace(buf=buf, rows=np.arange(12)[::-1].copy(), known=known.copy(),
                               shifted=shifted.copy(),
                               _tolerance=np.array([CREEP, CREEP, 0.0, 0.0]),
                               _changed=np.empty(12, dtype=np.intp))

    compiled = bulk()
    got = Bulk.changes(compiled)  # type: ignore[arg-type]
    monkeypatch.setattr(kernels, "COMPILED", False)
    plain = bulk()
    want = Bulk.changes(plain)  # type: ignore[arg-type]
    assert got[0] == want[0] and 1 in got[0] and 0 not in got[0] and 4 in got[0]
    assert got[1].tobytes() == want[1].tobytes()
    assert compiled.shifted.tolist() == plain.shifted.tolist()
    assert compiled.known.tobytes() == plain.known.tobytes()


def test_a_numba_that_fails_leaves_the_numpy_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    from types import SimpleNamespace

    def broken(**_options: object) -> object:
        raise RuntimeError("cannot cache function: no locator available")

    monkeypatch.setitem(sys.modules, "numba", SimpleNamespace(njit=broken))
    monkeypatch.setattr(kernels, "COMPILED", False)
    monkeypatch.setattr(kernels, "_failed", [])
    for name in ("ray_pass", "sight_crossed", "body_changes"):  # restored after
        monkeypatch.setattr(kernels, name, getattr(kernels, name))
    monkeypatch.delenv("MISSION_HARNESS_NUMPY", raising=False)
    assert kernels.enable() is False
    assert not kernels.COMPILED and kernels.ray_pass is kernels._ray_pass
    assert kernels.enable() is False  # not tried again
