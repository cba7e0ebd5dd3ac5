"""A seat for a policy in the PettingZoo loop, and a record that keeps nothing.

The match runner asks every seat the same way (harness.match.runner.decide): it sends
the observation line and reads one action line. A policy seat's channel holds the line
the environment hands in for the current decision and gives it back as the line read,
so a policy's decisions are counted, recorded and replayed exactly as an agent
process's are, and the two kinds of seat mix in one match.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.agent.process import Line, Timeout
from harness.core.protocol import PROTOCOL_VERSION
from harness.core.record import RecordWriter

# The hello a policy seat stands for in the record's header (hello.schema.json).
POLICY_HELLO = {"type": "hello", "protocol_version": PROTOCOL_VERSION, "name": "pettingzoo-policy",
                "version": "1", "description": "a policy in the PettingZoo loop"}


class PolicyChannel:
    """What the runner reads and writes for a policy seat (an `AgentProcess` look-alike)."""

    def __init__(self) -> None:
        self._queued: str | None = None
        self._armed: str | None = None
        self.last_sent: dict[str, Any] | None = None

    def queue(self, line: str) -> None:
        """The policy's action line for the decision about to be asked."""
        self._queued = line

    def send_line(self, obj_text: str) -> bool:
        """Keep the message sent; a queued line becomes readable only after it (as a reply)."""
        self.last_sent = json.loads(obj_text)
        self._armed, self._queued = self._queued, None
        return True

    def read_line(self, deadline: float) -> Line | Timeout:
        """The queued reply once, then nothing (a drain finds no extra lines)."""
        line, self._armed = self._armed, None
        return Timeout() if line is None else Line(line, line.encode("utf-8"))

    def close(self, grace_s: float = 1.0) -> int | None:
        """Nothing to stop."""
        return None


class NullRecord(RecordWriter):
    """A record writer that writes nothing (an environment asked for no record)."""

    def __init__(self) -> None:
        self.path = Path("(no record)")

    def write(self, kind: str, data: Mapping[str, Any]) -> None:
        """Drop the line."""

    def close(self) -> None:
        """Nothing to close."""
