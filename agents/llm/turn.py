"""Reading the model's answer: which tool it called, with which arguments, and why.

An answer is playable when it carries a call to one of the tools from `start` whose
arguments decode as a JSON object that passes that tool's parameter schema. Anything
else yields a plain-words problem the model is shown before it tries again.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.validators import validator_for


@dataclass(frozen=True)
class Call:
    """One tool call as the model sent it (arguments still raw)."""

    call_id: str
    name: str
    raw_arguments: Any
    from_text: bool = False


@dataclass(frozen=True)
class Answer:
    """What one response said: its text, its tool calls and the problem, if any.

    Attributes:
        text: The model's text (may be empty).
        calls: Tool calls in the order sent.
        name: The playable action's name, when there is one.
        arguments: Its validated arguments.
        call_id: The id of the call that was played.
        problem: Why nothing is playable, or None.
        remarks: Things worth recording even when playable (extra calls ignored, ...).
        history_text: The words kept in the history beside the call: the text without
            a call read from it, so the call is not stored twice.
        reasoning: The server's separate reasoning field (`reasoning_content`, or
            vLLM's `reasoning`), when it sent one.
    """

    text: str
    calls: tuple[Call, ...]
    name: str | None = None
    arguments: dict[str, Any] | None = None
    call_id: str | None = None
    problem: str | None = None
    remarks: tuple[str, ...] = field(default=())
    history_text: str = ""
    reasoning: str = ""


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not allowed in arguments")


def decode_arguments(raw: Any) -> dict[str, Any]:
    """Decode a tool call's arguments into an object.

    Args:
        raw: The arguments string (some servers send an object already).

    Returns:
        The arguments as a dict ({} for an empty string).

    Raises:
        ValueError: Not JSON, NaN or infinity, or not an object.
    """
    if isinstance(raw, Mapping):
        value: Any = dict(raw)
    elif raw is None or (isinstance(raw, str) and not raw.strip()):
        value = {}
    elif isinstance(raw, str):
        try:
            value = json.loads(raw, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            raise ValueError(f"arguments are not valid JSON ({exc.msg} at {exc.pos})") from exc
    else:
        raise ValueError(f"arguments must be a JSON object, not {type(raw).__name__}")
    if not isinstance(value, dict):
        raise ValueError(f"arguments must be a JSON object, not {json.dumps(value)[:60]}")
    if any(isinstance(v, float) and not math.isfinite(v) for v in value.values()):
        raise ValueError("arguments must be finite numbers")
    return value


class ToolBox:
    """The tools from `start`, with a schema validator for each."""

    def __init__(self, tools: Sequence[Mapping[str, Any]]) -> None:
        self.tools = [dict(t) for t in tools]
        self.validators: dict[str, Any] = {}
        for tool in self.tools:
            function = tool.get("function", {})
            schema = function.get("parameters", {"type": "object"})
            cls = validator_for(schema, default=Draft202012Validator)
            self.validators[function["name"]] = cls(schema)

    @property
    def names(self) -> list[str]:
        """Tool names in the order `start` gave them."""
        return list(self.validators)

    def check(self, name: str, arguments: dict[str, Any]) -> str | None:
        """Why these arguments do not fit the tool, or None when they do.

        Args:
            name: Tool name.
            arguments: Decoded arguments.

        Returns:
            A plain-words problem, or None.
        """
        validator = self.validators.get(name)
        if validator is None:
            return f"there is no tool named {name!r}"
        errors = sorted(validator.iter_errors(arguments), key=lambda e: list(e.path))
        if not errors:
            return None
        where = "/".join(str(p) for p in errors[0].path) or "arguments"
        return f"{name} {where}: {errors[0].message}"


def _calls(message: Mapping[str, Any], turn: int) -> tuple[Call, ...]:
    calls = []
    for k, item in enumerate(message.get("tool_calls") or ()):
        if not isinstance(item, Mapping):
            continue
        function = item.get("function") or {}
        # Servers that omit ids still need answering ids in later messages.
        call_id = item.get("id") or f"call_{turn}_{k}"
        calls.append(Call(str(call_id), str(function.get("name", "")),
                          function.get("arguments")))
    return tuple(calls)


_FENCE = re.compile(r"```[a-zA-Z]*")


def _call_in_text(text: str, turn: int) -> tuple[Call, str] | None:
    # Models served without a tool-call parser often write the call as JSON in
    # their text; accept the first object that looks like one. The rest of the text
    # (fences dropped) is what the history keeps, so the call is not stored twice.
    decoder = json.JSONDecoder()
    for start in (i for i, ch in enumerate(text) if ch == "{"):
        try:
            value, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            args = value.get("arguments", value.get("parameters", {}))
            rest = _FENCE.sub("", text[:start] + " " + text[end:])
            call = Call(f"call_{turn}_text", value["name"], args, from_text=True)
            return call, " ".join(rest.split())
    return None


def _reasoning(message: Mapping[str, Any]) -> str:
    for key in ("reasoning_content", "reasoning"):
        value = message.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def read_answer(response: Mapping[str, Any], tools: ToolBox, turn: int) -> Answer:
    """Read one chat-completion response.

    Args:
        response: The decoded response.
        tools: The episode's tools.
        turn: Turn number, used to make ids for calls that came without one.

    Returns:
        The answer, playable or with its problem.
    """
    choice = (response.get("choices") or [{}])[0]
    message = choice.get("message") or {}
    text = message.get("content") or ""
    text = text if isinstance(text, str) else json.dumps(text)
    calls = _calls(message, turn)
    remarks: list[str] = []
    kept = text
    reasoning = _reasoning(message)
    if not calls:
        found = _call_in_text(text, turn) if text else None
        if found is None:
            reason = choice.get("finish_reason")
            cut = " (the answer was cut off at the output limit)" if reason == "length" else ""
            return Answer(text, calls, problem=f"the answer contains no tool call{cut}",
                          history_text=text, reasoning=reasoning)
        calls = (found[0],)
        kept = found[1]
        remarks.append("tool call read from the text")
    if len(calls) > 1:
        remarks.append(f"{len(calls) - 1} extra tool calls ignored")
    problems = []
    # The first playable call wins; the problems of earlier ones are kept as remarks.
    for call in calls:
        try:
            arguments = decode_arguments(call.raw_arguments)
        except ValueError as exc:
            problems.append(f"{call.name or 'the tool call'}: {exc}")
            continue
        # Strict-mode tools (and some models) fill optional arguments with null; the
        # action schema leaves them out instead, and a null required one stays missing.
        arguments = {k: v for k, v in arguments.items() if v is not None}
        problem = tools.check(call.name, arguments)
        if problem is None:
            return Answer(text, calls, call.name, arguments, call.call_id, None,
                          (*remarks, *problems), kept, reasoning)
        problems.append(problem)
    return Answer(text, calls, problem="; ".join(problems), history_text=kept,
                  reasoning=reasoning)
