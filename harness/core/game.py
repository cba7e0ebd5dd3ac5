"""The boundary between the harness and the simulated world.

The episode loop drives a `Game`: the world's `Session` (world/turn.py), played one
`step(action) -> Turn` per turn, each turn holding the result or the world's refusal,
the view of the moment after, the mission status (the world's `GameStatus`) and the
state hash. The real one is the world's session (`world.face.new_session`); tests may
plug in their own (a `world.face.Stepping` over a stand-in). Every id a Game shows or
accepts is an episode id, never a level-file name.
"""

from __future__ import annotations

from collections.abc import Callable

from world.face import GameStatus, Level, Session, Turn, new_session

# One episode's world as the harness sees it.
Game = Session

# Builds a game from (level, difficulty, episode key): the key the world's one generator is
# made from (harness/core/keys.py), not the seed the agent is told.
GameFactory = Callable[[Level, str, int], Game]


def world_game(level: Level, difficulty: str, key: int) -> Game:
    """The real game: the World behind the observation and action layer.

    A Doom mission (`doom:` ids) gets the Doom session, which has the same face.
    """
    return new_session(level, difficulty, key)


__all__ = ["Game", "GameFactory", "GameStatus", "Turn", "world_game"]
