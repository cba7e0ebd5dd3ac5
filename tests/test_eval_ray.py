"""`harness eval --backend ray`: the same episodes and results as the local backend, a
worker that dies retried once and recorded once, resume across backends, the agent
checked on the workers before anything is played, and Ray kept out of the rest.

The tests that start Ray are slow (a local instance takes seconds to start); the quick
ones never import it.
"""

from __future__ import annotations

import json
import os
import shutil
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
from tests.proc_scan import live_with, wait_gone
from tests.shared import ROOT, SHIPPED_AGENTS, TEST_AGENTS, python_agent

# Each Ray test starts its own local Ray instance: under pytest-xdist they share a worker.
pytestmark = pytest.mark.xdist_group("ray")

AGENT = python_agent(SHIPPED_AGENTS / "random_agent.py")
GO_AGENT = TEST_AGENTS / "go_file_agent.py"
SUITE = ["--levels", "exit_switch,blue_door", "--difficulties", "easy", "--seeds", "2",
         "--jobs", "2"]


def _eval(out: Path, *extra: str, agent: str = AGENT) -> int:
    return main(["eval", "--agent", agent, *SUITE, "--out", str(out), *extra])


def _played(out: Path) -> dict[tuple[str, int], tuple[str, float, str, str]]:
    """(level, seed) -> outcome, score, final state hash (from the record), run dir."""
    rows = json.loads((out / "results.json").read_text())["episodes"]
    found = {}
    for row in rows:
        end = json.loads(record_text(Path(row["run_dir"])).splitlines()[-1])
        found[(row["level"], row["seed"])] = (row["outcome"], row["score"],
                                              end["final_state_hash"], row["run_dir"])
    return found


def _truncate(run_dir: str) -> None:
    record = Path(run_dir) / "record.jsonl.gz"
    lines = record_text(record).splitlines()
    record.write_text("\n".join(lines[:-1]) + "\n")  # no end line: an interrupted run


