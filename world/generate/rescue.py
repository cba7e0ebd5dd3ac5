"""Rescue: lead the hostages held in the far room back alive to the start room.

Hostages follow once used; the floor plan is known.
"""

from __future__ import annotations

import math
import random
from typing import Any

from world.generate import stock
from world.generate.layout import LevelDraft, room_grid
from world.generate.template import Params, Template, int_param, number_param


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    rooms, hostages = p["rooms"], p["hostages"]
    cols = rng.randint(2, 4)
    grid = room_grid(rng, storey="ground", prefix="room", cols=cols,
                     rows=math.ceil(rooms * 1.4 / cols), rooms=rooms, loops=p["loops"])
    start, cell = "room_0", stock.farthest(grid, "room_0")
    draft = LevelDraft(level_id, "Bring the hostages home",
                       f"{_count(hostages)} held somewhere in this building. Find them, "
                       "get them to follow you and lead them back to the room you start "
                       "in, alive.")
    draft.data["design_note"] = (f"Generated rescue: {rooms} rooms, {hostages} hostages in "
                                 "the farthest room; guards on the way from normal up.")
    draft.storey("ground", 0)
    draft.rooms(grid, stock.ROOM_NAMES, rng)
    weapon = stock.give_weapon(draft, "smg", "submachine gun", 180)
    stock.start_in(draft, grid.rooms[start], grid.rooms[start].centre(), [weapon])
    held = [f"hostage_{n}" for n in range(hostages)]
    room = grid.rooms[cell]
    for n, hostage in enumerate(held):
        draft.add("characters", id=hostage, kind="hostage", side="friendly",
                  behaviour="follow_on_use", speed=260, area=cell, at=room.corner(n, 150))
    path = grid.path(start, cell)
    on_way = path[1:-1] or [cell]
    stock.guard(draft, rng, grid, cell, 0, "normal")
    stock.guard(draft, rng, grid, rng.choice(on_way), 1, "hard", accuracy=0.3)
    for n, other in enumerate(rng.sample(sorted(grid.rooms), min(2, rooms))):
        stock.medkit(draft, rng, grid.rooms[other], n)
    draft.data["briefing"] = {"floor_plan": True}
    draft.objective("bring_home", "escort", "Lead the hostages back to where you started.",
                    characters=held, area=start, weight=3)
    draft.objective("keep_alive", "protect", "Keep the hostages alive.", characters=held)
    draft.data["budgets"] = {"max_decisions": 120 + 15 * rooms,
                             "max_game_seconds": 120 + 30 * rooms}
    return draft.finish()


def _count(n: int) -> str:
    return "One hostage is" if n == 1 else f"{('Two', 'Three')[n - 2]} hostages are"


TEMPLATE = Template(
    name="rescue",
    kind="rescue and escort",
    description="Find the hostages in the farthest room, have them follow and lead them "
                "back alive to the start room.",
    params={
        "rooms": int_param(3, 20, 7, "rooms in the building"),
        "hostages": int_param(1, 3, 1, "hostages to bring back"),
        "loops": number_param(0, 0.5, 0.15, "chance that two neighbouring rooms are also "
                              "linked, making cycles"),
    },
    categories=tuple(["rescue_escort", "combat"]),
    build=_build,
)
