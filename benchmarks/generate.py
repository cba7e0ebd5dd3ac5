"""Generated missions: how long a level takes to make, and how much layouts vary.

    python3 benchmarks/generate.py [--seeds 50] [--diversity-seeds 100] [--templates all|NAMES]
                                   [--no-diversity]

Prints one JSON object with, per template at default parameters:
- `make_ms`: generating the level, loading it and building its navigation mesh
  (median, p90 and max over `--seeds` seeds, in wall time and, as `cpu_*`, in the
  process's processor time; the bar is a median under 1000 ms);
- `room_graphs`: how many structurally distinct room graphs (areas joined by walkable
  exits and stairs, compared by Weisfeiler-Lehman hash) `--diversity-seeds` seeds made;
- `route_m`: the shortest walk from the start to the farthest place an objective names
  (an area's centre, an object, a character, a waypoint), in metres: min, median, max.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runs from a checkout as it is

from world.generate.layout import room_graph_hash
from world.generate.registry import TEMPLATES, generate
from world.level.load import parse_level
from world.navmesh.build import build_navmesh
from world.navmesh.query import PathFinder


def make_ms(template: str, seeds: int) -> dict:
    """Milliseconds to generate, load and mesh each seed's level: wall time, and the
    process's own processor time (`cpu_*`), which a busy machine inflates far less."""
    wall, cpu = [], []
    for seed in range(seeds):
        began, began_cpu = time.perf_counter(), time.process_time()
        made = generate(f"{template}@{seed}")
        build_navmesh(parse_level(made.data, made.name))
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    return {**_spread(wall), **{f"cpu_{k}": v for k, v in _spread(cpu).items()}}


def _spread(times: list[float]) -> dict:
    times = sorted(times)
    return {"median": round(statistics.median(times), 1),
            "p90": round(times[int(0.9 * (len(times) - 1))], 1), "max": round(times[-1], 1)}


def _places(level) -> list[tuple[float, float, float]]:
    def at_area(area_id: str) -> tuple[float, float, float]:
        xs = [p[0] for p in level.area(area_id).polygon]
        zs = [p[1] for p in level.area(area_id).polygon]
        return (sum(xs) / len(xs), level.area_y(area_id), sum(zs) / len(zs))

    def at(area_id: str, point) -> tuple[float, float, float]:
        return (point[0], level.area_y(area_id), point[1])

    objects = {o.id: o for o in level.objects}
    people = {c.id: c for c in level.characters}
    found = []
    for objective in level.objectives:
        if objective.area:
            found.append(at_area(objective.area))
        if objective.object and objects[objective.object].area:
            found.append(at(objects[objective.object].area, objects[objective.object].at))
        for name in objective.characters or ():
            found.append(at(people[name].area, people[name].at))
        for point in objective.points or ():
            found.append(at(point.area, point.at))
    return found


def route_m(template: str, seeds: int) -> tuple[dict, int]:
    """The start-to-farthest-objective walk over seeds, and the distinct room graphs."""
    lengths, graphs = [], set()
    for seed in range(seeds):
        made = generate(f"{template}@{seed}")
        graphs.add(room_graph_hash(made.data))
        level = parse_level(made.data, made.name)
        finder = PathFinder(build_navmesh(level))
        start = (level.start.at[0], level.area_y(level.start.area), level.start.at[1])
        walks = [finder.length(start, p) for p in _places(level)]
        lengths.append(max((w for w in walks if w is not None), default=0.0) / 100)
    lengths.sort()
    return ({"min": round(lengths[0], 1), "median": round(statistics.median(lengths), 1),
             "max": round(lengths[-1], 1)}, len(graphs))


def main() -> int:
    """Measure every template chosen and print the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--diversity-seeds", type=int, default=100)
    parser.add_argument("--templates", default="all")
    parser.add_argument("--no-diversity", action="store_true",
                        help="time the making only (no room graphs, no routes)")
    args = parser.parse_args()
    chosen = list(TEMPLATES) if args.templates == "all" else args.templates.split(",")
    report = {}
    for template in chosen:
        report[template] = {"make_ms": make_ms(template, args.seeds)}
        if not args.no_diversity:
            route, graphs = route_m(template, args.diversity_seeds)
            report[template].update(room_graphs=graphs, of_seeds=args.diversity_seeds,
                                    route_m=route)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
