"""A chat-completions client over the standard library, with bounded retries.

Only urllib is used so the agent runs wherever Python does. Each failure is classified
(llm.errors): transient ones (429, most 5xx, timeouts, refused or reset connections, a
body cut off mid-way) are retried with exponential backoff, honouring the server's
Retry-After; the others fail at once with their verdict, so the caller can shrink the
request, drop the repair messages or stop sending `tool_choice` instead of repeating
what cannot succeed. Streamed answers (`stream: true`) are folded into one response.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from llm.errors import GIVE_UP, RETRY, Verdict, classify
from llm.stream import fold_stream, is_event_stream

log = logging.getLogger("llm_agent")

# A retry is started only when at least this many seconds of the turn remain: a request
# with less time than that would be cut off before a CPU-bound server answers anything.
MIN_REQUEST_S = 2.0
# Bound on how much of an error body goes into logs and messages.
_ERROR_BODY_CHARS = 500


class ChatError(Exception):
    """A request failed for good (not retryable, or out of retries)."""

    def __init__(self, message: str, verdict: Verdict | None = None) -> None:
        super().__init__(message)
        self.verdict = verdict or Verdict(GIVE_UP, message)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait between attempts of one request."""

    retries: int
    backoff_s: float
    max_backoff_s: float

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before retry number `attempt` (0 for the first retry).

        Args:
            attempt: How many retries were already made.
            retry_after: The server's Retry-After in seconds, if it sent one.

        Returns:
            The server's wish when given, else exponential backoff; capped either way.
        """
        wanted = retry_after if retry_after is not None else self.backoff_s * (2**attempt)
        return max(0.0, min(wanted, self.max_backoff_s))


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds asked for by a Retry-After header (delta seconds or an HTTP date).

    Args:
        value: The header's value, or None when absent.
        now: The current Unix time (for dates); defaults to time.time().

    Returns:
        Non-negative seconds, or None when absent or unreadable.
    """
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class Transport(Protocol):
    """Sends one JSON POST and returns (status, headers, body); raises OSError on I/O."""

    def __call__(
        self, url: str, body: bytes, headers: Mapping[str, str], timeout_s: float
    ) -> tuple[int, Mapping[str, str], bytes]:
        """Send the request."""
        ...


def urllib_transport(
    url: str, body: bytes, headers: Mapping[str, str], timeout_s: float
) -> tuple[int, Mapping[str, str], bytes]:
    """POST (GET when `body` is empty) with urllib; HTTP error statuses are returned.

    Args:
        url: Full URL.
        body: Request body; b"" sends a GET.
        headers: Request headers.
        timeout_s: Socket timeout in seconds.

    Returns:
        Status code, response headers and body.
    """
    method = "POST" if body else "GET"
    request = urllib.request.Request(url, data=body or None, headers=dict(headers),
                                     method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            return response.status, dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, dict(exc.headers.items()) if exc.headers else {}, exc.read()


class ChatClient:
    """Posts chat-completion requests to one OpenAI-compatible endpoint."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        timeout_s: float,
        policy: RetryPolicy,
        transport: Transport = urllib_transport,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.url = self.base_url + "/chat/completions"
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.policy = policy
        self.transport = transport
        self.sleep = sleep
        self.retried = 0
        self.attempts = 0

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    def complete(self, body: Mapping[str, Any], deadline: float | None = None) -> dict[str, Any]:
        """Send one request, retrying what is worth retrying.

        Args:
            body: The request body (model, messages, tools, ...).
            deadline: time.monotonic() value after which no retry is started.

        Returns:
            The decoded response object.

        Raises:
            ChatError: The request failed and will not be retried.
        """
        data = json.dumps(body).encode("utf-8")
        attempt = 0
        while True:
            timeout = self.timeout_s
            if deadline is not None:
                # A request must not outlive the turn, or the runner's own decision
                # timeout would end the episode while we still wait for an answer.
                timeout = min(timeout, deadline - time.monotonic())
                if timeout <= 0:
                    raise ChatError("no time left in this turn for a request")
            self.attempts += 1
            failure, retry_after = self._attempt(data, timeout)
            if isinstance(failure, dict):
                return failure
            if failure.verdict.action != RETRY or attempt >= self.policy.retries:
                raise ChatError(failure.message, failure.verdict)
            wait = self.policy.delay(attempt, retry_after)
            if deadline is not None:
                # Wait less rather than give up while the turn still has time for a try.
                left = deadline - time.monotonic() - MIN_REQUEST_S
                if left <= 0:
                    raise ChatError(f"{failure.message} (no time left for a retry)",
                                    failure.verdict)
                wait = min(wait, left)
            log.warning("request failed: %s; retry %d in %.2fs", failure.message,
                        attempt + 1, wait)
            self.sleep(wait)
            attempt += 1
            self.retried += 1

    def models(self, timeout_s: float) -> list[str]:
        """The model ids the server lists at /models (empty when it lists none or fails).

        Args:
            timeout_s: Seconds allowed for the one request (no retries).

        Returns:
            The ids in the server's order.
        """
        try:
            status, _headers, raw = self.transport(self.base_url + "/models", b"",
                                                   self._headers(), timeout_s)
            decoded = json.loads(raw) if status == 200 else None
        except (OSError, http.client.HTTPException, ValueError):
            return []
        items = decoded.get("data") if isinstance(decoded, dict) else None
        return [str(m["id"]) for m in items or () if isinstance(m, dict) and m.get("id")]

    def _attempt(self, data: bytes, timeout: float) -> tuple[Any, float | None]:
        transient = Verdict(RETRY, "transient")
        try:
            status, headers, raw = self.transport(self.url, data, self._headers(), timeout)
        except TimeoutError:
            return _Failure(f"no answer within {timeout:.3g}s", transient), None
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            return _Failure(f"network error: {reason}", transient), None
        except http.client.HTTPException as exc:
            # IncompleteRead and its kin: the body was cut off in transit.
            return _Failure(f"the answer was cut off: {exc!r}"[:200], transient), None
        lowered = {k.lower(): v for k, v in headers.items()}
        if status != 200:
            text = raw[:_ERROR_BODY_CHARS].decode("utf-8", "replace")
            retry_after = parse_retry_after(lowered.get("retry-after"))
            verdict = classify(status, text)
            return _Failure(f"HTTP {status}: {text or '(empty body)'}", verdict), retry_after
        try:
            decoded = fold_stream(raw) if is_event_stream(headers, raw) else json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            # A truncated body from an overloaded proxy is worth one more try.
            return _Failure(f"response is not JSON: {exc}", transient), None
        if not isinstance(decoded, dict) or not decoded.get("choices"):
            text = raw[:_ERROR_BODY_CHARS].decode("utf-8", "replace")
            return _Failure(f"response has no choices: {text}",
                            Verdict(GIVE_UP, "no choices")), None
        return decoded, None


@dataclass(frozen=True)
class _Failure:
    message: str
    verdict: Verdict
