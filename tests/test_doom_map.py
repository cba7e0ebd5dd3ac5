"""The Doom map reader: WAD files, sector polygons, rooms, routes and sight.

The maps are the ones ViZDoom ships (Freedoom's E1M1, E1M2 and MAP01 and the scenario
WADs); without ViZDoom installed every test here is skipped with the reason.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import struct
from functools import cache
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import shapely

from harness.pages.endstate import EndState
from harness.pages.map_svg import build_maps
from tests.shared import ROOT
from world.doom.files import DoomUnavailableError, iwad, scenario
from world.doom.maps import load_navgrid, load_rooms
from world.doom.mapview import record_map
from world.doom.navgrid import NavGrid, doors_open, lifts_down, map_heights
from world.doom.polygons import line_segments, sector_of_sides, sector_polygons
from world.doom.rooms import DoomRooms, build_rooms
from world.doom.sight import EYE, Sight
from world.doom.specials import line_special
from world.doom.udmf import parse_udmf, read_tokens
from world.doom.wad import MapData, WadError, load_map, map_names

try:
    iwad("freedoom1")
except DoomUnavailableError as exc:
    pytest.skip(f"the Doom map tests read ViZDoom's WADs: {exc}", allow_module_level=True)

# (file, map) -> (sectors, lines, things) as the WADs of ViZDoom 1.3.2 hold them.
MAPS = {
    ("freedoom1", "E1M1"): (182, 1175, 292),
    ("freedoom1", "E1M2"): (380, 2290, 356),
    ("freedoom2", "MAP01"): (211, 1274, 200),
    ("my_way_home", "MAP01"): (18, 94, 19),
    ("defend_the_center", "MAP01"): (1, 18, 1),
    ("health_gathering_supreme", "MAP01"): (1, 117, 13),
}


def wad_path(name: str) -> Path:
    return iwad(name) if name.startswith("freedoom") else scenario(name)


@cache
def doom_map(name: str, map_name: str) -> MapData:
    return load_map(wad_path(name), map_name)


@pytest.mark.parametrize(("wad", "map_name"), sorted(MAPS))
def test_maps_parse_with_their_counts(wad, map_name):
    found = doom_map(wad, map_name)
    assert (len(found.sectors), len(found.lines), len(found.things)) == MAPS[wad, map_name]
    assert found.format == ("doom" if wad.startswith("freedoom") else "udmf")
    assert all(0 <= side.sector < len(found.sectors) for side in found.sides)


@pytest.mark.parametrize(("wad", "map_name"), sorted(MAPS))
def test_every_sector_is_a_valid_polygon(wad, map_name):
    polygons = sector_polygons(doom_map(wad, map_name))
    assert all(p is not None and p.is_valid and p.area > 0 for p in polygons)


def test_map_names_list_the_episodes_in_order():
    names = map_names(iwad("freedoom1"))
    assert names[:3] == ["E1M1", "E1M2", "E1M3"]
    assert map_names(scenario("my_way_home")) == ["MAP01"]


def test_udmf_things_keep_their_skills_and_types():
    start = [t for t in doom_map("my_way_home", "MAP01").things if t.type == 1]
    assert len(start) == 1 and start[0].skills == frozenset(range(1, 6))
    assert (start[0].x, start[0].y) == (240.0, -176.0)


def _copy(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "broken.wad"
    path.write_bytes(data)
    return path


def test_a_file_that_is_no_wad_is_named(tmp_path):
    path = _copy(tmp_path, b"PK\x03\x04 not a wad at all")
    with pytest.raises(WadError, match=r"broken\.wad: header: not a WAD file"):
        map_names(path)


def test_a_directory_past_the_end_is_named(tmp_path):
    path = _copy(tmp_path, b"PWAD" + struct.pack("<ii", 50, 12))
    with pytest.raises(WadError, match=r"broken\.wad: directory: 50 entries"):
        load_map(path, "MAP01")


def test_a_truncated_lump_is_named(tmp_path):
    data = bytearray(wad_path("freedoom1").read_bytes())
    count, offset = struct.unpack_from("<ii", data, 4)
    for i in range(count):
        _, size, raw = struct.unpack_from("<ii8s", data, offset + 16 * i)
        if raw.rstrip(b"\0") == b"LINEDEFS":
            struct.pack_into("<i", data, offset + 16 * i + 4, size - 3)
            break
    with pytest.raises(WadError, match=r"E1M1 lump LINEDEFS: .* not a whole number of "
                                       r"14-byte records"):
        load_map(_copy(tmp_path, bytes(data)), "E1M1")


def _wad(lumps: list[tuple[bytes, bytes]]) -> bytes:
    """A PWAD holding these lumps in order."""
    body, table, pos = b"", b"", 12
    for name, data in lumps:
        table += struct.pack("<ii8s", pos, len(data), name)
        body += data
        pos += len(data)
    return b"PWAD" + struct.pack("<ii", len(lumps), pos) + body + table


_SQUARE = b"".join(struct.pack("<hh", x, y) for x, y in ((0, 0), (256, 0), (256, 256),
                                                          (0, 256)))
_SIDES = struct.pack("<hh8s8s8sH", 0, 0, b"-", b"-", b"STARTAN3", 0) * 4
_SECTOR = struct.pack("<hh8s8shhh", 0, 128, b"FLOOR4_8", b"CEIL3_5", 160, 9, 0)


def test_a_hexen_map_keeps_its_activation_arguments_and_thing_ids(tmp_path):
    use_repeat = (1 << 10) | 0x0200 | 0x0001
    lines = b"".join(struct.pack("<HHHB5BHH", i, (i + 1) % 4, use_repeat if i == 0 else 1,
                                 12 if i == 0 else 0, 0, 16, 150, 0, 0, i, 0xFFFF)
                     for i in range(4))
    things = struct.pack("<hhhhhhhB5B", 7, 128, 128, 0, 90, 1, 0x107 | 0x100, 0,
                         0, 0, 0, 0, 0)
    path = _copy(tmp_path, _wad([(b"MAP01", b""), (b"THINGS", things), (b"LINEDEFS", lines),
                                 (b"SIDEDEFS", _SIDES), (b"VERTEXES", _SQUARE),
                                 (b"SECTORS", _SECTOR), (b"BEHAVIOR", b"ACS\0")]))
    found = load_map(path, "MAP01")
    assert found.format == "hexen" and len(found.lines) == 4
    door = found.lines[0]
    assert (door.special, door.activation, door.repeat, door.args) == (12, "use", True,
                                                                        (0, 16, 150, 0, 0))
    special = line_special(found, door)
    assert special is not None and (special.kind, special.trigger, special.repeat,
                                    special.tag) == ("door", "use", True, 0)
    [start] = found.things
    assert (start.tid, start.type, start.angle, start.single) == (7, 1, 90, True)
    assert start.skills == frozenset(range(1, 6))
    assert found.sectors[0].secret  # special 9
    [shape] = sector_polygons(found)
    assert shape.area == 256 * 256


def test_an_index_out_of_range_is_named(tmp_path):
    lines = b"".join(struct.pack("<HHHHHHH", i, (i + 1) % 4 if i < 3 else 9, 1, 0, 0, i,
                                 0xFFFF) for i in range(4))
    things = struct.pack("<hhhhh", 128, 128, 0, 1, 7)
    path = _copy(tmp_path, _wad([(b"E1M1", b""), (b"THINGS", things), (b"LINEDEFS", lines),
                                 (b"SIDEDEFS", _SIDES), (b"VERTEXES", _SQUARE),
                                 (b"SECTORS", _SECTOR)]))
    with pytest.raises(WadError, match=r"E1M1 lump LINEDEFS: linedef 3: v2 9 is out of "
                                       r"range \(0-3\)"):
        load_map(path, "E1M1")


def test_a_broken_textmap_is_named_with_its_line(tmp_path):
    text = b'namespace = "zdoom";\nvertex { x = 1.0; y = ; }\n'
    path = _copy(tmp_path, _wad([(b"MAP01", b""), (b"TEXTMAP", text), (b"ENDMAP", b"")]))
    with pytest.raises(WadError, match=r"MAP01 lump TEXTMAP: line 2: key y has no value"):
        load_map(path, "MAP01")


def test_a_missing_map_lists_the_maps_there():
    with pytest.raises(WadError, match=r"map E9M9: not in this file \(maps: MAP01\)"):
        load_map(scenario("my_way_home"), "E9M9")


def doom_rooms(name: str, map_name: str) -> DoomRooms:
    return load_rooms(wad_path(name), map_name)


def test_e1m1_has_rooms_doors_and_its_exit_switch():
    rooms = doom_rooms("freedoom1", "E1M1")
    assert 20 <= len(rooms.areas) <= 120
    names = [a.name for a in rooms.areas]
    assert len(set(names)) == len(names) and names[0] == "room 1"
    # Every sector is a room's or a doorway's, and the rooms do not overlap.
    assert sorted(s for a in rooms.areas for s in a.sectors) == [
        s for s, a in enumerate(rooms.sector_area) if a >= 0]
    [exit_line] = rooms.exits
    assert not exit_line.secret and exit_line.trigger == "use"
    assert rooms.map.lines[exit_line.line].special == 11  # S1 exit: the exit switch
    assert rooms.area_at(*exit_line.at) is rooms.areas[exit_line.area]
    assert rooms.area_at(*exit_line.reach) is rooms.areas[exit_line.area]
    assert all(rooms.area_at(*a.anchor) is a for a in rooms.areas)
    assert any(s.line == exit_line.line and s.kind == "exit" for s in rooms.switches)
    assert len(rooms.doors) >= 10 and any(d.key == "blue" for d in rooms.doors)
    assert all(len(d.areas) >= 1 for d in rooms.doors)
    assert {w.kind for w in rooms.ways} >= {"open", "door", "lift"}
    assert len(rooms.secrets) >= 1
    assert any(a.secret for a in rooms.areas)


def test_the_start_and_the_things_stand_in_rooms():
    rooms = doom_rooms("freedoom1", "E1M1")
    start = next(p for p in rooms.things if p.type == 1)
    assert start.kind == "player_start" and start.area >= 0
    assert rooms.area_at(start.x, start.y).index == start.area
    kinds = {p.kind for p in rooms.things}
    assert {"monster", "medkit", "ammo", "armour", "weapon", "key"} <= kinds
    assert sum(p.area >= 0 for p in rooms.things) >= 0.95 * len(rooms.things)
    assert rooms.area_at(-100000.0, -100000.0) is None


def test_my_way_home_is_rooms_and_corridors_with_the_vest_in_one():
    rooms = doom_rooms("my_way_home", "MAP01")
    assert len(rooms.areas) == 18 and all(w.kind == "open" for w in rooms.ways)
    vest = [p for p in rooms.things if p.kind == "armour"]
    assert len(vest) == 1 and vest[0].name == "green armour" and vest[0].area >= 0


def test_freedoom2_map01_finds_its_teleports():
    rooms = doom_rooms("freedoom2", "MAP01")
    teleports = [w for w in rooms.ways if w.kind == "teleport"]
    assert teleports and all(a >= 0 and b >= 0 for a, b in (w.areas for w in teleports))
    assert len(rooms.exits) == 1


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


class _Numbers:
    """Episode ids numbered in order, as a session's numbering would give them."""

    def of(self, group: str, index: int) -> str:
        return f"{group[0]}{index + 1}"


