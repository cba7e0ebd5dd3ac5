"""The greedy baseline (agents/greedy_agent.py): small, and it plays shipped levels.

It is the line an agent has to beat (docs/levels.md), so it must stay what it claims to
be, a short script over the structured view: at most 300 lines. Each level below is one
whole episode through the real runner (the sandbox and the agent kit as shipped); the
agent must finish it without a run of invalid actions and win the easy ones it really
wins. The sweep (benchmarks/sweep.py) runs it beside the other agents.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.episode import runner
from harness.episode.settings import RunSettings
from tests.shared import SHIPPED_AGENTS, python_agent

SCRIPT = SHIPPED_AGENTS / "greedy_agent.py"
AGENT = python_agent(SCRIPT)
SETTINGS = RunSettings(decision_timeout_s=20.0, episode_timeout_s=150.0)
# (level, difficulty, whether greedy wins it at seed 0; None: not asserted). Hidden_crypt
# needs secrets greedy never looks for: 200 decisions of wandering, none of them invalid.
EPISODES = [
    ("courier_intercept", "easy", True),
    ("outpost", "easy", True),
    pytest.param("hidden_crypt", "normal", None, marks=pytest.mark.slow),
]


def test_greedy_agent_stays_a_short_script() -> None:
    lines = SCRIPT.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"{SCRIPT.name} has {len(lines)} lines; a baseline keeps to 300"


@pytest.mark.timeout(180)
@pytest.mark.parametrize("level, difficulty, wins", EPISODES)
def test_greedy_agent_plays_a_shipped_level(level: str, difficulty: str, wins: bool | None,
                                            tmp_path: Path) -> None:
    summary = runner.run(level, AGENT, difficulty=difficulty, seed=0, out_dir=tmp_path,
                         settings=SETTINGS)
    assert summary["outcome"] in {"completed", "failed", "truncated"}, summary["reason"]
    assert summary["agent_error"] is None, summary["agent_error"]
    assert summary["invalid_actions"] == 0, summary["reason"]
    if wins is not None:
        assert summary["success"] is wins, f"{level} {difficulty}: {summary['reason']}"


def test_the_sweep_runs_greedy_and_keeps_agents_swept_earlier(tmp_path: Path) -> None:
    from benchmarks.sweep import AGENTS, collect

    assert list(AGENTS) == ["reference", "greedy", "random", "wait"]
    assert str(SCRIPT) in AGENTS["greedy"][0]
    shipped = {"level": "outpost", "difficulty": "easy", "seed": 0}
    made = {"level": "maze@3", "difficulty": "easy", "seed": 0}
    for name, rows in (("wait", [shipped]), ("greedy", [shipped, made])):
        (tmp_path / name).mkdir()
        (tmp_path / name / "results.json").write_text(json.dumps({"episodes": rows}))
    # Swept one at a time, in any order: the tables follow AGENTS, each mode its own rows.
    assert collect(tmp_path, generated=False) == {"greedy": [shipped], "wait": [shipped]}
    assert list(collect(tmp_path, generated=False)) == ["greedy", "wait"]
    assert collect(tmp_path, generated=True) == {"greedy": [made]}
