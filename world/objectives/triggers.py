"""What can change an objective's verdict between events: the per-tick shortcut's table.

Most objectives are decided by what the world records as events (a pickup, a death, an
area entered, an alarm) or by states that only change together with such an event (the
player's area, inventory, who is alive). Their judges give the same answer on a tick
with no new events as on the tick before, so the objectives system skips those ticks.
A few kinds also watch the player's position, or the clock and other characters'
positions, which change without events; while one of them is open, the system judges
every tick (or every tick the player moved).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from world.objectives.base import TODO
from world.objectives.outcome import ObjectiveState

EVENTS = 0  # judged again only when something was recorded
PLAYER = 1  # ... or when the player moved
CLOCK = 2  # every tick

# Objective kind -> what can change its verdict, target or progress besides events.
WAKES: MappingProxyType[str, int] = MappingProxyType({
    "reach_area": EVENTS,
    "collect_item": EVENTS,
    "use_object": EVENTS,
    "destroy_object": EVENTS,
    "gadget_on_object": EVENTS,
    "neutralise": EVENTS,
    "protect": EVENTS,
    "intercept": EVENTS,
    "stay_unseen": EVENTS,
    "no_alarm": EVENTS,
    "find_secrets": EVENTS,
    "frags": EVENTS,
    "waypoints": PLAYER,  # passed by walking within a radius
    "escort": CLOCK,  # progress follows the escorted characters
    "follow": CLOCK,  # distance to moving characters, and a grace timer
    "survive": CLOCK,  # a timer
})


def wakes(states: Iterable[ObjectiveState]) -> int:
    """The strongest trigger among the open objectives (a kind not in the table: CLOCK).

    Args:
        states: Every objective's state.

    Returns:
        EVENTS, PLAYER or CLOCK.
    """
    return max(
        (WAKES.get(s.objective.kind, CLOCK) for s in states if s.status == TODO),
        default=EVENTS,
    )
