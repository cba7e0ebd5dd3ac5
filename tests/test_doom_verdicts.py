"""Doom missions played end to end: the reference agent, verdicts against the engine's own
counters, and records that replay (and refuse other WADs). Long plays are marked slow.
"""

from __future__ import annotations

import pytest

from harness.core.level_refs import resolve
from harness.episode import runner
from harness.episode.replay import replay
from tests.doom_support import needs_engine, played_and_replayed
from world.face import new_session
from world.objectives.score import PARTIAL_SHARE


@needs_engine
@pytest.mark.slow
def test_t17_reference_agent_takes_the_vest_and_the_record_replays(tmp_path) -> None:
    summary, snap, session = played_and_replayed(tmp_path, "doom:t17_my_way_home", 3)
    # The map's own script ends the level when the vest is taken: alive, before the cap.
    assert summary["success"] is (snap.finished and not snap.dead)
    assert summary["success"]
    session.close()


@needs_engine
@pytest.mark.slow
def test_t05_verdict_matches_the_engine_clock_and_health(tmp_path) -> None:
    summary, snap, session = played_and_replayed(tmp_path, "doom:t05_health_gathering", 1)
    lived = (snap.tic - session.start_tic) >= 60 * 35 and not snap.dead
    assert summary["objectives"][0]["status"] == ("done" if lived else "failed")
    assert summary["success"] is (lived and summary["objectives"][1]["status"] == "done")
    session.close()


@needs_engine
@pytest.mark.slow
def test_t04_verdict_matches_the_engine(tmp_path) -> None:
    summary, snap, session = played_and_replayed(tmp_path, "doom:t04_defend_the_center", 1)
    lived = (snap.tic - session.start_tic) >= 60 * 35 and not snap.dead
    assert summary["success"] is lived
    assert summary["success"]  # rounds kept for the monsters that come close
    assert snap.counters["KILLCOUNT"] > 0  # the return fire and attacks hit something
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
    summary, snap, session = played_and_replayed(tmp_path, "doom:t16_map01_clear", 0)
    clear, health = summary["objectives"]
    cleared = snap.counters["KILLCOUNT"] >= session.facts.monsters_at_start
    assert (clear["status"] == "done") is cleared
    # The health floor is judged every tic and ends the mission the tic it breaks; a death
    # breaks it too (the engine's health counter may still hold the last value then).
    assert (health["status"] == "failed") is (snap.counters["HEALTH"] < 50 or snap.dead)
    assert summary["success"] is (cleared and health["status"] != "failed")
    assert snap.counters["KILLCOUNT"] > 0
    session.close()


@needs_engine
@pytest.mark.slow
@pytest.mark.timeout(1500)  # an episode and its replay on E1M1 take minutes on a busy machine
def test_t01_verdict_matches_the_level_exit(tmp_path) -> None:
    summary, snap, session = played_and_replayed(tmp_path, "doom:t01_e1m1_exit", 0)
    left = snap.finished and not snap.dead and snap.tic < session.facts.timeout_tic
    assert summary["success"] is left
    assert (summary["failure"] == "the player died") is snap.dead
    session.close()


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
