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
import select
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

DEFAULT_MAX_LINE_BYTES = 1 << 20
DEFAULT_STDERR_CAP_BYTES = 2 << 20
DEFAULT_STDIN_BACKLOG_BYTES = 16 << 20
PREFIX_BYTES = 200
# How long to wait for an exit code once stdout closes, so Eof can usually carry it.
_EXIT_AFTER_EOF_S = 0.2
# Polling interval of the I/O threads: bounds how long close() waits to join them.
_POLL_S = 0.05
_CHUNK = 1 << 16
_STDERR_TAIL_KEEP = 1 << 16
# Bounded so an agent printing short lines forever stalls on its own pipe instead of
# growing our memory; a line is at most max_line_bytes, so the queue is bounded too.
_EVENT_QUEUE_SIZE = 64


class AgentLaunchError(Exception):
    """The agent command cannot be started (missing, not executable, malformed)."""


@dataclass(frozen=True)
class Line:
    """One complete line from the agent's stdout, without its newline."""

    text: str
    raw: bytes


@dataclass(frozen=True)
class LineTooLong:
    """A line longer than the limit; only its first bytes were kept."""

    prefix: bytes
    length: int


@dataclass(frozen=True)
class NotUtf8:
    """A line that is not valid UTF-8; only its first bytes were kept."""

    prefix: bytes
    length: int


@dataclass(frozen=True)
class Eof:
    """The agent's stdout is closed; returncode is None if it was still running."""

    returncode: int | None


@dataclass(frozen=True)
class Timeout:
    """Nothing arrived before the caller's deadline."""


ChannelEvent = Line | LineTooLong | NotUtf8 | Eof | Timeout

_CLOSE_STDIN = object()
_LIVE: weakref.WeakSet[AgentProcess] = weakref.WeakSet()


@atexit.register
def _kill_leftovers() -> None:
    # Last resort if the caller never reached close(): never leave agents behind.
    for proc in list(_LIVE):
        proc.close(grace_s=0.0)


def _resolve_argv(command: str | Sequence[str]) -> list[str]:
    """Split the command and make its program (and file arguments) absolute paths."""
    try:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    except ValueError as exc:
        raise AgentLaunchError(f"cannot parse agent command {command!r}: {exc}") from exc
    if not argv or not argv[0]:
        raise AgentLaunchError("the agent command is empty")
    prog = argv[0]
    # A bare name is looked up on PATH like a shell would, then in the caller's cwd.
    bare = "/" not in prog
    path = (bare and shutil.which(prog)) or os.path.abspath(prog)
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


def _scrubbed_env(home: str, passthrough: Iterable[str]) -> dict[str, str]:
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


def _group_has_live_members(pgid: int) -> bool:
    """Whether any non-zombie process is in the group (zombies may never be reaped)."""
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


def _remove_tree(path: str) -> None:
    # An agent may have left read-only directories behind; we own them, so reopen
    # them first (os.walk descends only after each level's chmods).
    with contextlib.suppress(OSError):
        os.chmod(path, 0o700)
    for root, dirs, _files in os.walk(path):
        for name in dirs:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(root, name), 0o700)
    shutil.rmtree(path, ignore_errors=True)