def test_the_record_map_of_e1m1_meets_the_schema_and_draws():
    rooms = doom_rooms("freedoom1", "E1M1")
    plan = record_map(rooms, _Numbers(), skill=3, objectives=[("exit", "Press the exit switch")])
    schema = json.loads((ROOT / "schemas" / "record" / "map.schema.json").read_text())
    jsonschema.validate(plan, schema)
    assert {a["id"] for a in plan["areas"]} == {f"a{i + 1}" for i in range(len(rooms.areas))}
    [exit_room] = {a["id"] for a in plan["areas"] if a["exit"]}
    assert exit_room == f"a{rooms.exits[0].area + 1}"
    doors = [e for e in plan["exits"] if e["kind"] == "door"]
    assert doors and {e["door"] for e in doors} <= {"closed", "open", "locked"}
    assert any(e["door"] == "locked" for e in doors)  # the blue doors
    monsters = [c for c in plan["characters"]]
    assert monsters and all(c["side"] == "hostile" for c in monsters)
    assert plan["hazards"], "E1M1's nukage is drawn as damaging floor"
    assert plan["ids"][exit_room] == rooms.areas[rooms.exits[0].area].name
    [drawn] = build_maps(plan, EndState(), [], [])
    assert len(drawn.areas) == len(plan["areas"]) and len(drawn.exits) == len(plan["exits"])


