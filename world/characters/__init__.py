"""Characters: perception, alertness, combat, friendlies, cameras, alarms, waves and bots."""

from world.characters.alertness import ALERT_LEVELS, LEVEL_NAMES
from world.characters.system import CharactersSystem
from world.characters.views import CharacterView, character_views

__all__ = ["ALERT_LEVELS", "LEVEL_NAMES", "CharacterView", "CharactersSystem", "character_views"]
