"""`harness eval`: a small suite writes results and its table, and a second run resumes."""

from __future__ import annotations

import io
import json
import shutil
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.agent.sandbox import bubblewrap_problem
from harness.cli import main
from harness.core.record import is_run_dir, record_text
from harness.suite.plan import Episode, SuiteMismatchError, check_identity
from harness.suite.report import markdown_table, summarise
from tests.shared import ROOT

AGENT = f"{sys.executable} {ROOT / 'agents' / 'random_agent.py'}"
ARGS = ["--levels", "exit_switch,blue_door", "--difficulties", "easy", "--seeds", "2",
        "--jobs", "2"]


# The suite's episodes are played once per module; the tests that read them share it.
pytestmark = pytest.mark.xdist_group("eval")


def _eval(out: Path, *extra: str) -> int:
    return main(["eval", "--agent", AGENT, *ARGS, "--out", str(out), *extra])


@dataclass(frozen=True)
class Played:
    """A suite played once: its folder and what the first run printed."""

    out: Path
    status: int
    stdout: str
    stderr: str


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Played:
    out = tmp_path_factory.mktemp("eval") / "suite"
    stdout, stderr = io.StringIO(), io.StringIO()
    with redirect_stdout(stdout), redirect_stderr(stderr):
        status = _eval(out)
    return Played(out, status, stdout.getvalue(), stderr.getvalue())


# The quick subset's eval is the forged-record test below (one episode, resumed).
@pytest.mark.slow
@pytest.mark.timeout(240)
def test_small_eval_writes_results_and_resumes(played: Played, capsys) -> None:
    out = played.out
    assert played.status == 0
    data = json.loads((out / "results.json").read_text())
    rows = data["episodes"]
    assert sorted((r["level"], r["seed"]) for r in rows) == [
        ("blue_door", 0), ("blue_door", 1), ("exit_switch", 0), ("exit_switch", 1)]
    for row in rows:
        assert row["difficulty"] == "easy"
        assert row["outcome"] in {"completed", "failed", "truncated"}
        assert 0.0 <= row["score"] <= 1.0
        assert Path(row["run_dir"], "record.jsonl.gz").is_file()
        for name in ("decisions", "game_time_s", "invalid_actions", "usage"):
            assert name in row
        assert row["agent"]["name"] == "random-agent"  # the hello, for the index's agent column
    index = (out / "index.html").read_text()
    assert index.count('<td data-sort="random-agent">random-agent') == len(rows)
    table = (out / "results.md").read_text()
    assert "| exit_switch | easy | 2 |" in table and "| blue_door | easy | 2 |" in table
    assert "| exit_switch | easy |" in played.stdout
    assert "2/4 episodes" in played.stderr  # the progress bar

    run_dirs = {r["run_dir"] for r in rows}
    assert _eval(out) == 0
    again = json.loads((out / "results.json").read_text())["episodes"]
    assert {r["run_dir"] for r in again} == run_dirs  # nothing was played twice
    err = capsys.readouterr().err
    assert "4/4 episodes" in err
    assert "4 of 4 episodes were finished by an earlier run in this folder" in err


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_interrupted_episode_is_played_again(played: Played, tmp_path: Path) -> None:
    # On a copy, so that the suite the other tests read stays as it was played.
    out = tmp_path / "suite"
    shutil.copytree(played.out, out)
    rows = json.loads((out / "results.json").read_text())["episodes"]
    for row in rows:  # the copy's own run directories
        row["run_dir"] = str(out / Path(row["run_dir"]).relative_to(played.out))
    victim = Path(rows[0]["run_dir"]) / "record.jsonl.gz"
    lines = record_text(victim).splitlines()
    victim.write_text("\n".join(lines[:-1]) + "\n")  # no end line: an interrupted run
    assert _eval(out) == 0
    again = json.loads((out / "results.json").read_text())["episodes"]
    assert again[0]["run_dir"] != rows[0]["run_dir"]
    assert [r["run_dir"] for r in again[1:]] == [r["run_dir"] for r in rows[1:]]


def test_other_settings_are_refused(tmp_path: Path) -> None:
    identity = {"harness_version": "1", "agent_command": "a", "settings": {"x": 1}}
    check_identity(tmp_path, identity)
    with pytest.raises(SuiteMismatchError, match="agent_command"):
        check_identity(tmp_path, {**identity, "agent_command": "b"})


