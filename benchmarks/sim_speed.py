"""Simulation speed: ticks per wall second on a shipped level, a stress level and an empty one.

Prints the load average, then one JSON object per case: (a) the largest shipped level
and (b) a generated level with 100 characters on 3 storeys, each an episode's world
(characters and objectives systems) with every hostile starting in combat with the
player; (c) an empty room with no systems, the floor of the per-tick overhead.

With --breakdown, cases (a) and (b) also report CPU us per tick spent in each part
(the timers themselves add about a microsecond a call, so parts run a little high).
With --repeat N, each case runs N times and its row is the run of median wall time,
with every run's realtime factor and CPU time listed (a shared machine is noisy).

Usage: python benchmarks/sim_speed.py [--ticks N] [--repeat N] [--profile a|b|c]
       [--breakdown]
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import json
import os
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from world.level.load import load_level, parse_level  # noqa: E402
from world.level.model import Level  # noqa: E402
from world.sim import TICKS_PER_SECOND, World  # noqa: E402

DECIDE_EVERY = 10  # ticks between one character's sight-and-fire decisions (staggered)

# Part of a tick -> (module, owner in it or "" for the module itself, function timed).
PARTS = {
    "physics": ("world.sim.physics", "Physics", "step"),
    "characters": ("world.characters.system", "CharactersSystem", "update"),
    "perception": ("world.characters.senses", "", "look"),
    "hearing": ("world.characters.senses", "", "hear"),
    "shooting": ("world.characters.shooting", "Shooters", "fire"),
    "paths": ("world.characters.walker", "", "plan"),
    "objectives": ("world.objectives.system", "ObjectivesSystem", "update"),
    # Inside the parts above: the world's own share of shooting and seeing.
    "volleys": ("world.sim.combat", "Combat", "volley"),
    "sight_tests": ("world.sim.sight", "Sight", "_test"),
}


def rect(x0: float, z0: float, x1: float, z1: float) -> list[list[float]]:
    return [[x0, z0], [x1, z0], [x1, z1], [x0, z1]]


def stress_level(characters: int = 100, storeys: int = 3, grid: int = 4, room: float = 500,
                 seed: int = 5) -> dict:
    """A generated level: a grid of rooms per storey, storeys side by side, joined by ramps."""
    rng = random.Random(seed)
    gap, span = 400.0, grid * room
    areas, exits, stairs, chars = [], [], [], []
    for s in range(storeys):
        ox = s * (span + gap)
        for i in range(grid):
            for j in range(grid):
                areas.append({"id": f"r{s}_{i}_{j}", "name": f"Room {s}-{i}-{j}",
                              "storey": f"s{s}",
                              "polygon": rect(ox + i * room, j * room, ox + (i + 1) * room,
                                              (j + 1) * room)})
                mid = room / 2
                if i + 1 < grid:
                    x = ox + (i + 1) * room
                    kind = "door" if (i + j + s) % 3 == 0 else "opening"
                    exit_ = {"id": f"x{s}_{i}_{j}", "kind": kind,
                             "areas": [f"r{s}_{i}_{j}", f"r{s}_{i + 1}_{j}"],
                             "segment": [[x, j * room + mid - 60], [x, j * room + mid + 60]]}
                    if kind == "door":
                        exit_["door"] = {"initial": "open"}
                    exits.append(exit_)
                if j + 1 < grid:
                    z = (j + 1) * room
                    exits.append({"id": f"y{s}_{i}_{j}", "kind": "opening",
                                  "areas": [f"r{s}_{i}_{j}", f"r{s}_{i}_{j + 1}"],
                                  "segment": [[ox + i * room + mid - 60, z],
                                              [ox + i * room + mid + 60, z]]})
        if s + 1 < storeys:
            x0, x1 = ox + span, ox + span + gap
            stairs.append({"id": f"st{s}",
                           "bottom": {"area": f"r{s}_{grid - 1}_0", "edge": [[x0, 150], [x0, 350]]},
                           "top": {"area": f"r{s + 1}_0_0", "edge": [[x1, 150], [x1, 350]]}})
    for k in range(characters):
        s, i, j = rng.randrange(storeys), rng.randrange(grid), rng.randrange(grid)
        ox = s * (span + gap)
        chars.append({"id": f"c{k:03d}", "kind": "guard", "side": "hostile", "weapon": "pistol",
                      "area": f"r{s}_{i}_{j}",
                      "at": [ox + i * room + rng.uniform(60, room - 60),
                             j * room + rng.uniform(60, room - 60)]})
    return {
        "format_version": 1, "id": "stress", "title": "Stress level",
        "brief": "Generated rooms full of guards.", "difficulties": [{"id": "normal"}],
        "budgets": {"max_decisions": 1000, "max_game_seconds": 3600},
        "navmesh": {"agent_radius": 20},
        "storeys": [{"id": f"s{s}", "y": 300 * s} for s in range(storeys)],
        "areas": areas, "exits": exits, "stairs": stairs, "characters": chars,
        "start": {"area": "r0_0_0", "at": [100, 100]},
        "objectives": [{"id": "live", "kind": "survive", "seconds": 60, "text": "Survive."}],
    }


def empty_level() -> dict:
    return {
        "format_version": 1, "id": "empty", "title": "Empty room", "brief": "Nothing here.",
        "difficulties": [{"id": "normal"}],
        "budgets": {"max_decisions": 10, "max_game_seconds": 600},
        "navmesh": {"agent_radius": 20},
        "storeys": [{"id": "g", "y": 0}],
        "areas": [{"id": "room", "name": "Room", "storey": "g", "polygon": rect(0, 0, 1000, 1000)}],
        "start": {"area": "room", "at": [500, 500]},
        "objectives": [{"id": "live", "kind": "survive", "seconds": 60, "text": "Survive."}],
    }


def combat_world(level: Level) -> tuple[World, object]:
    """An episode's world (characters and objectives) with every hostile in combat.

    Every hostile starts in combat knowing where the player is, so the figures include
    pursuit over the navmesh, firing, hearing and searching. The player cannot die.
    """
    from world.characters.senses import set_meter
    from world.setup import create_world

    world = create_world(level, level.difficulties[-1].id, seed=1)
    world.player.health = world.player.max_health = 1e12  # keep the target standing
    world.paths  # noqa: B018  (build the navmesh before the clock starts)
    system = dict(world.systems())["characters"]
    for mind in system.minds.values():
        if mind.hostile:
            mind.last_known = world.player.position
            mind.last_stimulus = world.tick
            set_meter(system, mind, 1.0)
    return world, system


def _timed(totals: dict[str, float], part: str, fn):
    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            totals[part] += time.process_time() - start
    return timed


def time_parts() -> dict[str, float]:
    """Wrap each part of `PARTS` with a CPU timer; returns the running totals (seconds)."""
    totals = dict.fromkeys(PARTS, 0.0)
    for part, (module_name, owner_name, fn_name) in PARTS.items():
        module = importlib.import_module(module_name)
        owner = getattr(module, owner_name) if owner_name else module
        setattr(owner, fn_name, _timed(totals, part, getattr(owner, fn_name)))
    return totals


def run(name: str, level: Level, ticks: int, combat: bool,
        totals: dict[str, float] | None = None) -> dict:
    """Step one world for a number of ticks and report the wall time it took."""
    if combat:
        world, system = combat_world(level)
    else:
        world, system = World(level, level.difficulties[-1].id, seed=1), None
    if totals is not None:
        for part in totals:
            totals[part] = 0.0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(ticks):
        world.step()
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    row = {
        "level": name, "storeys": len(level.storeys), "areas": len(level.areas),
        "characters": len(world.characters), "ticks": ticks, "wall_s": round(wall, 3),
        "ticks_per_s": round(ticks / wall, 1),
        "realtime_factor": round(ticks / TICKS_PER_SECOND / wall, 1),
        # CPU time is steadier than wall time on a shared machine.
        "cpu_us_per_tick": round(cpu / ticks * 1e6, 1),
    }
    if system is not None:
        minds = system.minds.values()
        row["hostiles"] = sum(m.hostile for m in minds)
        row["in_combat_at_start"] = row["hostiles"]
        row["in_combat_at_end"] = sum(m.alertness == "in_combat" for m in minds)
        row["shots"] = sum(e.kind == "shot_fired" for e in world.events)
        if totals is not None:
            row["cpu_us_per_tick_in"] = {p: round(t / ticks * 1e6, 1) for p, t in totals.items()}
    return row


def largest_shipped() -> tuple[str, Level]:
    levels = [load_level(p) for p in sorted((ROOT / "levels").glob("*.json"))]
    best = max(levels, key=lambda lv: (len(lv.areas), len(lv.characters), lv.id))
    return best.id, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=9000)
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each case this many times and report the median run")
    parser.add_argument("--profile", choices=("a", "b", "c"),
                        help="cProfile one case instead of timing all of them")
    parser.add_argument("--breakdown", action="store_true",
                        help="also report CPU us per tick in each part of the tick")
    args = parser.parse_args()
    name, shipped = largest_shipped()
    cases = {
        "a": (name, shipped, True),
        "b": ("stress", parse_level(stress_level()), True),
        "c": ("empty", parse_level(empty_level()), False),
    }
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(*cases[args.profile][:2], args.ticks, cases[args.profile][2])
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return
    totals = time_parts() if args.breakdown else None
    print(json.dumps({"load_average": [round(v, 2) for v in os.getloadavg()]}), flush=True)
    for case_name, level, combat in cases.values():
        rows = [run(case_name, level, args.ticks, combat, totals) for _ in range(args.repeat)]
        row = sorted(rows, key=lambda r: r["wall_s"])[len(rows) // 2]
        if args.repeat > 1:
            row["runs"] = args.repeat
            row["realtime_factor_runs"] = [r["realtime_factor"] for r in rows]
            row["cpu_us_per_tick_runs"] = [r["cpu_us_per_tick"] for r in rows]
        print(json.dumps(row), flush=True)
    if args.repeat > 1:
        print(json.dumps({"load_average": [round(v, 2) for v in os.getloadavg()]}), flush=True)


if __name__ == "__main__":
    main()
