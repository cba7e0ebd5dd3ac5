"""The simulation core: a deterministic world ticking at a fixed rate (`clock.TICKS_PER_SECOND`)."""

from world.sim.clock import TICKS_PER_SECOND, seconds_to_ticks, ticks_to_seconds
from world.sim.events import EVENT_KINDS, Event, EventLog
from world.sim.world import PlayerIntent, System, World

__all__ = [
    "EVENT_KINDS",
    "TICKS_PER_SECOND",
    "Event",
    "EventLog",
    "PlayerIntent",
    "System",
    "World",
    "seconds_to_ticks",
    "ticks_to_seconds",
]
