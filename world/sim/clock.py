"""Game time: integer ticks at a fixed rate, and conversions to and from seconds."""

from __future__ import annotations

import math

TICKS_PER_SECOND = 30
DT = 1.0 / TICKS_PER_SECOND


def seconds_to_ticks(seconds: float) -> int:
    """Whole ticks covering a duration, rounded up so a timer never ends early.

    Args:
        seconds: A non-negative duration in game seconds.

    Returns:
        The number of ticks, at least 0.
    """
    # The small tolerance keeps 0.5 s at exactly 15 ticks despite binary fractions.
    return max(0, math.ceil(seconds * TICKS_PER_SECOND - 1e-9))


def ticks_to_seconds(ticks: int) -> float:
    """Game seconds that a number of ticks lasts.

    Args:
        ticks: A tick count.

    Returns:
        The duration in game seconds.
    """
    return ticks / TICKS_PER_SECOND
