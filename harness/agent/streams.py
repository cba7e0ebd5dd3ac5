"""The agent's pipes: stdout split into bounded lines, stderr drained, stdin fed.

These pieces are independent of process management: `LineSplitter` is a pure state
machine over byte chunks; `StderrDrain` and `StdinWriter` are the loops background
threads run so that whatever the agent does with its pipes, the parent never blocks.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import threading
import time
from dataclasses import dataclass
from typing import IO, BinaryIO

from harness.core import stopping

PREFIX_BYTES = 200
CHUNK_BYTES = 1 << 16
_STDERR_TAIL_KEEP = 1 << 16


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


def read_chunk(fd: int, poll_s: float) -> bytes | None:
    """Read what is available on a pipe without blocking longer than `poll_s`.

    Args:
        fd: The pipe's file descriptor.
        poll_s: Longest wait for data.

    Returns:
        None if nothing arrived yet, b"" at end of file (or on a read error), else bytes.
    """
    try:
        readable, _, _ = select.select([fd], [], [], poll_s)
        return os.read(fd, CHUNK_BYTES) if readable else None
    except OSError:
        return b""


class LineSplitter:
    """Turns stdout chunks into line events, never holding more than the line limit."""

    def __init__(self, max_line_bytes: int) -> None:
        self._max = max_line_bytes
        self._line = bytearray()
        self._overflow = 0  # bytes of the current line seen past the limit (0 = in bounds)
        self._prefix = b""

    def feed(self, chunk: bytes) -> list[ChannelEvent]:
        """Consume one chunk; return the lines it completed.

        Args:
            chunk: Bytes just read from stdout.

        Returns:
            `Line`, `LineTooLong` or `NotUtf8` events, in order.
        """
        out: list[ChannelEvent] = []
        pos = 0
        while pos < len(chunk):
            end = chunk.find(b"\n", pos)
            piece = chunk[pos : len(chunk) if end < 0 else end]
            pos = len(chunk) if end < 0 else end + 1
            if self._overflow:
                self._overflow += len(piece)
            else:
                self._line += piece
                if len(self._line) > self._max:
                    # From here on only the length is counted, never the bytes.
                    self._prefix = bytes(self._line[:PREFIX_BYTES])
                    self._overflow = len(self._line)
                    self._line.clear()
            if end >= 0:
                out.append(self._take())
        return out

    def finish(self) -> list[ChannelEvent]:
        """At end of file: the unterminated last line, if any, as an event."""
        return [self._take()] if self._line or self._overflow else []

    def _take(self) -> ChannelEvent:
        line, prefix, overflow = self._line, self._prefix, self._overflow
        self._line, self._prefix, self._overflow = bytearray(), b"", 0
        if overflow:
            return LineTooLong(prefix=prefix, length=overflow)
        raw = bytes(line)
        try:
            return Line(text=raw.decode("utf-8"), raw=raw)
        except UnicodeDecodeError:
            return NotUtf8(prefix=raw[:PREFIX_BYTES], length=len(raw))


class StderrDrain:
    """Keeps an agent's stderr pipe empty: the first bytes go to a log, the rest are counted."""

    def __init__(
        self, fd: int, sink: BinaryIO, cap_bytes: int, stop: threading.Event, poll_s: float
    ) -> None:
        self._fd, self._sink, self._cap = fd, sink, cap_bytes
        self._stop, self._poll = stop, poll_s
        self._lock = threading.Lock()
        self._tail = bytearray()
        self._dropped = 0

    @property
    def dropped_bytes(self) -> int:
        """Bytes read past the cap and discarded."""
        return self._dropped

    def tail(self, n_bytes: int) -> bytes:
        """The last bytes seen (at most 64 KiB are kept).

        Args:
            n_bytes: How many trailing bytes to return.

        Returns:
            The raw tail.
        """
        with self._lock:
            return bytes(self._tail[-n_bytes:]) if n_bytes > 0 else b""

    def run(self) -> None:
        """Drain until end of file or until stopped; closes the log file at the end."""
        kept, cap = 0, self._cap
        try:
            while not self._stop.is_set():
                chunk = read_chunk(self._fd, self._poll)
                if chunk is None:
                    continue
                if not chunk:
                    break
                room = max(0, cap - kept)
                if room:
                    try:
                        self._sink.write(chunk[:room])
                        self._sink.flush()
                        kept += min(room, len(chunk))
                    except OSError:
                        # A full disk must not stop the draining, or the agent blocks.
                        cap = kept
                self._remember(chunk, len(chunk) - min(room, len(chunk)))
            if self._dropped:
                self._sink.write(
                    f"\n[harness] stderr truncated after {kept} bytes; "
                    f"{self._dropped} more bytes dropped\n".encode()
                )
        except OSError:
            pass  # only the marker can fail here; the tail is still kept in memory
        finally:
            self._sink.close()

    def _remember(self, chunk: bytes, dropped: int) -> None:
        with self._lock:
            self._dropped += dropped
            if len(chunk) >= _STDERR_TAIL_KEEP:
                self._tail = bytearray(chunk[-_STDERR_TAIL_KEEP:])
            else:
                self._tail += chunk
                del self._tail[:-_STDERR_TAIL_KEEP]


