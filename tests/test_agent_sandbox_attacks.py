"""Hostile agents against the sandbox as root: the kernel, the host's secrets, its limits.

Each test runs an agent of tests/agents/ that attempts one attack through the real
launcher (sandboxed where bubblewrap works) and asserts that the attack failed, what
the harness said, and that nothing the agent started is left. None of them changes a
host value: files under /proc are opened for writing and closed without a byte written.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.agent import sandbox
from harness.agent.launch import remove_tree
from harness.agent.process import AgentProcess, Line
from harness.agent.sandbox import SandboxSpec, bubblewrap_problem
from harness.agent.sandbox_seccomp import X86_64_DENIED, assemble, filter_bytes
from harness.core.record import read_record
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from harness.suite.files import SuiteLockedError, suite_lock
from tests.proc_scan import live_with, wait_gone
from tests.runner_fakes import FakeGame
from tests.shared import ROOT, TEST_AGENTS

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, episode_timeout_s=60, grace_s=0.2)
needs_bwrap = pytest.mark.skipif(bubblewrap_problem() is not None,
                                 reason=f"no agent sandbox here: {bubblewrap_problem()}")


def agent(name: str, *args: str) -> list[str]:
    return [sys.executable, str(TEST_AGENTS / name), *args]


def settings(**changes: object) -> RunSettings:
    return RunSettings(**{**FAST.to_dict(), "env_passthrough": (), **changes})


@pytest.fixture
def launched(tmp_path: Path) -> Iterator:
    started: list[AgentProcess] = []

    def _launch(argv: list[str], spec: SandboxSpec) -> AgentProcess:
        proc = AgentProcess.start(argv, stderr_path=tmp_path / "stderr.txt",
                                  workdir_parent=tmp_path, sandbox=spec,
                                  env_passthrough=("REACH_FILES",))
        started.append(proc)
        return proc

    yield _launch
    for proc in started:
        proc.close(grace_s=0.0)


def grandchildren(token: str) -> list[int]:
    """The snooping agent's sleeping grandchildren (not the harness, whose command has TOKEN)."""
    found = []
    for pid in live_with(token):
        with contextlib.suppress(OSError):
            if b"sleep(600)" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
    return found


def report(proc: AgentProcess) -> dict:
    event = proc.read_line(time.monotonic() + 60)
    assert isinstance(event, Line), (event, proc.stderr_tail())
    return json.loads(event.text)


@needs_bwrap
def test_a_root_agent_cannot_write_proc_nor_reach_the_kernel_past_its_sandbox(launched) -> None:
    found = report(launched(agent("kernel_reach_agent.py"), SandboxSpec(True)))
    # /proc/sys (kernel.core_pattern runs a program as root on the host), sysrq-trigger,
    # pressure triggers: none opens for writing.
    assert found["proc_writable"] == []
    assert found["userns"] == {"ok": False}
    assert found["ptrace_pid1"] == {"ok": False, "errno": errno.EPERM}
    assert found["add_key"] == {"ok": False, "errno": errno.EPERM}
    assert found["user_keyring"] == {"ok": False, "errno": errno.EPERM}
    # Its parent, the launcher that reports its end, is not dumpable: no way into its memory.
    assert found["parent_mem"]["ok"] is False and found["init_mem"]["ok"] is False