def test_mismatched_out_dir_is_a_usage_error(tmp_path: Path, capsys) -> None:
    check_identity(tmp_path, {"harness_version": "0", "agent_command": "x", "settings": {}})
    assert _eval(tmp_path) == 2
    assert "different" in capsys.readouterr().err


def test_table_spread_and_rates() -> None:
    rows = [{"level": "l", "difficulty": "d", "seed": s, "success": s == 0, "score": sc,
             "decisions": 4, "game_time_s": 10.0, "invalid_actions": 1}
            for s, sc in enumerate((1.0, 0.0))]
    (summary,) = summarise(rows)
    assert summary["success_rate"] == 0.5
    assert summary["score_mean"] == 0.5
    assert summary["score_sd"] == pytest.approx(0.7071, abs=1e-3)
    assert summary["invalid_actions"] == 2
    assert "1/2 (50%)" in markdown_table([summary])


def test_episode_folders_are_fixed() -> None:
    assert Episode("a", "easy", 3).folder(Path("out")) == Path("out/episodes/a/easy/s3")


def test_overall_line_counts_the_nine_in_ten_bar_and_the_majority() -> None:
    from harness.suite.report import overall_line
    rows = [{"episodes": 10, "successes": n, "success_rate": n / 10} for n in (10, 9, 6, 2)]
    assert overall_line(rows) == ("Overall: 27/40 episodes succeeded (68%); of 4 "
                                  "level-difficulty pairs, 2 cleared in at least 90% of seeds "
                                  "and 3 in most seeds.")


@pytest.mark.timeout(240)
def test_a_record_forged_by_its_agent_is_never_read_back(tmp_path: Path, capsys) -> None:
    # The agent looks for its record through /proc/<parent>/fd to rewrite the end line as
    # a win after the summary. In the sandbox it sees only its own PID namespace and no
    # run directory, so the record is untouched. A record rewritten all the same (here by
    # hand, as an agent outside a sandbox could) does not replay on resume: it is set
    # aside, not deleted, and the episode is played again.
    if bubblewrap_problem():
        pytest.skip(f"needs the agent sandbox: {bubblewrap_problem()}")
    forger = f"{sys.executable} {ROOT / 'tests' / 'agents' / 'forging_agent.py'}"
    out = tmp_path / "suite"
    args = ["eval", "--agent", forger, "--levels", "exit_switch", "--difficulties", "easy",
            "--seeds", "1", "--out", str(out)]
    assert main(args) == 0
    (row,) = json.loads((out / "results.json").read_text())["episodes"]
    # It never plays (the guards shoot it down, or its budget runs out): no success.
    assert row["outcome"] in ("truncated", "failed") and not row["success"]
    assert row["score"] < 1.0
    record = Path(row["run_dir"], "record.jsonl.gz")
    lines = record_text(record).splitlines()
    end = json.loads(lines[-1])
    assert end["summary"]["outcome"] == row["outcome"]  # the attack found nothing to rewrite
    assert json.loads(lines[0])["isolation"]["sandbox"] == "bubblewrap"
    end["summary"].update(outcome="completed", success=True, score=1.0, terminated=True,
                          truncated=False, failure=None)
    record.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    capsys.readouterr()
    assert main(args) == 0
    (again,) = json.loads((out / "results.json").read_text())["episodes"]
    assert again["outcome"] == row["outcome"] and again["run_dir"] != row["run_dir"]
    err = capsys.readouterr().err
    # The harness's seal no longer matches; a record that kept it would not replay.
    assert "set aside" in err and "not this harness's record" in err
    kept = out / "set_aside" / "exit_switch" / "easy" / "s0" / Path(row["run_dir"]).name
    assert is_run_dir(kept)


def test_harness_errors_are_marked_and_left_out_of_the_figures() -> None:
    rows = [{"level": "l", "difficulty": "d", "seed": s, "outcome": o, "success": o == "completed",
             "score": 1.0 if o == "completed" else 0.0, "decisions": 4, "game_time_s": 10.0,
             "invalid_actions": 0} for s, o in enumerate(("completed", "harness_error"))]
    (summary,) = summarise(rows)
    assert summary["episodes"] == 1 and summary["harness_errors"] == 1
    assert summary["score_mean"] == 1.0 and summary["success_rate"] == 1.0
    assert "| l | d | 1 (+1 harness error) | 1/1 (100%) |" in markdown_table([summary])
