"""One episode's decisions: build the request, ask the model, repair, fall back.

The player turns each observation into exactly one action message. It asks the model
at most 1 + repairs times per turn; after that, or when the server cannot be reached,
or when the turn's wall-clock budget is spent, it plays the configured fallback action.
Nothing here loops without a bound.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from llm.client import ChatClient, ChatError
from llm.config import AGENT_NAME, AGENT_VERSION, Config
from llm.context import Context, Turn
from llm.prompt import SYSTEM_PROMPT, mission_message, observation_text, repair_message
from llm.turn import Answer, ToolBox, read_answer
from llm.usage import Usage

log = logging.getLogger("llm_agent")

PROTOCOL_VERSION = 1
# Share of the runner's per-decision timeout the agent allows itself, leaving room for
# the last request's reply to arrive and for the runner's own clock.
_DEADLINE_SHARE = 0.8


def trim(text: str, cap: int) -> str:
    """Collapse whitespace and cut to `cap` characters, marking a cut with an ellipsis."""
    flat = " ".join(text.split())
    if len(flat) <= cap:
        return flat
    return flat[: max(0, cap - 3)].rstrip() + "..." if cap >= 3 else flat[:cap]


def decision_timeout_s(message: Mapping[str, Any]) -> float | None:
    """The runner's per-decision wall-clock timeout, when the message states it.

    Args:
        message: A decoded start or observation message (both carry budgets).

    Returns:
        Seconds, or None when not given.
    """
    budgets = message.get("budgets")
    value = budgets.get("decision_timeout_s") if isinstance(budgets, Mapping) else None
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def outcome_line(observation: Mapping[str, Any]) -> str:
    """How the previous action ended, in a few words, from an observation.

    Args:
        observation: The decoded observation that followed the action.

    Returns:
        For example "arrived" or "rejected (unknown_id)"; empty when not stated.
    """
    error = observation.get("error")
    if isinstance(error, Mapping):
        return f"rejected ({error.get('code', '?')})"
    result = observation.get("last_result")
    if not isinstance(result, Mapping):
        return ""
    detail = trim(str(result.get("detail") or ""), 80)
    reason = str(result.get("end_reason", "?"))
    return f"{reason}: {detail}" if detail else reason


def _failed_answer_messages(answer: Answer, problem: str, names: list[str]) -> list[dict]:
    # The bad answer is shown back with the error; each of its calls gets a tool
    # message so that every call id stays answered.
    feedback = repair_message(problem, names)
    if not answer.calls:
        return [
            {"role": "assistant", "content": answer.text or "(empty answer)"},
            {"role": "user", "content": feedback},
        ]
    calls = [
        {
            "id": c.call_id,
            "type": "function",
            "function": {
                "name": c.name,
                "arguments": c.raw_arguments if isinstance(c.raw_arguments, str)
                else json.dumps(c.raw_arguments),
            },
        }
        for c in answer.calls
    ]
    return [
        {"role": "assistant", "content": answer.text or None, "tool_calls": calls},
        *({"role": "tool", "tool_call_id": c["id"], "content": feedback} for c in calls),
    ]


class Player:
    """Plays one episode through a chat-completions client."""

    def __init__(
        self, config: Config, client: ChatClient, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.config = config
        self.client = client
        self.clock = clock
        self.tools = ToolBox([])
        self.context = Context(SYSTEM_PROMPT, "", config.keep_turns, config.context_chars,
                               config.summary_chars)
        self.turn = 0
        self.default_timeout_s: float | None = None
        self.totals = Usage()

    def start(self, start: Mapping[str, Any]) -> dict[str, Any]:
        """Take in the start message and return the hello.

        Args:
            start: The decoded start message.

        Returns:
            The hello message.
        """
        self.tools = ToolBox(start.get("tools") or [])
        self.context.mission = mission_message(start)
        self.default_timeout_s = decision_timeout_s(start)
        fallback = self.config.fallback
        problem = self.tools.check(fallback["action"], dict(fallback["arguments"]))
        if problem:
            log.warning("the fallback action does not fit this episode's tools: %s", problem)
        log.info("episode start: %d tools, runner decision timeout %s s",
                 len(self.tools.names), self.default_timeout_s)
        return {
            "type": "hello",
            "protocol_version": PROTOCOL_VERSION,
            "name": AGENT_NAME,
            "version": AGENT_VERSION,
            "model": self.config.model,
            "description": "Plays with a chat model over an OpenAI-compatible API.",
        }

    def turn_budget_s(self, observation: Mapping[str, Any]) -> float | None:
        """Wall-clock seconds this decision may take: configured, else from the runner.

        Args:
            observation: The current observation (it may restate the runner's timeout).

        Returns:
            Seconds, or None for no limit.
        """
        if self.config.turn_budget_s:
            return self.config.turn_budget_s
        timeout = decision_timeout_s(observation) or self.default_timeout_s
        return timeout * _DEADLINE_SHARE if timeout else None

    def request_body(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The chat-completions request for these messages.

        Args:
            messages: The conversation to send.

        Returns:
            The request body, tools included unchanged.
        """
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "tools": self.tools.tools,
        }
        if self.config.tool_choice:
            body["tool_choice"] = self.config.tool_choice
        if self.config.temperature is not None:
            body["temperature"] = self.config.temperature
        if self.config.max_output_tokens:
            body[self.config.max_tokens_param] = self.config.max_output_tokens
        body.update(self.config.extra_body)
        return body

    def decide(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        """Choose the action for one observation.

        Args:
            observation: The decoded observation message.

        Returns:
            The action message.
        """
        self.turn += 1
        text = observation_text(observation)
        self.context.set_outcome(outcome_line(observation))
        messages, dropped = self.context.build(text)
        remarks: list[str] = []
        if dropped:
            # Routine on long episodes, so it goes to the log rather than every note.
            log.info("turn %d: context: %s", self.turn, dropped.describe())
        budget = self.turn_budget_s(observation)
        deadline = self.clock() + budget if budget else None
        usage = Usage()
        extra: list[dict[str, Any]] = []
        said = ""
        for attempt in range(1 + self.config.repairs):
            if deadline is not None and self.clock() >= deadline:
                remarks.append("turn budget spent")
                break
            try:
                response = self.client.complete(self.request_body(messages + extra), deadline)
            except ChatError as exc:
                log.warning("turn %d: request failed: %s", self.turn, exc)
                remarks.append(f"request failed: {trim(str(exc), 120)}")
                break
            usage += Usage.from_response(response)
            answer = read_answer(response, self.tools, self.turn)
            said = answer.text or said
            if answer.problem is None:
                remarks.extend(answer.remarks)
                return self._play(text, answer, usage, remarks)
            log.info("turn %d: attempt %d unusable: %s", self.turn, attempt + 1, answer.problem)
            remarks.append(f"retry after: {trim(answer.problem, 160)}")
            extra += _failed_answer_messages(answer, answer.problem, self.tools.names)
        return self._fall_back(text, said, usage, remarks)

    def _play(self, text: str, answer: Answer, usage: Usage, remarks: list[str]) -> dict:
        assert answer.name is not None and answer.arguments is not None
        assert answer.call_id is not None
        self.context.add(Turn(self.turn, text, answer.call_id, answer.name, answer.arguments,
                              answer.text))
        return self._action(answer.name, answer.arguments, answer.text, usage, remarks)

    def _fall_back(self, text: str, said: str, usage: Usage, remarks: list[str]) -> dict:
        name = self.config.fallback["action"]
        arguments = dict(self.config.fallback["arguments"])
        log.warning("turn %d: no usable tool call; playing fallback %s", self.turn, name)
        remarks.append(f"fallback {name} played")
        note = "(no usable answer this turn; the agent played this action itself)"
        self.context.add(Turn(self.turn, text, f"fallback_{self.turn}", name, arguments, note))
        return self._action(name, arguments, said, usage, remarks)

    def _action(self, name: str, arguments: dict[str, Any], said: str, usage: Usage,
                remarks: list[str]) -> dict[str, Any]:
        self.totals += usage
        notes = said.strip()
        if remarks:
            # The agent's own remarks go last so the cap cuts them before the model's.
            notes = f"{notes} [{'; '.join(remarks)}]".strip()
        return {
            "type": "action",
            "protocol_version": PROTOCOL_VERSION,
            "action": name,
            "arguments": arguments,
            "notes": trim(notes, self.config.notes_chars) or None,
            "usage": usage.to_message(self.config.prices),
        }
