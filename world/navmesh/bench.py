"""`harness navmesh-bench MESH SCEN`: run Polyanya path scenarios; report speed and accuracy."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

from world.navmesh.polyanya_format import Scenario, read_mesh, read_scenarios
from world.navmesh.query import PathFinder


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments.

    Args:
        parser: The subcommand's parser.
    """
    parser.add_argument("mesh", metavar="MESH", type=Path, help="Polyanya mesh file (version 2)")
    parser.add_argument("scen", metavar="SCEN", type=Path, help="MovingAI scenario file")
    parser.add_argument("--limit", type=int, default=None, help="run only the first N scenarios")


def _percentile(sorted_values: Sequence[float], fraction: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, round(fraction * (len(sorted_values) - 1)))
    return sorted_values[index]


def bench(finder: PathFinder, scenarios: Sequence[Scenario]) -> dict[str, float | int]:
    """Run every scenario through ``finder.path`` and summarise time and accuracy.

    The ratio of a query is its plane path length over the scenario's exact length
    (1 when both are zero). A failure is a missing path or an exception. Times are
    wall-clock; the ``cpu_`` figures count only this process's processor time, which
    other work on a shared machine disturbs far less.

    Args:
        finder: Path finder over the scenarios' mesh.
        scenarios: Queries with exact lengths.

    Returns:
        queries, mean_ms, p50_ms, p99_ms, cpu_mean_ms, cpu_p50_ms, cpu_p99_ms,
        within_0_1pct, within_1pct, worst_ratio and failures (fractions in 0..1).
    """
    times: list[float] = []
    cpu: list[float] = []
    ratios: list[float] = []
    failures = 0
    for sc in scenarios:
        t0 = time.perf_counter()
        c0 = time.process_time()
        try:
            found = finder.path(sc.start, sc.goal)
        except Exception:  # a crash counts as a failure, the run goes on
            found = None
        cpu.append((time.process_time() - c0) * 1000.0)
        times.append((time.perf_counter() - t0) * 1000.0)
        if found is None:
            failures += 1
            continue
        if sc.length > 0:
            ratios.append(found.plane_length / sc.length)
        else:
            ratios.append(1.0 if found.plane_length < 1e-9 else float("inf"))
    n = len(scenarios)
    times.sort()
    cpu.sort()
    return {
        "queries": n,
        "mean_ms": round(sum(times) / n, 4) if n else 0.0,
        "p50_ms": round(_percentile(times, 0.5), 4),
        "p99_ms": round(_percentile(times, 0.99), 4),
        "cpu_mean_ms": round(sum(cpu) / n, 4) if n else 0.0,
        "cpu_p50_ms": round(_percentile(cpu, 0.5), 4),
        "cpu_p99_ms": round(_percentile(cpu, 0.99), 4),
        "within_0_1pct": sum(1 for r in ratios if abs(r - 1) <= 0.001) / n if n else 0.0,
        "within_1pct": sum(1 for r in ratios if abs(r - 1) <= 0.01) / n if n else 0.0,
        "worst_ratio": max(ratios, default=1.0),
        "failures": failures / n if n else 0.0,
    }


def run(args: argparse.Namespace) -> int:
    """Load the mesh, run the scenarios and print one JSON object.

    Args:
        args: Parsed arguments (mesh, scen, limit).

    Returns:
        0 when every scenario found a path, 1 otherwise.
    """
    finder = PathFinder(read_mesh(args.mesh))
    scenarios = read_scenarios(args.scen)
    if args.limit is not None:
        scenarios = scenarios[: args.limit]
    result = bench(finder, scenarios)
    print(json.dumps(result))
    return 0 if result["failures"] == 0 else 1
