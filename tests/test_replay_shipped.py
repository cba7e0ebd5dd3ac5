"""Records of the shipped levels replay: the reference, random and greedy agents play
levels through the real runner with seed 0, and each record is replayed.

Three sizes. The quick subset plays three episodes on three levels: characters spawned
mid-episode (hold_centre), bots taking pickups (arena_frags), doors and keys (outpost).
The slow run adds the random agent on hold_centre (the longest of the four) and plays
every shipped level once (15 episodes, not the 90 of the whole matrix), the difficulty
turning easy, normal, hard and the agent reference, random, greedy (every three levels)
along the sorted level ids, so each level, each difficulty and every agent are covered
but not every pairing. The
whole matrix (every level x difficulty x agent, about seven minutes on two cores) is
marked `full` and runs with `pytest --full`; between those runs the sweep
(`benchmarks/sweep.py --replay`) replays every record it makes, and docs/levels.md
reports how many verified.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from harness.core.record import read_record, record_text
from harness.episode import runner
from harness.episode.replay import replay
from harness.episode.settings import RunSettings
from tests.level_factory import base_level, set_at, write_level
from tests.shared import SHIPPED_AGENTS, SHIPPED_IDS, TEST_AGENTS, python_agent

AGENTS = {
    "reference": python_agent(SHIPPED_AGENTS / "reference_agent.py"),
    "random": python_agent(SHIPPED_AGENTS / "random_agent.py"),
    "greedy": python_agent(SHIPPED_AGENTS / "greedy_agent.py"),
}
LEVELS = SHIPPED_IDS
DIFFICULTIES = ("easy", "normal", "hard")
# One episode per level: the difficulty turns with each level, the agent every three.
ONCE_EACH = [(level, DIFFICULTIES[i % 3], list(AGENTS)[i // 3 % len(AGENTS)])
             for i, level in enumerate(LEVELS)]
FAST = [("hold_centre", "reference"),
        pytest.param("hold_centre", "random", marks=pytest.mark.slow),
        ("arena_frags", "random"), ("outpost", "reference")]
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
@pytest.mark.parametrize("level, difficulty, agent", ONCE_EACH)
def test_a_record_of_every_shipped_level_replays(level: str, difficulty: str, agent: str,
                                                 tmp_path: Path) -> None:
    _play_and_replay(level, difficulty, agent, tmp_path)


@pytest.mark.slow
@pytest.mark.full
@pytest.mark.timeout(600)
@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_shipped_record_replays(level: str, difficulty: str, agent: str,
                                      tmp_path: Path) -> None:
    _play_and_replay(level, difficulty, agent, tmp_path)


def test_the_slow_run_covers_every_level_difficulty_and_agent() -> None:
    assert sorted(level for level, _, _ in ONCE_EACH) == sorted(SHIPPED_IDS)
    assert {d for _, d, _ in ONCE_EACH} == set(DIFFICULTIES)
    assert {a for _, _, a in ONCE_EACH} == set(AGENTS)


def test_the_sweep_counts_records_that_replay(tmp_path: Path) -> None:
    from benchmarks.sweep import replays

    level = write_level(tmp_path, set_at(base_level(), "budgets.max_decisions", 3))
    agent = python_agent(TEST_AGENTS / "protocol_agent.py", "good")
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
