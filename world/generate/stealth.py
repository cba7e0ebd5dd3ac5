"""Stealth infiltration: copy a computer's files and get out without an alarm.

Cameras on the way hang across each room from its way in, looking away from it;
guards stand off the route.
"""

from __future__ import annotations

import math
import random
from typing import Any

from world.generate import stock
from world.generate.layout import LevelDraft, room_grid
from world.generate.template import Params, Template, int_param, number_param


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    rooms = p["rooms"]
    cols = rng.randint(2, 4)
    grid = room_grid(rng, storey="ground", prefix="room", cols=cols,
                     rows=math.ceil(rooms * 1.5 / cols), rooms=rooms, loops=p["loops"])
    start, target = "room_0", stock.farthest(grid, "room_0")
    path = grid.path(start, target)
    draft = LevelDraft(level_id, "Copy the files unseen",
                       "Get into the building, copy the files from the computer in its far "
                       "room with your data copier and come back out to where you started. "
                       "Cameras and guards watch the rooms: if the alarm sounds, the "
                       "mission fails.", ["stealth", "exploration"])
    draft.data["design_note"] = (f"Generated infiltration: {rooms} rooms, {p['cameras']} "
                                 "cameras on the way, across each room from its way in and "
                                 "facing away; guards off the route, more of them and a "
                                 "patrol on hard.")
    draft.storey("ground", 0)
    draft.rooms(grid, stock.ROOM_NAMES, rng)
    draft.add("objects", id="sidearm", kind="weapon", name="silenced pistol",
              weapon="silenced_pistol", amount=48)
    draft.add("objects", id="copier", kind="gadget", name="data copier", gadget="data_copier")
    stock.start_in(draft, grid.rooms[start], grid.rooms[start].centre(), ["sidearm", "copier"],
                   armour=0.3)
    stock.medkit(draft, rng, grid.rooms[rng.choice(path[1:])], 0)
    target_room = grid.rooms[target]
    draft.add("objects", id="computer", kind="computer", name="file server",
              area=target, at=target_room.spot(rng, 150))
    side = [r for r in sorted(grid.rooms) if r not in path]
    alarm_room = grid.rooms[rng.choice(side or [target])]
    draft.add("objects", id="alarm", kind="alarm", name="alarm bell", area=alarm_room.id,
              at=alarm_room.corner(rng.randrange(4), 60))
    watched = (path[1:] * p["cameras"])[:p["cameras"]]
    for n, room_id in enumerate(watched):
        _camera(draft, rng, grid, path, room_id, n)
    for n, room_id in enumerate(rng.sample(side, min(len(side), 1 + rooms // 4))):
        stock.guard(draft, rng, grid, room_id, n, None if n == 0 else "normal",
                    hearing_range=300)
    if len(side) >= 2:
        a, b = rng.sample(side, 2)
        stock.patrol(draft, rng, grid, a, b, 0, "hard", accuracy=0.3, hearing_range=300)
    draft.data["briefing"] = {"floor_plan": True, "objects": ["computer"]}
    draft.objective("copy_files", "gadget_on_object", "Copy the files from the file server.",
                    object="computer", gadget="data_copier", weight=2)
    draft.objective("quiet", "no_alarm", "Do not let the alarm sound.")
    draft.objective("get_out", "reach_area", "Come back out to where you started.",
                    area=start, after=["copy_files"])
    draft.data["budgets"] = {"max_decisions": 100 + 15 * rooms,
                             "max_game_seconds": 120 + 25 * rooms}
    return draft.finish()


def _camera(draft: LevelDraft, rng: random.Random, grid: Any, path: list[str], room_id: str,
            n: int) -> None:
    # Across the room from the door the player comes in by, looking away from it: the
    # player sees it on entering, from behind its view, and can shoot it first.
    before = path[path.index(room_id) - 1]
    door = draft.find_exit(before, room_id)["segment"]
    room = grid.rooms[room_id]
    mid = [(door[0][0] + door[1][0]) // 2, (door[0][1] + door[1][1]) // 2]
    inward = [0, 0]
    if door[0][0] == door[1][0]:  # a wall along z: the room lies to one side in x
        inward[0] = 1 if room.x0 == mid[0] else -1
    else:
        inward[1] = 1 if room.z0 == mid[1] else -1
    depth = (room.x1 - room.x0) if inward[0] else (room.z1 - room.z0)
    along = rng.choice([-1, 1]) * 150
    at = [mid[0] + inward[0] * (depth - 150) + (along if inward[0] == 0 else 0),
          mid[1] + inward[1] * (depth - 150) + (along if inward[1] == 0 else 0)]
    at = [min(max(at[0], room.x0 + 60), room.x1 - 60), min(max(at[1], room.z0 + 60), room.z1 - 60)]
    facing = math.degrees(math.atan2(inward[1], inward[0]))
    draft.add("objects", id=f"camera_{n}", kind="camera", name="security camera", area=room_id,
              at=at, facing_deg=round(facing), view_angle_deg=60, view_range=700,
              alarm="alarm", health=0.3)


TEMPLATE = Template(
    name="stealth",
    kind="stealth infiltration",
    description="Copy the files from a computer in the far room and come back out past "
                "cameras and guards without the alarm sounding.",
    params={
        "rooms": int_param(4, 16, 8, "rooms in the building"),
        "cameras": int_param(0, 4, 2, "security cameras on the way to the computer"),
        "loops": number_param(0, 0.5, 0.1, "chance that two neighbouring rooms are also "
                              "linked, making cycles"),
    },
    build=_build,
)
