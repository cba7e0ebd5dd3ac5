"""An agent inside the harness's own process: the episode's channel without a process.

The episode talks to an agent through a handle (`AgentHandle`): it sends lines, reads
line events until a deadline, and closes it. `AgentProcess` is that handle for a program
the harness starts; `LocalAgent` is the same handle for an agent side written in Python
inside the harness, such as the MCP server (harness.mcp.server), whose agent is a client
outside the harness. The agent side's lines still go through the protocol's parser and
limits, so what it sends is judged exactly as a process's lines are.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from harness.agent.limits import LimitHit
from harness.agent.streams import PREFIX_BYTES, ChannelEvent, Eof, Line, LineTooLong, Timeout


class AgentHandle(Protocol):
    """What the episode needs from an agent: a line channel, its identity and its end."""

    @property
    def argv(self) -> list[str]:
        """The argument vector the record states."""

    @property
    def isolation(self) -> dict[str, object]:
        """The isolation in force, as the record's header states it."""

    @property
    def stderr_dropped_bytes(self) -> int:
        """Bytes of the agent's stderr read past the cap and discarded."""

    def stderr_tail(self, n_bytes: int = 4000) -> str:
        """The last bytes the agent wrote to stderr."""

    def send_line(self, obj_text: str) -> bool:
        """Queue one line for the agent; False once the channel is closed or broken."""

    def read_line(self, deadline: float) -> ChannelEvent:
        """The agent's next line event, or `Timeout` at the `time.monotonic()` deadline."""

    def close(self, grace_s: float = 1.0) -> int | None:
        """End the agent and release everything; safe to call more than once."""

    def limit_hit(self) -> LimitHit | None:
        """The limit that ended the agent, from evidence it cannot forge; None for none."""


class LocalAgent:
    """An in-process agent side: the harness's messages go to a callback, its lines to a queue.

    Args:
        on_message: Called with each decoded message the episode sends (start,
            observation, summary), in the episode's thread; it must not block.
        argv: What the record's header names as the agent's argument vector.
        isolation: The record header's isolation block, stated honestly by the owner.
        max_line_bytes: Longest line accepted from the agent side, as for a process.
    """

    def __init__(self, on_message: Callable[[dict[str, Any]], None], argv: list[str],
                 isolation: dict[str, object], max_line_bytes: int) -> None:
        self._on_message = on_message
        self._argv = list(argv)
        self._isolation = dict(isolation)
        self._max_line = max_line_bytes
        self._lines: queue.Queue[ChannelEvent] = queue.Queue()
        self._closed = threading.Event()
        self._gone = False

    @property
    def argv(self) -> list[str]:
        """The argument vector the record states."""
        return list(self._argv)

    @property
    def isolation(self) -> dict[str, object]:
        """The isolation in force, as the record's header states it."""
        return dict(self._isolation)

    @property
    def stderr_dropped_bytes(self) -> int:
        """Always 0: an in-process agent side has no stderr."""
        return 0

    @property
    def closed(self) -> bool:
        """Whether the episode has closed the channel."""
        return self._closed.is_set()

    def stderr_tail(self, n_bytes: int = 4000) -> str:
        """Always empty: an in-process agent side has no stderr."""
        return ""

    # The episode's side.

    def send_line(self, obj_text: str) -> bool:
        """Hand one harness message to the agent side; False once closed or gone."""
        if self._closed.is_set() or self._gone:
            return False
        self._on_message(json.loads(obj_text))
        return True

    def read_line(self, deadline: float) -> ChannelEvent:
        """The agent side's next line, `Eof` once it left, or `Timeout` at the deadline."""
        while True:
            try:
                event = self._lines.get(timeout=max(0.0, min(deadline - time.monotonic(), 0.05)))
            except queue.Empty:
                if self._gone:
                    return Eof(None)
                if time.monotonic() >= deadline:
                    return Timeout()
                continue
            if isinstance(event, Eof):
                self._gone = True
            return event

    def close(self, grace_s: float = 1.0) -> int | None:
        """End the channel; the agent side's later lines are dropped."""
        self._closed.set()
        return None

    def limit_hit(self) -> LimitHit | None:
        """None: a client outside the harness has no limits the harness watches."""
        return None

    # The agent side.

    def send(self, message: dict[str, Any]) -> bool:
        """Queue one message from the agent side as a line; False once the channel is closed.

        A line longer than the limit arrives as `LineTooLong`, as a process's would.
        """
        if self._closed.is_set() or self._gone:
            return False
        text = json.dumps(message, ensure_ascii=False, allow_nan=True)
        raw = text.encode("utf-8")
        if len(raw) > self._max_line:
            self._lines.put(LineTooLong(prefix=raw[:PREFIX_BYTES], length=len(raw)))
        else:
            self._lines.put(Line(text=text, raw=raw))
        return True

    def leave(self) -> None:
        """The agent side is gone for good (its client disconnected): the episode reads `Eof`."""
        self._lines.put(Eof(None))
