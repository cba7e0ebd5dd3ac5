"""A suite's worker processes: one forked process per episode, and nothing left behind.

One process per episode, not a pool: a worker that dies (a native crash, or an agent
that reaches it with a signal) costs only its own episode, which becomes a
`harness_error` row, while the others play on. The suite's process makes itself a
child subreaper, so the agent processes of a worker that died are handed to it and
ended here. Each worker asks the kernel for SIGTERM when the suite's process dies
(even by SIGKILL), which ends its episode as `interrupted` like any stop signal.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from harness.core import stopping

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36
# Seconds a stopped worker gets to finish its record before it is killed.
STOP_GRACE_S = 10.0
# Seconds a worker may run past its episode's own wall-clock limit (building the world,
# writing the page, ending the agent) before the suite kills it as stuck.
WATCHDOG_MARGIN_S = 120.0

Play = Callable[[dict[str, Any]], dict[str, Any]]


def _prctl(option: int, value: int) -> bool:
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.prctl(option, value, 0, 0, 0)) == 0  # ctypes' default result: C int


@dataclass
class _Worker:
    key: Any
    process: multiprocessing.process.BaseProcess
    conn: Connection
    scratch: str
    deadline: float
    row: dict[str, Any] | None = None
    overdue: bool = False

    @property
    def pid(self) -> int:
        """The child's process id; a worker is tracked only once its process started."""
        pid = self.process.pid
        if pid is None:
            raise RuntimeError(f"suite worker {self.key!r} is tracked but was never started")
        return pid


def _worker_main(conn: Connection, parent: int, scratch: str, play: Play,
                 job: dict[str, Any]) -> None:
    # In the forked child. Ctrl-C reaches the whole terminal group; the suite's process
    # decides and sends SIGTERM, so SIGINT (and SIGHUP, the terminal closing) is ignored.
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the request took hold
        os._exit(143)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    # Outside the episode a late SIGTERM is ignored: the row is sent and the worker exits.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.environ["TMPDIR"] = scratch  # the agent's scratch space lives in the worker's
    tempfile.tempdir = None
    row: dict[str, Any]
    with stopping.installed((signal.SIGTERM,)):
        try:
            # Blocked since the fork (see Workers.start); one that came since is taken here.
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stopping.SIGNALS)
            row = play(job)
        except stopping.Interrupted as stop:
            row = {"interrupted": stop.name}
        except Exception as exc:  # reported as this episode's harness error
            row = {"error": f"{type(exc).__name__}: {exc}"}
    shutil.rmtree(scratch, ignore_errors=True)
    with contextlib.suppress(OSError):
        conn.send(row)  # the suite's process may be gone


def _collect(worker: _Worker) -> None:
    with contextlib.suppress(EOFError, OSError):
        if worker.row is None and worker.conn.poll():
            worker.row = worker.conn.recv()


def _describe(code: int | None) -> str:
    if code is None:
        return "did not exit"
    if code < 0:
        return f"was killed by {signal.Signals(-code).name}"
    return f"exited with status {code}"


def _orphans(known: set[int]) -> list[int]:
    # Processes handed to us as subreaper: children of ours in another session (agents
    # run in sessions of their own; our workers share ours) that we did not know of.
    me, session, found = os.getpid(), os.getsid(0), []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) in known:
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="utf-8", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # Fields after the name: state, ppid, pgrp, session.
        if int(fields[1]) == me and int(fields[3]) != session:
            found.append(int(entry.name))
    return found


def end_orphans(known: set[int], timeout_s: float = 5.0) -> None:
    """Kill and reap every process handed to this one that is not in `known`.

    They are agents (with whatever they started) whose worker died; each is killed
    with its process group, never this process's own group.
    """
    own_group = os.getpgrp()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        orphans = _orphans(known)
        if not orphans:
            return
        for pid in orphans:
            with contextlib.suppress(OSError):
                group = os.getpgid(pid)
                if group != own_group:
                    os.killpg(group, signal.SIGKILL)
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, os.WNOHANG)
        time.sleep(0.02)


