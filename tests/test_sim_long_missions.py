"""Two long Season 2 missions (issue 37): salt_harbour and fever_hospital.

salt_harbour strings forty-seven rooms: two codes read near the start open the dock
gate a third of the way in and the bonded warehouse at the far end, the dockmaster's
log behind the gate reveals the real cargo manifest, and two copies (one passed before
the log is read) fail the mission. fever_hospital has two keypads that lock out at the
first wrong code, five numbers on four notes, and a memo beside the generator that adds
the serum errand. The world's rules, the checker's, the reference agent's reading of
which number is whose, and whole episodes both ways; each record replays.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from agents.reference.codes import candidates
from agents.reference.memory import Memory
from harness.episode import runner
from harness.episode.replay import replay
from harness.episode.settings import RunSettings
from tests.level_factory import short_copy
from tests.shared import SHIPPED_AGENTS, python_agent, shipped_path
from world.level.load import load_level
from world.levelcheck.checker import check_data
from world.observe.session import WorldSession
from world.setup import create_world

SETTINGS = RunSettings(decision_timeout_s=20.0, episode_timeout_s=200.0)


def _turns(record: str) -> list[dict]:
    with gzip.open(record, "rt", encoding="utf-8") as lines:
        return [x for x in map(json.loads, lines) if x["kind"] == "turn"]


def _read_then_keyed(turns: list[dict], code: str) -> tuple[int, int]:
    """The turn whose result first held the code's words, and the turn that keyed it in."""
    read = next(i for i, t in enumerate(turns) if code in json.dumps(t["result"] or {}))
    keyed = next(i for i, t in enumerate(turns) if t["action"]
                 and t["action"]["arguments"].get("code") == code)
    return read, keyed


def _judged(game: WorldSession) -> dict[str, str]:
    game.world.step()
    return {o.id: o.status for o in game.report().objectives}


def _take(game: WorldSession, object_id: str) -> None:
    world = game.world
    x, z, storey = world.objects[object_id].spot
    world.teleport(world.player.id, x + 40, z, storey)
    world.items.use(world.player, world.objects[object_id])


def _notes(level_id: str) -> dict[str, str]:
    data = json.loads(shipped_path(level_id).read_text())
    return {o["id"]: o["text"] for o in data["objects"] if o["kind"] == "note"}


def test_the_dockmasters_log_adds_the_manifest_and_a_copy_fails_it(session) -> None:
    game = session("salt_harbour", "easy", 0)
    assert len(game.view()["objectives"]) == 4
    world = game.world
    world.items.use(world.player, world.objects["dock_log"])
    assert len(game.view()["objectives"]) == 5
    _take(game, "manifest_customs")  # the copy passed before the log is read
    assert _judged(game)["take_manifest"] == "failed"
    real = session("salt_harbour", "easy", 0)
    real.world.items.use(real.world.player, real.world.objects["dock_log"])
    _take(real, "manifest")
    assert _judged(real)["take_manifest"] == "done"


@pytest.mark.parametrize("keypad, wrong, right", [
    ("pharmacy_keypad", "4017", "4071"),  # the records slip's old code, digits swapped
    ("isolation_keypad", "3359", "6284"),  # the board's void code beside the new one
])
def test_a_hospital_keypad_takes_one_wrong_code_for_good(keypad: str, wrong: str,
                                                        right: str) -> None:
    level = load_level(shipped_path("fever_hospital"))
    world = create_world(level, "hard", 0)
    pad = world.objects[keypad]
    assert world.items.enter_code(world.player, pad, wrong) == "refused"
    assert pad.locked_out
    assert world.items.enter_code(world.player, pad, right) == "locked_out"
    fresh = create_world(level, "hard", 0)
    assert fresh.items.enter_code(fresh.player, fresh.objects[keypad], right) == "accepted"


@pytest.mark.parametrize("level_id, keypad, code", [
    ("salt_harbour", "dock gate keypad", "5931"),
    ("salt_harbour", "bonded warehouse keypad", "2648"),
    ("fever_hospital", "pharmacy keypad", "4071"),
    ("fever_hospital", "isolation keypad", "6284"),
])
def test_the_reader_takes_only_the_number_its_keypads_clause_names(
        level_id: str, keypad: str, code: str) -> None:
    mem = Memory()
    mem.notes = _notes(level_id)  # every note read, the distractors among them
    assert candidates(mem, {"id": "o1", "name": keypad}) == [code]


def test_the_bonded_code_locked_behind_its_own_door_is_refused() -> None:
    data = json.loads(shipped_path("salt_harbour").read_text())
    assert check_data(data).ok
    slate = next(o for o in data["objects"] if o["id"] == "watch_slate")
    slate["area"], slate["at"] = "bonded_store", [700, 3300]
    assert any(p == "$.objectives[4].object" and "cannot be reached" in m
               for p, m in ((p.path, p.message) for p in check_data(data).problems))


def test_leaving_the_hospital_with_the_shown_tasks_done_loses(tmp_path: Path) -> None:
    level = short_copy(tmp_path / "level", "fever_hospital", max_decisions=100)
    summary = runner.run(str(level), python_agent(SHIPPED_AGENTS / "greedy_agent.py"),
                         difficulty="easy", seed=0, out_dir=tmp_path, settings=SETTINGS)
    assert not summary["success"]
    assert "exit_with_objectives_open" in summary["reason"]
    statuses = [o["status"] for o in summary["objectives"]]
    assert statuses[:2] == ["done", "done"], statuses  # generator and roster
    assert 0 < summary["score"] < 0.3
    report = replay(summary["record"])
    assert report.verified, report.divergence


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_reader_wins_the_hospital_keeping_the_pharmacy_code(tmp_path: Path) -> None:
    summary = runner.run("fever_hospital", python_agent(SHIPPED_AGENTS / "reference_agent.py"),
                         difficulty="normal", seed=0, out_dir=tmp_path, settings=SETTINGS)
    assert summary["success"], summary["reason"]
    turns = _turns(summary["record"])
    read, keyed = _read_then_keyed(turns, "4071")
    assert keyed - read >= 20, (read, keyed)
    assert not any("4071" in json.dumps(t["observation"]) for t in turns[read + 2:])
    codes = [t["action"]["arguments"]["code"] for t in turns
             if t["action"] and t["action"]["action"] == "enter_code"]
    assert sorted(codes) == ["4071", "6284"]  # never the old codes, each keypad once
    report = replay(summary["record"])
    assert report.verified, report.divergence


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_reader_wins_the_harbour_in_over_150_decisions_at_hard(tmp_path: Path) -> None:
    summary = runner.run("salt_harbour", python_agent(SHIPPED_AGENTS / "reference_agent.py"),
                         difficulty="hard", seed=0, out_dir=tmp_path, settings=SETTINGS)
    assert summary["success"], summary["reason"]
    turns = _turns(summary["record"])
    assert len(turns) >= 150
    read, keyed = _read_then_keyed(turns, "2648")
    assert keyed - read >= 100, (read, keyed)
    report = replay(summary["record"])
    assert report.verified, report.divergence
