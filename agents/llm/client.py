"""A chat-completions client over the standard library, with bounded retries.

Only urllib is used so the agent runs wherever Python does. Retryable failures (429,
5xx, timeouts, refused or reset connections) are retried with exponential backoff,
honouring the server's Retry-After; anything else fails at once. The caller decides
what to play when a request finally fails.
"""

from __future__ import annotations

import email.utils
import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger("llm_agent")

# Status codes worth another try: rate limiting and server-side trouble.
RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})
# Bound on how much of an error body goes into logs and messages.
_ERROR_BODY_CHARS = 500


class ChatError(Exception):
    """A request failed for good (not retryable, or out of retries)."""


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
    """POST with urllib; HTTP error statuses are returned, not raised.

    Args:
        url: Full URL.
        body: Request body.
        headers: Request headers.
        timeout_s: Socket timeout in seconds.

    Returns:
        Status code, response headers and body.
    """
    request = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
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
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.policy = policy
        self.transport = transport
        self.sleep = sleep
        self.retried = 0

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
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
            failure, retry_after = self._attempt(data, timeout)
            if isinstance(failure, dict):
                return failure
            if failure.retryable is False or attempt >= self.policy.retries:
                raise ChatError(failure.message)
            wait = self.policy.delay(attempt, retry_after)
            if deadline is not None and time.monotonic() + wait >= deadline:
                raise ChatError(f"{failure.message} (no time left for a retry)")
            log.warning("request failed: %s; retry %d in %.2fs", failure.message,
                        attempt + 1, wait)
            self.sleep(wait)
            attempt += 1
            self.retried += 1

    def _attempt(self, data: bytes, timeout: float) -> tuple[Any, float | None]:
        try:
            status, headers, raw = self.transport(self.url, data, self._headers(), timeout)
        except TimeoutError:
            return _Failure(f"no answer within {timeout:.3g}s", True), None
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            return _Failure(f"network error: {reason}", True), None
        lowered = {k.lower(): v for k, v in headers.items()}
        if status != 200:
            text = raw[:_ERROR_BODY_CHARS].decode("utf-8", "replace")
            retry_after = parse_retry_after(lowered.get("retry-after"))
            return _Failure(f"HTTP {status}: {text}", status in RETRY_STATUSES), retry_after
        try:
            decoded = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            # A truncated body from an overloaded proxy is worth one more try.
            return _Failure(f"response is not JSON: {exc}", True), None
        if not isinstance(decoded, dict) or not decoded.get("choices"):
            text = raw[:_ERROR_BODY_CHARS].decode("utf-8", "replace")
            return _Failure(f"response has no choices: {text}", False), None
        return decoded, None


@dataclass(frozen=True)
class _Failure:
    message: str
    retryable: bool