@needs_bwrap
def test_an_agent_kept_in_the_home_folder_cannot_read_what_lies_beside_it(
    launched, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    cache = home / ".cache" / "mission-harness" / "reference" / "outpost.jsonl"
    token = home / ".ray" / "session_latest" / "token"
    beside = home / "notes.txt"
    project_secret = home / "proj" / ".env"
    for path in (cache, token, beside, project_secret):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("secret")
    monkeypatch.setenv("HOME", str(home))
    script = home / "agent.py"
    shutil.copy(TEST_AGENTS / "kernel_reach_agent.py", script)
    in_project = home / "proj" / "agent.py"
    shutil.copy(TEST_AGENTS / "kernel_reach_agent.py", in_project)
    paths = [str(p) for p in (cache, token, beside, project_secret, in_project)]
    monkeypatch.setenv("REACH_FILES", ":".join(paths))
    found = report(launched([sys.executable, str(script)], SandboxSpec(True)))
    # The home folder is never bound whole: only the agent's own file is there.
    assert {p: v["ok"] for p, v in found["files"].items()} == {
        str(cache): False, str(token): False, str(beside): False, str(project_secret): False,
        str(in_project): False}
    # A project folder of its own is bound, but not its dot-entries.
    monkeypatch.setenv("REACH_FILES", f"{project_secret}:{in_project}")
    found = report(launched([sys.executable, str(in_project)], SandboxSpec(True)))
    assert found["files"][str(project_secret)]["ok"] is False
    assert found["files"][str(in_project)]["ok"] is True


@needs_bwrap
def test_filling_its_working_folder_is_the_agents_resource_limit(tmp_path: Path) -> None:
    summary = run("outpost", " ".join(agent("disk_filler_agent.py", "48")), out_dir=tmp_path,
                  settings=settings(agent_disk_mb=16), game_factory=FakeGame)
    assert summary["outcome"] == "resource_limit"
    error = summary["agent_error"]
    assert error["kind"] == "disk_limit" and error["turn"] == 0
    assert "limit of 16 MiB" in error["message"] and "--agent-disk-mb" in error["message"]
    log = Path(summary["stderr_log"]).read_text()
    assert "No space left on device" in log
    assert int(log.split("FILLED ")[1].split()[0]) <= 16
    record = read_record(summary["run_dir"])  # the harness's own writes are whole
    assert record.end["summary"]["outcome"] == "resource_limit"
    assert record.header["isolation"]["disk_limit_mb"] == 16
    report = replay(summary["run_dir"], game_factory=FakeGame)  # the new ending replays
    assert report.verified, report.divergence


@pytest.mark.parametrize("bubblewrap", [
    pytest.param(True, marks=needs_bwrap), False], ids=["sandboxed", "fallback"])
def test_too_many_processes_end_the_agent_and_all_of_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bubblewrap: bool
) -> None:
    if not bubblewrap:
        monkeypatch.setattr(sandbox, "BWRAP", "no-such-bwrap-here")
        bubblewrap_problem.cache_clear()
    token = f"spawn-{secrets.token_hex(6)}"
    try:
        summary = run("outpost", " ".join(agent("process_spawner_agent.py", token, "12")),
                      out_dir=tmp_path, settings=settings(agent_max_processes=6),
                      game_factory=FakeGame)
    finally:
        bubblewrap_problem.cache_clear()
    assert summary["outcome"] == "resource_limit"
    assert summary["agent_error"]["kind"] == "processes_limit"
    assert "limit of 6 processes" in summary["agent_error"]["message"]
    assert "--agent-max-processes" in summary["agent_error"]["message"]
    assert live_with(token) == []


@needs_bwrap
def test_memory_held_by_many_processes_counts_against_the_agent_as_a_whole(
    tmp_path: Path,
) -> None:
    # Three processes of 80 MiB each stay under the address-space limit of one process.
    token = f"hog-{secrets.token_hex(6)}"
    summary = run("outpost", " ".join(agent("memory_hog_agent.py", token, "3", "80")),
                  out_dir=tmp_path, settings=settings(agent_memory_mb=160),
                  game_factory=FakeGame)
    assert summary["outcome"] == "resource_limit"
    assert summary["agent_error"]["kind"] == "memory_limit"
    assert "limit of 160 MiB" in summary["agent_error"]["message"]
    assert live_with(token) == []


def test_cpu_time_past_its_limit_ends_the_agent(tmp_path: Path) -> None:
    summary = run("outpost", " ".join(agent("cpu_burner_agent.py")), out_dir=tmp_path,
                  settings=settings(agent_cpu_s=1), game_factory=FakeGame)
    assert summary["outcome"] == "resource_limit"
    assert summary["agent_error"]["kind"] == "cpu_time_limit"
    assert "limit of 1 s" in summary["agent_error"]["message"]
    assert "--agent-cpu-s" in summary["agent_error"]["message"]


def test_a_memory_error_the_agent_prints_itself_is_not_a_memory_limit(tmp_path: Path) -> None:
    summary = run("outpost", " ".join(agent("fake_memory_error_agent.py")), out_dir=tmp_path,
                  settings=settings(agent_memory_mb=256), game_factory=FakeGame)
    assert summary["outcome"] == "agent_crashed"
    assert summary["agent_error"]["kind"] == "exited"


