"""The launcher that becomes the agent's warden and the agent: run as `python -I -S -c SOURCE`.

The harness starts this with its source on the command line (inside bubblewrap, or as
a plain child when bubblewrap is missing); it imports nothing from the harness.
Arguments: the descriptor of a Unix socket, the limits as JSON, then the agent's argv.

Over the socket it receives the agent's stdin and stdout pipes. They come this way,
not as inherited descriptors, so that no launcher process holds a copy: when the agent
closes its stdout the harness sees end of file at once. Then it forks. The child
becomes the agent: it sends back the read end of a close-on-exec pipe (with its
credentials, which give the harness its pid as seen from outside a PID namespace),
which reaches end of file when the exec succeeds and carries the reason when it fails;
it sets the per-process limits, restores default signal dispositions and execs.

The parent stays as the warden (inside bubblewrap, the PID namespace's init), a child
subreaper: every process the agent starts, double-forked ones in new sessions
included, stays its descendant. It counts them against the process limit and their
memory (resident, plus what its tmpfs mounts hold) against the memory limit, and
when the agent exits (or a limit is passed, or the harness goes away) it kills every
one, then reports on the socket which limit, if any, ended the agent (evidence the
agent cannot forge: the count and sum it made, the signal the kernel sent, the fill of
the agent's own disk), and exits with the agent's status (128 + n for signal n, as
bubblewrap does).
"""

import contextlib
import ctypes
import json
import os
import resource
import signal
import socket
import sys
import time
from typing import Any

_RESET = ("SIGPIPE", "SIGXFSZ", "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2",
          "SIGCHLD")
_STOP = (signal.SIGUSR1, signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_SET_CHILD_SUBREAPER = 1, 4, 36
Limits = dict[str, Any]  # the JSON of SandboxSpec.warden_config
Report = dict[str, str]  # the limit that ended the agent: name and detail
Ended = dict[int, tuple[int, Any]]  # the agent's wait status and resource usage
_FULL_BYTES = 256 << 10  # less free space than this on its disk at its end: it filled it


def main() -> None:
    """Receive the pipes, fork the agent, watch it, report and exit with its status."""
    sock_fd, limits, argv = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3:]
    sock = socket.socket(fileno=sock_fd)
    _msg, fds, _flags, _addr = socket.recv_fds(sock, 16, 2)
    if len(fds) != 2:
        sys.stderr.write("harness sandbox: the agent's pipes never arrived\n")
        os._exit(126)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # If the harness dies, even by SIGKILL, the warden still kills everything.
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGUSR1, 0, 0, 0)
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGCHLD, *_STOP])
    agent = os.fork()
    if agent == 0:
        _become_agent(sock, fds, limits, argv)
    for fd in fds:
        os.close(fd)
    # Not dumpable: the agent (same uid, no CAP_SYS_PTRACE) cannot open the warden's
    # /proc/PID/mem or its descriptors to forge its report.
    libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    status, limit = _watch(agent, limits)
    with contextlib.suppress(OSError):
        sock.sendall(json.dumps({"status": status, "limit": limit}).encode() + b"\n")
    os._exit(status)


def _become_agent(sock: socket.socket, fds: list[int], limits: Limits, argv: list[str]) -> None:
    os.dup2(fds[0], 0)
    os.dup2(fds[1], 1)
    os.setsid()  # the agent leads its own session and group, as outside a sandbox
    err_r, err_w = os.pipe()  # both close-on-exec
    socket.send_fds(sock, [b"r"], [err_r])
    # Nothing but stdin, stdout, stderr and the exec-error pipe reaches the agent.
    os.closerange(3, err_w)
    os.closerange(err_w + 1, max(65536, os.sysconf("SC_OPEN_MAX")))
    for name in _RESET:
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    try:
        if limits["memory_bytes"] > 0:
            resource.setrlimit(resource.RLIMIT_AS, (limits["memory_bytes"],) * 2)
        if limits["cpu_s"] > 0:
            resource.setrlimit(resource.RLIMIT_CPU, (limits["cpu_s"], limits["cpu_s"] + 1))
        os.execvp(argv[0], argv)
    except OSError as exc:
        os.write(err_w, (exc.strerror or str(exc)).encode("utf-8", "replace"))
    os._exit(127)


