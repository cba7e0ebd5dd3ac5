"""The state hash: one sha256 over everything that decides what happens next."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from world.sim.world import World


def state_items(world: World) -> tuple:
    """The world's state as nested tuples of plain values, in a fixed order."""
    rng_state = world.rng.bit_generator.state
    systems = tuple((name, tuple(state())) for name, state in world.system_states())
    return (
        world.tick,
        world.ended,
        len(world.events),
        (rng_state["state"]["state"], rng_state["state"]["inc"]),
        tuple(a.state_items() for a in world.all_actors()),
        tuple(d.state_items() for d in world.doors.values()),
        tuple(o.state_items() for o in world.objects.values()),
        world.hazards.state_items(),
        systems,
    )


def state_hash(world: World) -> str:
    """Sha256 hex digest of `state_items` (positions in whole hundredths of a unit)."""
    return hashlib.sha256(repr(state_items(world)).encode()).hexdigest()
