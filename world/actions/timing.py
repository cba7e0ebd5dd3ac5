"""Time limits of actions, in ticks, from routes or from explicit arguments."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from world.actions.catalog import catalog
from world.sim.clock import seconds_to_ticks, ticks_to_seconds

# A route's walking time is stretched by this factor (corners, doors, other bodies)...
ROUTE_SLACK = 1.5
# ...plus this much for turning and settling, then held between a floor and the cap.
ROUTE_EXTRA_S = 1.0
ROUTE_FLOOR_S = 3.0


@dataclass(frozen=True)
class Limit:
    """How long an action may run.

    Attributes:
        ticks: The limit in ticks.
        capped: True when an explicit limit was cut to the cap.
    """

    ticks: int
    capped: bool = False

    @property
    def seconds(self) -> float:
        """The limit in game seconds."""
        return ticks_to_seconds(self.ticks)


def cap_s() -> float:
    """The longest any action may run, in game seconds."""
    return catalog().time_cap_s


def explicit(seconds: float) -> Limit:
    """A limit asked for explicitly, cut to the cap.

    Args:
        seconds: Game seconds asked for.

    Returns:
        The limit, marked capped when it was cut.
    """
    cap = cap_s()
    return Limit(seconds_to_ticks(min(seconds, cap)), capped=seconds > cap)


def route_limit(length: float, speed: float, extra_s: float = 0.0) -> Limit:
    """A limit from a route's length at a walking pace, between the floor and the cap.

    Args:
        length: Route length in world units.
        speed: Walking pace in units per second.
        extra_s: Additional seconds for the work at the end (firing, using).

    Returns:
        The limit.
    """
    seconds = length / max(speed, 1.0) * ROUTE_SLACK + ROUTE_EXTRA_S + extra_s
    return Limit(seconds_to_ticks(min(cap_s(), max(ROUTE_FLOOR_S, seconds))))


def limit_for(args: Mapping[str, Any], default: Limit) -> Limit:
    """The explicit `time_limit_s` argument when given, else the default.

    Args:
        args: The action's arguments.
        default: The limit to use when none was given.

    Returns:
        The limit.
    """
    given = args.get("time_limit_s")
    return default if given is None else explicit(float(given))
