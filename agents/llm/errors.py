"""What to do about a failed request, decided from its status and its body.

A blanket retry wastes a turn's time on errors that can never succeed. Each failure is
given one verdict from a table of rules (the first matching rule wins):

- retry: transient (rate limits, overload, timeouts, a body cut off in transit);
- shrink: the request is longer than the server's context; send a shorter one;
- repair: the server choked on the history we sent (for example arguments that are
  not JSON echoed back); send the turn again without the repair messages;
- no_tool_choice: the server cannot honour `tool_choice`; send requests without it;
- give_up: it will fail the same way again (bad key, unknown model, bad request).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

RETRY = "retry"
SHRINK = "shrink"
REPAIR = "repair"
NO_TOOL_CHOICE = "no_tool_choice"
GIVE_UP = "give_up"


@dataclass(frozen=True)
class Rule:
    """Statuses (empty: any) and a lower-case body fragment (empty: any) to a verdict."""

    statuses: frozenset[int]
    fragment: str
    verdict: str
    why: str
    empty_body: bool = False


_SERVER = frozenset({500, 502, 503, 504})
_CLIENT = frozenset({400, 413, 422})
# Order matters: specific bodies first, then statuses alone.
RULES: tuple[Rule, ...] = (
    Rule(_CLIENT | _SERVER, "exceed_context_size_error", SHRINK, "context size exceeded"),
    Rule(_CLIENT, "maximum context length", SHRINK, "context size exceeded"),
    Rule(_CLIENT, "context_length_exceeded", SHRINK, "context size exceeded"),
    Rule(_CLIENT, "context size", SHRINK, "context size exceeded"),
    Rule(_SERVER, "failed to parse tool call arguments", REPAIR,
         "the server cannot parse arguments in the history"),
    Rule(_CLIENT | _SERVER, "input should be a valid string", GIVE_UP,
         "the server rejects a message's content"),
    Rule(_CLIENT, "enable-auto-tool-choice", NO_TOOL_CHOICE,
         "the server was started without automatic tool choice"),
    Rule(_CLIENT | _SERVER, "tool_choice", NO_TOOL_CHOICE, "the server rejects tool_choice"),
    Rule(frozenset({408, 409, 425, 429, 502, 503, 504}), "", RETRY, "transient"),
    # An empty 500 is how llama.cpp's server reports an internal assertion (for example
    # with tool_choice "required"); repeating the same request repeats the assertion.
    Rule(frozenset({500}), "", NO_TOOL_CHOICE, "the server failed without a word",
         empty_body=True),
    # Other 500s are sometimes transient ("Context size has been exceeded" was seen to
    # pass on a second try), so they get the bounded retries.
    Rule(frozenset({500}), "", RETRY, "server error"),
)


@dataclass(frozen=True)
class Verdict:
    """The decision about one failure and the context size the server stated, if any."""

    action: str
    why: str
    n_ctx: int | None = None


_NCTX_PATTERNS = (
    re.compile(r'"n_ctx"\s*:\s*(\d+)'),
    re.compile(r"maximum context length is (\d+)"),
    re.compile(r"context size \(?(\d+)"),
)


def stated_context(text: str) -> int | None:
    """The context size in tokens that an error body states, or None."""
    try:
        decoded = json.loads(text)
    except ValueError:
        decoded = None
    error = decoded.get("error") if isinstance(decoded, dict) else None
    if isinstance(error, dict) and isinstance(error.get("n_ctx"), int):
        return int(error["n_ctx"])
    for pattern in _NCTX_PATTERNS:
        found = pattern.search(text)
        if found:
            return int(found.group(1))
    return None


def classify(status: int, body: str) -> Verdict:
    """The verdict on a non-200 answer.

    Args:
        status: The HTTP status.
        body: The response body (decoded, possibly cut).

    Returns:
        What to do, and why in a few words.
    """
    lowered = body.lower()
    for rule in RULES:
        if rule.statuses and status not in rule.statuses:
            continue
        if rule.empty_body and body.strip():
            continue
        if rule.fragment and rule.fragment not in lowered:
            continue
        n_ctx = stated_context(body) if rule.verdict == SHRINK else None
        return Verdict(rule.verdict, rule.why, n_ctx)
    return Verdict(GIVE_UP, f"HTTP {status} will not change on a retry")
