"""What the observation may say about a character: alertness, armed, friendly, following."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from world.characters.system import CharactersSystem


@dataclass(frozen=True)
class CharacterView:
    """The behaviour-side facts about one character, as plain data.

    Attributes:
        id: The character's id.
        alertness: Alertness level name (see `alertness.LEVEL_NAMES`).
        armed: Whether it carries a weapon.
        friendly: Whether it is on the player's side (never to be shot).
        following: Whether it follows the player.
        activity: What it is doing (at_post, patrolling, searching, fighting, fleeing, ...).
    """

    id: str
    alertness: str
    armed: bool
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
        out[cid] = CharacterView(
            id=cid, alertness=mind.alertness, armed=actor.weapon is not None,
            friendly=actor.side == "friendly", following=mind.following,
            activity=mind.activity if actor.alive else "down",
        )
    return out
