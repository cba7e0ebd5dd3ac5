"""What can change an objective's verdict between events: the per-tick shortcut's table.

Most objectives are decided by what the world records as events (a pickup, a death, an
area entered, an alarm) or by states that only change together with such an event (the
player's area, inventory, who is alive). Their judges give the same answer on a tick
with no new events as on the tick before, so the objectives system skips those ticks.
A few kinds also watch the player's position, or the clock and other characters'
positions, which change without events; while one of them is open, the system judges
every tick (or every tick the player moved).

Most events of a fight (shots, reloads, alertness) change nothing an objective reads,
so `READS` names, per kind, the event kinds after which its verdict can differ: the
events it scans, and those that come with every change of the state it re-checks. A
tick whose events are all of other kinds counts as a tick with no events.
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


_SPAWNS = ("character_spawned", "reinforcement_spawned", "character_respawned")

# Objective kind -> the event kinds that can change its verdict; None: any event.
READS: MappingProxyType[str, frozenset[str] | None] = MappingProxyType({
    "reach_area": frozenset({"area_entered"}),
    "collect_item": frozenset({"item_picked_up"}),
    "use_object": frozenset({"object_used"}),
    "destroy_object": frozenset({"object_broken", "damage_taken"}),
    "gadget_on_object": frozenset({"gadget_used"}),
    "neutralise": frozenset({"actor_down", "area_entered", *_SPAWNS}),
    "protect": frozenset({"actor_down", *_SPAWNS}),
    "intercept": frozenset({"actor_down", "area_entered", *_SPAWNS}),
    "stay_unseen": frozenset({"player_spotted", "alarm_raised"}),
    "no_alarm": frozenset({"alarm_raised"}),
    "find_secrets": frozenset({"secret_found", "area_entered"}),
    "frags": frozenset({"actor_down"}),
    "waypoints": None,
    "escort": None,
    "follow": None,
    "survive": None,
})

# What the system itself reads on every judgement: readiness (statuses), the end
# rules (the player down, the world or a countdown ended, the exit area entered).
SYSTEM_READS = frozenset({
    "objective_changed", "mission_ended", "episode_ended", "countdown_started",
    "countdown_expired", "actor_down", "area_entered",
})


def reads(states: Iterable[ObjectiveState]) -> frozenset[str] | None:
    """The event kinds that can change a verdict of the open objectives or the end.

    Args:
        states: Every objective's state.

    Returns:
        The union of the open objectives' kinds and the system's own, or None when
        any event can (an open objective of a kind reading every event, or not in
        the table).
    """
    kinds = set(SYSTEM_READS)
    for s in states:
        if s.status != TODO:
            continue
        own = READS.get(s.objective.kind)
        if own is None:
            return None
        kinds |= own
    return frozenset(kinds)


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
