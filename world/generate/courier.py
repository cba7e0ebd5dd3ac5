"""Intercept: stop a courier walking with bodyguards along a route of rooms.

The courier leaves the depot for the border along a street of rooms open to one
another; the player starts in a house off the route, behind doors, so he is met only by
going out to cut him off.
"""

from __future__ import annotations

import random
from typing import Any

from world.generate import stock
from world.generate.layout import LevelDraft, room_grid
from world.generate.template import Params, Template, int_param, number_param

STREET_NAMES = ["Market street", "Tannery lane", "Bridge street", "Chapel row", "Mill lane",
                "Quay", "High street", "Coach yard", "Rope walk", "Well square"]


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    length = p["route_rooms"]
    grid = room_grid(rng, storey="ground", prefix="street", cols=length, rows=3,
                     rooms=length * 2, loops=0.3, first=(0, rng.randrange(3)),
                     sizes=(800, 1000, 1200))
    depot = "street_0"
    border = stock.farthest(grid, depot)
    route = grid.path(depot, border)
    draft = LevelDraft(level_id, "Stop the courier",
                       "A courier carrying stolen papers is leaving the depot for the "
                       "border crossing with an escort. Stop him before he gets there, then "
                       "take his papers to your contact's house.")
    draft.data["design_note"] = (f"Generated interception: the courier's route crosses "
                                 f"{len(route)} rooms; the player starts in a house beside "
                                 "it and takes the papers to a contact's house off it.")
    draft.storey("ground", 0)
    draft.rooms(grid, STREET_NAMES, rng)
    on_route = set(route)
    for exit_ in draft.data["exits"]:
        # The streets are open to one another; the houses off the route have doors, so
        # nobody sees the street from inside one without going to look.
        if set(exit_["areas"]) <= on_route:
            exit_["kind"] = "opening"
            exit_.pop("door")
    weapon = stock.give_weapon(draft, "rifle", "rifle", 60)
    side = [r for r in sorted(grid.rooms) if r not in on_route]
    # The player starts in a house by the depot, after the courier has set off: he is
    # met only by going after him or cutting him off, not by waiting where he passes.
    from_depot = grid.distances(depot)
    nearest = min((from_depot[r] for r in side), default=0)
    near = [r for r in side if from_depot[r] == nearest] or [route[1]]
    here = grid.rooms[rng.choice(near)]
    stock.start_in(draft, here, here.centre(), [weapon])
    stops = [{"area": r, "at": grid.rooms[r].centre()} for r in route]
    speed = p["speed"]
    draft.add("characters", id="courier", kind="courier", side="hostile", weapon="pistol",
              behaviour="route", route=stops, destination=border, speed=speed,
              area=depot, at=grid.rooms[depot].centre())
    for n, offset in enumerate((-120, 120)):
        start_at = grid.rooms[depot].centre()
        start_at[0] += offset
        entry: dict[str, Any] = dict(
            id=f"bodyguard_{n}", kind="guard", side="hostile", weapon="pistol",
            behaviour="route", route=stops, destination=border, speed=speed,
            area=depot, at=start_at)
        entry["min_difficulty"] = "normal" if n == 0 else "hard"
        draft.add("characters", **entry)
    folk = [f"townsman_{n}" for n in range(2)]
    for n, name in enumerate(folk):
        room = grid.rooms[rng.choice(route[1:-1] or route)]
        draft.add("characters", id=name, kind="civilian", side="friendly", behaviour="idle",
                  area=room.id, at=room.corner(n + 2, 150))
    draft.data["briefing"] = {"floor_plan": True}
    draft.objective("stop_courier", "intercept", "Stop the courier before he reaches the "
                    "border crossing.", characters=["courier"], weight=3)
    draft.objective("spare_town", "protect", "Do not harm the townsfolk.", characters=folk,
                    min_difficulty="normal")
    # Stopping him is half the job: the papers go to a contact in the house farthest
    # from the player's start, which a player shooting at whatever comes by does not find.
    from_start = grid.distances(here.id)
    contact = max(sorted(grid.rooms), key=lambda r: (r not in on_route, from_start[r]))
    next(a for a in draft.data["areas"] if a["id"] == contact)["name"] = "Contact's house"
    draft.objective("deliver", "reach_area", "Then take his papers to your contact's house.",
                    area=contact, after=["stop_courier"])
    draft.data["budgets"] = {"max_decisions": 40, "max_game_seconds": 100}
    return draft.finish()


TEMPLATE = Template(
    name="courier",
    kind="interception",
    description="Stop a courier walking with bodyguards along a route of rooms before he "
                "reaches the border room, then take his papers to a contact's house.",
    params={
        "route_rooms": int_param(3, 8, 5, "columns of streets between the depot and the border"),
        "speed": number_param(100, 300, 180, "the courier's walking speed (units per second)"),
    },
    categories=tuple(["pursuit", "combat"]),
    build=_build,
)
