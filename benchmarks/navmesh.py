"""Navigation-mesh benchmark: load time, query latency and exactness per mesh.

Prints one JSON object keyed by case name. To add a case (for example a mesh built
from a level), write a function returning ``(PathFinder, scenarios)`` and add it to
``CASES``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from harness.navmesh_bench import bench
from world.navmesh.polyanya_format import Scenario, read_mesh, read_scenarios
from world.navmesh.query import PathFinder

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "navmesh"

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


def main() -> None:
    print(json.dumps({name: run_case(load) for name, load in CASES.items()}))


if __name__ == "__main__":
    main()
