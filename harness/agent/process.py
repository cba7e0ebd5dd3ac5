"""The raw channel to one agent process: launch, JSON-line I/O, capped stderr, teardown.

An agent is an untrusted executable. This module starts it in its own session with a
scrubbed environment and a fresh working directory, and exchanges newline-terminated
lines with it. It knows nothing about what the lines mean beyond "one line = one JSON
object"; the protocol runner builds on top of it.

Everything that touches the agent's pipes runs on background threads that poll a stop
flag, so no agent behaviour (silence, floods, garbage, closed pipes, ignored signals)
can block or crash the parent, and every deadline is enforced by the parent itself.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import queue
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from harness.agent.launch import (
    AgentLaunchError,
    remove_tree,
    resolve_argv,
    scrubbed_env,
    signal_group,
    wait_for_group,
)
from harness.agent.limits import LimitHit
from harness.agent.sandbox import SandboxSpec, launch
from harness.agent.sandbox_fs import interpreter_bin
from harness.agent.sandbox_handle import ShimmedAgent
from harness.agent.streams import (
    PREFIX_BYTES,
    ChannelEvent,
    Eof,
    Line,
    LineSplitter,
    LineTooLong,
    NotUtf8,
    StderrDrain,
    StdinWriter,
    Timeout,
    read_chunk,
)

__all__ = [
    "PREFIX_BYTES",
    "AgentLaunchError",
    "AgentProcess",
    "ChannelEvent",
    "Eof",
    "Line",
    "LineTooLong",
    "NotUtf8",
    "Timeout",
]

DEFAULT_MAX_LINE_BYTES = 1 << 20
DEFAULT_STDERR_CAP_BYTES = 2 << 20
DEFAULT_STDIN_BACKLOG_BYTES = 16 << 20
# How long to wait for an exit code once stdout closes, so Eof can usually carry it.
_EXIT_AFTER_EOF_S = 0.2
# Polling interval of the I/O threads: bounds how long close() waits to join them.
_POLL_S = 0.05
# Bounded so an agent printing short lines forever stalls on its own pipe instead of
# growing our memory; a line is at most max_line_bytes, so the queue is bounded too.
_EVENT_QUEUE_SIZE = 64

_LIVE: weakref.WeakSet[AgentProcess] = weakref.WeakSet()


@atexit.register
def _kill_leftovers() -> None:
    # Last resort if the caller never reached close(): never leave agents behind.
    for proc in list(_LIVE):
        proc.close(grace_s=0.0)


class AgentProcess:
    """One running agent and its stdin/stdout line channel.

    Create with `AgentProcess.start`; always `close` it (or use it as a context manager).
    """

    def __init__(
        self,
        proc: subprocess.Popen[bytes] | ShimmedAgent,
        argv: list[str],
        workdir: Path,
        stderr_file: BinaryIO,
        stderr_cap_bytes: int,
        max_line_bytes: int,
        stdin_backlog_bytes: int,
        isolation: dict[str, object] | None = None,
    ) -> None:
        self._proc = proc
        self._isolation = isolation or SandboxSpec(False, reason="none was asked for").isolation()
        self._argv = argv
        self._workdir = workdir
        self._max_line = max_line_bytes
        self._stop = threading.Event()
        self._events: queue.Queue[ChannelEvent] = queue.Queue(_EVENT_QUEUE_SIZE)
        self._eof: Eof | None = None
        self._exit_seen_at: float | None = None
        self._lock = threading.Lock()
        self._closed = False
        assert proc.stdin and proc.stdout and proc.stderr
        self._stderr = StderrDrain(
            proc.stderr.fileno(), stderr_file, stderr_cap_bytes, self._stop, _POLL_S
        )
        self._stdin = StdinWriter(proc.stdin, stdin_backlog_bytes, self._stop, _POLL_S)
        with contextlib.suppress(OSError, AttributeError):
            # A larger pipe means far fewer wakeups while draining a stderr flood.
            fcntl.fcntl(proc.stderr.fileno(), fcntl.F_SETPIPE_SZ, 1 << 20)
        self._threads = [
            threading.Thread(target=self._read_stdout, name="agent-stdout", daemon=True),
            threading.Thread(target=self._stderr.run, name="agent-stderr", daemon=True),
            threading.Thread(target=self._stdin.run, name="agent-stdin", daemon=True),
        ]
        for thread in self._threads:
            thread.start()
        _LIVE.add(self)

    @classmethod
    def start(
        cls,
        command: str | Sequence[str],
        *,
        stderr_path: Path,
        workdir_parent: Path | None = None,
        stderr_cap_bytes: int = DEFAULT_STDERR_CAP_BYTES,
        env_passthrough: Iterable[str] = (),
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        stdin_backlog_bytes: int = DEFAULT_STDIN_BACKLOG_BYTES,
        sandbox: SandboxSpec | None = None,
    ) -> AgentProcess:
        """Launch the agent in its own session, fresh directory and scrubbed environment.

        Args:
            command: Command line (split like a shell would) or argv list. The program
                may be a path relative to the caller's cwd or a name found on PATH.
                Later arguments naming existing files relative to the caller's cwd
                are made absolute, because the agent runs in another directory.
            stderr_path: File receiving the agent's stderr, truncated at the cap.
            workdir_parent: Where to create the temporary working directory
                (the system temp dir if None). It is removed by `close`.
            stderr_cap_bytes: Bytes of stderr kept; the rest is read and dropped.
            env_passthrough: Names of parent environment variables to pass on
                (e.g. an API key); all others are withheld.
            max_line_bytes: Longest stdout line delivered; longer ones become
                `LineTooLong`.
            stdin_backlog_bytes: Unwritten bytes tolerated for an agent that does
                not read its stdin before `send_line` starts failing.
            sandbox: How to isolate it (bubblewrap or not, memory limit, paths to
                hide); None starts it directly, in its own session only. In
                bubblewrap, the directory of the harness's Python comes first on PATH
                and a bare program name is looked up there.

        Returns:
            The running agent.

        Raises:
            AgentLaunchError: The program is missing, not executable, or cannot be
                executed.
        """
        env = None
        if sandbox is not None:
            env = scrubbed_env("", env_passthrough)
            if sandbox.bubblewrap:
                env["PATH"] = f"{interpreter_bin()}:{env['PATH']}"
        argv = resolve_argv(command, search_path=env["PATH"] if env else None)
        stderr_path = Path(stderr_path)
        stderr_path.parent.mkdir(parents=True, exist_ok=True)
        # Opened before launching so a bad path fails without an orphaned agent.
        stderr_file = open(stderr_path, "wb")  # noqa: SIM115 - closed by the drain thread
        workdir = Path(tempfile.mkdtemp(prefix="agent-", dir=workdir_parent))
        try:
            proc: subprocess.Popen[bytes] | ShimmedAgent
            if sandbox is None:
                proc = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    cwd=workdir,
                    env=scrubbed_env(str(workdir), env_passthrough),
                    start_new_session=True,
                    close_fds=True,
                )
            else:
                assert env is not None
                env.update(HOME=str(workdir), TMPDIR=str(workdir))
                proc = launch(argv, sandbox, workdir, env)
        except (OSError, AgentLaunchError) as exc:
            stderr_file.close()
            remove_tree(str(workdir))
            if isinstance(exc, AgentLaunchError):
                raise
            raise AgentLaunchError(
                f"cannot execute agent program {argv[0]!r}: {exc.strerror or exc}"
            ) from exc
        try:
            return cls(
                proc,
                argv,
                workdir,
                stderr_file,
                stderr_cap_bytes,
                max_line_bytes,
                stdin_backlog_bytes,
                sandbox.isolation() if sandbox else None,
            )
        except BaseException:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            stderr_file.close()
            remove_tree(str(workdir))
            raise

    @property
    def pid(self) -> int:
        """Process id of the agent (as seen from here), which is also its process group id."""
        return self._proc.pid

    @property
    def isolation(self) -> dict[str, object]:
        """The isolation in force, as the record's header states it."""
        return dict(self._isolation)

    @property
    def argv(self) -> list[str]:
        """The argument vector actually executed (program resolved to a path)."""
        return list(self._argv)

    @property
    def returncode(self) -> int | None:
        """Exit code (negative signal number if killed), None while running."""
        return self._proc.poll()

    @property
    def workdir(self) -> Path:
        """The agent's temporary working directory (gone after `close`)."""
        return self._workdir

    def limit_hit(self) -> LimitHit | None:
        """The limit that ended the agent, from its warden's evidence; None for none."""
        return self._proc.limit_hit() if isinstance(self._proc, ShimmedAgent) else None

    @property
    def send_error(self) -> str | None:
        """Why `send_line` fails, or None while sending works."""
        return self._stdin.error

    @property
    def stderr_dropped_bytes(self) -> int:
        """Bytes of stderr read past the cap and discarded."""
        return self._stderr.dropped_bytes

    def stderr_tail(self, n_bytes: int = 4000) -> str:
        """Return the last bytes the agent wrote to stderr, decoded leniently.

        Args:
            n_bytes: How many trailing bytes to return (at most 64 KiB are kept).

        Returns:
            The tail, with undecodable bytes replaced.
        """
        return self._stderr.tail(n_bytes).decode("utf-8", errors="replace")

    def read_line(self, deadline: float) -> ChannelEvent:
        """Wait for the next stdout event until a `time.monotonic()` deadline.

        Lines already received are returned even if the deadline has passed. Once
        `Eof` is returned, every later call returns `Eof` again.

        Args:
            deadline: Absolute `time.monotonic()` time at which to give up.

        Returns:
            `Line`, `LineTooLong`, `NotUtf8`, `Eof` or `Timeout`.
        """
        while True:
            if self._eof is not None or (self._closed and self._events.empty()):
                return Eof(self.returncode)
            remaining = deadline - time.monotonic()
            try:
                event = self._events.get(timeout=max(0.0, min(remaining, _POLL_S)))
            except queue.Empty:
                if self._exited_long_ago():
                    self._eof = Eof(self.returncode)
                    return self._eof
                if remaining <= 0:
                    return Timeout()
                continue
            if isinstance(event, Eof):
                self._eof = event
            return event

    def _exited_long_ago(self) -> bool:
        # A grandchild holding stdout open would hide the agent's exit from the
        # reader thread forever; an exited agent with nothing to read counts as Eof.
        if self.returncode is None:
            return False
        if self._exit_seen_at is None:
            self._exit_seen_at = time.monotonic()
        return time.monotonic() - self._exit_seen_at >= _EXIT_AFTER_EOF_S

    def send_line(self, obj_text: str) -> bool:
        """Queue one line for the agent's stdin; never blocks and never raises on I/O.

        Writes happen on a writer thread with a non-blocking pipe, so an agent that
        stops reading cannot stall the harness. True means the line was queued: a
        later pipe failure shows up as False on the next call and in `send_error`.

        Args:
            obj_text: The line without its newline (normally one JSON object).

        Returns:
            False if the channel is closed, broken, or the agent left more than the
            backlog limit unread; True otherwise.

        Raises:
            ValueError: The text contains a newline (a caller bug, not the agent's).
        """
        if "\n" in obj_text:
            raise ValueError("a line sent to the agent must not contain a newline")
        return self._stdin.send(obj_text.encode("utf-8") + b"\n")

    def _read_stdout(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        fd = stdout.fileno()
        splitter = LineSplitter(self._max_line)
        while not self._stop.is_set():
            chunk = read_chunk(fd, _POLL_S)
            if chunk is None:
                continue
            if not chunk:
                break
            for event in splitter.feed(chunk):
                self._put(event)
        else:
            return
        for event in splitter.finish():
            self._put(event)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=_EXIT_AFTER_EOF_S)
        self._put(Eof(self._proc.poll()))

    def _put(self, event: ChannelEvent) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(queue.Full):
                self._events.put(event, timeout=_POLL_S)
                return

    def close(self, grace_s: float = 1.0) -> int | None:
        """Stop the agent and release everything; safe to call more than once.

        Closes stdin (after flushing queued lines), waits up to `grace_s` for a clean
        exit, then sends SIGTERM to the whole process group, waits again, and sends
        SIGKILL. Interrupting it (Ctrl-C) kills the group at once before re-raising.

        Args:
            grace_s: Seconds to wait after closing stdin and again after SIGTERM.

        Returns:
            The agent's exit code (negative signal number if killed), or None if it
            could not be reaped.
        """
        with self._lock:
            if self._closed:
                return self.returncode
            self._closed = True
        try:
            self._stdin.close_after_flush()
            wait_for_group(self._proc, grace_s, leader_only=True)
            if signal_group(self._proc, signal.SIGTERM):
                wait_for_group(self._proc, grace_s, leader_only=False)
        finally:
            signal_group(self._proc, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=5.0)
            # Let stderr reach EOF on its own so the agent's last words are kept.
            self._threads[1].join(timeout=0.5)
            self._stop.set()
            for thread in self._threads:
                thread.join(timeout=1.0)
            # Closing a descriptor a live thread still polls could hit a reused fd.
            idle = not any(thread.is_alive() for thread in self._threads)
            for stream in (self._proc.stdout, self._proc.stderr):
                if stream is not None and idle:
                    with contextlib.suppress(OSError):
                        stream.close()
            if isinstance(self._proc, ShimmedAgent):
                self._proc.close_warden()
            remove_tree(str(self._workdir))
            _LIVE.discard(self)
        return self.returncode

    def __enter__(self) -> AgentProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        # On Ctrl-C nobody wants to wait for a polite shutdown.
        interrupted = exc_type is not None and issubclass(exc_type, KeyboardInterrupt)
        self.close(grace_s=0.0 if interrupted else 1.0)