def test_skill_decides_which_things_the_map_shows():
    rooms = doom_rooms("freedoom1", "E1M1")
    easy = record_map(rooms, _Numbers(), skill=1)
    hard = record_map(rooms, _Numbers(), skill=5)
    assert len(easy["characters"]) < len(hard["characters"])


@pytest.mark.parametrize(("wad", "map_name"), [("freedoom1", "E1M1"), ("my_way_home", "MAP01")])
def test_the_engine_numbers_sectors_as_the_wad_does(wad, map_name):
    """Live heights are asked by the WAD's sector index: the engine's must be the same."""
    vzd = pytest.importorskip("vizdoom")
    game = vzd.DoomGame()
    if wad.startswith("freedoom"):
        game.set_doom_game_path(str(iwad(wad)))
    else:
        game.set_doom_game_path(str(iwad("freedoom2")))
        game.set_doom_scenario_path(str(scenario(wad)))
    game.set_doom_map(map_name)
    game.set_window_visible(False)
    game.set_sectors_info_enabled(True)
    game.set_screen_resolution(vzd.ScreenResolution.RES_160X120)
    game.init()
    try:
        game.new_episode()
        engine = game.get_state().sectors
    finally:
        game.close()
    found = doom_map(wad, map_name)
    segs = line_segments(found)
    front, back = sector_of_sides(found)

    def ends(x1, y1, x2, y2):
        return tuple(sorted([(round(x1), round(y1)), (round(x2), round(y2))]))

    assert len(engine) == len(found.sectors)
    for index, sector in enumerate(engine):
        mine = found.sectors[index]
        assert (sector.floor_height, sector.ceiling_height) == (mine.floor, mine.ceiling)
        theirs = {ends(ln.x1, ln.y1, ln.x2, ln.y2) for ln in sector.lines}
        assert theirs == {ends(*seg) for seg, a, b in zip(segs.tolist(), front, back,
                                                           strict=True) if index in (a, b)}


