"""The stepwise track: chains from a cached reference run, failures localised, replayed."""

from __future__ import annotations

import gzip
import json
import shutil
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.keys import episode_key
from harness.core.level_refs import resolve
from harness.core.record import read_record
from harness.episode.replay import replay
from harness.episode.settings import RunSettings
from harness.episode.subtask import budget_rule, chain_order
from harness.suite.stepwise import chain_of, play_chain, reference_key, reference_run
from tests.shared import ROOT, TEST_SECRET

FAST = RunSettings(hello_timeout_s=30, decision_timeout_s=30, grace_s=0.2)
REFERENCE = f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}"
SHIRKER = f"{sys.executable} {ROOT / 'tests' / 'agents' / 'shirker_agent.py'}"

# The module's chain and reference run are played once: the tests that read them share
# a worker.
pytestmark = pytest.mark.xdist_group("stepwise")


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("reference")


@pytest.fixture(scope="module")
def shirked(cache, tmp_path_factory) -> dict:
    # exit_switch, normal, seed 0: the reference does objectives 2, 1, 3, 4 in that order;
    # this agent plays as the reference does except while subtask 1 is on.
    out = tmp_path_factory.mktemp("chain")
    return play_chain("exit_switch", f"{SHIRKER} 1 {ROOT / 'agents' / 'reference_agent.py'}",
                      "normal", 0, out, FAST, cache, TEST_SECRET)


@pytest.mark.timeout(300)
def test_a_shirked_subtask_is_localised_and_later_ones_are_played(shirked) -> None:
    assert shirked["chain"] == [2, 1, 3, 4]
    assert shirked["missing"] == []  # the reference did every work objective
    assert shirked["first_failed"] == 1
    assert not shirked["passed"]
    results = {s["subtask"]: s for s in shirked["subtasks"]}
    assert results[2]["success"] and results[2]["played"]
    assert results[1]["played"] and results[1]["success"] is False
    assert results[1]["end"] == "its budget ran out"
    assert results[1]["decisions"] <= results[1]["budget"]["decisions"]
    # After the reset to the reference's success state of subtask 1, 3 and 4 are played.
    assert all(results[n]["played"] and results[n]["success"] for n in (3, 4))


@pytest.mark.timeout(300)
def test_the_stepwise_record_says_so_and_replays(shirked) -> None:
    record = read_record(shirked["run_dir"])
    start = record.header["start"]
    assert start["stepwise"]["chain"] == [2, 1, 3, 4]
    assert start["stepwise"]["done"] == []
    assert [s["subtask"] for s in start["stepwise"]["subtasks"]] == [2, 1, 3, 4]
    assert len(record.header["success_states"]) == 4
    resets = [t["turn"] for t in record.turns if t["observation"]["stepwise"]["reset"]]
    assert len(resets) == 1
    after = record.turns[resets[0]]["observation"]["stepwise"]
    assert after == {"subtask": 3, "succeeded": [2], "failed": [1], "reset": True}
    # The reset world is the reference's success state of subtask 1.
    state = record.header["success_states"][1]
    assert record.turns[resets[0]]["state_hash"] == state["state_hash"]
    report = replay(shirked["run_dir"])
    assert report.verified, report.divergence
    assert report.summary["stepwise"]["first_failed"] == 1


