"""Server-sent events (`stream: true`) folded back into one chat-completion response.

A streamed answer arrives as `data: {chunk}` lines ending with `data: [DONE]`. Each
chunk carries deltas: pieces of the text, of the reasoning, and of tool calls (keyed
by `index`, their arguments split across chunks). The folded response has the shape of
a non-streamed one, so the rest of the agent reads both alike.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def is_event_stream(headers: Mapping[str, str], raw: bytes) -> bool:
    """Whether a response body is an event stream rather than one JSON object."""
    kind = {k.lower(): v for k, v in headers.items()}.get("content-type", "")
    return "text/event-stream" in kind or raw.lstrip().startswith(b"data:")


def _events(raw: bytes) -> list[dict[str, Any]]:
    events = []
    for line in raw.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if not line.startswith("data:"):
            continue  # comments (": ping"), event names and blank separators
        payload = line[5:].strip()
        if payload == "[DONE]":
            break
        try:
            decoded = json.loads(payload)
        except ValueError as exc:
            raise ValueError(f"a streamed chunk is not JSON: {payload[:80]!r}") from exc
        if isinstance(decoded, dict):
            events.append(decoded)
    return events


def _merge_calls(calls: dict[int, dict[str, Any]], deltas: Any) -> None:
    for position, delta in enumerate(deltas if isinstance(deltas, list) else ()):
        if not isinstance(delta, Mapping):
            continue
        index = delta.get("index", position)
        call = calls.setdefault(int(index) if isinstance(index, int) else position,
                                {"id": None, "type": "function",
                                 "function": {"name": "", "arguments": ""}})
        if delta.get("id"):
            call["id"] = delta["id"]
        function = delta.get("function") or {}
        call["function"]["name"] += str(function.get("name") or "")
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            call["function"]["arguments"] += arguments
        elif arguments is not None:
            call["function"]["arguments"] += json.dumps(arguments)


def fold_stream(raw: bytes) -> dict[str, Any]:
    """One chat-completion response from a streamed body.

    Args:
        raw: The whole event-stream body.

    Returns:
        A response with `choices[0].message` (content, reasoning, tool calls), the
        finish reason, the model and usage when the stream carried them.

    Raises:
        ValueError: A chunk is not JSON, or the stream holds no chunk at all.
    """
    events = _events(raw)
    if not events:
        raise ValueError("the event stream holds no chunk")
    text: list[str] = []
    reasoning: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    response: dict[str, Any] = {"object": "chat.completion"}
    finish = None
    for event in events:
        for key in ("id", "model", "usage"):
            if event.get(key) is not None:
                response[key] = event[key]
        for choice in event.get("choices") or ():
            delta = choice.get("delta") or {}
            text.append(str(delta.get("content") or ""))
            reasoning.append(str(delta.get("reasoning_content") or delta.get("reasoning")
                                 or ""))
            _merge_calls(calls, delta.get("tool_calls"))
            finish = choice.get("finish_reason") or finish
    message: dict[str, Any] = {"role": "assistant", "content": "".join(text) or None}
    if any(reasoning):
        message["reasoning_content"] = "".join(reasoning)
    if calls:
        message["tool_calls"] = [calls[k] for k in sorted(calls)]
    response["choices"] = [{"index": 0, "message": message, "finish_reason": finish}]
    return response
