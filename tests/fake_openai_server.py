"""A scripted OpenAI-compatible chat-completions server on loopback, for tests.

It answers POST /v1/chat/completions from a script of replies (tool calls, plain
text, malformed arguments, error statuses with headers) and checks every request it
receives: the model is named, the tools are the expected ones, and the message list is
well formed (known roles, every tool call answered by a tool message with its id, no
stray tool messages). A request that breaks a rule is answered with a 400 and the
problem is kept in `problems`, so a test can assert there were none.

Run it by hand to try the agent without a model: `python3 tests/fake_openai_server.py
--port 8080` answers every request with a short wait.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ROLES = frozenset({"system", "user", "assistant", "tool", "developer"})
DEFAULT_USAGE = {
    "prompt_tokens": 120,
    "completion_tokens": 30,
    "total_tokens": 150,
    "prompt_tokens_details": {"cached_tokens": 100},
    "completion_tokens_details": {"reasoning_tokens": 10},
}


@dataclass(frozen=True)
class Reply:
    """One scripted answer: a status, headers and a JSON (or raw) body."""

    status: int = 200
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


_ids = itertools.count(1)


def completion(message: dict[str, Any], usage: Mapping[str, Any] | None, finish: str) -> Reply:
    """A 200 reply carrying one assistant message."""
    body: dict[str, Any] = {
        "id": f"chatcmpl-{next(_ids)}",
        "object": "chat.completion",
        "created": 0,
        "model": "fake",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }
    if usage is not None:
        body["usage"] = dict(usage)
    return Reply(200, body)


def tool_call(
    name: str,
    arguments: Any,
    text: str | None = None,
    usage: Mapping[str, Any] | None = DEFAULT_USAGE,
    call_id: str | None = None,
) -> Reply:
    """A reply calling one tool; `arguments` may be a dict or a raw (bad) string."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    call = {
        "id": call_id or f"call_{next(_ids)}",
        "type": "function",
        "function": {"name": name, "arguments": raw},
    }
    message = {"role": "assistant", "content": text, "tool_calls": [call]}
    return completion(message, usage, "tool_calls")


def text_reply(text: str, usage: Mapping[str, Any] | None = DEFAULT_USAGE) -> Reply:
    """A reply with text and no tool call."""
    return completion({"role": "assistant", "content": text}, usage, "stop")


def slow(reply: Reply, delay_s: float) -> Reply:
    """The same reply, sent only after `delay_s` seconds."""
    return Reply(reply.status, reply.body, reply.headers, delay_s)


def error_reply(status: int, retry_after: str | None = None) -> Reply:
    """An error status, optionally with a Retry-After header."""
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return Reply(status, {"error": {"message": f"scripted {status}", "code": status}}, headers)


def check_messages(messages: Any) -> list[str]:
    """Problems with a chat message list (empty when well formed)."""
    if not isinstance(messages, list) or not messages:
        return ["messages must be a non-empty list"]
    problems: list[str] = []
    pending: list[str] = []
    for i, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ROLES:
            problems.append(f"messages[{i}] has role {role!r}")
            continue
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id not in pending:
                problems.append(f"messages[{i}] answers unknown tool call {call_id!r}")
            else:
                pending.remove(call_id)
            if not isinstance(message.get("content"), str):
                problems.append(f"messages[{i}] (tool) has no string content")
            continue
        if pending:
            problems.append(f"messages[{i}] ({role}) comes before tool calls {pending} "
                            "are answered")
            pending = []
        calls = message.get("tool_calls") or []
        if role == "assistant" and calls:
            for call in calls:
                function = call.get("function", {})
                if not isinstance(function.get("arguments"), str) or not call.get("id"):
                    problems.append(f"messages[{i}] has a tool call without id or "
                                    "string arguments")
                pending.append(call.get("id"))
        elif not isinstance(message.get("content"), str) or not message["content"]:
            problems.append(f"messages[{i}] ({role}) has no text content")
        if i and role == "user" and messages[i - 1].get("role") == "user":
            problems.append(f"messages[{i}] is a second user message in a row")
    if messages[0].get("role") != "system":
        problems.append("messages[0] is not the system prompt")
    if pending:
        problems.append(f"the request ends with unanswered tool calls {pending}")
    elif messages[-1].get("role") not in ("user", "tool"):
        problems.append("the last message is not from the user or a tool")
    return problems


def canonical(tools: Any) -> str:
    """A key-order-independent rendering of a tool list, for comparison."""
    return json.dumps(tools, sort_keys=True)


class FakeOpenAIServer:
    """The scripted server; use as a context manager or call start() and stop()."""

    def __init__(
        self,
        script: list[Reply] | None = None,
        expected_tools: list[dict[str, Any]] | None = None,
        default: Callable[[dict[str, Any]], Reply] | None = None,
        api_key: str | None = None,
        port: int = 0,
    ) -> None:
        self.script = list(script or [])
        self.expected_tools = expected_tools
        self.default = default or (lambda _body: tool_call("wait", {"seconds": 1}))
        self.api_key = api_key
        self.requests: list[dict[str, Any]] = []
        self.statuses: list[int] = []
        self.problems: list[str] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler_for(self))
        # Slow scripted replies must not hold up stop() once the test is done.
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False
        # A short poll interval keeps stop() quick; the default would add half a second.
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,),
                                        daemon=True)

    @property
    def url(self) -> str:
        """Base URL to give the agent (ends in /v1)."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> FakeOpenAIServer:
        """Serve on a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._thread.is_alive():
            self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def answer(self, path: str, headers: Mapping[str, str], raw: bytes) -> Reply:
        """Check one request and pick its reply (called on the server's threads)."""
        problems = []
        body: Any = None
        if path.rstrip("/") != "/v1/chat/completions":
            problems.append(f"unexpected path {path}")
        if self.api_key and headers.get("authorization") != f"Bearer {self.api_key}":
            problems.append("missing or wrong Authorization header")
        try:
            body = json.loads(raw)
        except ValueError:
            problems.append("the body is not JSON")
        if isinstance(body, dict):
            problems += self._check_body(body)
        elif body is not None:
            problems.append("the body is not an object")
        with self._lock:
            self.requests.append(body)
            if problems:
                self.problems.extend(problems)
                reply = Reply(400, {"error": {"message": "; ".join(problems)}})
            else:
                reply = self.script.pop(0) if self.script else self.default(body)
            self.statuses.append(reply.status)
        return reply

    def _check_body(self, body: dict[str, Any]) -> list[str]:
        problems = []
        if not isinstance(body.get("model"), str) or not body["model"]:
            problems.append("no model named")
        tools = body.get("tools")
        if not isinstance(tools, list) or not tools:
            problems.append("no tools in the request")
        elif self.expected_tools is not None and canonical(tools) != canonical(
            self.expected_tools
        ):
            problems.append("the tools differ from the ones the harness sent")
        return problems + check_messages(body.get("messages"))


def _handler_for(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = server.answer(self.path, headers, raw)
            if reply.delay_s:
                time.sleep(reply.delay_s)  # a slow model, to exercise client timeouts
            data = reply.body if isinstance(reply.body, bytes) else json.dumps(
                reply.body).encode()
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # Tests read `requests` and `problems`, not an access log.

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description="Answer every request with a short wait.")
    parser.add_argument("--port", type=int, default=8080)
    server = FakeOpenAIServer(port=parser.parse_args().port)
    print(f"serving on {server.url}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server._httpd.serve_forever()

if __name__ == "__main__":
    main()