def test_a_forged_subtask_result_is_caught(shirked, tmp_path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(shirked["run_dir"], copy)
    source = copy / "record.jsonl.gz"
    lines = gzip.decompress(source.read_bytes()).decode().splitlines()
    end = json.loads(lines[-1])
    end["summary"]["stepwise"]["subtasks"][1]["success"] = True
    end["summary"]["stepwise"]["first_failed"] = None
    lines[-1] = json.dumps(end)
    source.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    report = replay(copy)
    assert not report.verified
    assert report.divergence.startswith("summary stepwise")


def test_a_loosened_subtask_budget_is_caught(shirked, tmp_path) -> None:
    # The budgets are re-derived from the header's own success states: a record that
    # gives the shirked subtask more room than the rule allows does not verify.
    copy = tmp_path / "run"
    shutil.copytree(shirked["run_dir"], copy)
    source = copy / "record.jsonl.gz"
    lines = gzip.decompress(source.read_bytes()).decode().splitlines()
    header = json.loads(lines[0])
    leg = header["start"]["stepwise"]["subtasks"][1]
    leg["max_decisions"] += 100
    lines[0] = json.dumps(header)
    source.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    report = replay(copy)
    assert not report.verified
    assert report.divergence.startswith("the header's stepwise budgets: subtask "
                                        f"{leg['subtask']}'s budget is"), report.divergence
    assert replay(shirked["run_dir"]).verified


def test_reference_runs_are_cached_by_content(shirked, cache) -> None:
    level = resolve("exit_switch").level
    episode = episode_key(TEST_SECRET, level.content_hash, "normal", 0)
    key = reference_key(level, "normal", 0, episode)
    assert Path(shirked["reference"]["run_dir"]) == cache / key
    assert key != reference_key(level, "normal", 1, episode) != reference_key(
        level, "hard", 0, episode) != reference_key(level, "normal", 0, episode + 1)
    made = (cache / key / "record.jsonl.gz").stat().st_mtime_ns
    assert reference_run("exit_switch", "normal", 0, cache, FAST, TEST_SECRET) == cache / key
    assert (cache / key / "record.jsonl.gz").stat().st_mtime_ns == made  # reused


def test_chain_budgets_follow_the_rule(shirked, cache) -> None:
    chain = chain_of(resolve("exit_switch").level, Path(shirked["reference"]["run_dir"]))
    for step, result in zip(chain.steps, shirked["subtasks"], strict=True):
        decisions, seconds = budget_rule(step.reference_decisions, step.reference_seconds)
        assert result["budget"] == {"decisions": decisions, "game_seconds": seconds}
    assert budget_rule(10, 11.27) == (25, 43.0)
    assert budget_rule(0, 0.0) == (5, 20.0)


def test_chain_order_follows_the_levels_after_lists() -> None:
    reactor = resolve("reactor_escape").level
    assert chain_order(reactor, ("arm", "escape")) == "causal"
    assert chain_order(reactor, ("get_log", "arm", "escape")) == "thematic"
    facility = resolve("facility").level
    assert chain_order(facility, ("copy_data", "leave")) == "causal"


@pytest.mark.slow
@pytest.mark.timeout(2400)
@pytest.mark.parametrize("level_id", ["outpost", "blue_door", "reactor_escape", "burrow_maze",
                                      "hidden_crypt"])
def test_the_reference_passes_each_chain_it_passes_end_to_end(level_id, cache, tmp_path
                                                              ) -> None:
    home = reference_run(level_id, "normal", 0, cache, FAST, TEST_SECRET)
    result = play_chain(level_id, REFERENCE, "normal", 0, tmp_path, FAST, cache, TEST_SECRET)
    if read_record(home).end["summary"]["success"]:
        assert result["passed"], result["subtasks"]


@pytest.mark.timeout(600)
def test_eval_stepwise_shows_chains_beside_end_to_end(cache, tmp_path) -> None:
    out = tmp_path / "suite"
    agent = f"{SHIRKER} 1 {ROOT / 'agents' / 'reference_agent.py'}"
    args = ["eval", "--agent", agent, "--levels", "exit_switch", "--difficulties", "normal",
            "--seeds", "1", "--out", str(out), "--stepwise", "--reference-cache", str(cache)]
    assert main(args) == 0
    data = json.loads((out / "results.json").read_text())
    (row,) = data["episodes"]
    assert row["success"]  # end to end the shirker plays as the reference does
    assert row["stepwise"]["first_failed"] == 1 and not row["stepwise"]["passed"]
    (table,) = data["stepwise_table"]
    assert table["end_to_end"] == 1 and table["passed"] == 0
    assert table["each"] == {"2": [1, 1], "1": [0, 1], "3": [1, 1], "4": [1, 1]}
    assert table["first_failed"] == {"1": 1}
    assert "| exit_switch | normal | 1 | 1/1 | 0/1 | 3/4 |" in (out / "results.md").read_text()
    page = (out / "index.html").read_text()
    assert "<h2>Stepwise track</h2>" in page and "1: 0/1" in page
    # Played again, the end-to-end episode is reused and the chain is played whole again.
    assert main(args) == 0
    again = json.loads((out / "results.json").read_text())["episodes"][0]
    assert again["run_dir"] == row["run_dir"]
    assert again["stepwise"]["run_dir"] != row["stepwise"]["run_dir"]
    assert again["stepwise"]["subtasks"] == row["stepwise"]["subtasks"]


def test_stepwise_flags_are_checked(capsys) -> None:
    assert main(["eval", "--agent", REFERENCE, "--stepwise", "--backend", "ray"]) == 2
    assert "--stepwise runs on the local backend only" in capsys.readouterr().err
    assert main(["eval", "--agent", REFERENCE, "--reference-cache", "x"]) == 2
    assert "--reference-cache needs --stepwise" in capsys.readouterr().err
