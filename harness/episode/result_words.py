"""The result of one action in one sentence, as a tool-calling model is told it.

Used where a turn is cast as a tool call and its result: the MCP server's answer to an
action tool, and the `tool` message of a chat dataset row. Only what the observation
shows the agent is read (the public result keys, the error, the summary), so the sentence
never says more than the next observation would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from world.face import ticks_to_seconds


def result_sentence(result: Mapping[str, Any] | None, error: Mapping[str, Any] | None) -> str:
    """How an action ended, from an observation's `last_result` and `error`.

    Args:
        result: The action's result (public keys: action, end_reason, ticks,
            distance_moved, detail, changes), or None if it did not run.
        error: The fault that kept it from running (code, message), or None.

    Returns:
        One sentence, with the changes it caused after it.
    """
    if error:
        return (f"Refused ({error.get('code', '?')}): {error.get('message', '')}. "
                "Nothing ran; the decision counted.")
    if not result:
        return "No action ran."
    took = ticks_to_seconds(int(result.get("ticks") or 0))
    text = (f"{result.get('action', '?')} ended: {result.get('end_reason', '?')} after "
            f"{took:.1f} s, moved {float(result.get('distance_moved') or 0):.0f}. "
            f"{result.get('detail') or ''}").rstrip()
    changes = [str(c) for c in result.get("changes") or ()]
    return text + (" Changes: " + "; ".join(changes) + "." if changes else "")


def summary_sentence(summary: Mapping[str, Any]) -> str:
    """The episode's end in one sentence, from a summary message."""
    return (f"The episode has ended: {summary.get('outcome', '?')} ({summary.get('reason', '')}); "
            f"score {float(summary.get('score') or 0):.2f} after {summary.get('decisions', 0)} "
            "decisions.")
