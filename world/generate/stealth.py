"""Stealth infiltration: copy a computer's files and get out without an alarm.

Cameras on the way hang in the corner farthest from their room's doors and look along
a wall; guards stand off the route.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from shapely.geometry import LineString, Point

from world.generate import stock
from world.generate.layout import LevelDraft, room_grid
from world.generate.template import Params, Template, int_param, number_param

CLEAR_VIEW = 350  # how far a camera's wall stays from any way between its room's doors


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
                       "mission fails.")
    draft.data["design_note"] = (f"Generated infiltration: {rooms} rooms, {p['cameras']} "
                                 "cameras on the way, each in the corner farthest from its "
                                 "room's doors looking along a wall; guards off the route, "
                                 "more of them and a patrol on hard.")
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
        _camera(draft, grid, room_id, n)
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


def _camera(draft: LevelDraft, grid: Any, room_id: str, n: int) -> None:
    # In a corner, looking along a wall, where its view stays clear of every straight way
    # between the room's doors and the things in it: it watches the room's edge, so a
    # player who walks through sees it and can shoot it before it sees them. No such
    # corner: no camera.
    room = grid.rooms[room_id]
    doors = [((e["segment"][0][0] + e["segment"][1][0]) / 2,
              (e["segment"][0][1] + e["segment"][1][1]) / 2)
             for e in draft.data["exits"] if room_id in e["areas"]]
    things = [tuple(o["at"]) for o in draft.data["objects"]
              if o.get("area") == room_id and o["kind"] != "camera"]
    places = doors + things  # where a walk through the room starts, ends or stops
    ways = [LineString([a, b]) for a, b in itertools.combinations(places, 2)]
    ways += [Point(d).buffer(1) for d in places]
    corners = [room.corner(i, 60) for i in range(4)]
    best: tuple[float, int, int] | None = None
    for at, to in itertools.product(range(4), range(4)):
        if to not in ((at + 1) % 4, (at + 3) % 4):
            continue
        view = LineString([corners[at], corners[to]])
        clear = min((view.distance(w) for w in ways), default=1e9)
        if best is None or clear > best[0]:
            best = (clear, at, to)
    if best is None or best[0] < CLEAR_VIEW:
        return
    at, to = corners[best[1]], corners[best[2]]
    facing = round(math.degrees(math.atan2(to[1] - at[1], to[0] - at[0])))
    draft.add("objects", id=f"camera_{n}", kind="camera", name="security camera", area=room_id,
              at=at, facing_deg=facing, view_angle_deg=40, view_range=700, alarm="alarm",
              health=0.3)


TEMPLATE = Template(
    name="stealth",
    kind="stealth infiltration",
    description="Copy the files from a computer in the far room and come back out past "
                "cameras and guards without the alarm sounding.",
    params={
        "rooms": int_param(4, 16, 8, "rooms in the building"),
        "cameras": int_param(0, 4, 2, "security cameras on the way to the computer (at most: "
                             "a room with no corner out of the way gets none)"),
        "loops": number_param(0, 0.5, 0.1, "chance that two neighbouring rooms are also "
                              "linked, making cycles"),
    },
    categories=tuple(["stealth", "exploration"]),
    build=_build,
)
