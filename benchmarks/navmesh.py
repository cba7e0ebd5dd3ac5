"""Navigation-mesh benchmark: load time, query latency and exactness per mesh.

Prints one JSON object keyed by case name. The shared meshes come with exact
scenario lengths, so they report exactness too; the largest shipped level (by area
count) reports its build time and the latency of seeded random queries between
walkable points, since no exact answers exist for it. To add a shared-mesh case,
write a function returning ``(PathFinder, scenarios)`` and add it to ``CASES``.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runs from a checkout as it is

from harness.navmesh_bench import bench
from world.level import load_level
from world.navmesh.build import build_navmesh
from world.navmesh.polyanya_format import Scenario, read_mesh, read_scenarios
from world.navmesh.query import PathFinder

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "navmesh"
LEVEL_QUERIES = 500

Case = Callable[[], tuple[PathFinder, list[Scenario]]]


def shared_mesh_case(name: str) -> Case:
    def load() -> tuple[PathFinder, list[Scenario]]:
        finder = PathFinder(read_mesh(DATA / f"{name}.mesh"))
        return finder, read_scenarios(DATA / f"{name}.scen")

    return load


CASES: dict[str, Case] = {
    "arena": shared_mesh_case("arena"),
    "field": shared_mesh_case("field"),
}


def run_case(load: Case) -> dict[str, float | int]:
    t0 = time.perf_counter()
    finder, scenarios = load()
    load_ms = (time.perf_counter() - t0) * 1000.0
    return {"load_ms": round(load_ms, 2), **bench(finder, scenarios)}


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


def main() -> None:
    results: dict[str, object] = {name: run_case(load) for name, load in CASES.items()}
    results["largest_level"] = level_case(largest_level())
    print(json.dumps(results))


if __name__ == "__main__":
    main()