class AgentProcess:
    """One running agent and its stdin/stdout line channel.

    Create with `AgentProcess.start`; always `close` it (or use it as a context manager).
    """

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        argv: list[str],
        workdir: Path,
        stderr_file: BinaryIO,
        stderr_cap_bytes: int,
        max_line_bytes: int,
        stdin_backlog_bytes: int,
    ) -> None:
        self._proc = proc
        self._argv = argv
        self._workdir = workdir
        self._max_line = max_line_bytes
        self._backlog_cap = stdin_backlog_bytes
        self._stop = threading.Event()
        self._events: queue.Queue[ChannelEvent] = queue.Queue(_EVENT_QUEUE_SIZE)
        self._eof: Eof | None = None
        self._exit_seen_at: float | None = None
        self._outbox: queue.Queue[bytes | object] = queue.Queue()
        self._lock = threading.Lock()
        self._pending = 0
        self._send_error: str | None = None
        self._closing = False
        self._closed = False
        self._stderr_cap = stderr_cap_bytes
        self._stderr_tail = bytearray()
        self._stderr_dropped = 0
        self._stderr_file = stderr_file
        assert proc.stdin and proc.stdout and proc.stderr
        os.set_blocking(proc.stdin.fileno(), False)
        with contextlib.suppress(OSError, AttributeError):
            # A larger pipe means far fewer wakeups while draining a stderr flood.
            fcntl.fcntl(proc.stderr.fileno(), fcntl.F_SETPIPE_SZ, 1 << 20)
        self._threads = [
            threading.Thread(target=self._read_stdout, name="agent-stdout", daemon=True),
            threading.Thread(target=self._drain_stderr, name="agent-stderr", daemon=True),
            threading.Thread(target=self._write_stdin, name="agent-stdin", daemon=True),
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

        Returns:
            The running agent.

        Raises:
            AgentLaunchError: The program is missing, not executable, or cannot be
                executed.
        """
        argv = _resolve_argv(command)
        stderr_path = Path(stderr_path)
        stderr_path.parent.mkdir(parents=True, exist_ok=True)
        # Opened before launching so a bad path fails without an orphaned agent.
        stderr_file = open(stderr_path, "wb")  # noqa: SIM115 - closed by the drain thread
        workdir = Path(tempfile.mkdtemp(prefix="agent-", dir=workdir_parent))
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=workdir,
                env=_scrubbed_env(str(workdir), env_passthrough),
                start_new_session=True,
                close_fds=True,
            )
        except OSError as exc:
            stderr_file.close()
            _remove_tree(str(workdir))
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
            )
        except BaseException:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            stderr_file.close()
            _remove_tree(str(workdir))
            raise

    @property
    def pid(self) -> int:
        """Process id of the agent, which is also its process group id."""
        return self._proc.pid

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

    @property
    def send_error(self) -> str | None:
        """Why `send_line` fails, or None while sending works."""
        return self._send_error

    @property
    def stderr_dropped_bytes(self) -> int:
        """Bytes of stderr read past the cap and discarded."""
        return self._stderr_dropped

    def stderr_tail(self, n_bytes: int = 4000) -> str:
        """Return the last bytes the agent wrote to stderr, decoded leniently.

        Args:
            n_bytes: How many trailing bytes to return (at most 64 KiB are kept).

        Returns:
            The tail, with undecodable bytes replaced.
        """
        with self._lock:
            tail = bytes(self._stderr_tail[-n_bytes:]) if n_bytes > 0 else b""
        return tail.decode("utf-8", errors="replace")

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
        data = obj_text.encode("utf-8") + b"\n"
        with self._lock:
            if self._closing:
                self._send_error = self._send_error or "the channel is closed"
            elif self._send_error is None and self._pending + len(data) > self._backlog_cap:
                self._send_error = (
                    f"the agent left more than {self._backlog_cap} bytes of stdin unread"
                )
            if self._send_error is not None:
                return False
            self._pending += len(data)
        self._outbox.put(data)
        return True

    def _write_stdin(self) -> None:
        stdin = self._proc.stdin
        assert stdin is not None
        fd = stdin.fileno()
        try:
            while not self._stop.is_set():
                try:
                    item = self._outbox.get(timeout=_POLL_S)
                except queue.Empty:
                    continue
                if item is _CLOSE_STDIN or not isinstance(item, bytes):
                    return
                if not self._write_all(fd, item):
                    return
                with self._lock:
                    self._pending -= len(item)
        finally:
            with contextlib.suppress(OSError):
                stdin.close()

    def _write_all(self, fd: int, data: bytes) -> bool:
        view = memoryview(data)
        while view and not self._stop.is_set():
            try:
                _, writable, _ = select.select([], [fd], [], _POLL_S)
                if writable:
                    view = view[os.write(fd, view) :]
            except BlockingIOError:
                continue
            except (OSError, ValueError) as exc:
                with self._lock:
                    self._send_error = self._send_error or f"agent stdin closed ({exc})"
                return False
        return not view

    def _read_stdout(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        fd = stdout.fileno()
        line = bytearray()
        overflow = 0  # bytes of the current line seen past the limit (0 = in bounds)
        prefix = b""
        while True:
            if self._stop.is_set():
                return
            chunk = self._read_chunk(fd)
            if chunk is None:
                continue
            if not chunk:
                break
            pos = 0
            while pos < len(chunk):
                end = chunk.find(b"\n", pos)
                piece = chunk[pos : len(chunk) if end < 0 else end]
                pos = len(chunk) if end < 0 else end + 1
                if overflow:
                    overflow += len(piece)
                else:
                    line += piece
                    if len(line) > self._max_line:
                        # From here on only the length is counted, never the bytes.
                        prefix, overflow = bytes(line[:PREFIX_BYTES]), len(line)
                        line.clear()
                if end >= 0:
                    self._emit_line(line, prefix, overflow)
                    line, overflow, prefix = bytearray(), 0, b""
        if line or overflow:
            self._emit_line(line, prefix, overflow)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=_EXIT_AFTER_EOF_S)
        self._put(Eof(self._proc.poll()))

    def _read_chunk(self, fd: int) -> bytes | None:
        """Read what is available; None if nothing yet, b"" at EOF."""
        try:
            readable, _, _ = select.select([fd], [], [], _POLL_S)
            return os.read(fd, _CHUNK) if readable else None
        except OSError:
            return b""

    def _emit_line(self, line: bytearray, prefix: bytes, overflow: int) -> None:
        if overflow:
            self._put(LineTooLong(prefix=prefix, length=overflow))
            return
        raw = bytes(line)
        try:
            self._put(Line(text=raw.decode("utf-8"), raw=raw))
        except UnicodeDecodeError:
            self._put(NotUtf8(prefix=raw[:PREFIX_BYTES], length=len(raw)))

    def _put(self, event: ChannelEvent) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(queue.Full):
                self._events.put(event, timeout=_POLL_S)
                return

    def _drain_stderr(self) -> None:
        stderr = self._proc.stderr
        assert stderr is not None
        fd, kept, cap = stderr.fileno(), 0, self._stderr_cap
        try:
            while not self._stop.is_set():
                chunk = self._read_chunk(fd)
                if chunk is None:
                    continue
                if not chunk:
                    break
                room = max(0, cap - kept)
                if room:
                    try:
                        self._stderr_file.write(chunk[:room])
                        self._stderr_file.flush()
                        kept += min(room, len(chunk))
                    except OSError:
                        # A full disk must not stop the draining, or the agent blocks.
                        cap = kept
                with self._lock:
                    self._stderr_dropped += len(chunk) - min(room, len(chunk))
                    if len(chunk) >= _STDERR_TAIL_KEEP:
                        self._stderr_tail = bytearray(chunk[-_STDERR_TAIL_KEEP:])
                    else:
                        self._stderr_tail += chunk
                        del self._stderr_tail[:-_STDERR_TAIL_KEEP]
            if self._stderr_dropped:
                self._stderr_file.write(
                    f"\n[harness] stderr truncated after {kept} bytes; "
                    f"{self._stderr_dropped} more bytes dropped\n".encode()
                )
        except OSError:
            pass  # only the marker can fail here; the tail is still kept in memory
        finally:
            self._stderr_file.close()

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
            self._closed = self._closing = True
        try:
            self._outbox.put(_CLOSE_STDIN)
            self._wait_group(grace_s, leader_only=True)
            if self._signal_group(signal.SIGTERM):
                self._wait_group(grace_s, leader_only=False)
        finally:
            self._signal_group(signal.SIGKILL)
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
            _remove_tree(str(self._workdir))
            _LIVE.discard(self)
        return self.returncode

    def _wait_group(self, timeout: float, *, leader_only: bool) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.returncode is not None and (
                leader_only or not _group_has_live_members(self.pid)
            ):
                return
            time.sleep(0.01)

    def _signal_group(self, sig: signal.Signals) -> bool:
        """Signal the agent's process group; False if it has no live members left."""
        if self.returncode is not None and not _group_has_live_members(self.pid):
            return False
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            return False
        return True

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
