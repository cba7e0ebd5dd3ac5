"""Doom mission files: loading by id and alias, their errors in one line, and `harness
check` holding a mission against its map. Without ViZDoom (the `doom` extra) the engine
tests are skipped with the reason; the id and error tests run everywhere.
"""

from __future__ import annotations

import json

import pytest

from harness.core.level_refs import UsageError, resolve
from tests.doom_support import needs_engine
from world.face import mission_files


def test_every_mission_file_loads_with_its_id() -> None:
    names = {p.stem for p in mission_files()}
    assert {"t01_e1m1_exit", "t04_defend_the_center", "t05_health_gathering",
            "t06_e1m2_secrets", "t16_map01_clear", "t17_my_way_home"} <= names


@needs_engine
def test_unknown_mission_is_named_with_the_known_ones() -> None:
    with pytest.raises(UsageError) as err:
        resolve("doom:no_such_task")
    assert "no Doom mission 'doom:no_such_task'" in str(err.value)
    assert "doom:t17_my_way_home" in str(err.value)


@needs_engine
def test_alias_names_the_same_mission() -> None:
    assert resolve("doom:my_way_home").level.id == "doom:t17_my_way_home"


def test_bad_mission_file_is_named_with_its_field(tmp_path, monkeypatch) -> None:
    from world.doom import mission

    good = json.loads((mission.TASKS_DIR / "t01_e1m1_exit.json").read_text())
    cases = {
        "skill": ({"difficulties": [{"id": "normal", "skill": 9}]},
                  "$.difficulties[0].skill: 9 is greater than the maximum of 5"),
        "engine": ({"engine": {}}, "$.engine: {} is not allowed: A ViZDoom scenario by name, "
                   "or an IWAD shipped with ViZDoom and one of its maps."),
        "verifier": ({"objectives": [{**good["objectives"][0], "verifier": {"type": "frags"}}]},
                     "$.objectives[0].verifier.type: 'frags' is not one of ['level_exit', "),
        "kind": ({"objectives": [{**good["objectives"][0], "kind": "escape"}]},
                 "$.objectives[0].kind: unknown objective kind 'escape'; allowed: reach_area, "),
        "survive": ({"objectives": [{**good["objectives"][0], "verifier": {
            "type": "survive", "seconds": 900}}]},
            "$.objectives[0].verifier.seconds: 900 s to survive is more than "
            "budgets.max_game_seconds"),
    }
    monkeypatch.setattr(mission, "TASKS_DIR", tmp_path)
    for name, (change, _) in cases.items():
        (tmp_path / f"{name}.json").write_text(json.dumps({**good, **change}))
    for name, (_, message) in cases.items():
        with pytest.raises(mission.LevelError) as err:
            mission._parse(tmp_path / f"{name}.json")
        assert str(err.value).startswith(f"{tmp_path / name}.json: {message}"), name


def test_export_of_a_doom_mission_is_refused_in_one_line(capsys) -> None:
    from harness.cli import main

    assert main(["export", "doom:t17_my_way_home"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Doom mission has no 3D model" in err


@needs_engine
def test_check_reads_a_doom_mission_with_its_map(capsys) -> None:
    from harness.cli import main

    assert main(["check", "doom:t01_e1m1_exit", "world/doom/tasks/t17_my_way_home.json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "doom:t01_e1m1_exit: ok: E1M1 of freedoom1.wad: 66 areas, 15 doors, 1 exit, "
        "4 secrets, 46 monsters and 102 objects at the hardest skill",
        "doom:t17_my_way_home: ok: MAP01 of my_way_home.wad: 18 areas, 0 doors, 0 exits, "
        "0 secrets, 0 monsters and 1 object at the hardest skill"]


def _mission_dir(tmp_path, monkeypatch, missions: dict[str, dict]) -> None:
    from world.doom import mission

    good = json.loads((mission.TASKS_DIR / "t01_e1m1_exit.json").read_text())
    monkeypatch.setattr(mission, "TASKS_DIR", tmp_path)
    for name, change in missions.items():
        (tmp_path / f"{name}.json").write_text(json.dumps({**good, "aliases": [], **change}))


@needs_engine
def test_check_holds_a_doom_mission_against_its_map(tmp_path, monkeypatch, capsys) -> None:
    from harness.cli import main

    def objective(verifier, targets=()):
        return {"objectives": [{"id": "x", "kind": "find_secrets", "text": "x",
                                "verifier": verifier, "targets": list(targets)}]}

    _mission_dir(tmp_path, monkeypatch, {
        "map": {"engine": {"iwad": "freedoom1", "map": "E9M1"}},
        "scenario": {"engine": {"scenario": "no_such_scenario"}},
        "secrets": objective({"type": "secrets", "at_least": 9}),
        "kills": objective({"type": "kills", "at_least": 500}),
        "target": objective({"type": "level_exit"}, ["blue skull key"]),
    })
    refs = ["doom:map", "doom:scenario", "doom:secrets", "doom:kills", "doom:target"]
    assert main(["check", *refs]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 5
    assert lines[0].startswith(f"{tmp_path / 'map.json'}: $.engine.map: no map 'E9M1' in "
                               "freedoom1.wad (maps: E1M1, E1M2, ")
    assert lines[1].startswith(f"{tmp_path / 'scenario.json'}: $.engine: no scenario "
                               "'no_such_scenario' in ViZDoom (there are: basic, ")
    assert lines[2] == (f"{tmp_path / 'secrets.json'}: $.objectives[0].verifier.at_least: "
                        "9 secrets asked for, E1M1 has 4")
    assert lines[3] == (f"{tmp_path / 'kills.json'}: $.objectives[0].verifier.at_least: "
                        "500 kills asked for, E1M1 has 17 monsters at skill 2")
    assert lines[4].startswith(f"{tmp_path / 'target.json'}: $.objectives[0].targets[0]: "
                               "'blue skull key' is nothing the map has at skill 2 (it has: ")


def test_check_without_the_engine_says_so_in_one_line(tmp_path, monkeypatch, capsys) -> None:
    from harness.cli import main
    from world.doom import files

    def missing():
        raise files.DoomUnavailableError(files.EXTRA_HINT)

    monkeypatch.setattr(files, "vizdoom_dir", missing)
    assert main(["check", "doom:t01_e1m1_exit"]) == 1
    out = capsys.readouterr().out
    assert out.endswith("t01_e1m1_exit.json: $.engine: the Doom world needs ViZDoom: "
                        "pip install 'mission-harness[doom]'\n")
    assert out.count("\n") == 1


@needs_engine
def test_the_mission_schema_knows_every_verifier_and_no_other() -> None:
    from world.doom.mission import SCHEMA
    from world.doom.verdict import VERIFIERS

    schema = json.loads(SCHEMA.read_text())
    declared = schema["$defs"]["verifier"]["properties"]["type"]["enum"]
    assert sorted(declared) == sorted(VERIFIERS)
    argued = [b["if"]["properties"]["type"]["const"] for b in schema["$defs"]["verifier"]["allOf"]]
    assert sorted(argued) == sorted(VERIFIERS)
