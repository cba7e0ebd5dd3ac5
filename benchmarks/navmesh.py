"""Navigation-mesh benchmark: load time, query latency and exactness per mesh.

Prints one JSON object keyed by case name. The shared meshes come with exact
scenario lengths, so they report exactness too; the largest shipped level (by area
count) reports its build time and the latency of seeded random queries between
walkable points, since no exact answers exist for it. To add a shared-mesh case,
write a function returning ``(PathFinder, scenarios)`` and add it to ``CASES``.

The Aurora cases (``aurora``: 34,816 triangles; ``aurora-merged``: the same map as
19,244 convex polygons; both with 2,990 start/goal pairs) are too large for the
repository. Each mesh file is read from ``tests/data/navmesh`` when present, else from
the folder given by ``--data DIR`` or the ``NAVMESH_DATA`` environment variable; a
case whose files are nowhere is reported as skipped. To get them: ``aurora.mesh`` and
``aurora-merged.mesh`` are in the Polyanya authors' public repositories (the
vleue/polyanya repository ships both under ``meshes/``, MIT licence), and
``aurora.scen`` is the MovingAI scenario file of the StarCraft map Aurora
(movingai.com, "sc1" benchmark set) with its last column replaced by the exact
any-angle lengths those repositories' tests assert. ``aurora-merged`` uses
``aurora.scen``.

Usage: ``python3 benchmarks/navmesh.py [--data DIR] [--only NAME ...] [--limit N]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runs from a checkout as it is

from world.level import load_level
from world.navmesh.bench import bench
from world.navmesh.build import build_navmesh
from world.navmesh.polyanya_format import Scenario, read_mesh, read_scenarios
from world.navmesh.query import PathFinder

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "navmesh"
LEVEL_QUERIES = 500

Case = Callable[[list[Path]], tuple[PathFinder, list[Scenario]]]


class MissingData(Exception):
    """A case's files are in none of the data folders."""


def _find(name: str, folders: list[Path]) -> Path:
    for folder in folders:
        if (folder / name).is_file():
            return folder / name
    raise MissingData(f"{name} not found in {', '.join(str(f) for f in folders)}")


def shared_mesh_case(name: str, scen: str | None = None) -> Case:
    def load(folders: list[Path]) -> tuple[PathFinder, list[Scenario]]:
        mesh = _find(f"{name}.mesh", folders)
        scenarios = read_scenarios(_find(f"{scen or name}.scen", folders))
        return PathFinder(read_mesh(mesh)), scenarios

    return load


CASES: dict[str, Case] = {
    "arena": shared_mesh_case("arena"),
    "field": shared_mesh_case("field"),
    "aurora": shared_mesh_case("aurora"),
    "aurora-merged": shared_mesh_case("aurora-merged", "aurora"),
}


def run_case(
    load: Case, folders: list[Path], limit: int | None = None
) -> dict[str, float | int | str]:
    t0 = time.perf_counter()
    try:
        finder, scenarios = load(folders)
    except MissingData as missing:
        return {"skipped": str(missing)}
    load_ms = (time.perf_counter() - t0) * 1000.0
    return {"load_ms": round(load_ms, 2), **bench(finder, scenarios[:limit])}


def largest_level() -> Path:
    return max((ROOT / "levels").glob("*.json"), key=lambda p: len(load_level(p).areas))


def level_case(path: Path) -> dict[str, float | int | str]:
    # A level without a content hash bypasses the per-process mesh cache.
    level = dataclasses.replace(load_level(path), content_hash="")
    t0 = time.perf_counter()
    mesh = build_navmesh(level)
    build_ms = (time.perf_counter() - t0) * 1000.0
    finder = PathFinder(mesh)
    rng = np.random.default_rng(0)
    # Random start/goal pairs at polygon centroids: every one is on the walkable floor.
    centroids = [mesh.points[list(poly)].mean(axis=0) for poly in mesh.polygons]
    heights = [mesh.height_at(i, *c) for i, c in enumerate(centroids)]
    times, found = [], 0
    for _ in range(LEVEL_QUERIES):
        a, b = rng.integers(0, len(centroids), size=2)
        start = (centroids[a][0], heights[a], centroids[a][1])
        goal = (centroids[b][0], heights[b], centroids[b][1])
        t = time.perf_counter()
        found += finder.path(start, goal) is not None
        times.append((time.perf_counter() - t) * 1000.0)
    return {
        "level": level.id,
        "areas": len(level.areas),
        "polygons": mesh.polygon_count,
        "build_ms": round(build_ms, 2),
        "queries": LEVEL_QUERIES,
        "found": found,
        "mean_ms": round(float(np.mean(times)), 4),
        "p50_ms": round(float(np.percentile(times, 50)), 4),
        "p99_ms": round(float(np.percentile(times, 99)), 4),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--data", type=Path, default=None,
                        help="folder holding the meshes not in tests/data (default: "
                        "$NAVMESH_DATA)")
    parser.add_argument("--only", nargs="+", choices=[*CASES, "largest_level"],
                        help="run only these cases")
    parser.add_argument("--limit", type=int, default=None,
                        help="run only the first N scenarios of each mesh")
    args = parser.parse_args(argv)
    folders = [DATA]
    extra = args.data or (Path(os.environ["NAVMESH_DATA"]) if "NAVMESH_DATA" in os.environ
                          else None)
    if extra is not None:
        folders.append(extra)
    wanted = set(args.only or [*CASES, "largest_level"])
    results: dict[str, object] = {
        name: run_case(load, folders, args.limit) for name, load in CASES.items()
        if name in wanted
    }
    if "largest_level" in wanted:
        results["largest_level"] = level_case(largest_level())
    print(json.dumps(results))


if __name__ == "__main__":
    main()
