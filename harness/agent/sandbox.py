"""The agent's sandbox: bubblewrap when it works here, a plain process group when not.

With bubblewrap the agent runs in its own PID namespace (it sees only its own
processes in /proc, and everything in the namespace dies with it), its own IPC and
UTS namespaces, with every capability dropped, under the system-call filter of
`harness.agent.sandbox_seccomp`, in its own session, and with the filesystem view of
`harness.agent.sandbox_fs`. The network is shared unless the spec cuts it off (its own
network namespace, holding only its own loopback). Without bubblewrap (missing, or
unusable because the kernel forbids namespaces) the agent runs in its own session
with a scrubbed environment, and the record says so.

Both ways start the agent through `harness.agent.sandbox_shim`, which receives the agent's
pipes over a socket so that no launcher process holds a copy of them, and stays as
the agent's warden: a subreaper that kills everything the agent started when it ends,
enforces the process limit and reports which limit ended it (`harness.agent.limits`).
"""

from __future__ import annotations

import array
import contextlib
import functools
import inspect
import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.agent import sandbox_shim
from harness.agent.launch import (
    AgentLaunchError,
    remove_tree,
)
from harness.agent.sandbox_fs import MountPlan
from harness.agent.sandbox_handle import ShimmedAgent, pid_namespace
from harness.agent.sandbox_seccomp import filter_bytes

BWRAP = "bwrap"
# --new-session: no TIOCSTI into a terminal; --die-with-parent: if bubblewrap's own
# monitor dies, the namespace's init is killed and with it every process inside;
# --as-pid-1: the warden is the namespace's init, which the agent can neither kill nor
# read (bubblewrap's own init would be dumpable, its memory open to the agent).
BWRAP_FLAGS = ("--unshare-pid", "--as-pid-1", "--unshare-ipc", "--unshare-uts",
               "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop", "ALL")
_SHIM_SOURCE = inspect.getsource(sandbox_shim)
_STARTUP_S = 30.0  # a loaded machine can take seconds to start an interpreter


@dataclass(frozen=True)
class SandboxSpec:
    """How to isolate one agent.

    Attributes:
        bubblewrap: Run it inside bubblewrap (only when `bubblewrap_problem()` is None).
        memory_limit_mb: Address-space limit in MiB; 0 for none.
        hidden: Paths the agent must not see besides the harness's own (run dir, level).
        reason: Why bubblewrap is not used, when it is not.
        network: Share the host's network; False gives it none (bubblewrap only).
        disk_limit_mb: Size of its working folder and of its /tmp (bubblewrap only).
        max_processes: Its processes running at once; 0 for no limit.
        cpu_s: CPU seconds of each of its processes; 0 for no limit.
    """

    bubblewrap: bool
    memory_limit_mb: int = 0
    hidden: tuple[Path, ...] = ()
    reason: str | None = None
    network: bool = True
    disk_limit_mb: int = 0
    max_processes: int = 0
    cpu_s: int = 0

    def __post_init__(self) -> None:
        if not self.network and not self.bubblewrap:
            raise ValueError("only bubblewrap can cut an agent off the network")

    def isolation(self) -> dict[str, Any]:
        """What the record's header says was in force."""
        return {"sandbox": "bubblewrap" if self.bubblewrap else "none",
                "pid_namespace": self.bubblewrap,
                "filesystem": "minimal" if self.bubblewrap else "host",
                "network": "shared" if self.network else "none",
                "memory_limit_mb": self.memory_limit_mb or None,
                "reason": None if self.bubblewrap else self.reason,
                "syscall_filter": self.bubblewrap and filter_bytes() is not None,
                "disk_limit_mb": (self.disk_limit_mb or None) if self.bubblewrap else None,
                "max_processes": self.max_processes or None,
                "cpu_limit_s": self.cpu_s or None}

    def limit_values(self) -> dict[str, int]:
        """Each limit's value, by its name in `harness.agent.limits.LIMITS`."""
        return {"memory": self.memory_limit_mb, "processes": self.max_processes,
                "disk": self.disk_limit_mb, "cpu_time": self.cpu_s}

    def warden_config(self, workdir: Path) -> str:
        """The limits the warden applies, as the JSON argument of the shim."""
        # Counted as memory whether or not their size is bounded.
        disk = [str(workdir), "/tmp", "/dev/shm"] if self.bubblewrap else []
        return json.dumps({"memory_bytes": self.memory_limit_mb << 20, "cpu_s": self.cpu_s,
                           "max_processes": self.max_processes, "disk_paths": disk,
                           "poll_s": 0.1 if self.bubblewrap else 0.5})


