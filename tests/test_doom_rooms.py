"""Doom rooms read from a map: areas, doors, exits, teleports and things placed in them,
and the record's map drawn from them. Skipped with the reason without ViZDoom's WADs.
"""

from __future__ import annotations

import json

import jsonschema

from harness.pages.endstate import EndState
from harness.pages.map_svg import build_maps
from tests.doom_support import doom_rooms, require_wads
from tests.shared import ROOT
from world.doom.mapview import record_map

require_wads("the Doom map tests read ViZDoom's WADs")


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
