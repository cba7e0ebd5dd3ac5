"""`harness compare`: agents told apart, Wilson intervals, categories, outputs, bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.compare.report import markdown
from harness.compare.results import (
    AgentKey,
    CompareError,
    compare,
    level_categories,
    load_episodes,
    results_files,
    wilson_interval,
)
from tests.shared import ROOT


def _row(level: str, seed: int, success: bool, score: float, hello: dict | None,
         cost: float | None = None, outcome: str | None = None) -> dict:
    usage = None if cost is None else {"input_tokens": 1000, "output_tokens": 100,
                                       "cost_usd": cost}
    return {"level": level, "difficulty": "easy", "seed": seed,
            "outcome": outcome or ("completed" if success else "failed"), "success": success,
            "score": score, "decisions": 10, "game_time_s": 20.0, "invalid_actions": 0,
            "usage": usage, "run_dir": None, "agent": hello}


def _suite(folder: Path, command: str, rows: list[dict]) -> Path:
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(json.dumps(
        {"suite": {"agent": command}, "episodes": rows, "table": []}), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("wins", "n", "low", "high"), [
    # Reference values of the Wilson score interval at z = 1.96 (Agresti and Coull 1998;
    # also what statsmodels' proportion_confint(method="wilson") gives).
    (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (5, 10, 0.2366, 0.7634),
    (1, 20, 0.0089, 0.2361), (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_matches_known_values(wins: int, n: int, low: float,
                                              high: float) -> None:
    got = wilson_interval(wins, n)
    assert got == pytest.approx((low, high), abs=5e-4)


def test_wilson_interval_of_no_episodes_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_two_agents_in_one_folder_are_never_pooled(tmp_path: Path) -> None:
    a = {"name": "planner", "version": "2", "model": "m-large"}
    b = {"name": "planner", "version": "2", "model": "m-small"}  # same script, other model
    _suite(tmp_path / "runs" / "large", "./planner --model large",
           [_row("outpost", s, True, 1.0, a, cost=0.02) for s in range(3)])
    _suite(tmp_path / "runs" / "small", "./planner --model small",
           [_row("outpost", 0, True, 1.0, b, cost=0.01),
            _row("outpost", 1, False, 0.2, b, cost=0.01),
            _row("outpost", 2, False, 0.1, b, outcome="harness_error")])
    episodes, errors = load_episodes(results_files([tmp_path / "runs"]))
    result = compare(episodes, errors)
    labels = [a["agent"]["label"] for a in result["agents"]]
    assert labels == ["planner 2 (m-large)", "planner 2 (m-small)"]
    large, small = result["agents"]
    assert large["overall"]["successes"] == 3 and large["overall"]["episodes"] == 3
    # The harness error says nothing about the agent: left out, but counted.
    assert small["overall"]["episodes"] == 2 and result["harness_errors"] == 1
    assert small["overall"]["success_rate"] == 0.5
    assert small["overall"]["score_mean"] == pytest.approx(0.6)
    assert small["overall"]["cost_per_episode"] == pytest.approx(0.01)
    assert small["overall"]["cost_per_success"] == pytest.approx(0.02)
    assert small["overall"]["tokens_per_episode"] == pytest.approx(1100)
    assert [lv["level"] for lv in small["levels"]] == ["outpost"]
    # Outpost's categories come from its level file; the episode counts under each.
    assert [c["category"] for c in small["categories"]] == sorted(level_categories("outpost"))


def test_same_name_behind_two_commands_is_two_agents(tmp_path: Path) -> None:
    hello = {"name": "agent"}
    _suite(tmp_path / "one", "./a", [_row("blue_door", 0, True, 1.0, hello)])
    _suite(tmp_path / "two", "./b", [_row("blue_door", 0, False, 0.0, hello)])
    episodes, _ = load_episodes(results_files([tmp_path / "one", tmp_path / "two"]))
    agents = compare(episodes)["agents"]
    assert [a["agent"]["command"] for a in agents] == ["./a", "./b"]
    assert AgentKey("agent", "", "", "./a").label == "agent"


def test_unreported_usage_stays_unknown_and_per_success_needs_every_episode(
        tmp_path: Path) -> None:
    hello = {"name": "x"}
    _suite(tmp_path / "s", "./x", [_row("outpost", 0, True, 1.0, hello, cost=0.5),
                                   _row("outpost", 1, True, 1.0, hello)])
    overall = compare(load_episodes(results_files([tmp_path]))[0])["agents"][0]["overall"]
    assert overall["cost_per_episode"] == pytest.approx(0.5)  # over the one that reported
    assert overall["cost_per_success"] is None  # one success's cost is unknown
    _suite(tmp_path / "t", "./y", [_row("outpost", 0, True, 1.0, {"name": "y"})])
    silent = compare(load_episodes(results_files([tmp_path / "t"]))[0])["agents"][0]
    assert silent["overall"]["tokens_per_episode"] is None
    # A column no agent reported is left out; one agent's unknown figure beside another's
    # reported one shows as a dash.
    reporting = compare(load_episodes(results_files([tmp_path / "s"]))[0])["agents"][0]
    alone = markdown({"agents": [silent], "harness_errors": 0})
    assert "tokens / episode" not in alone and "$ / episode" not in alone
    both = markdown({"agents": [reporting, silent], "harness_errors": 0})
    assert "$ / episode" in both and "| — |" in both


def test_unknown_level_is_uncategorised() -> None:
    assert level_categories("no_such_level") == ("uncategorised",)


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "not readable as JSON"),
    ('{"episodes": []}', "not a suite's results"),
    ('{"suite": {"agent": "a"}, "episodes": [{"level": "x"}]}', "episodes[0] lacks"),
    ('{"suite": {"agent": "a"}, "episodes": [3]}', "episodes[0] is not an object"),
])
def test_broken_results_name_the_file(tmp_path: Path, content: str, message: str,
                                      capsys) -> None:
    (tmp_path / "results.json").write_text(content, encoding="utf-8")
    with pytest.raises(CompareError, match=r"results\.json"):
        load_episodes(results_files([tmp_path]))
    assert main(["compare", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "results.json" in err and "Traceback" not in err


def test_a_folder_without_suites_is_a_usage_error(tmp_path: Path, capsys) -> None:
    assert main(["compare", str(tmp_path), str(tmp_path / "missing")]) == 2
    assert "no suite results" in capsys.readouterr().err


@pytest.mark.slow  # two suites played; the tests above compare results given in code
@pytest.mark.timeout(300)
def test_compare_two_real_suites_writes_every_output(tmp_path: Path, capsys) -> None:
    # Two agents play the same small suite; the comparison names both, side by side.
    common = ["--levels", "exit_switch", "--difficulties", "easy", "--seeds", "2",
              "--jobs", "2"]
    waiter = str(ROOT / "agents" / "wait_agent.sh")
    rand = f"{sys.executable} {ROOT / 'agents' / 'random_agent.py'}"
    assert main(["eval", "--agent", waiter, *common, "--out", str(tmp_path / "w")]) == 0
    assert main(["eval", "--agent", rand, *common, "--out", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "w"), str(tmp_path / "r"),
                 "--out", str(tmp_path / "cmp")]) == 0
    printed = capsys.readouterr().out
    data = json.loads((tmp_path / "cmp" / "compare.json").read_text(encoding="utf-8"))
    names = sorted(a["agent"]["name"] for a in data["agents"])
    assert len(names) == 2 and "wait-agent" in names
    for agent in data["agents"]:
        assert agent["overall"]["episodes"] == 2
        assert [(lv["level"], lv["difficulty"]) for lv in agent["levels"]] == [
            ("exit_switch", "easy")]
    waiting = next(a for a in data["agents"] if a["agent"]["name"] == "wait-agent")
    assert waiting["overall"]["successes"] == 0
    page = (tmp_path / "cmp" / "compare.html").read_text(encoding="utf-8")
    assert "wait-agent" in page and "By category" in page and "puzzle" in page
    assert "wait-agent" in printed and "| exit_switch | easy |" in printed
    assert (tmp_path / "cmp" / "compare.md").read_text(encoding="utf-8") + "\n" == printed
    # The page command over the folder holding both suites writes the same comparison.
    assert main(["page", str(tmp_path)]) == 0
    assert json.loads((tmp_path / "compare.json").read_text(encoding="utf-8")) == data
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert index.count("<td>exit_switch</td><td>easy</td>") == 2  # one row per agent
