"""Tests for the agent process channel, driven by small misbehaving agents."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.agent import process as agent_process
from harness.agent.process import (
    AgentLaunchError,
    AgentProcess,
    Eof,
    Line,
    LineTooLong,
    NotUtf8,
    Timeout,
)
from tests.shared import TEST_AGENTS

AGENTS = TEST_AGENTS
GRACE = 0.2


def soon(seconds: float = 5.0) -> float:
    return time.monotonic() + seconds


def agent(name: str) -> str:
    return str(AGENTS / name)


def running(pid: int) -> bool:
    """Whether a pid is a live process (an unreaped zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in (b"Z", b"X")


@pytest.fixture
def launch(tmp_path: Path) -> Iterator:
    started: list[AgentProcess] = []

    def _launch(command: str | list[str], **kwargs) -> AgentProcess:
        kwargs.setdefault("stderr_path", tmp_path / "stderr.txt")
        kwargs.setdefault("workdir_parent", tmp_path)
        proc = AgentProcess.start(command, **kwargs)
        started.append(proc)
        return proc

    yield _launch
    for proc in started:
        proc.close(grace_s=0.0)


def test_echo_round_trip_and_clean_exit(launch) -> None:
    proc = launch(agent("echo_agent.py"))
    assert proc.returncode is None
    assert proc.send_line('{"type": "hello", "text": "héllo"}')
    event = proc.read_line(soon())
    assert event == Line(
        text='{"type": "hello", "text": "héllo"}',
        raw='{"type": "hello", "text": "héllo"}'.encode(),
    )
    assert json.loads(event.text)["type"] == "hello"
    assert proc.close() == 0
    assert proc.close() == 0  # idempotent
    assert not proc.send_line("{}")
    assert isinstance(proc.read_line(soon()), Eof)


def test_crash_before_writing_gives_eof_with_exit_code(launch, tmp_path: Path) -> None:
    proc = launch(agent("crash_agent.py"))
    assert proc.read_line(soon()) == Eof(returncode=3)
    assert proc.read_line(soon()) == Eof(returncode=3)  # sticky
    proc.close(grace_s=GRACE)
    assert "something went badly wrong" in proc.stderr_tail()
    assert "something went badly wrong" in (tmp_path / "stderr.txt").read_text()


def test_silence_times_out_on_the_parents_clock(launch) -> None:
    proc = launch(agent("silent_agent.py"))
    start = time.monotonic()
    assert isinstance(proc.read_line(start + 0.3), Timeout)
    elapsed = time.monotonic() - start
    assert 0.29 <= elapsed < 0.6
    assert isinstance(proc.read_line(time.monotonic() - 1.0), Timeout)  # past deadline
    assert proc.close(grace_s=GRACE) == 0  # it exits when stdin closes


def test_ten_megabyte_line_is_skipped_then_reading_continues(launch) -> None:
    proc = launch(agent("long_line_agent.py"))
    event = proc.read_line(soon())
    assert isinstance(event, LineTooLong)
    assert event.length == 10 * 1000 * 1000 + len('{"junk": ""}')
    assert event.prefix == b'{"junk": "' + b"x" * 190
    assert proc.read_line(soon()) == Line(text='{"after": 1}', raw=b'{"after": 1}')


def test_max_line_bytes_is_configurable_and_inclusive(launch) -> None:
    proc = launch(agent("echo_agent.py"), max_line_bytes=10)
    proc.send_line("0123456789")
    proc.send_line("0123456789A")
    assert proc.read_line(soon()) == Line(text="0123456789", raw=b"0123456789")
    assert proc.read_line(soon()) == LineTooLong(prefix=b"0123456789A", length=11)


def test_binary_garbage_is_not_utf8(launch) -> None:
    proc = launch(agent("binary_agent.py"))
    event = proc.read_line(soon())
    assert isinstance(event, NotUtf8)
    assert event.prefix.startswith(b"\xff\xfe\x00")
    assert event.length == len(b"\xff\xfe\x00\x80garbage\xc3\x28")
    assert proc.read_line(soon()) == Line(text='{"ok": true}', raw=b'{"ok": true}')


def test_lines_written_at_once_arrive_in_order_then_eof(launch) -> None:
    proc = launch(agent("multi_line_agent.py"))
    texts = [proc.read_line(soon()) for _ in range(6)]
    assert [json.loads(e.text)["n"] for e in texts] == list(range(6))
    assert proc.read_line(soon()) == Eof(returncode=0)


def test_stderr_flood_is_capped_and_never_blocks_the_agent(launch, tmp_path: Path) -> None:
    cap = 64 * 1024
    stderr_path = tmp_path / "flood.txt"
    proc = launch(
        [agent("flood_stderr_agent.py"), "300"], stderr_path=stderr_path, stderr_cap_bytes=cap
    )
    assert proc.read_line(soon(20.0)) == Line('{"flooded_mb": 300}', b'{"flooded_mb": 300}')
    assert proc.close(grace_s=GRACE) == 0
    data = stderr_path.read_bytes()
    assert data[:cap] == bytes(cap)
    marker = data[cap:]
    assert marker.startswith(b"\n[harness] stderr truncated after 65536 bytes;")
    assert len(marker) < 200
    last_words = b"\nflood_stderr_agent: last words\n"
    assert proc.stderr_dropped_bytes == 300 * (1 << 20) + len(last_words) - cap
    assert proc.stderr_tail(100).endswith("flood_stderr_agent: last words\n")


def test_closed_stdout_is_eof_while_running_and_close_still_kills(launch) -> None:
    proc = launch(agent("close_stdout_agent.py"))
    assert isinstance(proc.read_line(soon()), Line)
    assert proc.read_line(soon()) == Eof(returncode=None)
    assert proc.returncode is None
    code = proc.close(grace_s=GRACE)
    assert code is not None and code < 0
    assert not running(proc.pid)


def test_agent_that_never_reads_stdin_cannot_block_send_line(launch) -> None:
    proc = launch(agent("never_reads_agent.py"))
    assert isinstance(proc.read_line(soon()), Line)
    payload = json.dumps({"blob": "y" * 100_000})
    start = time.monotonic()
    results = [proc.send_line(payload) for _ in range(100)]  # 10 MB into a 64 KiB pipe
    assert all(results)
    assert time.monotonic() - start < 1.0
    start = time.monotonic()
    proc.close(grace_s=GRACE)
    assert time.monotonic() - start < 2.0


def test_stdin_backlog_over_the_limit_fails_send_line(launch) -> None:
    proc = launch(agent("never_reads_agent.py"), stdin_backlog_bytes=1 << 20)
    payload = "z" * 100_000
    results = [proc.send_line(payload) for _ in range(50)]
    assert results[0] and not results[-1]
    assert "unread" in (proc.send_error or "")


def test_send_to_exited_agent_returns_false(launch) -> None:
    proc = launch(agent("crash_agent.py"))
    assert isinstance(proc.read_line(soon()), Eof)
    outcomes = []
    for _ in range(50):
        outcomes.append(proc.send_line("{}"))
        if not outcomes[-1]:
            break
        time.sleep(0.01)
    assert outcomes[-1] is False
    assert "stdin closed" in (proc.send_error or "")


def test_sigterm_ignoring_agent_gets_sigkilled(launch) -> None:
    proc = launch(agent("ignore_sigterm_agent.py"))
    assert isinstance(proc.read_line(soon()), Line)
    start = time.monotonic()
    assert proc.close(grace_s=GRACE) == -9
    assert time.monotonic() - start < 2 * GRACE + 1.0


def test_close_kills_the_whole_process_group(launch) -> None:
    proc = launch(agent("sleep_forever_agent.py"))
    child_pid = json.loads(proc.read_line(soon()).text)["child_pid"]
    assert running(child_pid)
    assert proc.close(grace_s=GRACE) == -15
    assert not running(child_pid)


def test_keyboard_interrupt_in_context_manager_kills_group(tmp_path: Path) -> None:
    with (
        pytest.raises(KeyboardInterrupt),
        AgentProcess.start(agent("sleep_forever_agent.py"), stderr_path=tmp_path / "e.txt") as proc,
    ):
        child_pid = json.loads(proc.read_line(soon()).text)["child_pid"]
        raise KeyboardInterrupt
    assert proc.returncode is not None
    assert not running(child_pid)
    assert not proc.workdir.exists()


def test_keyboard_interrupt_during_close_still_kills_group(
    launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    proc = launch(agent("sleep_forever_agent.py"))
    child_pid = json.loads(proc.read_line(soon()).text)["child_pid"]

    def interrupted(*_args, **_kwargs) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(agent_process, "wait_for_group", interrupted)
    with pytest.raises(KeyboardInterrupt):
        proc.close(grace_s=5.0)
    assert proc.returncode == -9
    assert not running(child_pid)
    assert not proc.workdir.exists()


def test_environment_is_scrubbed_and_cwd_is_a_fresh_temp_dir(
    launch, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HARNESS_TEST_SECRET", "do-not-leak")
    monkeypatch.setenv("HARNESS_TEST_ALLOWED", "pass-me")
    proc = launch(agent("env_agent.py"), env_passthrough=("HARNESS_TEST_ALLOWED", "UNSET_X"))
    report = json.loads(proc.read_line(soon()).text)
    env = report["env"]
    assert "HARNESS_TEST_SECRET" not in env
    assert env["HARNESS_TEST_ALLOWED"] == "pass-me"
    assert "UNSET_X" not in env
    assert env["HOME"] == str(proc.workdir) == env["TMPDIR"]
    assert env["LANG"] == env["LC_ALL"] == "C.UTF-8"
    assert env["PYTHONUNBUFFERED"] == "1"
    assert report["cwd"] == str(proc.workdir)
    assert report["listing"] == []
    assert proc.workdir.parent == tmp_path
    (proc.workdir / "scratch").mkdir()
    (proc.workdir / "scratch" / "f.txt").write_text("x")
    (proc.workdir / "scratch").chmod(0o500)  # read-only leftovers must not survive
    proc.close(grace_s=GRACE)
    assert not proc.workdir.exists()


def test_relative_program_and_script_argument_resolve_against_cwd(
    launch, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(AGENTS.parent)
    proc = launch("./agents/echo_agent.py")
    assert proc.argv == [agent("echo_agent.py")]
    proc.send_line("{}")
    assert proc.read_line(soon()) == Line(text="{}", raw=b"{}")
    proc = launch("python3 -u agents/echo_agent.py")
    assert proc.argv[1:] == ["-u", agent("echo_agent.py")]
    proc.send_line("[1]")
    assert proc.read_line(soon()) == Line(text="[1]", raw=b"[1]")


def test_missing_program_raises_launch_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(AgentLaunchError, match="no_such_agent_here"):
        AgentProcess.start("./no_such_agent_here --fast", stderr_path=tmp_path / "e.txt")
    with pytest.raises(AgentLaunchError, match="no-such-program-on-path"):
        AgentProcess.start(["no-such-program-on-path"], stderr_path=tmp_path / "e.txt")
    with pytest.raises(AgentLaunchError, match="empty"):
        AgentProcess.start("", stderr_path=tmp_path / "e.txt")


def test_non_executable_program_raises_launch_error(tmp_path: Path) -> None:
    script = tmp_path / "plain.py"
    script.write_text("print('hi')\n")
    with pytest.raises(AgentLaunchError, match=r"plain\.py.*not executable"):
        AgentProcess.start(str(script), stderr_path=tmp_path / "e.txt")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("agent-")] == []


def test_bad_interpreter_raises_launch_error(tmp_path: Path) -> None:
    script = tmp_path / "broken"
    script.write_text("#!/nonexistent/interpreter\n")
    script.chmod(0o755)
    with pytest.raises(AgentLaunchError, match="broken"):
        AgentProcess.start(str(script), stderr_path=tmp_path / "e.txt", workdir_parent=tmp_path)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("agent-")] == []
