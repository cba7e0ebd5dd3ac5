"""How an episode ended: one outcome from the closed list, a reason, the culprit turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from harness.agent.limits import LimitHit
from harness.agent.process import Eof, LineTooLong, NotUtf8
from harness.core.game import GameStatus
from harness.core.messages import Outcome as OutcomeName
from harness.core.messages import SummaryMessage, SummaryMessageObjectivesItem
from harness.core.protocol import (
    AGENT_CRASHED,
    AGENT_TIMEOUT,
    COMPLETED,
    FAILED,
    INTERRUPTED,
    OUTCOMES,
    PROTOCOL_ERROR,
    PROTOCOL_VERSION,
    RESOURCE_LIMIT,
    TERMINATED_KIND,
    TRUNCATED,
    TRUNCATED_KIND,
    Fault,
)
from harness.core.stopping import Interrupted
from world.face import ticks_to_seconds


@dataclass(frozen=True)
class Ending:
    """The end of an episode.

    Attributes:
        outcome: A key of `OUTCOMES`.
        reason: What happened, in plain words.
        agent_error: For endings the agent caused: {"turn", "kind", "message"}.
    """

    outcome: OutcomeName
    reason: str
    agent_error: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"undeclared outcome {self.outcome!r}")


def _agent_fault(outcome: OutcomeName, turn: int | None, kind: str, message: str) -> Ending:
    where = "before its hello" if turn is None else f"at turn {turn}"
    return Ending(outcome, f"the agent {message} {where}",
                  {"turn": turn, "kind": kind, "message": message})


def silence_ending(turn: int | None, waited_for: str, limit_name: str, limit_s: float) -> Ending:
    """The agent said nothing before a deadline."""
    message = f"sent no {waited_for} within the {limit_name} of {limit_s:g} s"
    return _agent_fault(AGENT_TIMEOUT, turn, limit_name.replace(" ", "_"), message)


# What allocators and runtimes print when an allocation fails (RLIMIT_AS makes it fail).
_OUT_OF_MEMORY = ("MemoryError", "Cannot allocate memory", "bad_alloc", "out of memory",
                  "failed to allocate", "memory allocation")


def exit_ending(turn: int | None, eof: Eof, stderr_tail: str, memory_limit_mb: int = 0,
                limit: LimitHit | None = None) -> Ending:
    """The agent's output ended before the episode did.

    Args:
        turn: The turn it happened at (None before the hello).
        eof: The end of its output, with its exit status if known.
        stderr_tail: The end of its log, to quote.
        memory_limit_mb: Its address-space limit, named in the message: without memory
            accounting nothing the agent cannot forge tells an allocation that failed
            there from any other crash, so what its log says never decides the kind.
        limit: The limit its warden saw it go past, which makes this a `resource_limit`.
    """
    code = eof.returncode
    if code is None:
        message = "closed its standard output while still running"
    elif code < 0:
        message = f"was killed by signal {-code}"
    elif code == 0:
        message = "exited with status 0 before the episode ended"
    else:
        message = f"exited with status {code}"
    last = stderr_tail.strip().splitlines()[-1:] if stderr_tail.strip() else []
    if last:
        message += f" (last stderr line: {last[0][:200]!r})"
    if limit is not None:
        return _agent_fault(RESOURCE_LIMIT, turn, f"{limit.name}_limit",
                            f"{limit.message()}; it {message}")
    if memory_limit_mb and any(word in stderr_tail[-4000:] for word in _OUT_OF_MEMORY):
        # A hint for the operator, not a verdict: the agent may have printed it itself.
        message += (f"; its log speaks of memory, and its processes are limited to "
                    f"{memory_limit_mb} MiB of address space each (--agent-memory-mb)")
    return _agent_fault(AGENT_CRASHED, turn, "exited", message)


def hello_fault_ending(fault: Fault) -> Ending:
    """The first line was not an acceptable hello."""
    return _agent_fault(PROTOCOL_ERROR, None, fault.code,
                        f"sent a bad hello ({fault.code}: {fault.message})")


def invalid_limit_ending(turn: int, count: int, fault: Fault) -> Ending:
    """Too many invalid actions in a row."""
    message = f"sent {count} invalid actions in a row, the last one {fault.code}: {fault.message}"
    return _agent_fault(PROTOCOL_ERROR, turn, fault.code, message)


def line_fault(event: LineTooLong | NotUtf8, max_line_bytes: int) -> Fault:
    """The fault for a line the channel could not deliver as text."""
    if isinstance(event, LineTooLong):
        return Fault("line_too_long", f"a line of {event.length} bytes is longer than the "
                     f"limit of {max_line_bytes} bytes; starts {event.prefix[:80]!r}")
    return Fault("not_utf8", f"a line of {event.length} bytes is not UTF-8 text; "
                 f"starts {event.prefix[:80]!r}")


def interrupted_ending(stop: Interrupted, turn: int | None) -> Ending:
    """The harness was asked to stop before the episode ended."""
    where = "before the agent's hello" if turn is None else f"at turn {turn}"
    return Ending(INTERRUPTED, f"the harness was stopped by {stop.name} {where}; the "
                  "record proves no result")


def mission_ending(status: GameStatus) -> Ending:
    """The mission ended by itself."""
    if status.success:
        return Ending(COMPLETED, "the mission succeeded")
    return Ending(FAILED, f"the mission failed: {status.failure or 'no reason given'}")


def budget_ending(decisions: int, max_decisions: int, tick: int, max_ticks: int) -> Ending | None:
    """Truncation by the level's budgets, or None while within them."""
    if decisions >= max_decisions:
        return Ending(TRUNCATED, f"the budget of {max_decisions} decisions ran out")
    if tick >= max_ticks:
        seconds = ticks_to_seconds(max_ticks)
        return Ending(TRUNCATED, f"the game-time budget of {seconds:g} s ran out")
    return None


def world_ending(status: GameStatus, decisions: int, max_decisions: int, tick: int,
                 max_ticks: int) -> Ending | None:
    """The ending the world gives after a turn: the mission's, else a spent budget's."""
    if status.ended:
        return mission_ending(status)
    return budget_ending(decisions, max_decisions, tick, max_ticks)


def summary_message(ending: Ending, status: GameStatus, counts: dict[str, int]) -> SummaryMessage:
    """The summary message sent to the agent (and kept in the record's end line).

    Args:
        ending: How the episode ended.
        status: The mission status at the end.
        counts: decisions, invalid_actions and game_ticks.

    Returns:
        The message, valid against schemas/messages/summary.schema.json.
    """
    kind = OUTCOMES[ending.outcome].kind
    return {
        "type": "summary",
        "protocol_version": PROTOCOL_VERSION,
        "outcome": ending.outcome,
        "terminated": kind == TERMINATED_KIND,
        "truncated": kind == TRUNCATED_KIND,
        "success": ending.outcome == COMPLETED,
        "failure": status.failure,
        "score": round(float(status.score), 6),
        "progress": round(float(status.progress), 6),
        "stages": round(float(status.stages), 6),
        # The world reports objectives as plain dicts that its status schema checks.
        "objectives": [cast(SummaryMessageObjectivesItem, dict(o)) for o in status.objectives],
        "decisions": counts["decisions"],
        "invalid_actions": counts["invalid_actions"],
        "game_ticks": counts["game_ticks"],
        "reason": ending.reason,
    }

