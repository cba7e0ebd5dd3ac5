"""Doom routes and sight: the grid planner on E1M1 (doors, lifts, unreachable goals), sight
lines through doors and walls, and the engine itself walking planned routes. Skipped
with the reason without ViZDoom's WADs.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
import shapely

from tests.doom_support import doom_rooms, require_wads
from world.doom.files import iwad
from world.doom.maps import load_navgrid
from world.doom.navgrid import NavGrid, doors_open, lifts_down, map_heights
from world.doom.rooms import DoomRooms
from world.doom.sight import EYE, Sight

require_wads("the Doom map tests read ViZDoom's WADs")


def e1m1_grid() -> NavGrid:
    return load_navgrid(iwad("freedoom1"), "E1M1")


def _reachable_goals(grid: NavGrid, start: tuple[float, float], heights, count: int,
                     seed: int) -> list[tuple[float, float]]:
    """Cell centres a walk from the start reaches, drawn at random (seeded)."""
    cells = np.flatnonzero(grid.reachable(start, heights)).tolist()
    rng = random.Random(seed)
    return [grid.centre(cell) for cell in rng.sample(cells, count)]


def test_e1m1_routes_reach_forty_random_goals_clear_of_walls():
    rooms = doom_rooms("freedoom1", "E1M1")
    grid = e1m1_grid()
    heights = doors_open(rooms, map_heights(rooms))
    start = next(p for p in rooms.things if p.type == 1)
    goals = _reachable_goals(grid, (start.x, start.y), heights, 40, seed=7)
    walls = shapely.MultiLineString([
        (rooms.map.vertices[ln.v1], rooms.map.vertices[ln.v2])
        for ln in rooms.map.lines if ln.back is None or ln.blocking])
    for goal in goals:
        route = grid.plan((start.x, start.y), goal, heights)
        assert route and route[-1] == goal
        assert route == grid.plan((start.x, start.y), goal, heights)  # deterministic
        for a, b in itertools.pairwise(route):
            assert shapely.LineString([a, b]).distance(walls) >= 4.0, (goal, a, b)


def test_closed_doors_keep_routes_in_fewer_rooms():
    rooms = doom_rooms("freedoom1", "E1M1")
    grid = e1m1_grid()
    start = next(p for p in rooms.things if p.type == 1)
    closed = grid.reachable((start.x, start.y), map_heights(rooms))
    opened = grid.reachable((start.x, start.y), doors_open(rooms, map_heights(rooms)))
    assert closed.any() and not (closed & ~opened).any()
    assert closed.sum() < 0.8 * opened.sum()
    inside = np.flatnonzero(opened & ~closed)[0]
    goal = grid.centre(int(inside))
    assert grid.plan((start.x, start.y), goal, map_heights(rooms)) is None


def test_the_exit_switch_is_reached_once_doors_open():
    rooms = doom_rooms("freedoom1", "E1M1")
    grid = e1m1_grid()
    start = next(p for p in rooms.things if p.type == 1)
    [exit_line] = rooms.exits
    assert grid.plan((start.x, start.y), exit_line.reach, map_heights(rooms)) is None
    route = grid.plan((start.x, start.y), exit_line.reach,
                      doors_open(rooms, map_heights(rooms)))
    assert route and route[-1] == exit_line.reach
    # Without a key the blue doors stay shut, yet the exit is reached.
    no_keys = doors_open(rooms, map_heights(rooms), keys=())
    assert grid.plan((start.x, start.y), exit_line.reach, no_keys) is not None
    here = (start.x, start.y)
    assert grid.reachable(here, no_keys).sum() < grid.reachable(
        here, doors_open(rooms, map_heights(rooms), keys=("blue",))).sum()


def test_unreachable_goals_answer_none_at_once():
    grid = e1m1_grid()
    rooms = doom_rooms("freedoom1", "E1M1")
    start = next(p for p in rooms.things if p.type == 1)
    assert grid.plan((start.x, start.y), (-100000.0, 5.0), map_heights(rooms)) is None


def _across(rooms: DoomRooms, door) -> tuple[tuple[float, float, float], ...]:
    """Two eyes facing each other through a doorway, 40 units off its centre line."""
    (x1, y1), (x2, y2) = door.segment
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    eyes = []
    for side in (1, -1):
        x, y = mx + side * 40 * nx, my + side * 40 * ny
        floor = rooms.map.sectors[rooms.sector_at(x, y)].floor
        eyes.append((x, y, floor + EYE))
    return tuple(eyes)


def test_a_closed_door_blocks_sight_and_an_open_one_does_not():
    rooms = doom_rooms("freedoom1", "E1M1")
    sight = Sight(rooms.map)
    closed, opened = map_heights(rooms), doors_open(rooms, map_heights(rooms))
    doors = [d for d in rooms.doors if d.manual and len(d.areas) == 2]
    assert doors
    for door in doors:
        a, b = _across(rooms, door)
        assert not sight.visible(a, b, closed), door
        assert sight.visible(a, b, opened) and sight.visible(b, a, opened), door


def test_walls_block_sight_and_open_floor_does_not():
    rooms = doom_rooms("my_way_home", "MAP01")
    sight = Sight(rooms.map)
    heights = map_heights(rooms)
    # Room 0 (x 160-320, y -256..-96) and room 1 (x 384-544): a wall between, the
    # corridor 15 (y -208..-144) joins them.
    assert sight.visible((200, -176, 41), (500, -176, 41), heights)
    assert not sight.visible((200, -240, 41), (500, -240, 41), heights)
    assert not sight.visible((200, -176, 41), (1040, -352, 41), heights)
    many = sight.visible_many((200, -176, 41), [(500, -176, 41), (200, -240, 41),
                                                (500, -240, 41)], heights)
    assert many.tolist() == [True, True, False]


def _walker(vzd):
    """ViZDoom on E1M1 without monsters, moved by forward and sideways thrust."""
    game = vzd.DoomGame()
    game.set_doom_game_path(str(iwad("freedoom1")))
    game.set_doom_map("E1M1")
    game.set_window_visible(False)
    game.set_screen_resolution(vzd.ScreenResolution.RES_160X120)
    game.add_game_args("-nomonsters")
    game.set_available_buttons([vzd.Button.MOVE_FORWARD_BACKWARD_DELTA,
                                vzd.Button.MOVE_LEFT_RIGHT_DELTA])
    game.set_available_game_variables([vzd.GameVariable.POSITION_X,
                                       vzd.GameVariable.POSITION_Y, vzd.GameVariable.ANGLE])
    game.set_episode_timeout(1_000_000)
    game.set_seed(1)
    game.init()
    return game


def _walk_to(game, vzd, point, reach: float = 16.0, budget: int = 300) -> int | None:
    """Thrust towards a point until within reach; the tics it took, None if stuck."""
    for tic in range(budget):
        x, y, angle = (game.get_game_variable(v) for v in (
            vzd.GameVariable.POSITION_X, vzd.GameVariable.POSITION_Y, vzd.GameVariable.ANGLE))
        dx, dy = point[0] - x, point[1] - y
        if math.hypot(dx, dy) <= reach:
            return tic
        a = math.radians(angle)
        ahead = dx * math.cos(a) + dy * math.sin(a)
        right = dx * math.sin(a) - dy * math.cos(a)
        scale = 50.0 / max(abs(ahead), abs(right), 1e-9)
        game.make_action([ahead * scale, right * scale])
    return None


@pytest.mark.slow
def test_the_engine_walks_every_waypoint_of_routes_in_the_start_region():
    """Routes under the start's heights (doors shut) are walkable in the engine itself:
    every waypoint is passed within 16 units."""
    vzd = pytest.importorskip("vizdoom")
    rooms = doom_rooms("freedoom1", "E1M1")
    grid = e1m1_grid()
    heights = map_heights(rooms)
    start = next(p for p in rooms.things if p.type == 1)
    goals = _reachable_goals(grid, (start.x, start.y), heights, 20, seed=3)
    game = _walker(vzd)
    reached, total, tics = 0, 0, []
    try:
        for goal in goals:
            game.new_episode()
            for point in grid.plan((start.x, start.y), goal, heights):
                total += 1
                took = _walk_to(game, vzd, point)
                if took is None:
                    break
                reached += 1
                tics.append(took)
    finally:
        game.close()
    assert reached == total, f"{reached} of {total} waypoints reached"
    assert total >= 20 and sorted(tics)[len(tics) // 2] < 120


def test_a_lift_lowered_then_risen_takes_a_route_upstairs():
    rooms = doom_rooms("freedoom1", "E1M1")
    grid = e1m1_grid()
    start = next(p for p in rooms.things if p.type == 1)
    here = (start.x, start.y)
    shut = doors_open(rooms, map_heights(rooms), keys=())
    [high_lift] = [a for a in rooms.areas if a.kind == "lift"
                   and grid.plan(here, a.anchor, shut) is None]
    assert grid.plan(here, high_lift.anchor, lifts_down(rooms, shut)) is not None
    # On top (the lift at its map height again) the rooms beyond are reached, which
    # nothing reaches from the start without riding it.
    upstairs = [a for a in rooms.areas if grid.plan(here, a.anchor, shut) is None
                and grid.plan(high_lift.anchor, a.anchor, shut) is not None
                and a is not high_lift]
    assert upstairs
