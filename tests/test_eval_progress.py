"""`harness eval`'s progress: one updating line on a terminal (seen through a pseudo-terminal),
plain lines elsewhere, nothing but the final line with --quiet."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

from harness.suite.progress import Progress, duration
from tests.shared import ROOT

EPISODES = 450  # a bare `harness eval`: 45 level-difficulty pairs by 10 seeds


def _row(n: int) -> dict:
    outcome = "harness_error" if n == 7 else ("completed" if n % 3 else "failed")
    return {"level": "facility", "difficulty": "hard", "seed": n, "outcome": outcome,
            "success": outcome == "completed"}


def _read_all(fd: int) -> bytes:
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other end closed (Linux says EIO)
            return out
        if not chunk:
            return out
        out += chunk


def _reader(fd: int) -> tuple[threading.Thread, list[bytes]]:
    # A pseudo-terminal holds a few kilobytes: read while the writer writes.
    got: list[bytes] = []
    thread = threading.Thread(target=lambda: got.append(_read_all(fd)), daemon=True)
    thread.start()
    return thread, got


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_terminal_sees_one_updating_line() -> None:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    clock = _Clock()
    thread, got = _reader(master)
    with os.fdopen(slave, "w", encoding="utf-8") as stream:
        progress = Progress(stream, clock=clock)
        assert progress.tty
        progress(0, EPISODES, None)
        for n in range(EPISODES):
            clock.now += 2.0
            progress(n + 1, EPISODES, _row(n))
    thread.join(timeout=10)
    text = got[0].decode("utf-8")
    os.close(master)
    # The terminal turns "\n" into "\r\n": one line ended, redrawn 451 times in place.
    assert text.count("\n") == 1 and text.endswith("\r\n")
    assert text.count("\r") == EPISODES + 1 + 1
    shown = [part for part in text.split("\r") if part.strip()]
    assert all(len(part) <= 119 for part in shown)  # never wraps on a 120-column terminal
    middle = shown[225]  # after 225 episodes, 2 s each
    assert "225/450 episodes" in middle and "149/224 succeeded (67%)" in middle
    assert "7m30s left · 1 harness error · 30.0/min" in middle
    assert "took 15m00s" in shown[-1] and "450/450 episodes" in shown[-1]
    # A narrow terminal leaves the last parts off rather than wrap.
    narrow = progress.line(225, EPISODES, _row(224), width=70)
    assert narrow.endswith("succeeded (67%)") and len(narrow) <= 70


def test_not_a_terminal_gets_plain_lines_and_quiet_nothing() -> None:
    stream = io.StringIO()
    progress = Progress(stream)
    progress(0, 3, None)
    for n in range(3):
        progress(n + 1, 3, _row(n))
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4 and "\r" not in stream.getvalue()
    assert lines[-1].startswith("[####################] 3/3 episodes")
    quiet = io.StringIO()
    silent = Progress(quiet, quiet=True)
    silent(0, 3, None)
    for n in range(3):
        silent(n + 1, 3, _row(n))
    assert quiet.getvalue() == "" and silent.succeeded == 2


def test_durations_read_like_a_clock() -> None:
    assert [duration(s) for s in (0.4, 42, 185, 7620)] == ["0s", "42s", "3m05s", "2h07m"]


def test_quiet_eval_on_a_terminal_prints_only_the_final_line(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    command = [sys.executable, "-m", "harness.cli", "eval", "--agent",
               str(ROOT / "agents" / "wait_agent.sh"), "--levels", "exit_switch",
               "--difficulties", "easy", "--seeds", "1", "--quiet", "--out",
               str(tmp_path / "out")]
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                            cwd=ROOT)
    os.close(slave)
    text = _read_all(master).decode("utf-8")
    os.close(master)
    assert proc.wait(timeout=120) == 0
    assert "\r" not in text.replace("\r\n", "")  # no progress line drawn
    [line] = text.splitlines()
    assert line.startswith("Overall: 0/1 episodes succeeded (0%)")
    assert f"results: {tmp_path / 'out' / 'results.json'}" in line
