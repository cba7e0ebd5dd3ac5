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
from harness.record import read_record
from harness.replay import replay
from harness.settings import RunSettings

ROOT = Path(__file__).resolve().parents[1]
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
