"""SIGINT, SIGTERM and SIGKILL to `harness run` and `harness eval`, and agents that kill
their worker: records end as interrupted, nothing is left running, no folder is left."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.record import record_text
from tests.proc_scan import wait_gone
from tests.shared import ROOT, TEST_AGENTS

KILLER = TEST_AGENTS / "worker_killer_agent.py"


def start(tmp_path: Path, *args: str, group: bool = False) -> tuple[subprocess.Popen, str]:
    """Start the harness with an agent that carries a fresh marker; scratch in tmp/scratch.

    With `group`, the harness leads a process group of its own, as a terminal's
    foreground job does, so a test can signal the whole group as Ctrl-C does.
    """
    mark = f"mark-{uuid.uuid4().hex}"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    command = [sys.executable, "-m", "harness.cli", *args]
    command = [a.replace("MARK", mark) for a in command]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, process_group=0 if group else None)
    return proc, mark


def records(folder: Path) -> list[Path]:
    return sorted(folder.rglob("record.jsonl.gz"))


def wait_for_headers(proc: subprocess.Popen, folder: Path, count: int) -> None:
    # The agents sleep at their first observation, so a header means an episode is live.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = [r for r in records(folder) if record_text(r).startswith('{"kind":"header"')]
        if len(found) >= count:
            time.sleep(0.3)
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    raise AssertionError(f"no {count} live episodes in {folder}")


def last_line(record: Path) -> dict:
    return json.loads(record_text(record).splitlines()[-1])


def assert_nothing_left(mark: str, tmp_path: Path) -> None:
    assert wait_gone(mark, 15.0) == [], "processes of the run are still alive"
    assert list((tmp_path / "scratch").iterdir()) == [], "temporary folders were left"


@pytest.mark.timeout(120)
# Each case plays in a fresh process: the quick subset sends SIGTERM, the
# whole suite every signal (here and in the two tests below).
@pytest.mark.parametrize("signum", [
    signal.SIGTERM, *(pytest.param(s, marks=pytest.mark.slow)
                      for s in (signal.SIGINT, signal.SIGHUP))])
def test_a_signal_to_harness_run_ends_the_episode_as_interrupted(tmp_path, capsys,
                                                                signum) -> None:
    out = tmp_path / "runs"
    proc, mark = start(tmp_path, "run", "blue_door", "--difficulty", "easy", "--out", str(out),
                       "--agent", f"{sys.executable} {KILLER} 0 MARK")
    wait_for_headers(proc, out, 1)
    proc.send_signal(signum)
    stdout, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signum  # 130 for SIGINT, 143 for SIGTERM, 129 SIGHUP
    assert "Traceback" not in stderr
    name = signal.Signals(signum).name
    assert f"interrupted: the harness was stopped by {name} at turn 0" in stderr
    (record,) = records(out)
    assert stdout.strip() == str(record.parent)
    end = last_line(record)
    assert end["kind"] == "end" and end["summary"]["outcome"] == "interrupted"
    assert_nothing_left(mark, tmp_path)
    # Replayed in this process: the record alone is read, and a process costs seconds.
    assert main(["replay", str(record)]) == 3
    assert "interrupted" in capsys.readouterr().out


@pytest.mark.timeout(120)
@pytest.mark.parametrize("signum, group", [
    *(pytest.param(s, False, marks=pytest.mark.slow)
      for s in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)),
    (signal.SIGINT, True)])  # Ctrl-C in a terminal: the suite and its workers all get it
def test_a_signal_to_harness_eval_ends_every_worker_and_agent(tmp_path, signum, group) -> None:
    out = tmp_path / "suite"
    proc, mark = start(tmp_path, "eval", "--levels", "blue_door", "--difficulties", "easy",
                       "--seeds", "2", "--jobs", "2", "--out", str(out),
                       "--agent", f"{sys.executable} {KILLER} 0 MARK", group=group)
    wait_for_headers(proc, out, 2)
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=30)
    # Workers are forked from the suite's process, so the marker finds them too.
    assert_nothing_left(mark, tmp_path)
    assert "Traceback" not in stderr  # the workers' output included: they share the pipe
    if signum == signal.SIGKILL:
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 128 + signum
        assert f"interrupted by {signal.Signals(signum).name}" in stderr
        assert "Run the same command again to resume" in stderr
    found = records(out)
    assert len(found) == 2
    for record in found:  # even with the suite's process killed outright
        end = last_line(record)
        assert end["kind"] == "end" and end["summary"]["outcome"] == "interrupted"
    assert not (out / "results.json").exists()  # an interrupted suite claims no results


@pytest.mark.timeout(180)
@pytest.mark.parametrize("signum, outcome, words", [
    (signal.SIGKILL, "harness_error", "the worker process was killed by SIGKILL"),
    pytest.param(signal.SIGTERM, "interrupted", "the harness was stopped by SIGTERM at turn 0",
                 marks=pytest.mark.slow)])
def test_an_agent_that_signals_its_worker_costs_only_its_own_episode(tmp_path, signum, outcome,
                                                                      words) -> None:
    out = tmp_path / "suite"
    proc, mark = start(tmp_path, "eval", "--levels", "blue_door", "--difficulties", "easy",
                       "--seeds", "2", "--jobs", "2", "--out", str(out),
                       "--decision-timeout", "5",
                       "--agent", f"{sys.executable} {KILLER} {int(signum)} MARK")
    _, stderr = proc.communicate(timeout=150)
    assert "Traceback" not in stderr
    rows = {r["seed"]: r for r in json.loads((out / "results.json").read_text())["episodes"]}
    assert rows[1]["outcome"] == "truncated"  # the other episode played to its end
    assert_nothing_left(mark, tmp_path)
    if rows[0]["outcome"] in ("agent_crashed", "agent_timeout"):
        # An agent isolated in a PID namespace of its own cannot reach its worker: its
        # signal goes to its own sandbox (which ends it, or ignores it while the agent
        # sleeps past the decision deadline), and the episode is simply the agent's fault.
        assert proc.returncode == 0, stderr
        return
    assert proc.returncode == 1, stderr  # a harness-side row makes the suite fail
    assert rows[0]["outcome"] == outcome
    # A killed worker leaves no end line and its row says why; a stopped one ends its record.
    said = rows[0].get("error") or last_line(Path(rows[0]["run_dir"], "record.jsonl.gz"))[
        "summary"]["reason"]
    assert words in said
    table = (out / "results.md").read_text()
    assert "| blue_door | easy | 1 (+1 harness error) |" in table


def _collect_all(workers, count: int) -> dict:
    results: dict = {}
    deadline = time.monotonic() + 60
    while len(results) < count and time.monotonic() < deadline:
        results.update(workers.finished())
    return results


def _stops_itself(job: dict) -> dict:
    if job["how"] == "stop":
        os.kill(os.getpid(), signal.SIGSTOP)  # frozen: enforces no deadline of its own
    if job["how"] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    return {"played": job["how"]}


@pytest.mark.timeout(60)
def test_a_frozen_worker_is_killed_by_the_watchdog_and_a_dead_one_costs_only_itself(
        tmp_path, monkeypatch) -> None:
    from harness.suite import workers as suite_workers

    monkeypatch.setattr(suite_workers, "WATCHDOG_MARGIN_S", 0.5)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR afresh
    started = time.monotonic()
    with suite_workers.Workers(3, _stops_itself, limit_s=1.0) as workers:
        for how in ("stop", "kill", "play"):
            workers.start(how, {"how": how})
        results = _collect_all(workers, 3)
    assert time.monotonic() - started < 20
    assert "ran past the episode's limit of 1 s by 0.5 s (stopped or stuck)" in results[
        "stop"]["error"]
    assert results["kill"] == {"error": "the worker process was killed by SIGKILL while "
                               "playing this episode"}
    assert results["play"] == {"played": "play"}
    assert list(tmp_path.iterdir()) == []  # every worker's scratch folder is gone


def test_a_stop_while_held_is_noted_and_taken_at_the_next_wait() -> None:
    from harness.core import stopping

    # pytest's own Ctrl-C handler, or the SIG_IGN a pytest-xdist worker runs with.
    before = signal.getsignal(signal.SIGINT)
    with stopping.installed():
        with stopping.held():
            os.kill(os.getpid(), signal.SIGTERM)  # a tick or a record line is under way
            time.sleep(0.05)
            stop = stopping.requested()
            assert stop is not None and stop.name == "SIGTERM" and stop.exit_status == 143
            with pytest.raises(stopping.Interrupted), stopping.interruptible():
                pytest.fail("a wait must not begin once a stop was asked for")
            os.kill(os.getpid(), signal.SIGINT)  # a second signal during clean-up
            time.sleep(0.05)
        assert stopping.requested().name == "SIGTERM"  # the first one counts
    assert stopping.requested() is None  # and it ends with the block
    with stopping.installed():
        assert stopping.requested() is None
        with pytest.raises(stopping.Interrupted, match="2"):
            os.kill(os.getpid(), signal.SIGINT)  # outside an episode: at once
            time.sleep(1)
    # The handlers before are back: pytest's own Ctrl-C works again.
    assert signal.getsignal(signal.SIGINT) is before


def test_a_stop_while_the_world_is_built_leaves_no_empty_run_directory(tmp_path) -> None:
    from harness.core import stopping
    from harness.episode.runner import run

    def stopped_while_building(*_args):
        raise stopping.Interrupted(signal.SIGTERM)

    with pytest.raises(stopping.Interrupted):
        run("outpost", f"{sys.executable} {KILLER} 0 x", out_dir=tmp_path,
            game_factory=stopped_while_building)
    assert list(tmp_path.iterdir()) == []  # the run directory made for it is gone
