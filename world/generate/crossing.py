"""Crossing hazards: pass marks in order through rooms, some of them flooded.

A flooded room (acid, radiation or poison) drains health while the player stands in
it; the run ends in the last room.
"""

from __future__ import annotations

import math
import random
from typing import Any

from world.generate import stock
from world.generate.layout import LevelDraft, room_grid
from world.generate.template import Params, Template, int_param, number_param

CAVE_NAMES = ["Gallery", "Sump", "Adit", "Chamber", "Drift", "Shaft foot", "Grotto",
              "Crosscut", "Stope", "Winze"]


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    rooms = p["rooms"]
    cols = rng.randint(3, 5)
    grid = room_grid(rng, storey="ground", prefix="cave", cols=cols,
                     rows=math.ceil(rooms * 1.3 / cols), rooms=rooms, loops=0.1)
    start, goal = "cave_0", stock.farthest(grid, "cave_0")
    path = grid.path(start, goal)
    draft = LevelDraft(level_id, "Across the flooded workings",
                       "Pass the chalk marks in order through the old workings and reach the "
                       "last chamber. Some chambers are flooded: the floor there eats at "
                       "your health while you stand in it.")
    draft.data["design_note"] = (f"Generated crossing: {len(path)} rooms from start to end, "
                                 f"about {p['flooded']:.0%} of them flooded at "
                                 f"{p['harm']} health a second.")
    draft.storey("ground", 0)
    draft.rooms(grid, CAVE_NAMES, rng)
    weapon = stock.give_weapon(draft, "pistol", "pistol", 60)
    stock.start_in(draft, grid.rooms[start], grid.rooms[start].centre(), [weapon])
    for n, room_id in enumerate(path[1:-1]):
        if rng.random() < p["flooded"]:
            draft.add("hazards", id=f"flood_{n}", kind=rng.choice(["acid", "radiation", "poison"]),
                      storey="ground", polygon=grid.rooms[room_id].polygon(),
                      damage_per_s=p["harm"])
    marks = [{"area": r, "at": grid.rooms[r].spot(rng, 200)} for r in path[1:]]
    dry = [r for r in path if not any(h["polygon"] == grid.rooms[r].polygon()
                                      for h in draft.data["hazards"])]
    for n, room_id in enumerate(rng.sample(dry, min(len(dry), 1 + len(path) // 4))):
        stock.medkit(draft, rng, grid.rooms[room_id], n, 0.4)
    side = [r for r in sorted(grid.rooms) if r not in path]
    lamp_room = grid.rooms[rng.choice(side or path[1:])]
    draft.add("objects", id="lamp", kind="prop", name="miner's lamp", area=lamp_room.id,
              at=lamp_room.spot(rng))
    draft.data["objects"][-1]["kind"] = "armour"  # a pickup: the lamp is worn
    draft.data["objects"][-1]["amount"] = 0.1
    stalkers = []
    for n, room_id in enumerate(rng.sample(path[1:], min(2, len(path) - 1))):
        stock.guard(draft, rng, grid, room_id, n, "hard", weapon="fists", health=0.6)
        stalkers.append(f"guard_{n}")
    draft.data["briefing"] = {"floor_plan": True}
    draft.objective("marks", "waypoints", "Pass the chalk marks in order.", points=marks,
                    radius=150, weight=3)
    draft.objective("get_lamp", "collect_item", "Pick up the miner's lamp.", object="lamp",
                    min_difficulty="normal")
    draft.objective("down_stalkers", "neutralise", "Put down the stalkers in the workings.",
                    characters=stalkers, min_difficulty="hard")
    draft.data["budgets"] = {"max_decisions": 80 + 12 * rooms,
                             "max_game_seconds": 90 + 20 * rooms}
    return draft.finish()


TEMPLATE = Template(
    name="crossing",
    kind="hazard crossing",
    description="Pass waypoints in order through a run of rooms, some flooded with a floor "
                "that drains health, and reach the last room.",
    params={
        "rooms": int_param(3, 20, 8, "rooms in the workings"),
        "flooded": number_param(0, 1, 0.4, "share of the rooms on the way that are flooded"),
        "harm": number_param(0.005, 0.1, 0.02, "health drained per second in a flooded room"),
    },
    categories=tuple(["hazard", "navigation"]),
    build=_build,
)