@functools.cache
def bubblewrap_problem() -> str | None:
    """Why bubblewrap cannot sandbox agents on this machine, or None when it can.

    Tried once per process by starting the shim's interpreter inside a real sandbox.
    """
    path = shutil.which(BWRAP)
    if path is None:
        return f"{BWRAP} is not installed (Debian package bubblewrap)"
    workdir = Path(tempfile.mkdtemp(prefix="agent-probe-"))
    keep: list[int] = []
    try:
        argv = [os.path.realpath(sys.executable), "-I", "-S", "-c", "pass"]
        # The same kinds of option as an agent gets, so an older bubblewrap that lacks
        # one (--size), or a kernel without seccomp, is found out here, not at the first
        # episode.
        cmd = [path, *BWRAP_FLAGS, *_seccomp_option(keep),
               *MountPlan(workdir, (), 1).build(argv), "--", *argv]
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
                              env={"PATH": os.defpath}, pass_fds=keep)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{path} could not be run: {exc}"
    finally:
        for fd in keep:
            os.close(fd)
        remove_tree(str(workdir))
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        return f"{path} cannot make a sandbox here: {said[0][:300]}"
    return None


def plan(memory_limit_mb: int, hidden: tuple[Path, ...] = (), network: bool = True,
         **limits: int) -> SandboxSpec:
    """The sandbox this machine allows, with the given limits, hidden paths and network.

    `limits` are SandboxSpec's disk_limit_mb, max_processes and cpu_s.

    Raises:
        AgentLaunchError: No network was asked for, which needs bubblewrap, and it
            cannot be used here.
    """
    problem = bubblewrap_problem()
    if problem is not None and not network:
        raise AgentLaunchError(f"--no-agent-network needs the agent sandbox: {problem}")
    return SandboxSpec(problem is None, memory_limit_mb, hidden, problem, network, **limits)


def launch(argv: list[str], spec: SandboxSpec, workdir: Path,
           env: dict[str, str]) -> ShimmedAgent:
    """Start the agent through the shim, inside bubblewrap if the spec says so.

    Raises:
        AgentLaunchError: The sandbox or the agent's program could not be started.
    """
    parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    parent.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    keep = [child.fileno()]
    prefix: list[str] = []
    info_r = -1
    if spec.bubblewrap:
        info_r, info_w = os.pipe()
        options = [*BWRAP_FLAGS, *(() if spec.network else ("--unshare-net",)),
                   "--info-fd", str(info_w), *_seccomp_option(keep),
                   *MountPlan(workdir, spec.hidden, spec.disk_limit_mb).build(argv),
                   "--chdir", str(workdir)]
        # Options come through a pipe, so no command line shows the mount plan.
        packed = b"".join(o.encode() + b"\0" for o in options)
        if len(packed) > 60000:  # a pipe holds 64 KiB; a longer write would block here
            raise AgentLaunchError(f"the sandbox's mount plan is too long ({len(packed)} bytes)")
        args_r, args_w = os.pipe()
        os.write(args_w, packed)
        os.close(args_w)
        keep += [info_w, args_r]
        prefix = [shutil.which(BWRAP) or BWRAP, "--args", str(args_r), "--"]
    cmd = [*prefix, os.path.realpath(sys.executable), "-I", "-S", "-c", _SHIM_SOURCE,
           str(child.fileno()), spec.warden_config(workdir), *argv]
    try:
        popen = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, cwd=workdir, env=env,
                                 start_new_session=True, close_fds=True, pass_fds=keep)
    except OSError as exc:
        parent.close()
        raise AgentLaunchError(f"cannot start the agent's launcher: {exc.strerror or exc}") from exc
    finally:
        child.close()
        for fd in keep[1:]:
            os.close(fd)
    try:
        agent = _handshake(popen, parent, info_r, argv)
    except BaseException:
        parent.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(popen.pid, signal.SIGKILL)
        popen.wait()
        raise
    finally:
        if info_r >= 0:
            os.close(info_r)
    agent.warden = parent
    agent.limit_values = spec.limit_values()
    return agent


