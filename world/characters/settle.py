"""Settled minds: a decision whose inputs have not changed since the last one is skipped.

Most characters spend most decisions repeating themselves: a guard at its post faces
the way the level says, a fighter in reach of a player who stands still turns toward
him and keeps standing. For the activities in `STEADY` the decision only stops the
walker and sets a facing and an activity from what the mind knows and where the
actor and its target stand, so running it again on its own outcome changes nothing.
After such a decision the system keeps a `key` of those inputs; while the key stays
the same the next decisions are skipped. Perception still runs at every think slot,
and anything that could change the outcome (a move, a new alertness rank, sight
gained or lost, a new last known position, a facing turned by a shot) changes the
key, so skipping changes no behaviour and draws nothing from the generator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from world.characters.mind import Mind
from world.sim.actors import PLAYER_ID

if TYPE_CHECKING:
    from world.sim.actors import Actor

# Activities whose decision is idempotent: it stops the walker and sets the activity and
# a facing from the inputs of `key`, and draws nothing from the generator.
STEADY: frozenset[str] = frozenset(
    {"at_post", "fighting", "looking", "waiting", "arrived", "following"}
)


def key(actor: Actor, mind: Mind, player: Actor) -> tuple | None:
    """Everything a steady decision reads, or None when the mind is not settled.

    Args:
        actor: The character.
        mind: Its mind, just after a decision.
        player: The player, the only target a steady fighter may have.

    Returns:
        A tuple to compare with `now` before the next decision, or None when the mind
        is walking, busy with an unsteady activity, or fighting someone other than
        the player.
    """
    if (
        mind.activity not in STEADY
        or mind.waypoints
        or actor.move_to is not None
        or mind.stall is not None
        or (mind.target is not None and mind.target != PLAYER_ID)
    ):
        return None
    return now(actor, mind, (player.x, player.z, player.alive))


def now(actor: Actor, mind: Mind, player_at: tuple[float, float, bool]) -> tuple:
    """The inputs of a steady decision as they stand (equal to a settled key: skip).

    Only a decision gives a mind waypoints, a stall record or a waypoint to walk to,
    so a settled mind has none of them until its next decision and the key need not
    hold them.

    Args:
        actor: The character.
        mind: Its mind.
        player_at: The player's x, z and whether the player is alive.

    Returns:
        A flat tuple (plain attribute reads cost less than getters here).
    """
    return (
        mind.activity, mind.rank, mind.sees, mind.target, mind.following, mind.done,
        mind.last_known, actor.x, actor.z, actor.facing, actor.storey, actor.weapon,
        player_at,
    )
