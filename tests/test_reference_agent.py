"""The reference agent plays every shipped level through the real runner, within a bound.

Each level is one episode at the middle difficulty and seed 0. A timeout per test turns
a regression that hangs into a failure; the full sweep lives in benchmarks/sweep.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from harness import runner
from harness.settings import RunSettings

ROOT = Path(__file__).resolve().parents[1]
AGENT = f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}"
LEVELS = sorted(p.stem for p in (ROOT / "levels").glob("*.json"))
# Levels the agent does not clear yet at this difficulty and seed: each is a known gap
# (see docs/levels.md's sweep tables), expected to fail until the gap is closed.
KNOWN_GAPS: frozenset[str] = frozenset()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("level", LEVELS)
def test_reference_agent_plays_level(level: str, tmp_path: Path) -> None:
    settings = RunSettings(decision_timeout_s=20.0, episode_timeout_s=150.0)
    summary = runner.run(level, AGENT, difficulty="easy", seed=0, out_dir=tmp_path,
                         settings=settings)
    assert summary["outcome"] in {"completed", "failed", "truncated"}, summary["reason"]
    assert summary["agent_error"] is None, summary["agent_error"]
    if level not in KNOWN_GAPS:
        assert summary["success"], f"{level}: {summary['reason']}"


@pytest.mark.timeout(180)
def test_reference_agent_clears_facility_at_normal(tmp_path: Path) -> None:
    # The facility's normal mission (three storeys, a photograph behind a panel door whose
    # room camera must be shot from the doorway) is the longest the agent clears.
    settings = RunSettings(decision_timeout_s=20.0, episode_timeout_s=150.0)
    summary = runner.run("facility", AGENT, difficulty="normal", seed=0, out_dir=tmp_path,
                         settings=settings)
    assert summary["agent_error"] is None, summary["agent_error"]
    assert summary["success"], summary["reason"]


@pytest.mark.timeout(180)
def test_reference_agent_clears_facility_at_hard(tmp_path: Path) -> None:
    # Hard adds the no-alarm rule and ten more guards: the agent must keep out of side
    # rooms on its way between storeys and still win the duels on its route.
    settings = RunSettings(decision_timeout_s=20.0, episode_timeout_s=150.0)
    summary = runner.run("facility", AGENT, difficulty="hard", seed=0, out_dir=tmp_path,
                         settings=settings)
    assert summary["agent_error"] is None, summary["agent_error"]
    assert summary["success"], summary["reason"]
