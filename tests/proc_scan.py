"""Find live processes by a marker in their command line, from /proc (Linux only)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def live_with(marker: str) -> list[int]:
    """Pids of live (not zombie) processes whose command line contains `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in argv and state not in ("Z", "X"):
            found.append(int(entry.name))
    return sorted(found)


def wait_gone(marker: str, timeout_s: float = 10.0) -> list[int]:
    """Wait until no live process carries `marker`; return those still there at the end."""
    deadline = time.monotonic() + timeout_s
    while True:
        left = live_with(marker)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid runs (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")
