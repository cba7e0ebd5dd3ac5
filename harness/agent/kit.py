"""A small helper for writing agents in Python: read start, say hello, answer observations.

Example::

    from harness.agent.kit import run_agent

    def decide(observation, start):
        return "wait", {"seconds": 1}, "nothing to do yet"

    run_agent(decide, name="my-agent", version="1")

The kit reads one JSON line at a time from stdin and writes exactly one line per
observation to stdout; log to stderr, never to stdout.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

Decision = tuple[str, dict[str, Any]] | tuple[str, dict[str, Any], str | None]


def action_message(
    action: str,
    arguments: dict[str, Any],
    notes: str | None = None,
    usage: dict[str, float | None] | None = None,
) -> dict[str, Any]:
    """Build an action message.

    Args:
        action: A macro action name from start's tools.
        arguments: Its arguments.
        notes: Free text shown on run pages as the agent's own words.
        usage: Self-reported usage; leave unknown figures out rather than writing 0.

    Returns:
        The message as a dict.
    """
    message: dict[str, Any] = {"type": "action", "protocol_version": 1, "action": action,
                               "arguments": arguments}
    if notes is not None:
        message["notes"] = notes
    if usage is not None:
        message["usage"] = usage
    return message


def send(message: dict[str, Any], out: TextIO = sys.stdout) -> None:
    """Write one message as one line and flush."""
    out.write(json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n")
    out.flush()


def run_agent(
    decide: Callable[[dict[str, Any], dict[str, Any]], Decision],
    *,
    name: str,
    version: str,
    model: str | None = None,
    description: str | None = None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> dict[str, Any] | None:
    """Play one episode: read start, say hello, answer every observation.

    Args:
        decide: Called with (observation, start); returns (action, arguments) or
            (action, arguments, notes).
        name: The agent's name.
        version: Its version.
        model: Model id, for LLM agents.
        description: A sentence about the agent.
        stdin: Where messages come from.
        stdout: Where messages go.

    Returns:
        The summary message, or None if the input ended without one.
    """
    start = json.loads(stdin.readline())
    send({"type": "hello", "protocol_version": 1, "name": name, "version": version,
          "model": model, "description": description}, stdout)
    for line in stdin:
        message: dict[str, Any] = json.loads(line)
        if message["type"] == "summary":
            return message
        decision = decide(message, start)
        notes = decision[2] if len(decision) > 2 else None
        send(action_message(decision[0], decision[1], notes), stdout)
    return None
