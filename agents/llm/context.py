"""What the model is sent each turn: the mission, recent turns and a rolling summary.

The layout keeps a stable prefix for the servers' prompt caches: the system prompt,
then the first user message opening with the mission brief, then past turns in order.
The rolling summary of folded turns rides in the last message, beside the current
observation, so it never sits in front of the turns that follow it. Past turns are kept
verbatim up to a count; beyond it they are folded in a block (down to half the count,
or to three quarters of the character budget when that overflowed), so the prefix
changes once every few turns rather than at every turn. The character
budget counts the whole request: messages, and the tool definitions and per-message
overhead the caller reserves. Every fold is reported so the caller can log it.

Each kept turn is an observation followed by the model's tool call. The observation
after a call is sent as that call's tool result, so every call id is answered and the
message list stays well formed for strict servers. A turn the agent played itself (the
fallback) carries no words of the model's: its call goes out with empty text, and the
tool result that follows says the agent played it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

# How much of a turn's notes survive into its summary line.
_SUMMARY_NOTE_CHARS = 160
_SUMMARY_HEADER = "Summary of earlier turns (oldest first):"
# Share of the character budget a request is folded down to once it overflows.
_REFILL_SHARE = 0.75
FALLBACK_NOTE = "(No usable answer came at that turn, so the agent played this action itself.)"


@dataclass(frozen=True)
class Turn:
    """One finished turn as it will be replayed to the model."""

    index: int
    observation: str
    call_id: str
    name: str
    arguments: dict[str, Any]
    text: str
    outcome: str = ""
    fallback: bool = False

    def summary_line(self) -> str:
        """One line saying what was done at this turn, how it ended and why."""
        args = json.dumps(self.arguments, sort_keys=True, separators=(",", ":"))
        line = f"turn {self.index}: {self.name} {args}"
        if self.fallback:
            line += " (played by the agent: no usable answer)"
        if self.outcome:
            line += f" -> {self.outcome}"
        note = " ".join(self.text.split())
        if note:
            cut = note[:_SUMMARY_NOTE_CHARS]
            line += f" - {cut}{'...' if len(note) > len(cut) else ''}"
        return line


@dataclass(frozen=True)
class Dropped:
    """What building one request folded away."""

    turns: tuple[int, ...] = ()
    summary_lines: int = 0

    def __bool__(self) -> bool:
        return bool(self.turns or self.summary_lines)

    def describe(self) -> str:
        """Plain words for logs and notes."""
        parts = []
        if self.turns:
            word = "turn" if len(self.turns) == 1 else "turns"
            parts.append(f"{word} {_ranges(self.turns)} folded into the summary")
        if self.summary_lines:
            parts.append(f"{self.summary_lines} oldest summary lines dropped")
        return "; ".join(parts)


def _ranges(indices: tuple[int, ...]) -> str:
    lo, hi = min(indices), max(indices)
    return str(lo) if lo == hi else f"{lo}-{hi}"


def message_chars(message: dict[str, Any]) -> int:
    """Characters a message adds to a request (content plus tool-call arguments)."""
    size = len(message.get("content") or "")
    for call in message.get("tool_calls") or ():
        size += len(call["function"]["name"]) + len(call["function"]["arguments"])
    return size


def assistant_message(text: str | None, call_id: str, name: str, arguments: Any) -> dict[str, Any]:
    """An assistant message carrying exactly one tool call.

    Args:
        text: The model's text beside the call, if any.
        call_id: The tool call's id.
        name: The tool's name.
        arguments: Parsed arguments (re-serialised) or the raw string the model sent.

    Returns:
        The message in chat-completions form.
    """
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments, sort_keys=True)
    return {
        "role": "assistant",
        # Never null: llama-cpp-python answers 500 "Input should be a valid string".
        "content": text or "",
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}
        ],
    }


@dataclass
class Context:
    """The rolling context of one episode."""

    system: str
    mission: str
    keep_turns: int
    context_chars: int
    summary_chars: int
    turns: list[Turn] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)
    summary_omitted: int = 0
    reserve_chars: int = 0

    def add(self, turn: Turn) -> None:
        """Remember a turn whose action was just sent."""
        self.turns.append(turn)

    def set_outcome(self, outcome: str) -> None:
        """Attach how the latest turn's action ended, for its summary line."""
        if self.turns and outcome:
            self.turns[-1] = replace(self.turns[-1], outcome=outcome)

    def build(self, observation: str) -> tuple[list[dict[str, Any]], Dropped]:
        """The messages for a request about the current observation.

        Args:
            observation: The current observation's text.

        Returns:
            The messages, and what had to be folded away to fit the budgets.
        """
        folded: list[int] = []
        if len(self.turns) > self.keep_turns:
            # Fold a block, not one turn: the request's prefix then stays the same (and
            # cached) for the next keep_turns/2 turns.
            while len(self.turns) > self.keep_turns // 2:
                folded.append(self._fold_oldest())
        messages = self._render(observation)
        if self.request_chars(messages) > self.context_chars:
            # Over budget: fold to well under it, so the next turns fit without a fold.
            target = int(self.context_chars * _REFILL_SHARE)
            while self.turns and self.request_chars(messages) > target:
                folded.append(self._fold_oldest())
                messages = self._render(observation)
        lines_before = self.summary_omitted
        self._cap_summary(observation)
        if self.summary_omitted != lines_before:
            messages = self._render(observation)
        return messages, Dropped(tuple(folded), self.summary_omitted - lines_before)

    def _fold_oldest(self) -> int:
        turn = self.turns.pop(0)
        self.summary.append(turn.summary_line())
        return turn.index

    def _cap_summary(self, observation: str) -> None:
        # The summary gets its own cap, and gives way when the head and the current
        # observation alone exceed the whole budget (they are never cut).
        def too_big() -> bool:
            return bool(self.summary) and (
                len("\n".join(self.summary)) > self.summary_chars
                or self.request_chars(self._render(observation)) > self.context_chars
            )

        while too_big():
            self.summary.pop(0)
            self.summary_omitted += 1

    def request_chars(self, messages: list[dict[str, Any]]) -> int:
        """Characters of a whole request: its messages and the reserved overhead."""
        return _total(messages) + self.reserve_chars

    def fits(self, messages: list[dict[str, Any]]) -> bool:
        """Whether a built request is within the character budget."""
        return self.request_chars(messages) <= self.context_chars

    def _summary_block(self) -> str:
        if not self.summary and not self.summary_omitted:
            return ""
        lines = [_SUMMARY_HEADER]
        if self.summary_omitted:
            lines.append(f"({self.summary_omitted} earlier turns no longer listed)")
        return "\n".join(lines + self.summary)

    def _render(self, observation: str) -> list[dict[str, Any]]:
        # The mission opens the first user message rather than standing alone, since
        # some chat templates reject two user messages in a row.
        messages: list[dict[str, Any]] = [{"role": "system", "content": self.system}]
        previous: Turn | None = None
        for turn in self.turns:
            messages.append(self._observation_message(turn.observation, previous))
            messages.append(assistant_message("" if turn.fallback else turn.text,
                                              turn.call_id, turn.name, turn.arguments))
            previous = turn
        summary = self._summary_block()
        current = f"{summary}\n\nNow:\n{observation}" if summary else observation
        messages.append(self._observation_message(current, previous))
        return messages

    def _observation_message(self, text: str, after: Turn | None) -> dict[str, Any]:
        if after is None:
            return {"role": "user", "content": f"{self.mission}\n\n{text}"}
        if after.fallback:
            text = f"{FALLBACK_NOTE}\n\n{text}"
        return {"role": "tool", "tool_call_id": after.call_id, "content": text}


def _total(messages: list[dict[str, Any]]) -> int:
    return sum(message_chars(m) for m in messages)
