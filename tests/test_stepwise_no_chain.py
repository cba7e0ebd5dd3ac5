"""Chains the reference cannot give whole: "no chain" and partial chains, said as such.

acid_tanks at easy has only its survive objective (the tonics count from normal up), so
it has no work objective to chain; a reference run that did none of a level's work
objectives leaves no success state to chain from. Both are counted apart from the chains
played: outside the pass rate, never a harness error, never passed. A reference run that
did some work objectives but not all gives a partial chain, which says what it lacks.
"""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from harness.cli import main
from harness.core.keys import episode_key
from harness.core.level_refs import resolve
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from harness.suite.stepwise import no_chain, play_chain, reference_key, work_objectives
from harness.suite.stepwise_report import (
    chain_harness_errors,
    stepwise_markdown,
    stepwise_overall,
    summarise_stepwise,
)
from tests.level_factory import short_copy
from tests.shared import ROOT, TEST_SECRET

FAST = RunSettings(hello_timeout_s=30, decision_timeout_s=30, grace_s=0.2)
REFERENCE = f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}"
WAIT = str(ROOT / "agents" / "wait_agent.sh")


def test_work_objectives_follow_difficulty_and_kind() -> None:
    acid = resolve("acid_tanks").level
    assert work_objectives(acid, "easy") == ()  # survive only
    assert work_objectives(acid, "normal") == (2,)
    assert work_objectives(acid, "hard") == (2, 3)


def test_a_level_with_no_work_objective_has_no_chain(tmp_path) -> None:
    cache = tmp_path / "cache"
    result = play_chain("acid_tanks", REFERENCE, "easy", 0, tmp_path / "chain", FAST, cache,
                        TEST_SECRET)
    assert result["no_chain"] == "no_work_objective"
    assert "no work objective" in result["reason"]
    assert result["harness_error"] is None
    assert result["passed"] is None and result["chain"] == [] and result["run_dir"] is None
    assert not cache.exists()  # nothing to chain: no reference run was made for it


@pytest.mark.timeout(300)
def test_a_reference_run_that_did_no_work_has_no_chain(tmp_path) -> None:
    # A verified record in the cache is taken as the reference run: one in which the
    # player only waited did none of exit_switch's objectives. Ten decisions of it, not
    # 150: the cached record is replayed before it is taken.
    cache = tmp_path / "cache"
    level = str(short_copy(tmp_path / "level", "exit_switch", 10))
    waited = run(level, WAIT, difficulty="normal", seed=0, out_dir=tmp_path / "runs",
                 settings=FAST)
    # Standing still, it does no work (the guards may shoot it down before the budget).
    assert not waited["success"] and waited["decisions"] <= 10
    found = resolve(level, TEST_SECRET).level
    home = cache / reference_key(found, "normal", 0,
                                 episode_key(TEST_SECRET, found.content_hash, "normal", 0))
    home.parent.mkdir(parents=True)
    shutil.move(waited["run_dir"], home)
    result = play_chain(level, REFERENCE, "normal", 0, tmp_path / "chain", FAST, cache,
                        TEST_SECRET)
    assert result["no_chain"] == "reference_did_none"
    assert result["reference"] == {"run_dir": str(home), "completed": False}
    assert result["missing"] == [1, 2, 3, 4]
    assert result["harness_error"] is None and result["passed"] is None


def _row(level: str, difficulty: str, seed: int, success: bool, stepwise: dict) -> dict:
    return {"level": level, "difficulty": difficulty, "seed": seed, "outcome": "completed",
            "success": success, "stepwise": stepwise}