@pytest.mark.parametrize("name", ["my_way_home", "defend_the_center", "health_gathering_supreme",
                                  "deathmatch", "cig"])
def test_the_quick_textmap_reader_agrees_with_the_careful_one(name):
    path = scenario(name)
    data = path.read_bytes()
    count, offset = struct.unpack_from("<ii", data, 4)
    for i in range(count):
        pos, size, raw = struct.unpack_from("<ii8s", data, offset + 16 * i)
        if raw.rstrip(b"\0") == b"TEXTMAP":
            text = data[pos:pos + size].decode("latin-1")
            assert parse_udmf(text) == read_tokens(text)
            assert len(parse_udmf(text)) > 10


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


@pytest.mark.slow
@pytest.mark.parametrize("wad", ["freedoom1", "freedoom2"])
def test_every_freedoom_map_reads_into_valid_sectors_and_rooms(wad):
    names = map_names(iwad(wad))
    assert len(names) == {"freedoom1": 36, "freedoom2": 32}[wad]
    for name in names:
        rooms = build_rooms(load_map(iwad(wad), name))  # not cached: 68 maps in memory
        assert all(p is not None and p.is_valid and p.area > 0
                   for p in rooms.sector_shapes), name
        start = next(p for p in rooms.things if p.type == 1)
        assert start.area >= 0 and rooms.areas, name


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
