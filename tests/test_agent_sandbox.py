"""The agent's reach: inside bubblewrap a hostile agent sees only itself and dies whole.

Each hostile test asserts what the agent got (or did not), what the harness said, and
that nothing it started is still running afterwards.
"""

from __future__ import annotations

import json
import resource
import secrets
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.agent import sandbox
from harness.agent.process import AgentLaunchError, AgentProcess, Eof, Line
from harness.agent.sandbox import SandboxSpec, bubblewrap_problem
from harness.agent.sandbox_fs import MountPlan
from harness.cli import main
from harness.core.record import read_record
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.proc_scan import live_with
from tests.runner_fakes import FakeGame
from tests.shared import ROOT, TEST_AGENTS, shipped_path

AGENTS = TEST_AGENTS
LEVEL = shipped_path("outpost")
FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, episode_timeout_s=60, grace_s=0.2)
needs_bwrap = pytest.mark.skipif(bubblewrap_problem() is not None,
                                 reason=f"no agent sandbox here: {bubblewrap_problem()}")


def python_agent(name: str, *args: str) -> list[str]:
    return [sys.executable, str(AGENTS / name), *args]


def wait_until(check, seconds: float = 15.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    return check()


def report_of(stderr: str) -> dict:
    (line,) = [x for x in stderr.splitlines() if x.startswith("REPORT ")]
    return json.loads(line[len("REPORT "):])


@pytest.fixture
def sandboxed(tmp_path: Path) -> Iterator:
    started: list[AgentProcess] = []

    def _launch(argv: list[str], spec: SandboxSpec | None = None) -> AgentProcess:
        proc = AgentProcess.start(argv, stderr_path=tmp_path / "stderr.txt",
                                  workdir_parent=tmp_path, sandbox=spec or SandboxSpec(True))
        started.append(proc)
        return proc

    yield _launch
    for proc in started:
        proc.close(grace_s=0.0)


@pytest.fixture
def no_bubblewrap(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(sandbox, "BWRAP", "no-such-bwrap-here")
    bubblewrap_problem.cache_clear()
    yield
    monkeypatch.undo()
    bubblewrap_problem.cache_clear()


@needs_bwrap
def test_sandboxed_channel_keeps_exit_codes_and_closed_stdout(sandboxed) -> None:
    # The agent's pipes reach it over a socket, so bubblewrap holds no copy of stdout:
    # closing it is end of file at once, and exit statuses come through unchanged.
    crash = sandboxed(python_agent("crash_agent.py"))
    assert crash.read_line(time.monotonic() + 10) == Eof(returncode=3)
    assert "something went badly wrong" in crash.stderr_tail()
    closer = sandboxed(python_agent("close_stdout_agent.py"))
    assert isinstance(closer.read_line(time.monotonic() + 10), Line)
    assert closer.read_line(time.monotonic() + 10) == Eof(returncode=None)
    assert closer.returncode is None
    assert closer.close(grace_s=0.2) == -15
    echo = sandboxed([str(AGENTS / "echo_agent.py")])
    echo.send_line('{"a": 1}')
    assert echo.read_line(time.monotonic() + 10) == Line('{"a": 1}', b'{"a": 1}')
    assert echo.close() == 0
    assert echo.isolation == {"sandbox": "bubblewrap", "pid_namespace": True,
                              "filesystem": "minimal", "network": "shared",
                              "memory_limit_mb": None, "reason": None,
                              "syscall_filter": True, "disk_limit_mb": None,
                              "max_processes": None, "cpu_limit_s": None}


@needs_bwrap
def test_sandboxed_agent_ignoring_sigterm_is_killed(sandboxed) -> None:
    proc = sandboxed(python_agent("ignore_sigterm_agent.py"))
    assert isinstance(proc.read_line(time.monotonic() + 10), Line)
    start = time.monotonic()
    assert proc.close(grace_s=0.2) == -9
    assert time.monotonic() - start < 3.0
    assert not proc.workdir.exists()


@needs_bwrap
def test_sandbox_exec_failure_is_a_launch_error(tmp_path: Path) -> None:
    script = tmp_path / "broken"
    script.write_text("#!/nonexistent/interpreter\n")
    script.chmod(0o755)
    with pytest.raises(AgentLaunchError, match=r"cannot execute agent program .*broken.*: No "):
        AgentProcess.start(str(script), stderr_path=tmp_path / "e.txt", workdir_parent=tmp_path,
                           sandbox=SandboxSpec(True))
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("agent-")] == []


@needs_bwrap
def test_a_snooping_agent_reaches_nothing_of_the_harness(
    sandboxed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HARNESS_TEST_SECRET", "s3cret-do-not-leak")
    run_dir = tmp_path / "runs" / "r1"
    run_dir.mkdir(parents=True)
    token = f"snoop-{secrets.token_hex(6)}"
    hidden = (run_dir, run_dir.parent, LEVEL)
    with open(run_dir / "record.jsonl", "w") as record:  # held open, as the harness does
        record.write('{"kind": "header"}\n')
        record.flush()
        proc = sandboxed(python_agent("snooping_agent.py", token, str(LEVEL), str(run_dir)),
                         SandboxSpec(True, 512, hidden))
        report = report_of(wait_until(lambda: "REPORT " in proc.stderr_tail(200_000)
                                      and proc.stderr_tail(200_000)))
        seen = report["proc"]
        # Its own PID namespace: the warden (its init), the agent and what it started.
        assert seen["pids"][:2] == [1, 2] and len(seen["pids"]) <= 4
        assert not seen["parent_environ"]["ok"]  # its parent, the warden, is not dumpable
        texts = [v["value"] for v in seen["environ"].values() if v["ok"]]
        assert texts and not any("s3cret" in text for text in texts)
        commands = [v["value"] for v in seen["cmdline"].values() if v["ok"]]
        assert Path("/proc/self/cmdline").read_text() not in commands
        assert not any("--bind" in text for text in commands)  # no mount plan shown
        targets = [t for v in seen["fds"].values() if v["ok"] for t in v["value"]]
        assert not any("record.jsonl" in t or str(tmp_path / "runs") in t for t in targets)
        for attack in ("level_file", "shipped_level", "levels_dir", "harness_source",
                       "world_source", "schemas", "run_dir_listing", "run_dir_write"):
            assert not report[attack]["ok"], (attack, report[attack])
        assert "No such file" in report["harness_source"]["error"]
        assert report["agent_kit"]["ok"]  # the one part of the harness agents may import
        # The setsid double-forked grandchild is alive while the agent is ...
        assert wait_until(lambda: live_with(token))
        # The agent lingers 0.2 s after its stdin closes: a grace as long raced it and
        # sometimes saw a clean exit, so a shorter one makes the SIGTERM certain.
        assert proc.close(grace_s=0.05) == -15
    # ... and gone with it; the run directory holds only what the harness wrote.
    assert live_with(token) == []
    assert sorted(p.name for p in run_dir.iterdir()) == ["record.jsonl"]
    assert not proc.workdir.exists()


@needs_bwrap
def test_an_episode_with_a_snooping_agent_leaves_its_record_and_machine_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HARNESS_TEST_SECRET", "s3cret-do-not-leak")
    token = f"snoop-{secrets.token_hex(6)}"
    out = tmp_path / "runs"
    command = " ".join(python_agent("snooping_agent.py", token, str(LEVEL), str(out)))
    summary = run("outpost", command, out_dir=out, settings=FAST, game_factory=FakeGame)
    assert summary["outcome"] == "truncated" and summary["agent_error"] is None
    record = read_record(summary["run_dir"])
    assert record.header["isolation"]["sandbox"] == "bubblewrap"
    assert record.header["isolation"]["memory_limit_mb"] == 2048
    assert record.end["summary"]["outcome"] == "truncated"
    report = report_of(Path(summary["stderr_log"]).read_text())
    assert not report["run_dir_write"]["ok"] and not report["level_file"]["ok"]
    assert sorted(p.name for p in Path(summary["run_dir"]).iterdir()) == [
        "agent_stderr.log", "index.html", "record.jsonl.gz", "record.seal", "secret"]  # its own
    assert live_with(token) == []


@needs_bwrap
def test_a_memory_bomb_ends_as_an_agent_error_naming_the_limit(tmp_path: Path) -> None:
    token = f"bomb-{secrets.token_hex(6)}"
    before = resource.getrlimit(resource.RLIMIT_AS)
    settings = RunSettings(**{**FAST.to_dict(), "env_passthrough": (), "agent_memory_mb": 256})
    command = " ".join(python_agent("memory_bomb_agent.py", token))
    summary = run("outpost", command, out_dir=tmp_path, settings=settings, game_factory=FakeGame)
    assert summary["outcome"] == "agent_crashed"
    assert summary["agent_error"]["turn"] == 0
    # Only its own log says MemoryError, which any agent can print: the kind stays
    # "exited" and the message names the limit.
    assert summary["agent_error"]["kind"] == "exited"
    message = summary["agent_error"]["message"]
    assert "MemoryError" in message and "limited to 256 MiB" in message
    assert "--agent-memory-mb" in message
    assert resource.getrlimit(resource.RLIMIT_AS) == before  # the harness is not limited
    assert read_record(summary["run_dir"]).header["isolation"]["memory_limit_mb"] == 256
    assert live_with(token) == []


def test_without_bubblewrap_the_run_says_so_once_and_the_record_says_none(
    tmp_path: Path, capsys, no_bubblewrap
) -> None:
    # The memory limit still applies, through the same launcher without a sandbox.
    token = f"bomb-{secrets.token_hex(6)}"
    command = " ".join(python_agent("memory_bomb_agent.py", token))
    out = tmp_path / "runs"
    argv = ["run", "exit_switch", "--agent", command, "--out", str(out), "--json",
            "--agent-memory-mb", "256"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if "NOT sandboxed" in line]
    assert warnings == [
        "harness run: the agent is NOT sandboxed (no-such-bwrap-here is not installed (Debian "
        "package bubblewrap)): it runs in its own process group with a scrubbed environment "
        "and can read what this user can"]
    summary = json.loads(captured.out)
    assert summary["outcome"] == "agent_crashed"
    assert summary["agent_error"]["kind"] == "exited"
    isolation = read_record(summary["run_dir"]).header["isolation"]
    assert isolation == {"sandbox": "none", "pid_namespace": False, "filesystem": "host",
                         "network": "shared", "memory_limit_mb": 256,
                         "reason": "no-such-bwrap-here is not installed (Debian package "
                                   "bubblewrap)", "syscall_filter": False,
                         "disk_limit_mb": None, "max_processes": 128, "cpu_limit_s": None}
    assert live_with(token) == []


@pytest.mark.parametrize("command", [("run", "exit_switch"), ("eval", "--levels", "exit_switch")])
def test_require_sandbox_refuses_to_play_without_bubblewrap(
    tmp_path: Path, capsys, no_bubblewrap, command
) -> None:
    out = tmp_path / "runs"
    argv = [*command, "--agent", " ".join(python_agent("echo_agent.py")), "--out", str(out),
            "--require-sandbox"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.strip() == (f"harness {command[0]}: --require-sandbox: the agent cannot be "
                           "sandboxed: no-such-bwrap-here is not installed (Debian package "
                           "bubblewrap)")
    assert not out.exists()
    with pytest.raises(Exception, match="--require-sandbox: the agent cannot be sandboxed"):
        run("exit_switch", " ".join(python_agent("echo_agent.py")), out_dir=out,
            settings=RunSettings(require_sandbox=True), game_factory=FakeGame)
    assert not out.exists()


def binds(args: list[str]) -> list[str]:
    return [args[i + 1] for i, a in enumerate(args) if a in ("--ro-bind", "--bind")]


def test_mount_plan_binds_agent_code_but_never_a_folder_holding_hidden_paths(
    tmp_path: Path,
) -> None:
    run_dir = tmp_path / "runs" / "r1"
    run_dir.mkdir(parents=True)
    (tmp_path / "pkg").mkdir()
    beside_runs, packaged = tmp_path / "agent.py", tmp_path / "pkg" / "agent.py"
    for script in (beside_runs, packaged):
        script.write_text("print()\n")
    workdir = tmp_path / "work"
    workdir.mkdir()
    plan = MountPlan(workdir, (run_dir, LEVEL))
    args = plan.build([sys.executable, str(beside_runs), str(packaged), str(LEVEL),
                       str(ROOT / "harness" / "episode" / "live.py"),
                       str(ROOT / "tests" / "x.json")])
    bound = binds(args)
    # The folder holding the runs gets only the script bound; a folder of its own is bound.
    assert str(beside_runs) in bound and str(tmp_path) not in bound
    assert str(tmp_path / "pkg") in bound
    # Level files, the harness's source and the checkout are never bound.
    assert not any(b == str(ROOT) or b.startswith(str(ROOT / "levels")) for b in bound)
    assert str(ROOT / "harness" / "episode" / "live.py") not in bound
    assert [b for b in bound if b.startswith(str(ROOT / "harness"))] == [
        str(ROOT / "harness" / part) for part in (
            "__init__.py", "agent/__init__.py", "agent/kit.py", "offline/__init__.py",
            "offline/quiz_rules.py")]
    # Nothing of the host is writable: its working folder is a tmpfs of its own.
    assert args[args.index(str(workdir)) - 1] == "--tmpfs"
    assert [b for b in bound if args[args.index(b) - 1] == "--bind"] == []


def test_mount_plan_covers_an_installed_package_whole_without_naming_what_is_inside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As when the harness is installed from a wheel: its packages, with the levels inside
    # `world`, lie in the interpreter's prefix, which the agent sees.
    prefix = tmp_path / "venv"
    world = prefix / "site-packages" / "world"
    level = world / "_data" / "levels" / "outpost.json"
    level.parent.mkdir(parents=True)
    level.write_text("{}")
    monkeypatch.setattr("harness.agent.sandbox_fs.interpreter_prefixes", lambda: [prefix])
    workdir = tmp_path / "work"
    workdir.mkdir()
    args = MountPlan(workdir, (world, level.parent, level)).build([sys.executable])
    assert str(prefix) in binds(args)
    assert args[args.index(str(world)) - 1] == "--tmpfs"
    # A mount inside the covered folder would make its name show there.
    assert not any(a.startswith(str(world / "_data")) for a in args)


@needs_bwrap
def test_the_network_is_shared_unless_cut_off(sandboxed) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = str(server.getsockname()[1])
        shared = sandboxed(python_agent("network_agent.py", port))
        assert json.loads(shared.read_line(time.monotonic() + 10).text)["connected"]
        cut = sandboxed(python_agent("network_agent.py", port), SandboxSpec(True, network=False))
        report = json.loads(cut.read_line(time.monotonic() + 10).text)
        # Its own network namespace holds only its own loopback: the host's listener is
        # not there.
        assert report == {"connected": False, "error": "Connection refused"}
        assert cut.isolation["network"] == "none" and shared.isolation["network"] == "shared"
        assert cut.close(grace_s=0.2) == 0


def test_no_agent_network_refuses_to_play_without_bubblewrap(
    tmp_path: Path, capsys, no_bubblewrap
) -> None:
    out = tmp_path / "runs"
    argv = ["run", "exit_switch", "--agent", " ".join(python_agent("echo_agent.py")),
            "--out", str(out), "--no-agent-network"]
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == (
        "harness run: --no-agent-network needs the agent sandbox: no-such-bwrap-here is not "
        "installed (Debian package bubblewrap)")
    assert not out.exists()


def test_an_unusable_bubblewrap_is_named_with_its_own_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_bubblewrap
) -> None:
    # As where the kernel forbids user namespaces: bubblewrap is there but fails.
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\n"
                    "exit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(sandbox, "BWRAP", str(fake))
    bubblewrap_problem.cache_clear()
    expected = f"{fake} cannot make a sandbox here: bwrap: No permissions to create a new namespace"
    assert bubblewrap_problem() == expected
    spec = sandbox.plan(128)
    assert spec.isolation() == {"sandbox": "none", "pid_namespace": False, "filesystem": "host",
                                "network": "shared", "memory_limit_mb": 128, "reason": expected,
                                "syscall_filter": False, "disk_limit_mb": None,
                                "max_processes": None, "cpu_limit_s": None}