def test_no_chain_is_counted_apart_from_chains_and_errors() -> None:
    passed = {"chain": [1], "subtasks": [{"subtask": 1, "played": True, "success": True}],
              "first_failed": None, "passed": True, "harness_error": None, "no_chain": None}
    broken = {**passed, "subtasks": [], "passed": False, "harness_error": "the harness failed"}
    partial = {**passed, "missing": [4]}
    rows = [_row("exit_switch", "easy", 0, True, passed),
            _row("exit_switch", "easy", 2, False, partial),
            _row("exit_switch", "easy", 1, True, broken),
            _row("acid_tanks", "easy", 0, True, no_chain("no_work_objective", None, [])),
            _row("acid_tanks", "easy", 1, False, no_chain("no_work_objective", None, []))]
    exit_switch, acid = summarise_stepwise(rows)
    assert (exit_switch["chains"], exit_switch["passed"], exit_switch["harness_errors"],
            exit_switch["no_chain"], exit_switch["partial"]) == (2, 2, 1, 0, 1)
    assert (acid["chains"], acid["passed"], acid["end_to_end"], acid["harness_errors"],
            acid["no_chain"], acid["no_chain_why"]) == (0, 0, 0, 0, 2, ["no_work_objective"])
    assert chain_harness_errors(rows) == 1  # what makes `harness eval` exit with 1
    table = stepwise_markdown([exit_switch, acid])
    assert ("| exit_switch | easy | 2 (1 partial) (+1 harness error) | 1/2 | 2/2 | 2/2 |"
            in table)
    assert ("| acid_tanks | easy | 0 (+2 no chain: no work objective) | — | — | — | none "
            "| none |") in table
    assert stepwise_overall([exit_switch, acid]) == (
        "Chains passed: 2/2 (1 of them partial: the reference run did not do every work "
        "objective, so those are not in the chain); 2 episode(s) with no chain, left out: "
        "acid_tanks easy "
        "(2: no work objective); 1 chain(s) ended in a harness error, left out.")


@pytest.mark.timeout(300)
def test_eval_shows_no_chain_in_results_tables_and_page(tmp_path, capsys) -> None:
    out = tmp_path / "suite"
    args = ["eval", "--agent", WAIT, "--levels", "acid_tanks", "--difficulties", "easy",
            "--seeds", "1", "--out", str(out), "--stepwise",
            "--reference-cache", str(tmp_path / "cache")]
    assert main(args) == 0  # nothing went wrong: no harness error, exit status 0
    assert "harness error" not in capsys.readouterr().err
    data = json.loads((out / "results.json").read_text())
    (row,) = data["episodes"]
    assert row["stepwise"]["no_chain"] == "no_work_objective"
    assert row["stepwise"]["passed"] is None
    (table,) = data["stepwise_table"]
    assert table["chains"] == 0 and table["no_chain"] == 1 and table["harness_errors"] == 0
    md = (out / "results.md").read_text()
    assert "| acid_tanks | easy | 0 (+1 no chain: no work objective) | — | — |" in md
    assert "Chains passed: 0/0; 1 episode(s) with no chain, left out: acid_tanks easy" in md
    page = (out / "index.html").read_text()
    assert "0 (+1 no chain: no work objective)" in page and "harness error" not in page



@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_reference_run_that_failed_gives_a_partial_chain(tmp_path) -> None:
    # arena_frags, hard, seed 13 (under the tests' secret): the reference completes
    # objectives 1 and 2 but not the plate armour (3) before it is shot down.
    result = play_chain("arena_frags", REFERENCE, "hard", 13, tmp_path / "chain", FAST,
                        tmp_path / "cache", TEST_SECRET)
    assert result["reference"]["completed"] is False
    assert sorted(result["chain"]) == [1, 2] and result["missing"] == [3], result["chain"]
    assert result["no_chain"] is None and result["harness_error"] is None
    assert [s["subtask"] for s in result["subtasks"]] == result["chain"]


def test_a_failed_reference_says_the_figures_are_incomplete() -> None:
    # A level with work to chain left unchained only because its reference failed (35).
    rows = [_row("exit_switch", "easy", 0, False, no_chain("reference_did_none", None, [1]))]
    text = stepwise_overall(summarise_stepwise(rows))
    assert "1 episode(s) with no chain" in text
    assert "the reference run failed in 1 of them, so these figures are incomplete" in text