class Workers:
    """Episodes played in forked worker processes, at most `jobs` at a time.

    Use as a context manager: on the way out (a stop signal included) every worker
    still running gets SIGTERM, then SIGKILL after `STOP_GRACE_S`, and every scratch
    folder and orphaned agent is removed.
    """

    def __init__(self, jobs: int, play: Play, limit_s: float) -> None:
        """Play jobs with `play(job) -> row` in up to `jobs` processes at once.

        A worker still running `limit_s` + `WATCHDOG_MARGIN_S` seconds after it started
        (stopped by a signal, or stuck) is killed, and its episode is a harness error.
        """
        self.jobs, self.play, self.limit_s = max(1, jobs), play, limit_s
        self.running: list[_Worker] = []
        self.context = multiprocessing.get_context("fork")

    def __enter__(self) -> Workers:
        self.subreaper = _prctl(_PR_SET_CHILD_SUBREAPER, 1)
        self.before = set(_orphans(set()))  # a caller's own children are left alone
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        if self.subreaper:
            _prctl(_PR_SET_CHILD_SUBREAPER, 0)

    @property
    def free(self) -> bool:
        """Whether another episode may start now."""
        return len(self.running) < self.jobs

    def start(self, key: Any, job: dict[str, Any]) -> None:
        """Start a worker playing `job`; its row comes back from `finished` under `key`."""
        scratch = tempfile.mkdtemp(prefix="suite-worker-")
        receive, send = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=_worker_main, args=(send, os.getpid(), scratch, self.play, job),
            name="harness-episode", daemon=False)
        # Stop signals wait until the child has its own handlers (it unblocks them) and
        # until the parent knows the child, so no stop finds a worker nobody tracks.
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, stopping.SIGNALS)
        try:
            process.start()
            send.close()
            deadline = time.monotonic() + self.limit_s + WATCHDOG_MARGIN_S
            self.running.append(_Worker(key, process, receive, scratch, deadline))
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def finished(self, wait_s: float | None = None) -> list[tuple[Any, dict[str, Any]]]:
        """Wait for news from the workers; return (key, result) for each that ended (maybe none).

        The result is the worker's row, {"interrupted": SIGNAL} when it was stopped, or
        {"error": ...} when it failed or died without a row. `wait_s` bounds the wait
        (for a caller that must look up now and then); by default it lasts until news
        or the soonest watchdog deadline.
        """
        # Rows are read as they come: a worker blocked on a full pipe would never exit.
        soonest = min(w.deadline for w in self.running) - time.monotonic()
        wait([w.process.sentinel for w in self.running] + [w.conn for w in self.running],
             timeout=max(0.0, soonest if wait_s is None else min(soonest, wait_s)))
        for worker in self.running:
            if worker.process.exitcode is None and time.monotonic() >= worker.deadline:
                worker.overdue = True
                worker.process.kill()  # SIGKILL ends even a stopped process
                worker.process.join()
        done = []
        for worker in list(self.running):
            _collect(worker)
            if worker.process.exitcode is not None:
                done.append((worker.key, self._retire(worker)))
        return done

    def _retire(self, worker: _Worker) -> dict[str, Any]:
        _collect(worker)
        worker.process.join()
        worker.conn.close()
        self.running.remove(worker)
        shutil.rmtree(worker.scratch, ignore_errors=True)
        end_orphans(self.before | {w.pid for w in self.running})
        if worker.row is not None:
            return worker.row
        if worker.overdue:
            return {"error": f"the worker process ran past the episode's limit of "
                    f"{self.limit_s:g} s by {WATCHDOG_MARGIN_S:g} s (stopped or stuck) "
                    "and was killed"}
        return {"error": f"the worker process {_describe(worker.process.exitcode)} "
                "while playing this episode"}

    def stop(self) -> list[tuple[Any, dict[str, Any]]]:
        """End every running worker (SIGTERM, then SIGKILL) and return what each said."""
        for worker in self.running:
            with contextlib.suppress(OSError):
                os.kill(worker.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_S
        for worker in self.running:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.exitcode is None:
                worker.process.kill()
        return [(worker.key, self._retire(worker)) for worker in list(self.running)]
