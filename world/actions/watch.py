"""What stops an action early: interrupts, declared once as a table, and the watchdog.

Interrupts are checked after every tick, in the order of `INTERRUPTS` (the first that
holds names the end). Objective and stage changes are recognised by event kind, read
from the world's `EVENT_KINDS` table, so kinds added later by other systems are picked
up without touching this module.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from world.sim.events import EVENT_KINDS, Event
from world.sim.world import World

_STAGE_NAMED = ("countdown_started", "episode_ended")
_kind_cache: dict[int, tuple[frozenset[str], frozenset[str]]] = {}


def event_groups() -> tuple[frozenset[str], frozenset[str]]:
    """The event kinds meaning a stage change, and those meaning an objective change.

    Stage: a countdown started, the episode ended, or any kind declared with a "stage"
    prefix. Objective: any kind declared with an "objective" prefix. Read from the live
    table (recomputed when it grows), so kinds that other systems declare later count.
    """
    size = len(EVENT_KINDS)
    groups = _kind_cache.get(size)
    if groups is None:
        stage = frozenset(k for k in EVENT_KINDS if k in _STAGE_NAMED or k.startswith("stage"))
        objective = frozenset(k for k in EVENT_KINDS if k.startswith("objective"))
        groups = _kind_cache[size] = (stage, objective)
    return groups


@dataclass
class Baseline:
    """What the player looked like before a tick, to notice losses.

    Attributes:
        health: Health before the tick.
        armour: Armour before the tick.
        tolerate: Sources whose damage does not interrupt (the character an attack
            is fighting: being shot back is part of the fight).
    """

    health: float
    armour: float
    tolerate: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Interrupt:
    """One way an action is cut short.

    Attributes:
        reason: The end reason it produces.
        test: Given the world, the events of the last tick and the baseline, returns
            the sentence explaining the interrupt, or None when it does not hold.
    """

    reason: str
    test: Callable[[World, Sequence[Event], Baseline], str | None]


def _dead(world: World, events: Sequence[Event], base: Baseline) -> str | None:
    if world.player.alive:
        return None
    return "The player went down."


def _stage(world: World, events: Sequence[Event], base: Baseline) -> str | None:
    stage_kinds = event_groups()[0]
    changed = [e for e in events if e.kind in stage_kinds]
    if changed:
        return f"The level's stage changed ({changed[0].kind.replace('_', ' ')})."
    if world.ended is not None:
        return f"The level ended ({world.ended})."
    return None


def _objective(world: World, events: Sequence[Event], base: Baseline) -> str | None:
    objective_kinds = event_groups()[1]
    changed = [e for e in events if e.kind in objective_kinds]
    if not changed:
        return None
    return "An objective changed status."


def _damage(world: World, events: Sequence[Event], base: Baseline) -> str | None:
    p = world.player
    lost = (base.health + base.armour) - (p.health + p.armour)
    if lost <= 1e-9:
        return None
    sources = {e.other for e in events if e.kind == "damage_taken" and e.subject == p.id}
    # A floor that drains health a little every tick is the level's steady condition, not
    # a surprise: stopping for it would end every action after one tick.
    drains = {h.id for h in world.level.hazards if not h.kills}
    if sources and sources <= base.tolerate | drains:
        return None
    return f"The player lost {lost:.2f} of health and armour."


INTERRUPTS: tuple[Interrupt, ...] = (
    Interrupt("dead", _dead),
    Interrupt("stage", _stage),
    Interrupt("objective", _objective),
    Interrupt("damage", _damage),
)


def check_interrupts(
    world: World, events: Sequence[Event], base: Baseline
) -> tuple[str, str] | None:
    """The first interrupt that holds after a tick.

    Args:
        world: The world after the tick.
        events: Events recorded during the tick.
        base: The player's health and armour before the tick.

    Returns:
        (end reason, sentence), or None when the action may go on.
    """
    for interrupt in INTERRUPTS:
        why = interrupt.test(world, events, base)
        if why is not None:
            return interrupt.reason, why
    return None


class ProgressWatchdog:
    """Notices walking that gets nowhere: too little progress over a sliding window.

    Progress is a distance still to go (smaller is better). Feeding None (the task is
    waiting on purpose, e.g. for a door to open) clears the window, so waiting is never
    mistaken for being stuck.
    """

    def __init__(self, window_ticks: int, min_progress: float) -> None:
        """Set the window length in ticks and the least progress it must show."""
        self.window_ticks = window_ticks
        self.min_progress = min_progress
        self._history: deque[float] = deque(maxlen=window_ticks + 1)

    def feed(self, remaining: float | None) -> bool:
        """Record the distance still to go after a tick.

        Args:
            remaining: Distance left, or None to pause the watch.

        Returns:
            True when the whole window passed with less than `min_progress` gained.
        """
        if remaining is None:
            self._history.clear()
            return False
        self._history.append(remaining)
        if len(self._history) <= self.window_ticks:
            return False
        return self._history[0] - remaining < self.min_progress
