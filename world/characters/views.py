"""What the observation may say about a character: alertness, weapon, friendly, following."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from world.sim.combat import UNARMED

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem
    from world.sim.actors import Actor
    from world.sim.world import World


@dataclass(frozen=True)
class CharacterView:
    """The behaviour-side facts about one character, as plain data.

    Attributes:
        id: The character's id.
        alertness: Alertness level name (see `alertness.LEVEL_NAMES`).
        armed: Whether it carries a gun (bare hands and melee weapons do not count:
            they hurt only within arm's reach).
        weapon: The weapon type it carries, as a player would see it in its hands;
            None for bare hands.
        friendly: Whether it is on the player's side (never to be shot).
        following: Whether it follows the player.
        activity: What it is doing (at_post, patrolling, searching, fighting, fleeing, ...).
    """

    id: str
    alertness: str
    armed: bool
    weapon: str | None
    friendly: bool
    following: bool
    activity: str


def character_views(sys: CharactersSystem) -> dict[str, CharacterView]:
    """A view of every character the system drives, by id in stable order.

    Args:
        sys: The characters system.

    Returns:
        Character id to its view.
    """
    chars = sys.world.characters
    out = {}
    for cid in sorted(sys.minds):
        mind, actor = sys.minds[cid], chars[cid]
        weapon, gun = weapon_seen(sys.world, actor)
        out[cid] = CharacterView(
            id=cid, alertness=mind.alertness, armed=gun, weapon=weapon,
            friendly=actor.side == "friendly", following=mind.following,
            activity=mind.activity if actor.alive else "down",
        )
    return out


def weapon_seen(world: World, actor: Actor) -> tuple[str | None, bool]:
    """The weapon a character visibly carries, and whether it is a gun.

    Args:
        world: The world (its combat rules know each weapon type).
        actor: The character.

    Returns:
        The weapon type id (None for bare hands) and whether it shoots from range.
    """
    if actor.weapon is None or actor.weapon == UNARMED:
        return None, False
    return actor.weapon, not world.combat.weapon_of(actor).melee
