"""The PPO baselines script: its random floor, intervals and docs/rl.md's table (39)."""

from __future__ import annotations

import importlib.util
import json
import sys
from functools import cache

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")

from tests.shared import ROOT  # noqa: E402


@cache
def _script():
    spec = importlib.util.spec_from_file_location("rl_baselines",
                                                  ROOT / "benchmarks" / "rl_baselines.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["rl_baselines"] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_docs_table_is_the_one_its_kept_results_give() -> None:
    script = _script()
    results = json.loads(script.RESULTS.read_text(encoding="utf-8"))
    text = script.RL_MD.read_text(encoding="utf-8")
    assert script.table(results["runs"], results["args"]) in text
    tasks = {r["task"] for r in results["runs"]}
    assert len(tasks) >= 3 and "maze" in tasks
    assert all(len({r["seed"] for r in results["runs"] if r["task"] == t}) >= 3
               for t in tasks)


def test_interval_is_a_t_interval_over_seeds() -> None:
    script = _script()
    mean, half = script.interval([0.2, 0.4, 0.6])
    assert mean == pytest.approx(0.4)
    assert half == pytest.approx(4.303 * 0.2 / np.sqrt(3), rel=1e-3)
    assert script.interval([0.5]) == (0.5, 0.0)


def test_random_floor_plays_masked_episodes_to_their_end() -> None:
    script = _script()
    task = script.TASKS["key_store"]
    figures = script.play(script.make(task, {}), None, 2, np.random.default_rng(0))
    assert figures["episodes"] == 2 and 0.0 <= figures["score"] <= 1.0
