"""Multi-storey errand with gadgets, over two or three storeys joined by stairs.

Fetch the tracking device, climb the stairs, copy the data from one console and plant
the device on a transmitter, then come back down.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from world.generate import stock
from world.generate.layout import Grid, LevelDraft, room_grid
from world.generate.template import Params, Template, int_param

RAMP = 600  # how far a flight of stairs runs between storeys
RISE = 300
LOOPS = 0.3  # chance that two neighbouring rooms on a storey are also joined


def _shift(grid: Grid, dx: int) -> Grid:
    rooms = {k: dataclasses.replace(r, x0=r.x0 + dx, x1=r.x1 + dx) for k, r in grid.rooms.items()}
    return Grid(rooms, grid.links, grid.by_cell)


def _storeys(rng: random.Random, count: int, rooms: int) -> list[Grid]:
    """One grid per storey, joined by flights.

    Each storey draws its own grid (two or three cells each way), its own number of
    rooms (one more or fewer than asked) and its own loops. The first flight runs north
    from the ground's north-west room, the second west from the first floor's
    south-west room.
    """
    def drawn(storey: str, prefix: str, first: Callable[[int, int], tuple[int, int]],
              origin: tuple[int, int] = (0, 0)) -> Grid:
        cols, rows = rng.randint(2, 3), rng.randint(2, 3)
        many = min(max(2, rooms + rng.randint(-1, 1)), cols * rows)
        return room_grid(rng, storey=storey, prefix=prefix, cols=cols, rows=rows, rooms=many,
                         loops=LOOPS, first=first(cols, rows), origin=origin)

    ground = drawn("s0", "g", lambda cols, rows: (0, rows - 1))
    top_z = ground.rooms["g_0"].z1
    grids = [ground, drawn("s1", "f", lambda cols, rows: (0, 0), (0, top_z + RAMP))]
    if count == 3:
        third = drawn("s2", "t", lambda cols, rows: (cols - 1, 0), (0, top_z + RAMP))
        grids.append(_shift(third, -RAMP - third.rooms["t_0"].x1))
    return grids


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    count, rooms = rng.randint(2, p["storeys"]), p["rooms"]
    grids = _storeys(rng, count, rooms)
    rooms = round(sum(len(g.rooms) for g in grids) / count)
    draft = LevelDraft(level_id, "An errand upstairs",
                       "Pick up the tracking device, then go upstairs: copy the data from "
                       "the console and plant the device on the transmitter. Come back "
                       "down to where you started.")
    draft.data["design_note"] = (f"Generated errand over {count} storeys of {rooms} rooms; "
                                 "guards from normal up, a photograph on normal and hard.")
    for n, grid in enumerate(grids):
        draft.storey(f"s{n}", RISE * n)
        draft.rooms(grid, stock.ROOM_NAMES, rng)
    g0, f0 = grids[0].rooms["g_0"], grids[1].rooms["f_0"]
    draft.add("stairs", id="stairs_0", bottom={"area": "g_0", "edge": [[200, g0.z1], [400, g0.z1]]},
              top={"area": "f_0", "edge": [[200, f0.z0], [400, f0.z0]]})
    if count == 3:
        t0 = grids[2].rooms["t_0"]
        z = f0.z0 + 200
        draft.add("stairs", id="stairs_1", bottom={"area": "f_0", "edge": [[0, z], [0, z + 200]]},
                  top={"area": "t_0", "edge": [[t0.x1, z], [t0.x1, z + 200]]})
    ground, top = grids[0], grids[-1]
    start = stock.farthest(ground, "g_0")
    draft.add("objects", id="sidearm", kind="weapon", name="silenced pistol",
              weapon="silenced_pistol", amount=60)
    for gadget, name in (("copier", "data copier"), ("camera", "pocket camera")):
        draft.add("objects", id=gadget, kind="gadget", name=name,
                  gadget="data_copier" if gadget == "copier" else "camera")
    stock.start_in(draft, ground.rooms[start], ground.rooms[start].centre(),
                   ["sidearm", "copier", "camera"], armour=0.4)
    depot = ground.rooms[rng.choice([r for r in sorted(ground.rooms) if r != start] or [start])]
    draft.add("objects", id="device", kind="gadget", name="tracking device", area=depot.id,
              at=depot.spot(rng), gadget="device")
    console = top.rooms[stock.farthest(top, next(iter(top.rooms)))]
    draft.add("objects", id="console", kind="computer", name="data console", area=console.id,
              at=console.spot(rng, 150))
    mast_grid = grids[1]
    mast = mast_grid.rooms[rng.choice(sorted(mast_grid.rooms))]
    draft.add("objects", id="mast", kind="prop", name="transmitter", area=mast.id,
              at=mast.spot(rng, 150))
    shot = grids[rng.randrange(1, count)]
    model = shot.rooms[rng.choice(sorted(shot.rooms))]
    draft.add("objects", id="prototype", kind="prop", name="prototype engine", area=model.id,
              at=model.spot(rng, 150))
    n = 0
    for level, grid in enumerate(grids):
        for when in ("normal", "hard"):
            room = rng.choice(sorted(grid.rooms))
            if room != start:
                stock.guard(draft, rng, grid, room, n, when, hearing_range=300,
                            accuracy=0.35 if when == "hard" else 0.5)
                n += 1
        stock.medkit(draft, rng, grid.rooms[rng.choice(sorted(grid.rooms))], level)
    draft.data["briefing"] = {"floor_plan": True,
                              "objects": ["device", "console", "mast", "prototype"]}
    draft.objective("copy_data", "gadget_on_object", "Copy the data from the console.",
                    object="console", gadget="data_copier", weight=2)
    draft.objective("plant_device", "gadget_on_object", "Plant the tracking device on the "
                    "transmitter.", object="mast", gadget="device", weight=2)
    draft.objective("photograph", "gadget_on_object", "Photograph the prototype engine.",
                    object="prototype", gadget="camera", min_difficulty="normal")
    draft.objective("come_back", "reach_area", "Come back down to where you started.",
                    area=start, after=["copy_data", "plant_device"])
    draft.data["budgets"] = {"max_decisions": 150 + 20 * rooms * count,
                             "max_game_seconds": 180 + 30 * rooms * count}
    return draft.finish()


TEMPLATE = Template(
    name="errand",
    kind="multi-storey errand",
    description="Fetch a device, climb to the upper storeys, copy data and plant the device "
                "with gadgets, then come back down.",
    params={
        "storeys": int_param(2, 3, 3, "the most storeys joined by stairs (each seed draws "
                             "two up to this many)"),
        "rooms": int_param(2, 6, 4, "rooms on each storey, give or take one drawn per "
                           "storey"),
    },
    categories=tuple(["exploration", "stealth"]),
    build=_build,
)
