"""A scripted OpenAI-compatible chat-completions server on loopback, for tests.

It answers POST /v1/chat/completions from a script of replies (tool calls, plain
text, malformed arguments, error statuses with headers) and checks every request it
receives: the model is named, the tools are the expected ones, and the message list is
well formed (known roles, every tool call answered by a tool message with its id, no
stray tool messages). A request that breaks a rule is answered with a 400 and the
problem is kept in `problems`, so a test can assert there were none.

`Quirks` teach it what real servers were seen to do: llama-cpp-python's 500 for a null
content, llama-server's 500 for tool-call arguments it cannot parse and its empty 500
for tool_choice "required", vLLM's 400 for tool_choice "auto" without
--enable-auto-tool-choice, a context size stated in a 400 `exceed_context_size_error`,
and the served model's name at GET /v1/models. A reply can be cut off mid-body, and a
request with `stream: true` is answered with server-sent events.

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
    """One scripted answer: a status, headers and a JSON (or raw) body.

    `cut_off` announces the whole body's length but sends half of it and hangs up.
    """

    status: int = 200
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    cut_off: bool = False


@dataclass(frozen=True)
class Quirks:
    """Behaviours of real servers the fake can reproduce (all off by default)."""

    models: tuple[str, ...] | None = None  # served at GET /v1/models, named in answers
    null_content_500: bool = False  # llama-cpp-python: content must be a string
    bad_arguments_500: bool = False  # llama-server: history arguments must be JSON
    required_500: bool = False  # llama-server: tool_choice "required" assertion
    auto_choice_400: bool = False  # vLLM without --enable-auto-tool-choice
    n_ctx: int | None = None  # a context size, in tokens of about 4 characters


def prompt_tokens(body: Mapping[str, Any]) -> int:
    """The fake's token count of a request: its JSON's characters over four."""
    return len(json.dumps(body)) // 4


def quirk_reply(quirks: Quirks, body: Mapping[str, Any]) -> Reply | None:
    """The error a real server with these quirks gives this request, or None."""
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    if quirks.null_content_500 and any("content" in m and m["content"] is None
                                       for m in messages):
        return Reply(500, {"error": {"code": 500, "type": "server_error", "message":
                                     "1 validation error: messages.1.content: Input should "
                                     "be a valid string"}})
    if quirks.bad_arguments_500:
        for m in messages:
            for call in m.get("tool_calls") or ():
                try:
                    json.loads(call["function"]["arguments"])
                except ValueError:
                    return Reply(500, {"error": {
                        "code": 500, "type": "server_error",
                        "message": "Failed to parse tool call arguments as JSON"}})
    if quirks.required_500 and body.get("tool_choice") == "required":
        return Reply(500, b"")  # an assertion inside the server: no words at all
    if quirks.auto_choice_400 and body.get("tool_choice") == "auto":
        return Reply(400, {"object": "error", "type": "BadRequestError", "code": 400,
                           "message": '"auto" tool choice requires --enable-auto-tool-choice'
                           " and --tool-call-parser to be set"})
    if quirks.n_ctx is not None and prompt_tokens(body) > quirks.n_ctx:
        return Reply(400, {"error": {
            "code": 400, "type": "exceed_context_size_error",
            "message": "the request exceeds the available context size, try increasing it",
            "n_prompt_tokens": prompt_tokens(body), "n_ctx": quirks.n_ctx}})
    return None


def event_stream(body: Mapping[str, Any]) -> bytes:
    """A completion body sent as server-sent events, its text and arguments in pieces."""
    choice = body["choices"][0]
    message = choice["message"]
    base = {k: body[k] for k in ("id", "object", "created", "model")}
    chunks: list[dict[str, Any]] = [{"role": "assistant"}]
    text = message.get("content") or ""
    chunks += [{"content": text[i:i + 7]} for i in range(0, len(text), 7)]
    for index, call in enumerate(message.get("tool_calls") or ()):
        raw = call["function"]["arguments"]
        chunks.append({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                       "function": {"name": call["function"]["name"],
                                                    "arguments": ""}}]})
        chunks += [{"tool_calls": [{"index": index, "function": {"arguments": raw[i:i + 5]}}]}
                   for i in range(0, len(raw), 5)]
    events = [{**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]}
              for d in chunks]
    events.append({**base, "choices": [{"index": 0, "delta": {},
                                        "finish_reason": choice["finish_reason"]}]})
    if body.get("usage"):
        events.append({**base, "choices": [], "usage": body["usage"]})
    lines = [f"data: {json.dumps(e)}\n\n" for e in events] + ["data: [DONE]\n\n"]
    return "".join(lines).encode()


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
        quirks: Quirks | None = None,
    ) -> None:
        self.quirks = quirks or Quirks()
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
            quirk = quirk_reply(self.quirks, body) if isinstance(body, dict) else None
            if problems:
                self.problems.extend(problems)
                reply = Reply(400, {"error": {"message": "; ".join(problems)}})
            elif quirk is not None:
                reply = quirk
            else:
                reply = self._served(self.script.pop(0) if self.script else self.default(body),
                                     body)
            self.statuses.append(reply.status)
        return reply

    def _served(self, reply: Reply, request: dict[str, Any]) -> Reply:
        # Answers name the served model (the request's, unless quirks name one), count
        # tokens as the context check does when it is on, and stream when asked to.
        body = reply.body
        if reply.status != 200 or not isinstance(body, dict) or "choices" not in body:
            return reply
        body = {**body, "model": (self.quirks.models or (request.get("model"),))[0]}
        if self.quirks.n_ctx is not None and isinstance(body.get("usage"), dict):
            body["usage"] = {**body["usage"], "prompt_tokens": prompt_tokens(request)}
        if request.get("stream"):
            return Reply(200, event_stream(body), {"Content-Type": "text/event-stream"},
                         reply.delay_s, reply.cut_off)
        return Reply(reply.status, body, reply.headers, reply.delay_s, reply.cut_off)

    def models_reply(self) -> Reply:
        """GET /v1/models: the served models, or 404 when the quirks name none."""
        models = self.quirks.models
        return Reply(404, {"error": {"message": "not found"}}) if models is None else Reply(
            200, {"object": "list", "data": [{"id": m, "object": "model"} for m in models]})

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
            self._send(server.answer(self.path, headers, raw))

        def do_GET(self) -> None:
            path = self.path.rstrip("/")
            self._send(server.models_reply() if path == "/v1/models" else Reply(404, {}))

        def _send(self, reply: Reply) -> None:
            if reply.delay_s:
                time.sleep(reply.delay_s)  # a slow model, to exercise client timeouts
            data = reply.body if isinstance(reply.body, bytes) else json.dumps(
                reply.body).encode()
            self.send_response(reply.status)
            if not any(k.lower() == "content-type" for k in reply.headers):
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            if reply.cut_off:
                # The length promised the whole body; half of it arrives, then the
                # connection closes, as a proxy dropping a slow answer does.
                self.wfile.write(data[: len(data) // 2])
                self.close_connection = True
                return
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
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
