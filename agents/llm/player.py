"""One episode's decisions: build the request, ask the model, repair, fall back.

The player turns each observation into exactly one action message. It asks the model
at most 1 + repairs times per turn; after that, or when the server cannot be reached,
or when the turn's wall-clock budget is spent, it plays the configured fallback action
and says so first in the action's notes. A failed request is met by its verdict
(llm.errors), each at most once a turn: a request over the server's stated context is
rebuilt to fit it, a history the server cannot parse is sent without the repair
messages, and a `tool_choice` the server cannot honour is left out from then on.
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
from llm.errors import NO_TOOL_CHOICE, REPAIR, SHRINK, Verdict
from llm.prompt import SYSTEM_PROMPT, mission_message, observation_text, repair_message
from llm.turn import Answer, ToolBox, read_answer
from llm.usage import Usage
from llm.watch import Watch

log = logging.getLogger("llm_agent")

PROTOCOL_VERSION = 1
# Seconds of the runner's per-decision timeout the agent leaves unused, for its action
# line to reach the runner: a few percent, at least two seconds, at most a fifth. Slow
# CPU servers need nearly all of the timeout for one answer.
_RESERVE_SHARE = 0.05
_RESERVE_MIN_S = 2.0
# Characters a request carries besides its messages' text: roles, ids and the chat
# template's markers, about this many per message plus the tool definitions.
_OVERHEAD_CHARS = 400
# Seconds allowed for asking the server which model it serves, before the hello.
_MODELS_TIMEOUT_S = 5.0


def reserve_s(timeout: float) -> float:
    """Seconds of a decision timeout kept back from the model's requests."""
    return min(0.2 * timeout, max(_RESERVE_MIN_S, _RESERVE_SHARE * timeout))


def served_model(configured: str, listed: list[str]) -> str:
    """The model name for the hello: the configured one if the server lists it (or lists
    nothing), else the server's only model, so different local models are told apart."""
    if not listed or configured in listed or len(listed) > 1:
        return configured
    return listed[0]


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


def _failed_answer_messages(answer: Answer, problem: str, names: list[str]) -> list[dict[str, Any]]:
    # The bad answer is shown back with the error; each of its calls gets a tool
    # message so that every call id stays answered. Arguments that are not JSON go back
    # as text: servers that parse the history (llama.cpp's) fail on them with a 500.
    feedback = repair_message(problem, names)
    if not answer.calls or not all(_json_arguments(c.raw_arguments) for c in answer.calls):
        written = " ".join(f"{c.name}({c.raw_arguments})" for c in answer.calls)
        said = " ".join(p for p in (answer.text, written) if p)
        return [
            {"role": "assistant", "content": said or "(empty answer)"},
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
        {"role": "assistant", "content": answer.text or "", "tool_calls": calls},
        *({"role": "tool", "tool_call_id": c["id"], "content": feedback} for c in calls),
    ]