def test_cleanup_never_follows_the_agents_links(launched, tmp_path: Path) -> None:
    # Without bubblewrap its working folder is a host folder it can fill with links.
    victim = tmp_path / "victim"
    victim.mkdir()
    victim.chmod(0o1777)
    (victim / "keep.txt").write_text("kept")
    target = tmp_path / "target.txt"
    target.write_text("kept")
    proc = launched(agent("link_planter_agent.py", str(victim), str(target)),
                    SandboxSpec(False))
    assert proc.read_line(time.monotonic() + 30) == Line("planted", b"planted")
    proc.close(grace_s=0.2)
    assert not proc.workdir.exists()
    assert victim.stat().st_mode & 0o7777 == 0o1777
    assert (victim / "keep.txt").read_text() == "kept" and target.read_text() == "kept"


def test_remove_tree_of_a_link_removes_only_the_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir(mode=0o755)
    deep = tmp_path / "deep"
    path = deep
    for _ in range(200):  # deep enough that a recursive walk would be costly
        path = path / "d"
    path.mkdir(parents=True)
    (tmp_path / "link").symlink_to(victim)
    remove_tree(str(tmp_path / "link"))
    remove_tree(str(deep))
    assert victim.is_dir() and victim.stat().st_mode & 0o777 == 0o755
    assert not (tmp_path / "link").exists() and not deep.exists()


def test_a_planted_lock_link_is_refused_and_its_target_kept(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    target = tmp_path / "precious.txt"
    target.write_text("precious")
    (out / ".lock").symlink_to(target)
    with pytest.raises(SuiteLockedError, match=r"cannot use .*\.lock as its lock"), \
            suite_lock(out):
        pass
    (out / ".lock").unlink()
    os.link(target, out / ".lock")
    with pytest.raises(SuiteLockedError, match="not a plain file of its own"), suite_lock(out):
        pass
    assert target.read_text() == "precious"


def test_without_bubblewrap_a_setsid_grandchild_dies_with_the_episode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sandbox, "BWRAP", "no-such-bwrap-here")
    bubblewrap_problem.cache_clear()
    token = f"snoop-{secrets.token_hex(6)}"
    command = " ".join(agent("snooping_agent.py", token, str(tmp_path / "x"), str(tmp_path)))
    try:
        summary = run("outpost", command, out_dir=tmp_path / "runs", settings=FAST,
                      game_factory=FakeGame)
    finally:
        bubblewrap_problem.cache_clear()
    assert summary["outcome"] == "truncated"
    assert read_record(summary["run_dir"]).header["isolation"]["sandbox"] == "none"
    assert live_with(token) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM,
                                 pytest.param(signal.SIGINT, marks=pytest.mark.slow)])
def test_without_bubblewrap_a_setsid_grandchild_dies_when_the_harness_is_stopped(
    tmp_path: Path, sig: signal.Signals
) -> None:
    token = f"snoop-{secrets.token_hex(6)}"
    command = " ".join(agent("snooping_agent.py", token, str(tmp_path / "x"), str(tmp_path)))
    code = ("import sys; from harness.agent import sandbox; sandbox.BWRAP = 'no-such-bwrap-here'; "
            "from harness.cli import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.Popen([sys.executable, "-c", code, "run", "outpost", "--agent", command,
                             "--out", str(tmp_path / "runs"), "--decision-timeout", "60"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not grandchildren(token) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert grandchildren(token), "the grandchild never started"
    proc.send_signal(sig)
    proc.wait(timeout=30)
    assert wait_gone(token, 5.0) == []


def test_the_filter_checks_the_architecture_and_denies_by_number() -> None:
    program = filter_bytes("x86_64")
    assert program is not None and len(program) % 8 == 0
    assert filter_bytes("aarch64") is None  # no numbers written for it: no filter
    words = [int.from_bytes(program[i + 4:i + 8], "little") for i in range(0, len(program), 8)]
    assert words[:2] == [4, 0xC000003E]  # load arch, compare with AUDIT_ARCH_X86_64
    for number in (X86_64_DENIED["ptrace"], X86_64_DENIED["keyctl"], X86_64_DENIED["add_key"]):
        assert number in words
    with pytest.raises(ValueError, match="unknown label"):
        assemble([(0x15, "nowhere", 0, 1)])
