"""What a Doom episode shows: the start's knowledge, things in the benchmark's words, and
the record's map as the map side draws it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.core.level_refs import resolve
from harness.episode import runner
from tests.doom_support import needs_engine
from world.face import new_session


@needs_engine
def test_e1m1_start_knows_only_what_the_player_saw() -> None:
    level = resolve("doom:t01_e1m1_exit").level
    session = new_session(level, "normal", 1)
    try:
        view = session.view()
        # The exit switch is rooms away: unseen, so unnamed, and naming a guess is refused.
        assert not [o for o in view["objects"] if o["kind"] == "switch"]
        assert view["objectives"][0]["located"] is False
        with pytest.raises(Exception) as err:
            session.act("go_to_object", {"object_id": "o99"})
        assert "o99" in str(err.value)
        # The zombiemen on the floor below the start are out of sight: not listed.
        below = [t for t in session.engine.snap.things if t.category == "Monster"
                 and t.z < session.engine.snap.counters["POSITION_Z"] - 64]
        assert below
        assert all(c["position"][1] >= 0 for c in view["characters"])
        # Ways out name the rooms they lead to, in episode ids.
        assert all(w["to_name"].startswith(("room", "lift")) for w in view["area"]["ways_out"])
        # The pistol Doom starts with is the weapon in hand (an agent need not equip it).
        pistol = next(c for c in view["player"]["carried"] if c["weapon"] == "pistol")
        assert view["player"]["in_hand"] == pistol["id"]
    finally:
        session.close()


def _words_only(names: list[str]) -> None:
    # The benchmark's words: lower case, never the engine's class names ("DoomImp").
    assert names and all(n == n.lower() for n in names), names


@needs_engine
def test_the_record_map_is_the_map_sides_and_the_page_draws_it(tmp_path) -> None:
    import jsonschema

    from harness.cli import main
    from harness.core.record import read_record
    from tests.shared import SCHEMAS, TEST_AGENTS, python_agent
    from world.doom.maps import load_rooms
    from world.doom.mapview import record_map

    summary = runner.run("doom:t01_e1m1_exit", python_agent(TEST_AGENTS / "crash_agent.py"),
                         seed=2, out_dir=tmp_path / "runs")
    header = read_record(summary["record"]).header
    plan = header["map"]
    jsonschema.validate(plan, json.loads((SCHEMAS / "record" / "map.schema.json").read_text()))
    level = resolve("doom:t01_e1m1_exit").level
    rooms = load_rooms(level.files()[0], "E1M1")
    plain = record_map(rooms, _Order(), level.skill(header["difficulty"]))
    # The map side's drawing, in the episode's ids: same rooms, ways and things.
    assert sorted(a["name"] for a in plan["areas"]) == sorted(a["name"] for a in plain["areas"])
    assert len(plan["exits"]) == len(plain["exits"]) and plan["hazards"] == plain["hazards"]
    assert len(plan["characters"]) == len(plain["characters"])
    # Every thing the map places is drawn, plus the switches read from its lines.
    assert len(plan["objects"]) == len(plain["objects"]) + len(rooms.switches)
    [switch] = [o for o in plan["objects"] if o["target"]]
    assert switch["name"] == "exit switch" and plan["ids"][switch["id"]] == "exit switch"
    _words_only([c["kind"] for c in plan["characters"]] + [o["name"] for o in plan["objects"]])
    # `harness page` draws it: one polygon per area part.
    run_dir = Path(summary["record"]).parent
    (run_dir / "index.html").unlink()
    assert main(["page", str(run_dir)]) == 0
    html = (run_dir / "index.html").read_text()
    assert html.count("<polygon") >= len(plan["areas"])


class _Order:
    def of(self, group: str, index: int) -> str:
        return f"{group[0]}{index + 1}"


@needs_engine
def test_views_name_things_in_the_benchmarks_words() -> None:
    from world.doom.specials import actor_type

    level = resolve("doom:t04_defend_the_center").level
    session = new_session(level, "normal", 1)
    try:
        seen = []
        for _ in range(4):
            session.act("wait", {"seconds": 1})
            seen += [c["kind"] for c in session.view()["characters"]]
        engine = {t.name for t in session.engine.snap.things if t.category == "Monster"}
        # The engine's class names, each one table row's words.
        assert set(seen) <= {actor_type(name).name for name in engine}
        assert {"MarineChainsawVzd", "Demon"} & engine
        _words_only(seen)
        _words_only([c["kind"] for c in session.plan()["characters"]])
    finally:
        session.close()


@needs_engine
def test_a_door_opened_by_a_switch_names_it_once_seen() -> None:
    from world.doom.known import Sighting
    level = resolve("doom:t16_map01_clear").level
    session = new_session(level, "hard", 0)
    try:
        switched = next(d for d in session.doors if not d.manual and d.key is None)
        ep = session.ids.of("door", switched.index)
        block = session.door_block(ep)
        assert block == {"door": ep, "state": "closed", "key": None, "key_area": None,
                         "panel": session.panel_of(switched)}
        moves = [thing for (thing, _), sectors in zip(session.switches,
                                                      session.layout.switch_moves, strict=True)
                 if switched.sector in sectors]
        assert moves, "a door no use opens has a switch that moves it"
        assert block["panel"] is None or block["panel"] == session.ids.thing(moves[0], "object")
        # Once the player has seen the switch, it is named as the door's panel.
        session.known.things[moves[0].id] = Sighting(moves[0], "object", "switch", "switch",
                                                     0, True)
        assert session.panel_of(switched) == session.ids.thing(moves[0], "object")
    finally:
        session.close()
