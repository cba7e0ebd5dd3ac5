"""Replay re-derives every claim of a record: forged summaries, renumbered turns, broken
lines and missing end lines are each caught with their own exit status."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.record import record_text
from harness.episode.replay import REPLAY_STATUSES, replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.level_factory import short_copy
from tests.shared import ROOT, SHIPPED_AGENTS, python_agent

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)
WAIT_AGENT = str(SHIPPED_AGENTS / "wait_agent.sh")


# One recorded episode, played once for the module, is what every test here forges.
pytestmark = pytest.mark.xdist_group("replay_claims")


@pytest.fixture(scope="module")
def wait_run(tmp_path_factory) -> dict:
    # Outpost with 30 decisions, not 200: every forgery here is replayed whole.
    level = short_copy(tmp_path_factory.mktemp("level"), "outpost", 30)
    return run(str(level), WAIT_AGENT, seed=1, out_dir=tmp_path_factory.mktemp("runs"),
               settings=FAST)


def _lines(summary: dict) -> list[dict]:
    return [json.loads(t) for t in record_text(summary["record"]).splitlines()]


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _cli(record: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "harness.cli", "replay", str(record)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def _main(record: Path, capsys) -> tuple[int, str, str]:
    # `harness replay` in the test's process: its exit status, standard output and error.
    # One test below runs it as a real process; each process costs seconds of imports.
    status = main(["replay", str(record)])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_genuine_record_verifies_with_its_summary(wait_run) -> None:
    report = replay(wait_run["run_dir"])
    assert report.verified and report.status == "verified"
    assert report.summary["outcome"] == wait_run["outcome"]
    assert report.summary["score"] == wait_run["score"]


@pytest.mark.parametrize(("field", "forged"), [
    ("score", 1.0), ("success", True), ("outcome", "completed"), ("decisions", 1),
    ("invalid_actions", 3), ("game_ticks", 1),
])
def test_a_forged_summary_is_caught(wait_run, tmp_path, field, forged) -> None:
    lines = _lines(wait_run)
    assert lines[-1]["kind"] == "end"
    assert lines[-1]["summary"][field] != forged
    lines[-1]["summary"][field] = forged
    report = replay(_write(tmp_path / "record.jsonl", lines))
    assert not report.verified and report.status == "diverged"
    assert f"summary {field}" in report.divergence


def test_the_forged_win_of_a_do_nothing_agent_is_caught(wait_run, tmp_path, capsys) -> None:
    lines = _lines(wait_run)
    summary = lines[-1]["summary"]
    summary.update(outcome="completed", success=True, score=1.0, terminated=True,
                   truncated=False, failure=None)
    record = _write(tmp_path / "record.jsonl", lines)
    status, out, _ = _main(record, capsys)
    assert status == REPLAY_STATUSES["diverged"][0] == 1
    assert "DIVERGED: summary outcome" in out


def test_renumbered_or_dropped_turns_are_caught(wait_run, tmp_path) -> None:
    lines = _lines(wait_run)
    turns = [i for i, line in enumerate(lines) if line["kind"] == "turn"]
    renumbered = [dict(line) for line in lines]
    renumbered[turns[2]]["turn"] = 7
    report = replay(_write(tmp_path / "a.jsonl", renumbered))
    assert report.status == "diverged" and "numbered" in report.divergence
    dropped = [line for i, line in enumerate(lines) if i != turns[1]]
    report = replay(_write(tmp_path / "b.jsonl", dropped))
    assert report.status == "diverged"


def test_a_record_without_end_line_is_interrupted_never_verified(wait_run, tmp_path,
                                                                 capsys) -> None:
    lines = _lines(wait_run)[:-1]
    record = _write(tmp_path / "record.jsonl", lines)
    report = replay(record)
    assert report.interrupted and not report.verified and report.status == "interrupted"
    status, out, _ = _main(record, capsys)
    assert status == REPLAY_STATUSES["interrupted"][0] == 3
    assert out.startswith("interrupted:")


def test_a_record_breaking_its_schema_is_unusable_with_a_message(wait_run, tmp_path,
                                                                capsys) -> None:
    lines = _lines(wait_run)
    lines[1]["state_hash"] = 12345
    record = _write(tmp_path / "record.jsonl", lines)
    done = _cli(record)
    assert done.returncode == REPLAY_STATUSES["unusable"][0] == 2
    assert "unusable record" in done.stderr and "breaks schemas/record" in done.stderr
    assert "Traceback" not in done.stderr
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n{}\n")
    status, _, err = _main(garbage, capsys)
    assert status == 2 and "unusable record" in err


@pytest.mark.slow
def test_characters_spawned_mid_episode_replay(tmp_path) -> None:
    # hold_centre's waves spawn characters; their ids are given when an observation is
    # built, so a replay that skipped building it diverged on every such record.
    agent = python_agent(SHIPPED_AGENTS / "random_agent.py")
    summary = run("hold_centre", agent, difficulty="easy", seed=0, out_dir=tmp_path,
                  settings=FAST)
    report = replay(summary["run_dir"])
    assert report.verified, report.divergence
