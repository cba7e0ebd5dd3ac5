"""Token counts from chat-completion responses, summed over a turn and priced.

A figure the server did not report stays None: an unknown count is not zero, and a
sum over several requests is only known if every request reported it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from llm.config import Prices

_MILLION = 1_000_000


def _count(value: Any) -> int | None:
    # Servers sometimes send floats or nulls; anything else is treated as unreported.
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return None
    return int(value)


def _add(a: int | float | None, b: int | float | None) -> Any:
    return None if a is None or b is None else a + b


@dataclass(frozen=True)
class Usage:
    """Tokens (and dollars where the server says) of one or more requests."""

    input_tokens: int | None = None
    cached_input_tokens: int | None = None
    output_tokens: int | None = None
    reasoning_tokens: int | None = None
    reported_cost_usd: float | None = None
    requests: int = 0

    @classmethod
    def from_response(cls, response: Mapping[str, Any]) -> Usage:
        """Read the usage block of one response.

        Args:
            response: A decoded chat-completion response.

        Returns:
            The counts it reports, None for each one it does not.
        """
        usage = response.get("usage")
        if not isinstance(usage, Mapping):
            return cls(requests=1)
        prompt_details = usage.get("prompt_tokens_details")
        completion_details = usage.get("completion_tokens_details")
        prompt_details = prompt_details if isinstance(prompt_details, Mapping) else {}
        completion_details = completion_details if isinstance(completion_details, Mapping) else {}
        cost = usage.get("cost")
        return cls(
            input_tokens=_count(usage.get("prompt_tokens")),
            cached_input_tokens=_count(prompt_details.get("cached_tokens")),
            output_tokens=_count(usage.get("completion_tokens")),
            reasoning_tokens=_count(completion_details.get("reasoning_tokens")),
            # Some gateways report what the call cost them; prefer that to our table.
            reported_cost_usd=float(cost) if _count(cost) is not None else None,
            requests=1,
        )

    def __add__(self, other: Usage) -> Usage:
        """Sum of two usages; a field is known only when both sides know it."""
        if self.requests == 0:
            return other
        if other.requests == 0:
            return self
        return Usage(
            input_tokens=_add(self.input_tokens, other.input_tokens),
            cached_input_tokens=_add(self.cached_input_tokens, other.cached_input_tokens),
            output_tokens=_add(self.output_tokens, other.output_tokens),
            reasoning_tokens=_add(self.reasoning_tokens, other.reasoning_tokens),
            reported_cost_usd=_add(self.reported_cost_usd, other.reported_cost_usd),
            requests=self.requests + other.requests,
        )

    def cost_usd(self, prices: Prices) -> float | None:
        """Dollars for these tokens: the server's own figure, else the price table.

        Args:
            prices: Dollars per million tokens.

        Returns:
            The cost, or None when a needed count or price is unknown.
        """
        if self.reported_cost_usd is not None:
            return self.reported_cost_usd
        if self.input_tokens is None or self.output_tokens is None:
            return None
        if prices.input is None or prices.output is None:
            return None
        cached = self.cached_input_tokens or 0
        cached_price = prices.cached_input if prices.cached_input is not None else prices.input
        dollars = (
            (self.input_tokens - cached) * prices.input
            + cached * cached_price
            + self.output_tokens * prices.output
        ) / _MILLION
        return round(dollars, 8)

    def to_message(self, prices: Prices) -> dict[str, Any]:
        """The usage block of an action message.

        Args:
            prices: Dollars per million tokens.

        Returns:
            Counts and dollars, None for what is unknown.
        """
        return {
            "input_tokens": self.input_tokens,
            "cached_input_tokens": self.cached_input_tokens,
            "output_tokens": self.output_tokens,
            "reasoning_tokens": self.reasoning_tokens,
            "cost_usd": self.cost_usd(prices),
        }