def _watch(agent: int, limits: Limits) -> tuple[int, Report | None]:
    ended: Ended = {}
    limit = None
    next_check = 0.0
    while agent not in ended:
        info = signal.sigtimedwait([signal.SIGCHLD, *_STOP], limits["poll_s"])
        if info is not None and info.si_signo != signal.SIGCHLD:
            _kill_all(agent, ended)  # the harness is gone or asked for it
        _reap(agent, ended)
        if agent in ended or time.monotonic() < next_check:
            continue  # at most one look per poll, however often children exit
        next_check = time.monotonic() + limits["poll_s"]
        limit = _over_a_limit(_descendants(), limits)
        if limit is not None:
            _kill_all(agent, ended)
    _kill_all(agent, ended)
    code, usage = ended[agent]
    status = 128 + os.WTERMSIG(code) if os.WIFSIGNALED(code) else os.WEXITSTATUS(code)
    return status, (limit or _cpu_breach(code, usage, limits["cpu_s"])
                    or _disk_breach(limits["disk_paths"]))


def _over_a_limit(pids: list[int], limits: Limits) -> Report | None:
    """The limit the agent's processes are past now: their count, or their memory."""
    # Threads count: each is a task with a pid of the host's, whose supply
    # (kernel.pid_max) the agent would otherwise exhaust from one process.
    tasks = sum(_threads(pid) for pid in pids) if limits["max_processes"] else 0
    if limits["max_processes"] and tasks > limits["max_processes"]:
        return {"name": "processes", "detail": f"had {tasks} processes and threads running"}
    if not limits["memory_bytes"]:
        return None
    # Resident memory of every process (shared pages counted in each) and what its
    # tmpfs mounts hold, which is memory too.
    held = sum(_resident(pid) for pid in pids) + sum(_used(p) for p in limits["disk_paths"])
    if held > limits["memory_bytes"]:
        return {"name": "memory", "detail": f"held {held >> 20} MiB in its processes and "
                                            "its working folder"}
    return None


def _threads(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return int(fh.read().rsplit(b")", 1)[1].split()[17])  # num_threads
    except (OSError, IndexError, ValueError):
        return 0


def _resident(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, IndexError, ValueError):
        return 0


def _used(path: str) -> int:
    try:
        stat = os.statvfs(path)
    except OSError:
        return 0
    return (stat.f_blocks - stat.f_bfree) * stat.f_frsize


def _reap(agent: int, ended: Ended) -> None:
    """Reap every exited child; keep the agent's status and resource usage."""
    while True:
        try:
            pid, code, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid == agent:
            ended[agent] = (code, usage)


def _cpu_breach(code: int, usage: Any, cpu_s: int) -> Report | None:
    # RLIMIT_CPU sends SIGXCPU at the soft limit (nothing else in the sandbox sends it
    # but the agent itself) and SIGKILL a second later.
    used = usage.ru_utime + usage.ru_stime
    if cpu_s and os.WIFSIGNALED(code) and (os.WTERMSIG(code) == signal.SIGXCPU or (
            os.WTERMSIG(code) == signal.SIGKILL and used >= cpu_s)):
        return {"name": "cpu_time", "detail": f"used {used:.1f} s of CPU time"}
    return None


def _disk_breach(paths: list[str]) -> Report | None:
    for path in paths:
        try:
            stat = os.statvfs(path)
        except OSError:
            continue
        if stat.f_bavail * stat.f_frsize < _FULL_BYTES or stat.f_favail == 0:
            return {"name": "disk", "detail": f"filled {path}"}
    return None


def _descendants() -> list[int]:
    """Live processes below the warden (every orphan of the agent is reparented here)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as fh:
                    fields = fh.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if fields[0] not in (b"Z", b"X"):
                parents.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [os.getpid()]
    while todo:
        kids = parents.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def _kill_all(agent: int, ended: Ended) -> None:
    """Kill every descendant, again and again until none is left (reaping as it goes)."""
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline:
        if os.getpid() == 1:
            # The namespace's init: one call reaches every process in it, however fast
            # they fork (never outside a namespace, where it would reach the host's).
            with contextlib.suppress(OSError):
                os.kill(-1, signal.SIGKILL)
        found = _descendants()
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _reap(agent, ended)
        if not found:
            return
        time.sleep(0.005)


if __name__ == "__main__":
    main()
