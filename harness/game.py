"""The boundary between the harness and the simulated world, as a Protocol.

The episode loop drives a `Game`: something that shows the player's view, executes
one macro action, reports the mission status (the world's `GameStatus`) and hashes its
state. The real one is the world's session (`world.face.new_session`); tests may plug in
their own. Every id a Game shows or accepts is an episode id, never a level-file name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from world.face import GameStatus, Level, new_session


class Game(Protocol):
    """One episode's world as the harness sees it."""

    level: Level

    @property
    def tick(self) -> int:
        """Game ticks since the start."""
        ...

    def view(self) -> dict[str, Any]:
        """The structured view of this moment: plain data, episode ids only."""
        ...

    def plan(self) -> dict[str, Any]:
        """The level as a page draws it, in the map's own ids (the record header's `map`).

        Derived from the level, difficulty and episode key alone; never shown to the agent.
        """
        ...

    def ids_given(self) -> dict[str, str]:
        """Every episode id handed out so far (in the order perceived) and the map's id.

        The map (`plan`) numbers things its own way; the record's end line keeps this
        table, so a page can tell which thing of the map an agent's id named. Never
        shown to the agent.
        """
        ...

    def act(self, action: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Execute one validated macro action.

        Returns:
            The result as plain data (action, end_reason, ticks, distance_moved,
            detail, changes, events, ...), episode ids only.

        Raises:
            world.errors.UnknownIdError: An id that does not exist in this episode.
            world.errors.InvalidRequestError: A request the world refuses.
        """
        ...

    def status(self) -> GameStatus:
        """The mission status now."""
        ...

    def state_hash(self) -> str:
        """A digest of everything that determines what happens next."""
        ...


# Builds a game from (level, difficulty, episode key): the key the world's one generator is
# made from (harness/keys.py), not the seed the agent is told.
GameFactory = Callable[[Level, str, int], Game]


def world_game(level: Level, difficulty: str, key: int) -> Game:
    """The real game: the World behind the observation and action layer.

    A Doom mission (`doom:` ids) gets the Doom session, which has the same face.
    """
    game: Game = new_session(level, difficulty, key)
    return game


__all__ = ["Game", "GameFactory", "GameStatus", "world_game"]
