"""Simulation speed: ticks per wall second on a shipped level, a stress level and an empty one.

Prints one JSON object per case. Characters have no AI yet, so a small driver here walks
each of them between random navmesh points and fires at the player when it sees it,
which exercises physics, sight and combat the way a real episode would. The driver's
own time is included in the figures.

Usage: python benchmarks/sim_speed.py [--ticks N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
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


class Driver:
    """Walks characters between random reachable points and lets them shoot on sight."""

    def __init__(self, world: World, seed: int = 1) -> None:
        self.world = world
        self.rng = random.Random(seed)
        self.routes: dict[str, list[tuple[float, float]]] = {}
        self.retry: dict[str, int] = {}
        self.areas = [a for a in world.level.areas]
        self.order = list(world.characters.values())

    def _goal(self):
        area = self.rng.choice(self.areas)  # any storey: routes use the stairs
        xs = [p[0] for p in area.polygon]
        zs = [p[1] for p in area.polygon]
        x = self.rng.uniform(min(xs) + 40, max(xs) - 40)
        z = self.rng.uniform(min(zs) + 40, max(zs) - 40)
        return (x, self.world.level.area_y(area.id), z)

    def _plan(self, actor) -> None:
        paths = self.world.paths
        for _ in range(5):
            goal = self._goal()
            path = paths.path(actor.position, goal, self.world.blocked_doors())
            if path is not None:
                self.routes[actor.id] = [(p[0], p[2]) for p in path.waypoints[1:]]
                return
        self.routes[actor.id] = []

    def update(self, world: World) -> None:
        tick = world.tick
        player = world.player
        for k, actor in enumerate(self.order):
            if not actor.alive:
                continue
            route = self.routes.get(actor.id)
            if route and (actor.move_to is None or (
                abs(actor.x - route[0][0]) + abs(actor.z - route[0][1]) < 4
            )):
                route.pop(0)
                actor.move_to = route[0] if route else None
            if not route and self.retry.get(actor.id, 0) <= tick:
                self.retry[actor.id] = tick + 30  # a failed plan waits a second
                self._plan(actor)
                route = self.routes[actor.id]
                actor.move_to = route[0] if route else None
            if (tick + k) % DECIDE_EVERY == 0 and actor.storey == player.storey:
                weapon = world.combat.weapon_of(actor)
                if math.hypot(actor.x - player.x, actor.z - player.z) <= weapon.range and (
                    world.line_of_sight((actor.x, actor.z), (player.x, player.z), actor.storey)
                ):
                    world.fire(actor.id, "player")


def run(name: str, level: Level, ticks: int, drive: bool) -> dict:
    difficulty = level.difficulties[-1].id
    world = World(level, difficulty, seed=1)
    world.player.health = world.player.max_health = 1e12  # keep the target standing
    if drive and world.characters:
        world.paths  # noqa: B018  (build the navmesh before the clock starts)
        world.add_system("driver", Driver(world), 0)
    start = time.perf_counter()
    for _ in range(ticks):
        world.step()
    wall = time.perf_counter() - start
    return {
        "level": name, "storeys": len(level.storeys), "areas": len(level.areas),
        "characters": len(world.characters), "ticks": ticks, "wall_s": round(wall, 3),
        "ticks_per_s": round(ticks / wall, 1),
        "realtime_factor": round(ticks / TICKS_PER_SECOND / wall, 1),
    }


def run_characters(name: str, level: Level, ticks: int, combat: bool) -> dict:
    """Ticks per second with the real characters system instead of the driver above.

    With `combat`, every character starts in combat knowing where the player is, so
    the figures include pursuit over the navmesh, firing, hearing and searching.
    """
    from world.characters import CharactersSystem
    from world.characters.senses import set_meter

    world = World(level, level.difficulties[-1].id, seed=1)
    world.player.health = world.player.max_health = 1e12  # keep the target standing
    world.paths  # noqa: B018  (build the navmesh before the clock starts)
    system = CharactersSystem.attach(world)
    if combat:
        for mind in system.minds.values():
            mind.last_known = world.player.position
            mind.last_stimulus = world.tick
            set_meter(system, mind, 1.0)
    start = time.perf_counter()
    for _ in range(ticks):
        world.step()
    wall = time.perf_counter() - start
    minds = system.minds.values()
    return {
        "level": name, "case": "characters" + ("_in_combat" if combat else ""),
        "storeys": len(level.storeys), "characters": len(world.characters), "ticks": ticks,
        "in_combat_at_end": sum(m.alertness == "in_combat" for m in minds),
        "shots": sum(e.kind == "shot_fired" for e in world.events),
        "wall_s": round(wall, 3), "ticks_per_s": round(ticks / wall, 1),
        "realtime_factor": round(ticks / TICKS_PER_SECOND / wall, 1),
    }


def characters_cases(ticks: int, shipped: tuple[str, Level]) -> list[dict]:
    """The characters system on the largest shipped level and with 40 and 100 fighting."""
    rows = [run_characters(shipped[0], shipped[1], ticks, False)]
    for count in (40, 100):
        level = parse_level(stress_level(characters=count))
        rows.append(run_characters(f"stress_{count}", level, ticks, True))
    return rows


def largest_shipped() -> tuple[str, Level]:
    levels = [load_level(p) for p in sorted((ROOT / "levels").glob("*.json"))]
    best = max(levels, key=lambda lv: (len(lv.areas), len(lv.characters), lv.id))
    return best.id, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=9000)
    parser.add_argument("--profile", action="store_true", help="cProfile the stress case")
    args = parser.parse_args()
    name, shipped = largest_shipped()
    cases = [
        (name, shipped, True),
        ("stress", parse_level(stress_level()), True),
        ("empty", parse_level(empty_level()), False),
    ]
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run("stress", cases[1][1], args.ticks // 3, True)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    for case_name, level, drive in cases:
        print(json.dumps(run(case_name, level, args.ticks, drive)), flush=True)
    for row in characters_cases(args.ticks, (name, shipped)):
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
