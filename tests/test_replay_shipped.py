"""Every record of the shipped levels replays: the reference and random agents play each
level and difficulty with seed 0 through the real runner, and each record is replayed.

The full matrix is slow (90 episodes, about seven minutes on two cores); the fast
variant plays four episodes on three levels: characters spawned mid-episode
(hold_centre), bots taking pickups (arena_frags), doors and keys (outpost).
"""

from __future__ import annotations

import sys
from itertools import pairwise
from pathlib import Path

import pytest

from harness import runner
from harness.record import read_record, record_text
from harness.replay import replay
from harness.settings import RunSettings
from tests.level_factory import base_level, set_at, write_level
from tests.shared import ROOT

AGENTS = {
    "reference": f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}",
    "random": f"{sys.executable} {ROOT / 'agents' / 'random_agent.py'}",
}
LEVELS = sorted(p.stem for p in (ROOT / "levels").glob("*.json"))
DIFFICULTIES = ("easy", "normal", "hard")
FAST = [("hold_centre", "reference"), ("hold_centre", "random"), ("arena_frags", "random"),
        ("outpost", "reference")]
SETTINGS = RunSettings(decision_timeout_s=20.0, episode_timeout_s=150.0)


def _play_and_replay(level: str, difficulty: str, agent: str, out: Path) -> None:
    summary = runner.run(level, AGENTS[agent], difficulty=difficulty, seed=0, out_dir=out,
                         settings=SETTINGS)
    assert summary["outcome"] != "harness_error", summary["reason"]
    report = replay(summary["record"])
    where = f"{agent} on {level}/{difficulty}"
    assert report.verified, f"{where}: {report.status}: {report.divergence}"
    assert report.summary is not None
    for name in ("outcome", "success", "score", "game_ticks", "invalid_actions"):
        assert report.summary[name] == summary[name], f"{where}: {name}"
    # An invalid action moved nothing: the next turn starts at the same tick and hash.
    turns = read_record(summary["record"]).turns
    for turn, after in pairwise(turns):
        if turn["error"] is not None:
            assert (after["tick"], after["state_hash"]) == (turn["tick"], turn["state_hash"]), \
                f"{where}: turn {turn['turn']} ({turn['error']['code']}) moved the world"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("level, agent", FAST)
def test_records_of_a_few_levels_replay(level: str, agent: str, tmp_path: Path) -> None:
    _play_and_replay(level, "normal", agent, tmp_path)


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_shipped_record_replays(level: str, difficulty: str, agent: str,
                                      tmp_path: Path) -> None:
    _play_and_replay(level, difficulty, agent, tmp_path)


def test_the_sweep_counts_records_that_replay(tmp_path: Path) -> None:
    from benchmarks.sweep import replays

    level = write_level(tmp_path, set_at(base_level(), "budgets.max_decisions", 3))
    agent = f"{sys.executable} {ROOT / 'tests' / 'agents' / 'protocol_agent.py'} good"
    summary = runner.run(str(level), agent, seed=0, out_dir=tmp_path / "runs",
                         settings=RunSettings(hello_timeout_s=20, decision_timeout_s=20))
    good = Path(summary["run_dir"])
    # A copy whose end line claims another final state.
    forged = tmp_path / "forged"
    forged.mkdir()
    lines = record_text(good).splitlines()
    lines[-1] = lines[-1].replace('"final_state_hash":"', '"final_state_hash":"0')
    (forged / "record.jsonl").write_text("\n".join(lines) + "\n")
    cut = tmp_path / "cut"
    cut.mkdir()
    (cut / "record.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    rows = [{"run_dir": str(good)}, {"run_dir": str(forged)}, {"run_dir": str(cut)},
            {"run_dir": None}]
    counted = replays(rows)
    assert {k: counted[k] for k in ("records", "verified", "diverged", "interrupted",
                                    "unusable", "no_record")} == {
        "records": 3, "verified": 1, "diverged": 1, "interrupted": 1, "unusable": 0,
        "no_record": 1}
    assert [f["run_dir"] for f in counted["failures"]] == [str(forged), str(cut)]
    assert "final state hash" in counted["failures"][0]["why"]
