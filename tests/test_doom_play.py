"""Doom missions played end to end: the reference agent, verdicts against the engine's own
counters, and records that replay. Without ViZDoom (the `doom` extra) the engine tests
are skipped with the reason; the id and error tests run everywhere.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

from harness import runner
from harness.level_refs import UsageError, resolve
from harness.replay import replay
from tests.shared import ROOT
from world.face import mission_files, new_session
from world.objectives.score import PARTIAL_SHARE

HAVE_VIZDOOM = importlib.util.find_spec("vizdoom") is not None
needs_engine = pytest.mark.skipif(not HAVE_VIZDOOM, reason="ViZDoom (the `doom` extra) is "
                                  "not installed: pip install 'mission-harness[doom]'")
AGENT = f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}"


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


@needs_engine
def test_unknown_way_out_is_refused_with_the_known_ones() -> None:
    level = resolve("doom:t17_my_way_home").level
    session = new_session(level, "normal", 0)
    try:
        ways = [w["id"] for w in session.view()["area"]["ways_out"]]
        with pytest.raises(Exception) as err:
            session.act("go_to_area", {"exit_id": "w999"})
        assert "w999" in str(err.value)
        assert all(w in str(err.value) for w in ways)
    finally:
        session.close()


@needs_engine
def test_actions_without_doom_meaning_are_refused() -> None:
    level = resolve("doom:t17_my_way_home").level
    session = new_session(level, "normal", 0)
    try:
        for action, args in (("use_item_on", {"item_id": "i2", "target_id": "o1"}),
                             ("shoot_object", {"target_id": "o1"})):
            result = session.act(action, args)
            assert result["end_reason"] == "refused", action
            assert result["ticks"] == 0
    finally:
        session.close()


def _played_and_replayed(tmp_path, ref: str, seed: int):
    summary = runner.run(ref, AGENT, seed=seed, out_dir=tmp_path)
    captured = []

    def factory(level, difficulty, episode_seed):
        captured.append(new_session(level, difficulty, episode_seed))
        return captured[-1]

    report = replay(summary["record"], game_factory=factory)
    assert report.verified, report.divergence
    return summary, captured[-1].engine.snap, captured[-1]


@needs_engine
@pytest.mark.slow
def test_t17_reference_agent_takes_the_vest_and_the_record_replays(tmp_path) -> None:
    summary, snap, session = _played_and_replayed(tmp_path, "doom:t17_my_way_home", 3)
    # The map's own script ends the level when the vest is taken: alive, before the cap.
    assert summary["success"] is (snap.finished and not snap.dead)
    assert summary["success"]
    session.close()


@needs_engine
@pytest.mark.slow
def test_t05_verdict_matches_the_engine_clock_and_health(tmp_path) -> None:
    summary, snap, session = _played_and_replayed(tmp_path, "doom:t05_health_gathering", 1)
    lived = (snap.tic - session.start_tic) >= 60 * 35 and not snap.dead
    assert summary["objectives"][0]["status"] == ("done" if lived else "failed")
    assert summary["success"] is (lived and summary["objectives"][1]["status"] == "done")
    session.close()


@needs_engine
@pytest.mark.slow
def test_t04_verdict_matches_the_engine(tmp_path) -> None:
    summary, snap, session = _played_and_replayed(tmp_path, "doom:t04_defend_the_center", 1)
    lived = (snap.tic - session.start_tic) >= 60 * 35 and not snap.dead
    assert summary["success"] is lived
    assert summary["success"]  # rounds kept for the monsters that come close
    assert snap.counters["KILLCOUNT"] > 0  # the return fire and attacks hit something
    session.close()


@needs_engine
def test_return_fire_shoots_back_during_a_walk() -> None:
    level = resolve("doom:t04_defend_the_center").level
    session = new_session(level, "normal", 0)
    try:
        x, _, z = session.view()["player"]["position"]
        for turn in range(40):
            before = session.engine.snap.counters["KILLCOUNT"]
            result = session.act("go_to", {"x": x + (60 if turn % 2 else -60), "z": z})
            assert result["end_reason"] != "dead"
            if session.engine.snap.counters["KILLCOUNT"] > before and result["distance_moved"]:
                break
        else:
            pytest.fail("no monster went down during a walk in 40 walks")
        assert result["action"] == "go_to"
    finally:
        session.close()


@needs_engine
def test_biting_monsters_are_let_come_close_while_rounds_are_few() -> None:
    from world.doom.engine import Snapshot, Thing
    from world.doom.returnfire import FEW_ROUNDS, MELEE_FIRE, worth_a_shot

    def snap(weapon: int, rounds: int) -> Snapshot:
        counters = {"POSITION_X": 0.0, "POSITION_Y": 0.0, "SELECTED_WEAPON": float(weapon),
                    "SELECTED_WEAPON_AMMO": float(rounds)}
        return Snapshot(0, False, counters, (), (), ())

    def monster(name: str, distance: float) -> Thing:
        return Thing(1, name, "Monster", distance, 0.0, 0.0, 0.0)

    few, many = snap(2, FEW_ROUNDS), snap(2, FEW_ROUNDS + 1)
    assert not worth_a_shot(few, monster("Demon", MELEE_FIRE + 1))
    assert worth_a_shot(few, monster("Demon", MELEE_FIRE))
    assert worth_a_shot(few, monster("DoomImp", 1000))  # it throws fire from afar
    assert worth_a_shot(many, monster("Demon", 1000))
    assert not worth_a_shot(snap(2, 0), monster("DoomImp", 50))  # nothing to fire
    assert not worth_a_shot(snap(1, 0), monster("Demon", 200))  # a fist reaches 96
    assert worth_a_shot(snap(1, 0), monster("Demon", 60))


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


@needs_engine
def test_verifiers_read_the_counters_and_the_end_rules_decide() -> None:
    from world.doom.engine import VARIABLES, Snapshot
    from world.doom.verdict import Facts, Judge

    level = resolve("doom:t16_map01_clear").level

    def snap(tic: int, health: float, kills: float, dead: bool = False) -> Snapshot:
        counters = {name: 0.0 for name in VARIABLES}
        counters.update(HEALTH=health, KILLCOUNT=kills, DEAD=float(dead))
        return Snapshot(tic, dead, counters, (), (), ())

    judge = Judge(level, "hard", Facts(0, 10_000, monsters_at_start=4, pickups={}))
    judge.update(snap(100, 80, 2), 86)
    assert judge.ending is None and judge.items[0].progress == 0.5
    judge.update(snap(200, 60, 4), 171)
    # Every monster down with health held: the standing condition is done with it.
    assert judge.success and [i.status for i in judge.items] == ["done", "done"]
    assert judge.score() == 1.0

    broken = Judge(level, "hard", Facts(0, 10_000, monsters_at_start=4, pickups={}))
    broken.update(snap(100, 40, 3), 86)
    assert broken.ending == "objective_failed"
    assert broken.failure().startswith("objective 2 failed")
    assert 0 < broken.score() < 0.3  # partial credit for the kills, never a success's


def test_export_of_a_doom_mission_is_refused_in_one_line(capsys) -> None:
    from harness.cli import main

    assert main(["export", "doom:t17_my_way_home"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Doom mission has no 3D model" in err


@needs_engine
def test_replay_refuses_a_record_played_on_another_wad(tmp_path, monkeypatch) -> None:
    from tests.shared import TEST_AGENTS, python_agent
    from world.doom import files

    summary = runner.run("doom:t17_my_way_home", python_agent(TEST_AGENTS / "crash_agent.py"),
                         seed=0, out_dir=tmp_path / "runs")
    assert replay(summary["record"]).verified
    # The same mission file over a scenario WAD one byte different.
    other = tmp_path / "vizdoom"
    (other / "scenarios").mkdir(parents=True)
    real = files.vizdoom_dir()
    wad = bytearray((real / "scenarios" / "my_way_home.wad").read_bytes())
    wad[-1] ^= 0xFF
    (other / "scenarios" / "my_way_home.wad").write_bytes(bytes(wad))
    (other / "scenarios" / "my_way_home.cfg").write_bytes(
        (real / "scenarios" / "my_way_home.cfg").read_bytes())
    (other / "freedoom2.wad").symlink_to(real / "freedoom2.wad")
    monkeypatch.setattr(files, "vizdoom_dir", lambda: other)
    report = replay(summary["record"])
    assert not report.verified and report.turns == 0
    assert report.divergence.startswith("the mission file or the files it plays "
                                        "(my_way_home.wad, my_way_home.cfg, freedoom2.wad) "
                                        "changed since the run (hash ")


def _words_only(names: list[str]) -> None:
    # The benchmark's words: lower case, never the engine's class names ("DoomImp").
    assert names and all(n == n.lower() for n in names), names


@needs_engine
def test_the_record_map_is_the_map_sides_and_the_page_draws_it(tmp_path) -> None:
    import jsonschema

    from harness.cli import main
    from harness.record import read_record
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
def test_every_way_leads_to_a_point_inside_its_area() -> None:
    from world.doom.layout import Layout
    for ref in ("doom:t16_map01_clear", "doom:t01_e1m1_exit"):
        layout = Layout(resolve(ref).level)
        pairs = [(w, a) for w in layout.ways for a in w.areas[:2]]
        inside = [layout.area_at(*layout.inside(w, a)) == a for w, a in pairs]
        # A few ways join areas the map draws overlapping; every door leads in but one.
        assert sum(inside) >= 0.97 * len(pairs), (ref, sum(inside), len(pairs))
    map01 = Layout(resolve("doom:t16_map01_clear").level)
    door = next(w for w in map01.ways if w.kind == "door" and w.areas == (5, 43))
    assert map01.area_at(*map01.inside(door, 43)) == 43  # a deep door off its normal


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


def _counters(**values: float) -> dict[str, float]:
    from world.doom.engine import VARIABLES

    return {**{name: 0.0 for name in VARIABLES}, "HEALTH": 100.0, **values}


@needs_engine
def test_t06_secrets_then_exit_is_judged_from_the_counters() -> None:
    from world.doom.engine import Snapshot
    from world.doom.verdict import Facts, Judge

    level = resolve("doom:freedoom1/E1M2").level
    assert level.id == "doom:t06_e1m2_secrets" and level.map == "E1M2"
    assert [o.verifier for o in level.objectives] == [{"type": "secrets", "at_least": 2},
                                                       {"type": "level_exit"}]

    def judged(*moments: tuple[int, bool, float]) -> Judge:
        judge = Judge(level, "easy", Facts(0, 10_000, monsters_at_start=59, pickups={}))
        for tic, finished, secrets in moments:
            judge.update(Snapshot(tic, finished, _counters(SECRETCOUNT=secrets), (), (), ()),
                         tic)
        return judge

    one = judged((100, False, 1))
    assert one.ending is None and one.items[0].progress == 0.5
    assert one.score() == round(PARTIAL_SHARE * 0.5 / 2, 6)
    both = judged((100, False, 1), (200, False, 2), (300, True, 2))
    assert both.success and [i.status for i in both.items] == ["done", "done"]
    # The exit with one secret found ends the map with work open: a failure, with the
    # credit of the exit and half the secrets.
    early = judged((100, False, 1), (300, True, 1))
    assert early.ending == "world_ended" and not early.success
    assert [i.status for i in early.items] == ["todo", "done"]
    assert early.score() == round(PARTIAL_SHARE * (0.5 + 1) / 2, 6)
    # Timed out (the engine's own cap) is no exit.
    capped = judged((100, False, 2), (10_000, True, 2))
    assert capped.items[1].status == "todo" and not capped.success


@needs_engine
@pytest.mark.slow
def test_t06_a_secret_entered_is_the_engines_count(tmp_path) -> None:
    level = resolve("doom:t06_e1m2_secrets").level
    session = new_session(level, "easy", 0)
    try:
        rooms = session.layout.rooms
        # A short play, not a solve: walk straight to the nearest secret sector (1,400
        # units and two doors away, the second a secret door), the map's rooms and
        # secret doors granted as known to skip the exploring (walks keep to them).
        inside = rooms.sector_shapes[173].representative_point()
        session.known.areas.update(range(len(rooms.areas)))
        session.known.revealed.update(d.index for d in session.doors)
        for _ in range(8):
            result = session.act("go_to", {"x": inside.x, "z": inside.y, "use_on_way": True})
            if result["end_reason"] not in ("damage", "stuck"):
                break
        counters = session.engine.snap.counters
        assert result["end_reason"] == "arrived" and counters["SECRETCOUNT"] == 1
        status = session.status()
        assert not status.ended and status.objectives[0]["status"] == "todo"
        assert session.judge.items[0].progress == counters["SECRETCOUNT"] / 2
        assert status.score == round(PARTIAL_SHARE * 0.5 / 2, 6)
    finally:
        session.close()


@needs_engine
@pytest.mark.slow
@pytest.mark.timeout(900)  # an episode and its replay on MAP01 take minutes on a busy machine
def test_t16_verdict_matches_the_kill_count_and_health(tmp_path) -> None:
    summary, snap, session = _played_and_replayed(tmp_path, "doom:t16_map01_clear", 0)
    clear, health = summary["objectives"]
    cleared = snap.counters["KILLCOUNT"] >= session.facts.monsters_at_start
    assert (clear["status"] == "done") is cleared
    # The health floor is judged every tic and ends the mission the tic it breaks.
    assert (health["status"] == "failed") is (snap.counters["HEALTH"] < 50)
    assert summary["success"] is (cleared and health["status"] != "failed")
    assert snap.counters["KILLCOUNT"] > 0
    session.close()


@needs_engine
@pytest.mark.slow
@pytest.mark.timeout(1500)  # an episode and its replay on E1M1 take minutes on a busy machine
def test_t01_verdict_matches_the_level_exit(tmp_path) -> None:
    summary, snap, session = _played_and_replayed(tmp_path, "doom:t01_e1m1_exit", 0)
    left = snap.finished and not snap.dead and snap.tic < session.facts.timeout_tic
    assert summary["success"] is left
    assert (summary["failure"] == "the player died") is snap.dead
    session.close()


@needs_engine
@pytest.mark.slow
def test_a_walk_opens_a_door_on_its_way_without_shutting_it_again() -> None:
    # Doom's doors reverse on use: a walk that pressed use every few tics against E1M1's
    # first door sent it back down before it was high enough to pass, for good.
    session = new_session(resolve("doom:t01_e1m1_exit").level, "easy", 0)
    try:
        door = session.doors[0]
        beyond = (832.0, 700.0)  # in the hall past the door, 1,000 units from the start
        assert session.layout.area_at(*beyond) == 0 and 0 in door.areas
        session.known.areas.update(range(len(session.layout.rooms.areas)))  # no exploring
        for _ in range(3):  # a monster's hit on the way stops a walk (damage): walk on
            result = session.act("go_to", {"x": beyond[0], "z": beyond[1],
                                           "use_on_way": True})
            if result["end_reason"] != "damage":
                break
        assert result["end_reason"] == "arrived", result
        assert session.door_state(door) in ("open", "closing")
        ep = session.ids.of("door", door.index)
        assert next(d for d in session.view()["doors"] if d["id"] == ep)["state"] in (
            "open", "closing")
    finally:
        session.close()


@needs_engine
@pytest.mark.slow
def test_a_walk_back_up_calls_the_lift_down_and_rides_it() -> None:
    # E1M1's first lift lowers as the player walks onto it from the start room, and
    # rises again; from below, the way back is its side, used as a switch.
    session = new_session(resolve("doom:t01_e1m1_exit").level, "easy", 0)
    try:
        rooms = session.layout.rooms
        below, start = (400.0, 300.0), session.engine.snap.xy
        lift = next(a for a in rooms.areas if a.kind == "lift" and 98 in a.sectors)
        session.known.areas.update({rooms.area_index(*below), rooms.area_index(*start),
                                    lift.index})
        down = session.act("go_to", {"x": below[0], "z": below[1], "use_on_way": True})
        assert down["end_reason"] == "arrived"
        assert session.engine.snap.counters["POSITION_Z"] < -80
        back = session.act("go_to", {"x": start[0], "z": start[1], "use_on_way": True})
        assert back["end_reason"] == "arrived", back
        snap = session.engine.snap
        assert math.dist(snap.xy, start) < 24 and snap.counters["POSITION_Z"] == 0.0
        # The path went over the platform (x 64 to 192 at y 192 to 320).
        assert any(64 <= x <= 192 and 192 <= z <= 320 for x, _, z in back["path"])
    finally:
        session.close()


@needs_engine
def test_a_ledge_above_the_player_is_no_way_out() -> None:
    # E1M1's start room borders rooms 32 and 72 units up (no stairs): walks there were
    # refused as unreachable a decision each, over and over. From the start only the
    # ways a step or less up are listed; the one into a room at the same height stays.
    session = new_session(resolve("doom:t01_e1m1_exit").level, "normal", 0)
    try:
        here = session.layout.area_at(*session.engine.snap.xy)
        floors = session.engine.snap.floors
        listed = {w["to"] for w in session.view()["area"]["ways_out"]}
        names = session.layout.names  # the map's own ("room 16"); views show ids

        def ep(name: str) -> str:
            return session.ids.of("area", names.index(name))

        for way in session.way_list:
            if here not in way.areas or way.kind != "open":
                continue
            other = way.areas[1] if way.areas[0] == here else way.areas[0]
            steps = [floors[b] - floors[a] for a, b in session._borders()[(here, other)]]
            assert (session.ids.of("area", other) in listed) is (min(steps) <= 24), steps
        assert ep("room 16") not in listed and ep("room 60") in listed
    finally:
        session.close()


@needs_engine
def test_a_fight_at_range_steps_aside_and_never_onto_bad_footing() -> None:
    from world.doom.controls import SIDESTEP_TICS, WALK, Play, _sidestep
    from world.doom.engine import Snapshot, Thing

    snap = Snapshot(0, False, {"POSITION_X": 0.0, "POSITION_Y": 0.0, "ANGLE": 0.0}, (), (), ())
    imp, demon = (Thing(1, "DoomImp", "Monster", 500.0, 0.0, 0.0, 0.0),
                  Thing(2, "Demon", "Monster", 500.0, 0.0, 0.0, 0.0))
    # Facing +x, the player's right is -y: a drop there turns the step to the left (+y).
    play = Play(lambda *a: snap, lambda: None, 100, footing=lambda p: p[1] > 0)
    play.last, play.tics = snap, 4
    assert _sidestep(play, imp) == -WALK  # strafe's negative delta is to the left
    assert _sidestep(play, demon) == 0.0  # a biter is backed away from instead
    # Both sides bad: no step at all until the next turn of the step.
    play = Play(lambda *a: snap, lambda: None, 100, footing=lambda p: False)
    play.last, play.tics = snap, 4
    assert _sidestep(play, imp) == 0.0
    # Free footing: the step turns every SIDESTEP_TICS.
    play = Play(lambda *a: snap, lambda: None, 100)
    play.last = snap
    play.tics = 1
    first = _sidestep(play, imp)
    play.tics = SIDESTEP_TICS
    assert first != 0.0 and _sidestep(play, imp) == -first
