"""Launching and stopping an agent safely: command, environment, process group.

These helpers hold no state; `harness.agent.process.AgentProcess` uses them to start
an untrusted executable in its own session and to tell when its whole process group
is gone.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import stat
import subprocess
import time
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable


class AgentLaunchError(Exception):
    """The agent command cannot be started (missing, not executable, malformed)."""


def resolve_argv(command: str | Sequence[str], search_path: str | None = None) -> list[str]:
    """Split the command and make its program (and file arguments) absolute paths.

    Args:
        command: A command line (split like a shell would) or an argv list.
        search_path: The PATH a bare program name is looked up on (default: ours).

    Returns:
        The argv to execute, program first, as an absolute path.

    Raises:
        AgentLaunchError: The command is empty or malformed, or its program is
            missing, not a file or not executable.
    """
    try:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    except ValueError as exc:
        raise AgentLaunchError(f"cannot parse agent command {command!r}: {exc}") from exc
    if not argv or not argv[0]:
        raise AgentLaunchError("the agent command is empty")
    prog = argv[0]
    # A bare name is looked up on PATH like a shell would, then in the caller's cwd.
    bare = "/" not in prog
    path = (bare and shutil.which(prog, path=search_path)) or os.path.abspath(prog)
    if not os.path.exists(path):
        raise AgentLaunchError(f"agent program {prog!r} not found (looked for {path})")
    if not os.path.isfile(path):
        raise AgentLaunchError(f"agent program {prog!r} is not a file ({path})")
    if not os.access(path, os.X_OK):
        raise AgentLaunchError(
            f"agent program {prog!r} is not executable ({path}); try chmod +x on it"
        )
    # The agent runs in a fresh directory, so `python3 agents/x.py` would otherwise
    # lose its script: file arguments relative to the caller's cwd are made absolute.
    rest = [
        os.path.abspath(a) if not a.startswith("-") and os.path.isfile(a) else a for a in argv[1:]
    ]
    return [path, *rest]


def scrubbed_env(home: str, passthrough: Iterable[str]) -> dict[str, str]:
    """The environment an agent gets: a minimal set plus the names passed through.

    Args:
        home: The agent's working directory, used as HOME and TMPDIR.
        passthrough: Names of parent environment variables to pass on.

    Returns:
        The environment mapping.
    """
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    for name in passthrough:
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def group_has_live_members(pgid: int) -> bool:
    """Whether any non-zombie process is in the group (zombies may never be reaped).

    Args:
        pgid: The process group id.

    Returns:
        True if a live member exists (or it cannot be ruled out).
    """
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        entries = os.listdir("/proc")
    except OSError:
        return True
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            return True
    return False


def pid_is_live(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in (b"Z", b"X")


def remove_tree(path: str) -> None:
    """Delete a directory tree the harness made, never following a link inside it.

    The agent may have left links to host folders and folders it made unreadable: only
    real directories inside the tree are opened up (chmod 0700) and a link is removed
    as a link, so nothing outside the tree changes. Iterative, so depth cannot crash it.

    Args:
        path: The directory to remove; errors are ignored.
    """
    if not _is_real_dir(path):
        with contextlib.suppress(OSError):
            os.unlink(path)  # a link (or file) put in the folder's place: only it goes
        return
    found, todo = [], [path]
    while todo:
        folder = todo.pop()
        with contextlib.suppress(OSError):
            os.chmod(folder, 0o700)  # a real directory (checked without following links)
        found.append(folder)
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
                    else:
                        with contextlib.suppress(OSError):
                            os.unlink(entry.path)
        except OSError:
            continue
    for folder in reversed(found):
        with contextlib.suppress(OSError):
            os.rmdir(folder)


def _is_real_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


@runtime_checkable
class OwnsGroup(Protocol):
    """An agent handle that knows its own group's liveness (a sandboxed agent's namespace)."""

    def poll(self) -> int | None:
        """The agent's exit status, None while it runs."""

    def group_alive(self) -> bool:
        """Whether anything the agent started may still run."""

    def signal_group(self, sig: signal.Signals) -> bool:
        """Signal everything the agent started; False if nothing was signalled."""


def _members_alive(proc: subprocess.Popen[bytes] | OwnsGroup) -> bool:
    if isinstance(proc, OwnsGroup):
        return proc.group_alive()
    return group_has_live_members(proc.pid)


def wait_for_group(proc: subprocess.Popen[bytes] | OwnsGroup, timeout: float, *,
                   leader_only: bool) -> None:
    """Wait until the agent (and, unless leader_only, its whole group) has exited.

    Args:
        proc: The agent process, leader of its own group.
        timeout: Longest wait in seconds.
        leader_only: Stop waiting as soon as the leader exits.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None and (leader_only or not _members_alive(proc)):
            return
        time.sleep(0.01)


def signal_group(proc: subprocess.Popen[bytes] | OwnsGroup, sig: signal.Signals) -> bool:
    """Signal the agent's process group.

    Args:
        proc: The agent process, leader of its own group.
        sig: The signal to send.

    Returns:
        False if the group has no live members left, True if the signal was sent.
    """
    if proc.poll() is not None and not _members_alive(proc):
        return False
    if isinstance(proc, OwnsGroup):
        return proc.signal_group(sig)
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True
