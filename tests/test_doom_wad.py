"""Reading Doom maps: WAD lumps, Hexen and UDMF maps, their errors named, and every
sector a valid polygon. The maps are the ones ViZDoom ships (Freedoom's E1M1, E1M2 and
MAP01 and the scenario WADs); without ViZDoom every test here is skipped with the reason.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from tests.doom_support import doom_map, require_wads, wad_path
from world.doom.files import iwad, scenario
from world.doom.polygons import line_segments, sector_of_sides, sector_polygons
from world.doom.rooms import build_rooms
from world.doom.specials import line_special
from world.doom.udmf import parse_udmf, read_tokens
from world.doom.wad import WadError, load_map, map_names

require_wads("the Doom map tests read ViZDoom's WADs")


# (file, map) -> (sectors, lines, things) as the WADs of ViZDoom 1.3.2 hold them.
MAPS = {
    ("freedoom1", "E1M1"): (182, 1175, 292),
    ("freedoom1", "E1M2"): (380, 2290, 356),
    ("freedoom2", "MAP01"): (211, 1274, 200),
    ("my_way_home", "MAP01"): (18, 94, 19),
    ("defend_the_center", "MAP01"): (1, 18, 1),
    ("health_gathering_supreme", "MAP01"): (1, 117, 13),
}


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