def _json_arguments(raw: Any) -> bool:
    if not isinstance(raw, str):
        return True
    try:
        json.loads(raw)
    except ValueError:
        return False
    return True


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
        self.watch = Watch(config.tool_choice)
        self.max_output_tokens = config.max_output_tokens
        self.model = config.model
        self.cannot_fit = ""

    def start(self, start: Mapping[str, Any]) -> dict[str, Any]:
        """Take in the start message and return the hello.

        Args:
            start: The decoded start message.

        Returns:
            The hello message.
        """
        self.tools = ToolBox(start.get("tools") or [])
        self.context.mission = mission_message(start)
        self.context.reserve_chars = len(json.dumps(self.tools.tools)) + _OVERHEAD_CHARS
        self.default_timeout_s = decision_timeout_s(start)
        if self.client is not None:
            listed = self.client.models(min(_MODELS_TIMEOUT_S, self.config.timeout_s))
            self.model = served_model(self.config.model, listed)
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
            "model": self.model,
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
        return timeout - reserve_s(timeout) if timeout else None

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
        if self.watch.tool_choice:
            body["tool_choice"] = self.watch.tool_choice
        if self.config.temperature is not None:
            body["temperature"] = self.config.temperature
        if self.max_output_tokens:
            body[self.config.max_tokens_param] = self.max_output_tokens
        if self.config.stream:
            # Usage comes in a last chunk only when asked for.
            body.update(stream=True, stream_options={"include_usage": True})
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
        answers = 0
        reacted: set[str] = set()
        while answers <= self.config.repairs:
            if self.cannot_fit:
                remarks.append(self.cannot_fit)
                break
            if deadline is not None and self.clock() >= deadline:
                remarks.append("turn budget spent")
                break
            body = self.request_body(messages + extra)
            try:
                response = self.client.complete(body, deadline)
            except ChatError as exc:
                log.warning("turn %d: request failed: %s", self.turn, exc)
                remarks.append(f"request failed: {trim(str(exc), 120)}")
                action = exc.verdict.action
                if action in reacted or not self._react(exc.verdict):
                    break
                reacted.add(action)
                extra = []
                messages, _ = self.context.build(text)
                continue
            answers += 1
            turn_usage = Usage.from_response(response)
            usage += turn_usage
            self.watch.learn_usage(self.context.request_chars(body["messages"]),
                                   turn_usage.input_tokens)
            remarks.extend(self._server_model(response))
            answer = read_answer(response, self.tools, self.turn)
            remarks.extend(self.watch.note_answer(answer, self.tools.names))
            said = answer.text or answer.reasoning or said
            if answer.problem is None:
                remarks.extend(answer.remarks)
                remarks.extend(self.watch.end_turn())
                return self._play(text, answer, usage, remarks)
            log.info("turn %d: attempt %d unusable: %s", self.turn, answers, answer.problem)
            remarks.append(f"retry after: {trim(answer.problem, 160)}")
            extra += _failed_answer_messages(answer, answer.problem, self.tools.names)
        remarks.extend(self.watch.end_turn())
        return self._fall_back(text, said, usage, remarks)

    def _react(self, verdict: Verdict) -> bool:
        """Adapt to a failure's verdict; True when the turn should ask again."""
        reactions: dict[str, Callable[[Verdict], bool]] = {
            # The caller drops the repair messages the server choked on.
            REPAIR: lambda _v: True,
            NO_TOOL_CHOICE: lambda v: self.watch.drop_tool_choice(v.why),
            SHRINK: lambda v: self._shrink(v.n_ctx),
        }
        react = reactions.get(verdict.action)
        return react(verdict) if react else False

    def _shrink(self, n_ctx: int | None) -> bool:
        if n_ctx is None:
            # No size stated: ask for two thirds of what failed.
            self.context.context_chars = self.context.context_chars * 2 // 3
            return True
        self.watch.n_ctx = n_ctx
        if self.max_output_tokens is None or self.max_output_tokens > n_ctx // 4:
            self.max_output_tokens = max(1, n_ctx // 4)
        budget = self.watch.budget_chars(n_ctx, self.max_output_tokens)
        self.context.context_chars = min(self.context.context_chars, budget)
        log.warning("the server holds %d tokens: requests now kept under %d characters, "
                    "output capped at %d tokens", n_ctx, self.context.context_chars,
                    self.max_output_tokens)
        messages, _ = self.context.build("")
        if not self.context.fits(messages):
            need = self.context.request_chars(messages) / self.watch.chars_per_token
            self.cannot_fit = (
                f"the server's context of {n_ctx} tokens cannot hold the prompt and the "
                f"tool definitions (about {need:.0f} tokens before any observation); start "
                "the server with a larger context"
            )
            log.error("%s; playing the fallback without asking", self.cannot_fit)
            return False
        return True

    def _server_model(self, response: Mapping[str, Any]) -> list[str]:
        named = response.get("model")
        if not isinstance(named, str) or not named or named == self.model:
            return []
        log.info("the server names its model %r (the hello said %r)", named, self.model)
        self.model = named
        return [f"server model: {trim(named, 80)}"]

    def _play(self, text: str, answer: Answer, usage: Usage, remarks: list[str]) -> dict[str, Any]:
        assert answer.name is not None and answer.arguments is not None
        assert answer.call_id is not None
        # Only the words beside the call are kept: a call read from the text would
        # otherwise be stored twice, and the model copies what it sees of itself.
        self.context.add(Turn(self.turn, text, answer.call_id, answer.name, answer.arguments,
                              answer.history_text))
        said = answer.text or answer.reasoning
        return self._action(answer.name, answer.arguments, said, usage, remarks)

    def _fall_back(self, text: str, said: str, usage: Usage, remarks: list[str]) -> dict[str, Any]:
        name = self.config.fallback["action"]
        arguments = dict(self.config.fallback["arguments"])
        log.warning("turn %d: no usable tool call; playing fallback %s", self.turn, name)
        self.context.add(Turn(self.turn, text, f"fallback_{self.turn}", name, arguments, "",
                              fallback=True))
        # The marker opens the notes so that a cap never cuts it: a run page shows at a
        # glance which turns the model did not decide.
        remarks.insert(0, f"fallback {name} played")
        return self._action(name, arguments, said, usage, remarks, fallback=True)

    def _action(self, name: str, arguments: dict[str, Any], said: str, usage: Usage,
                remarks: list[str], fallback: bool = False) -> dict[str, Any]:
        self.totals += usage
        notes = said.strip()
        if remarks and fallback:
            notes = f"[{'; '.join(remarks)}] {notes}".strip()
        elif remarks:
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
