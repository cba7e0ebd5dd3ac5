"""The JSON-lines track's observation message, built in process for an environment's info.

An environment's `info["text"]` and `info["view"]` are exactly what an agent of
`harness run` would read at the same moment (`harness.episode.turns.observation_message`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.core.messages import ObservationMessage
from harness.episode.live import EpisodeSpec
from harness.episode.subtask import episode_limits
from harness.episode.turns import TurnState, observation_message

if TYPE_CHECKING:
    from harness.rl.env_base import MissionEnv


def observation(env: MissionEnv[Any], state: TurnState | None = None) -> ObservationMessage:
    """The observation message of this moment (the wall clock never enters it)."""
    spec = EpisodeSpec(env.level, "", env.difficulty, env.seed_used or 0, "", Path(),
                       env.settings)
    state = state if state is not None else TurnState(turn=env.steps, decisions=env.decisions)
    return observation_message(spec, env.live, state, env.settings.episode_timeout_s,
                               episode_limits(env.level, spec.track))


def text_view(env: MissionEnv[Any]) -> str:
    """The text view of this moment."""
    return observation(env, getattr(env, "turn_state", None))["text"]