def test_ray_backend_without_ray_names_the_extra(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if not installed
    assert _eval(tmp_path / "suite", "--backend", "ray") == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0, err  # one line
    assert "--backend ray needs Ray" in err and "pip install 'mission-harness[ray]'" in err
    assert "Traceback" not in err
    assert not (tmp_path / "suite" / "episodes").exists()  # nothing was played


@pytest.mark.parametrize("flags, named", [
    (["--address", "auto"], "--address"), (["--cpus-per-episode", "2"], "--cpus-per-episode")])
def test_ray_options_need_the_ray_backend(tmp_path: Path, capsys, flags, named) -> None:
    assert _eval(tmp_path / "suite", *flags) == 2
    err = capsys.readouterr().err
    assert f"harness eval: {named} need --backend ray" in err


@pytest.mark.parametrize("value", ["0", "-1", "nan", "x", "65"])
def test_cpus_per_episode_must_be_a_share_of_cpus(tmp_path: Path, capsys, value) -> None:
    with pytest.raises(SystemExit) as stop:
        _eval(tmp_path / "suite", "--backend", "ray", "--cpus-per-episode", value)
    assert stop.value.code == 2
    assert "must be a number of CPUs above 0 and at most 64" in capsys.readouterr().err


def test_the_harness_never_imports_ray_unless_asked() -> None:
    code = ("import sys; from harness import cli; "
            "from harness.suite import eval_cmd, plan, workers; "
            "cli.build_parser(); print('ray' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


def test_a_run_directory_lands_whole_and_never_outside(tmp_path: Path) -> None:
    from harness.suite.ray import land

    out, folder = tmp_path / "out", tmp_path / "out" / "episodes" / "x" / "easy" / "s0"
    run_dir = land(out, folder, "x-easy-s0-1", {"record.jsonl.gz": b"r", "pages/a.txt": b"a"})
    assert run_dir == folder / "x-easy-s0-1"
    assert (run_dir / "pages" / "a.txt").read_bytes() == b"a"
    assert not (out / ".incoming").exists()
    for name, files in (("..", {}), ("../up", {}), ("ok", {"../escape": b"x"}),
                        ("ok", {"/abs": b"x"}), ("ok", {"": b"x"})):
        with pytest.raises(ValueError, match="is not allowed"):
            land(out, folder, name, files)
    assert sorted(p.name for p in folder.iterdir()) == ["x-easy-s0-1"]
    assert not (tmp_path / "escape").exists()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_local_and_ray_play_the_same_suite_and_resume_each_other(tmp_path: Path,
                                                                 capsys) -> None:
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    assert _eval(local) == 0
    assert _eval(on_ray, "--backend", "ray") == 0
    err = capsys.readouterr().err
    assert "4/4 episodes · " in err  # the same progress line
    a, b = _played(local), _played(on_ray)
    assert len(a) == 4
    assert {k: v[:3] for k, v in a.items()} == {k: v[:3] for k, v in b.items()}
    for run_dir in (v[3] for v in b.values()):  # written under --out, as the local backend does
        assert Path(run_dir).parent.parent.parent.parent == on_ray / "episodes"
    assert not list(on_ray.glob(".incoming*"))

    # An interrupted local suite resumes on Ray, and an interrupted Ray suite locally.
    for out, other in ((local, ["--backend", "ray"]), (on_ray, [])):
        before = _played(out)
        victim = ("blue_door", 1)
        _truncate(before[victim][3])
        assert _eval(out, *other) == 0
        after = _played(out)
        assert after[victim][:3] == before[victim][:3]
        assert after[victim][3] != before[victim][3]  # played again ...
        assert {k: v for k, v in after.items() if k != victim} == {
            k: v for k, v in before.items() if k != victim}  # ... and only that one
        assert len(list((out / "set_aside").rglob("record.jsonl.gz"))) == 1
        assert "3 of 4 episodes were finished by an earlier run" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_missing_agent_fails_the_ray_suite_at_once(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "nowhere" / "agent.py"
    assert _eval(tmp_path / "suite", "--backend", "ray",
                 agent=f"{sys.executable} {missing}") == 2
    err = capsys.readouterr().err
    assert "the agent command does not resolve on node" in err
    assert str(missing) in err and "Traceback" not in err
    assert not (tmp_path / "suite" / "episodes").exists()


def _argv(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def _ray_worker_of(agent_pid: int) -> int | None:
    # Up from the agent (through the sandbox and the episode's forked process) to the
    # outermost `ray::` process: the Ray worker that runs the task.
    pid, worker = agent_pid, None
    while pid > 1:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            argv = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return worker
        if argv.startswith(b"ray::"):
            worker = pid
        elif worker is not None:
            return worker
        pid = int(stat[1])
    return worker


def _start_held_suite(tmp_path: Path, seeds: int, mark: str | None = None
                      ) -> tuple[subprocess.Popen, str, Path, Path]:
    """A Ray suite of blue_door easy whose agents hold turn 0 until `gate/go` exists.

    Returns the suite's process, the agents' marker, the gate folder and the scratch
    folder (TMPDIR of the suite: short, since Ray's socket paths under it must fit in
    107 bytes; the caller removes it).
    """
    mark = mark or f"mark-{uuid.uuid4().hex}"
    gate = tmp_path / "gate"
    gate.mkdir(exist_ok=True)
    (gate / "ready").write_text("")
    scratch = Path(tempfile.mkdtemp(prefix="hr", dir="/tmp"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness.cli", "eval", "--backend", "ray", "--levels",
         "blue_door", "--difficulties", "easy", "--seeds", str(seeds), "--jobs", str(seeds),
         "--out", str(tmp_path / "suite"),
         "--agent", f"{sys.executable} {GO_AGENT} {gate / 'ready'} {mark}"],
        cwd=ROOT, env={**os.environ, "TMPDIR": str(scratch)}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    return proc, mark, gate, scratch


def _held_agents(proc: subprocess.Popen, mark: str, count: int) -> list[int]:
    # The agents themselves, not the suite's process or bubblewrap that name them too.
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        agents = [p for p in live_with(mark) if _argv(p)[1:2] == [str(GO_AGENT)]]
        if len(agents) >= count:
            return agents
        time.sleep(0.2)
    raise AssertionError(f"no {count} agents of Ray tasks appeared")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_ray_worker_that_dies_mid_episode_is_retried_once_and_recorded_once(
        tmp_path: Path) -> None:
    out = tmp_path / "suite"
    proc, mark, gate, scratch = _start_held_suite(tmp_path, seeds=1)
    try:
        worker = _ray_worker_of(_held_agents(proc, mark, 1)[0])
        assert worker is not None
        os.kill(worker, signal.SIGKILL)  # the worker dies mid-episode (the agent holds turn 0)
        (gate / "go").write_text("")  # the retry's agent plays on
        _, stderr = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
        left = list(scratch.glob("harness-ray-*"))
        shutil.rmtree(scratch, ignore_errors=True)
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr
    rows = json.loads((out / "results.json").read_text())["episodes"]
    assert [(r["seed"], r["outcome"]) for r in rows] == [(0, "truncated")]
    records = sorted(out.rglob("record.jsonl.gz"))
    assert [Path(rows[0]["run_dir"]) / "record.jsonl.gz"] == records  # recorded once
    assert not wait_gone(mark)  # the first attempt's agent too
    assert not left


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_a_stopped_ray_suite_leaves_nothing_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "suite"
    proc, mark, gate, scratch = _start_held_suite(tmp_path, seeds=2)
    try:
        _held_agents(proc, mark, 2)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=120)
        left = list(scratch.glob("harness-ray-*"))
    finally:
        if proc.poll() is None:
            proc.kill()
        shutil.rmtree(scratch, ignore_errors=True)
    assert proc.returncode == 143, stderr
    assert "interrupted by SIGTERM" in stderr and "Traceback" not in stderr
    assert not (out / "results.json").exists()  # an interrupted suite claims no results
    assert not wait_gone(mark)  # every agent ended
    assert not left  # and every scratch folder removed
    assert not list(out.rglob("record.jsonl.gz"))  # no episode finished, none recorded

    (gate / "go").write_text("")
    proc, _mark, _gate, scratch = _start_held_suite(tmp_path, seeds=2, mark=mark)
    try:
        _, stderr = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
        shutil.rmtree(scratch, ignore_errors=True)
    assert proc.returncode == 0, stderr
    rows = json.loads((out / "results.json").read_text())["episodes"]
    assert [(r["seed"], r["outcome"]) for r in rows] == [(0, "truncated"), (1, "truncated")]
    assert len(list(out.rglob("record.jsonl.gz"))) == 2