_CLOSE = object()


class StdinWriter:
    """Feeds queued lines to the agent's non-blocking stdin so a non-reader cannot stall us."""

    def __init__(self, stream: IO[bytes], backlog_cap: int, stop: threading.Event,
                 poll_s: float):
        self._stream, self._cap, self._stop, self._poll = stream, backlog_cap, stop, poll_s
        self._outbox: queue.Queue[bytes | object] = queue.Queue()
        self._lock = threading.Lock()
        self._pending = 0
        self._closing = False
        self._error: str | None = None
        self._sent = threading.Event()  # set while every queued byte is in the pipe
        self._sent.set()
        os.set_blocking(stream.fileno(), False)

    @property
    def error(self) -> str | None:
        """Why sending fails, or None while it works."""
        return self._error

    def send(self, data: bytes) -> bool:
        """Queue bytes for writing.

        Args:
            data: The bytes (normally one line with its newline).

        Returns:
            False if closed, broken or over the unread backlog limit; True otherwise.
        """
        with self._lock:
            if self._closing:
                self._error = self._error or "the channel is closed"
            elif self._error is None and self._pending + len(data) > self._cap:
                self._error = f"the agent left more than {self._cap} bytes of stdin unread"
            if self._error is not None:
                return False
            self._pending += len(data)
            self._sent.clear()
        self._outbox.put(data)
        return True

    def wait_sent(self, timeout_s: float) -> bool:
        """Wait until every queued byte is in the pipe (or `timeout_s` passes); say whether.

        The agent's clock for a decision starts here: the harness's own time writing a
        large observation is not the agent's (an agent that does not read still times out).
        """
        return self._sent.wait(max(0.0, timeout_s))

    def close_after_flush(self) -> None:
        """Refuse further sends and close stdin once the queued lines are written."""
        with self._lock:
            self._closing = True
        self._outbox.put(_CLOSE)

    def run(self) -> None:
        """Write queued lines until closed, stopped or broken; closes stdin at the end."""
        fd = self._stream.fileno()
        try:
            while not self._stop.is_set():
                try:
                    item = self._outbox.get(timeout=self._poll)
                except queue.Empty:
                    continue
                if not isinstance(item, bytes) or not self._write_all(fd, item):
                    return
                with self._lock:
                    self._pending -= len(item)
                    if self._pending == 0:
                        self._sent.set()
        finally:
            with contextlib.suppress(OSError):
                self._stream.close()

    def _write_all(self, fd: int, data: bytes) -> bool:
        view = memoryview(data)
        while view and not self._stop.is_set():
            try:
                _, writable, _ = select.select([], [fd], [], self._poll)
                if writable:
                    view = view[os.write(fd, view) :]
            except BlockingIOError:
                continue
            except (OSError, ValueError) as exc:
                with self._lock:
                    self._error = self._error or f"agent stdin closed ({exc})"
                return False
        return not view


def decision_clock_start(writer: StdinWriter | None, queued: float, limit_s: float) -> float:
    """When an agent's decision clock starts: once the queued observation is in its pipe.

    The harness's time writing the observation is not the agent's. An agent that reads
    nothing for `limit_s` is charged from `queued`, as is one asked
    while a stop signal is pending; without a writer (a fake process) the clock starts now.
    """
    if writer is None:
        return time.monotonic()
    until = queued + limit_s
    while stopping.requested() is None and time.monotonic() < until:
        if writer.wait_sent(min(0.1, until - time.monotonic())):
            return time.monotonic()
    return queued
