"""The one table of objective kinds: each kind name of the level schema to its verifier.

Each verifier class declares its own kind and facts; the table is derived from the one
tuple of classes. Its keys must be exactly the objective kind enum of
schemas/level.schema.json; a test holds the two together.
"""

from __future__ import annotations

from types import MappingProxyType

from world.errors import UnknownIdError
from world.level.model import Objective
from world.objectives.base import Verifier, WorldView
from world.objectives.kinds_conduct import NoAlarm, StayUnseen, Survive
from world.objectives.kinds_people import Escort, Follow, Frags, Intercept, Neutralise, Protect
from world.objectives.kinds_place import (
    CollectItem,
    DestroyObject,
    FindSecrets,
    GadgetOnObject,
    ReachArea,
    UseObject,
    Waypoints,
)

# Every verifier class, once; each declares its kind and its facts (see `Verifier`).
KINDS: tuple[type[Verifier], ...] = (
    ReachArea, CollectItem, UseObject, DestroyObject, GadgetOnObject, Neutralise, Protect,
    Escort, Follow, Intercept, Survive, StayUnseen, NoAlarm, FindSecrets, Frags, Waypoints,
)
VERIFIERS: MappingProxyType[str, type[Verifier]] = MappingProxyType(
    {verifier.kind: verifier for verifier in KINDS})


def make_verifier(objective: Objective, world: WorldView) -> Verifier:
    """Build the verifier for one objective.

    Args:
        objective: The level's objective.
        world: The world at the start of the episode.

    Returns:
        A fresh verifier of the objective's kind.

    Raises:
        UnknownIdError: if the kind is not in the table (a level the schema let through
            only if the two have drifted apart).
    """
    if objective.kind not in VERIFIERS:
        raise UnknownIdError("objective kind", objective.kind, sorted(VERIFIERS))
    return VERIFIERS[objective.kind](objective, world)
