"""Stealth infiltration: find a data copier, copy a computer's files and get out unheard.

Neither the copier nor the computer is on the briefing: the copier lies in a room off
the way in, the computer in the far room, and a camera there watches it from a spot
whose view leaves the room's doorways out, so a player who looks in first can shoot it
from the doorway, while one who walks straight to the computer and back is caught on
hard (a quick walk slips past the slower eyes of the easier difficulties). Cameras on
the way hang in the corner farthest from their room's doors and look along a wall;
guards stand off the route and out of the copier's room.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from shapely.geometry import LineString, Point

from world.generate import stock
from world.generate.layout import Grid, LevelDraft, Room, room_grid
from world.generate.template import Params, Template, int_param, number_param

CLEAR_VIEW = 350  # how far a camera's wall stays from any way between its room's doors
# The computer's watcher: its cone keeps this far (degrees) off every doorway of its room
# and off a step into the room from it, and it hangs at least this far from them.
DOOR_CLEAR_DEG = 20.0
DOOR_CLEAR = 300.0
DOOR_STEP = 150.0  # the step into the room from a doorway that must stay out of view too
WATCH_ANGLES = (90, 70, 50)  # the widest cone that keeps the doorways clear is used
WATCH_RANGE = 700
COMPUTER_TRIES = 30  # computer spots drawn until one can be watched that way


def _build(rng: random.Random, level_id: str, p: Params) -> dict[str, Any]:
    rooms = p["rooms"]
    cols = rng.randint(2, 4)
    grid = room_grid(rng, storey="ground", prefix="room", cols=cols,
                     rows=math.ceil(rooms * 1.5 / cols), rooms=rooms, loops=p["loops"])
    start, target = "room_0", stock.farthest(grid, "room_0")
    path = grid.path(start, target)
    draft = LevelDraft(level_id, "Copy the files unseen",
                       "Get into the building, find the data copier left in one of its rooms, "
                       "copy the files from the file server in its far room and come back "
                       "out to where you started. Cameras and guards watch the rooms: if the "
                       "alarm sounds, the mission fails.")
    side = [r for r in sorted(grid.rooms) if r not in path]
    depot = rng.choice(side or path[1:-1] or [target])
    draft.data["design_note"] = (f"Generated infiltration: {rooms} rooms; the data copier "
                                 "lies in a room off the way in and neither it nor the file "
                                 "server is on the briefing; a camera in the server's room "
                                 "watches the server with the doorways out of its view; "
                                 f"{p['cameras']} cameras on the way, each in the corner "
                                 "farthest from its room's doors looking along a wall; guards "
                                 "off the route and out of the copier's room (a medkit "
                                 "there), more of them and a patrol on hard.")
    draft.storey("ground", 0)
    draft.rooms(grid, stock.ROOM_NAMES, rng)
    draft.add("objects", id="sidearm", kind="weapon", name="silenced pistol",
              weapon="silenced_pistol", amount=48)
    stock.start_in(draft, grid.rooms[start], grid.rooms[start].centre(), ["sidearm"],
                   armour=0.5)
    depot_room = grid.rooms[depot]
    draft.add("objects", id="copier", kind="gadget", name="data copier", gadget="data_copier",
              area=depot, at=depot_room.spot(rng, 150))
    stock.medkit(draft, rng, grid.rooms[rng.choice(path[1:])], 0)
    stock.medkit(draft, rng, depot_room, 1)
    target_room = grid.rooms[target]
    computer, watcher = _watched_spot(rng, target_room, _doors(draft, target_room.id))
    draft.add("objects", id="computer", kind="computer", name="file server",
              area=target, at=computer)
    alarm_room = grid.rooms[rng.choice(side or [target])]
    draft.add("objects", id="alarm", kind="alarm", name="alarm bell", area=alarm_room.id,
              at=alarm_room.corner(rng.randrange(4), 60))
    if watcher is not None:
        at, facing, angle = watcher
        draft.add("objects", id="camera_server", kind="camera", name="security camera",
                  area=target, at=at, facing_deg=facing, view_angle_deg=angle,
                  view_range=WATCH_RANGE, alarm="alarm", health=0.3)
    watched = (path[1:-1] * p["cameras"])[:p["cameras"]]
    for n, room_id in enumerate(watched):
        _camera(draft, grid, room_id, n)
    # Guards keep out of the copier's room: finding it is the errand, not a gunfight.
    posts = [r for r in side if r != depot]
    for n, room_id in enumerate(rng.sample(posts, min(len(posts), 1 + rooms // 4))):
        stock.guard(draft, rng, grid, room_id, n, None if n == 0 else "normal",
                    hearing_range=300, accuracy=0.3)
    if len(side) >= 2:
        a, b = rng.sample(side, 2)
        stock.patrol(draft, rng, grid, a, b, 0, "hard", accuracy=0.3, hearing_range=300)
    draft.data["briefing"] = {"floor_plan": True}
    draft.objective("copy_files", "gadget_on_object", "Copy the files from the file server.",
                    object="computer", gadget="data_copier", weight=2)
    draft.objective("quiet", "no_alarm", "Do not let the alarm sound.")
    draft.objective("get_out", "reach_area", "Come back out to where you started.",
                    area=start, after=["copy_files"])
    draft.data["budgets"] = {"max_decisions": 150 + 20 * rooms,
                             "max_game_seconds": 180 + 30 * rooms}
    return draft.finish()


def _doors(draft: LevelDraft, room_id: str) -> list[tuple[float, float]]:
    return [((e["segment"][0][0] + e["segment"][1][0]) / 2,
             (e["segment"][0][1] + e["segment"][1][1]) / 2)
            for e in draft.data["exits"] if room_id in e["areas"]]


def _watched_spot(rng: random.Random, room: Room, doors: list[tuple[float, float]]
                  ) -> tuple[list[int], tuple[list[int], int, int] | None]:
    # The computer's spot and its watcher (camera spot, facing, cone): the camera looks
    # at the computer from a corner or a wall's middle, with every doorway and a step
    # into the room from it outside its cone, so that it is shot from the doorway.
    cx, cz = room.centre()
    inward = [_step_in(d, (cx, cz)) for d in doors]
    spots = [room.corner(i, 60) for i in range(4)] + [
        [cx, room.z0 + 60], [cx, room.z1 - 60], [room.x0 + 60, cz], [room.x1 - 60, cz]]
    computer = room.spot(rng, 150)
    for _ in range(COMPUTER_TRIES):
        for angle, at in itertools.product(WATCH_ANGLES, spots):
            facing = _bearing(at, computer)
            if not 200 <= math.dist(at, computer) <= 0.6 * WATCH_RANGE:
                continue
            if all(math.dist(at, d) >= DOOR_CLEAR
                   and _off(_bearing(at, d), facing) >= angle / 2 + DOOR_CLEAR_DEG
                   for d in [*doors, *inward]):
                return computer, (at, round(facing), angle)
        computer = room.spot(rng, 150)
    return computer, None


def _step_in(door: tuple[float, float], centre: tuple[int, int]) -> tuple[float, float]:
    length = max(math.dist(door, centre), 1.0)
    share = min(DOOR_STEP, length) / length
    return (door[0] + (centre[0] - door[0]) * share, door[1] + (centre[1] - door[1]) * share)


def _bearing(a: Any, b: Any) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def _off(bearing: float, facing: float) -> float:
    return abs((bearing - facing + 180.0) % 360.0 - 180.0)


def _camera(draft: LevelDraft, grid: Grid, room_id: str, n: int) -> None:
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
    eye, aim = corners[best[1]], corners[best[2]]
    facing = round(math.degrees(math.atan2(aim[1] - eye[1], aim[0] - eye[0])))
    draft.add("objects", id=f"camera_{n}", kind="camera", name="security camera", area=room_id,
              at=eye, facing_deg=facing, view_angle_deg=40, view_range=700, alarm="alarm",
              health=0.3)


TEMPLATE = Template(
    name="stealth",
    kind="stealth infiltration",
    description="Find the data copier left in a room off the way in, copy the files from a "
                "computer in the far room watched by a camera, and come back out past "
                "cameras and guards without the alarm sounding.",
    params={
        "rooms": int_param(4, 16, 8, "rooms in the building"),
        "cameras": int_param(0, 4, 2, "security cameras in the rooms on the way to the "
                             "computer's room, besides the one watching the computer (at "
                             "most: a room with no corner out of the way gets none)"),
        "loops": number_param(0, 0.5, 0.1, "chance that two neighbouring rooms are also "
                              "linked, making cycles"),
    },
    categories=tuple(["stealth", "exploration"]),
    build=_build,
)