def _seccomp_option(keep: list[int]) -> list[str]:
    """Bubblewrap's --seccomp option with the filter in a pipe; none where none is written."""
    program = filter_bytes()
    if program is None:
        return []
    read_end, write_end = os.pipe()
    os.write(write_end, program)  # a few hundred bytes: the pipe holds them
    os.close(write_end)
    keep.append(read_end)
    return ["--seccomp", str(read_end)]


def _handshake(popen: subprocess.Popen[bytes], sock: socket.socket, info_r: int,
               argv: list[str]) -> ShimmedAgent:
    deadline = time.monotonic() + _STARTUP_S
    init_pid = namespace = None
    if info_r >= 0:
        info = _read_all(info_r, deadline)
        try:
            init_pid = int(json.loads(info)["child-pid"])
        except (ValueError, KeyError, TypeError):
            raise AgentLaunchError(f"bubblewrap did not start: {_launcher_said(popen)}") from None
        namespace = pid_namespace(init_pid)
    stdin_r, stdin_w = os.pipe()
    stdout_r, stdout_w = os.pipe()
    try:
        socket.send_fds(sock, [b"p"], [stdin_r, stdout_w])
    except OSError:
        for fd in (stdin_w, stdout_r):
            os.close(fd)
        raise AgentLaunchError(f"the agent's launcher stopped: {_launcher_said(popen)}") from None
    finally:
        os.close(stdin_r)
        os.close(stdout_w)
    stdin = os.fdopen(stdin_w, "wb", buffering=0)
    stdout = os.fdopen(stdout_r, "rb", buffering=0)
    try:
        pid, err_fd = _receive_report(sock, popen, deadline)
        failure = _read_all(err_fd, deadline, closes=True)
    except BaseException:
        stdin.close()
        stdout.close()
        raise
    if failure:
        stdin.close()
        stdout.close()
        where = (" inside the sandbox, which shows only the system, the harness's Python and "
                 "the agent's own folders (PROTOCOL.md, How the agent is run)" if init_pid else "")
        raise AgentLaunchError(f"cannot execute agent program {argv[0]!r}: "
                               f"{failure.decode('utf-8', 'replace')}{where}")
    return ShimmedAgent(popen, stdin, stdout, pid, init_pid, namespace)


def _wait_readable(fd: int, deadline: float) -> None:
    while not select.select([fd], [], [], 0.05)[0]:
        if time.monotonic() > deadline:
            raise AgentLaunchError(f"the agent's launcher did not start within {_STARTUP_S:g} s")


def _read_all(fd: int, deadline: float, closes: bool = False) -> bytes:
    data = b""
    try:
        while len(data) < 65536:
            _wait_readable(fd, deadline)
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
    finally:
        if closes:
            os.close(fd)
    return data


def _receive_report(sock: socket.socket, popen: subprocess.Popen[bytes],
                    deadline: float) -> tuple[int, int]:
    _wait_readable(sock.fileno(), deadline)
    space = socket.CMSG_SPACE(4) + socket.CMSG_SPACE(struct.calcsize("3i"))
    msg, ancdata, _flags, _addr = sock.recvmsg(1, space)
    pid, fds = None, array.array("i")
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
        elif level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            pid = struct.unpack("3i", data[:12])[0]
    if msg != b"r" or pid is None or len(fds) != 1:
        for fd in fds:
            os.close(fd)
        raise AgentLaunchError(f"the agent's launcher stopped: {_launcher_said(popen)}")
    return pid, fds[0]


def _launcher_said(popen: subprocess.Popen[bytes]) -> str:
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(timeout=2.0)
    said = b""
    if popen.stderr is not None:
        os.set_blocking(popen.stderr.fileno(), False)
        with contextlib.suppress(OSError, TypeError):
            said = popen.stderr.read(4096) or b""
    text = said.decode("utf-8", "replace").strip().splitlines()[-1:]
    return text[0][:300] if text else f"it exited with status {popen.poll()}"
