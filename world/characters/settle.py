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

from operator import attrgetter
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


# What a steady decision reads of the mind, the actor and the player (the actor's
# waypoint is in it so that an equal key also means the actor still stands).
_MIND = attrgetter("activity", "rank", "sees", "target", "following", "done", "last_known")
_ACTOR = attrgetter("x", "z", "facing", "storey", "weapon", "move_to")
_PLAYER = attrgetter("x", "z", "alive")


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
    return now(actor, mind, player)


def now(actor: Actor, mind: Mind, player: Actor) -> tuple:
    """The inputs of a steady decision as they stand (equal to a settled key: skip).

    Between decisions only a decision gives a mind waypoints or a stall record, so an
    equal key (which holds the activity and the actor's standing) still means settled.
    """
    return (_MIND(mind), _ACTOR(actor), _PLAYER(player))
