"""What both Gymnasium environments share: level and seed handling, reward, endings.

An environment plays the same `Game` as `harness run` (`harness.game.world_game`) in
the same process; an episode ends by the same rules (`harness.outcome`): the mission's
end is `terminated`, a decision or game-time budget is `truncated`, and too many
refused actions in a row end it as `protocol_error` (terminated).
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from harness import keys
from harness import outcome as endings
from harness.game import world_game
from harness.outcome import Ending
from harness.protocol import OUTCOMES
from harness.rl.reward import Figures, RewardSpec, reward_spec
from harness.rl.views import text_view
from harness.runner import UsageError, pick_difficulty, resolve_level
from harness.settings import RunSettings
from world.face import Level, MissionReport, WorldSession, seconds_to_ticks

# Seeds drawn when reset() is given none stay in the range `harness run --seed` takes.
SEED_RANGE = 2**31


@cache
def load_level(ref: str) -> Level:
    """A level by id or path, checked as `harness run` checks it (once per process).

    Raises:
        ValueError: No such level, or one that does not pass the checks (their messages).
    """
    try:
        return resolve_level(ref)[0]
    except UsageError as exc:
        raise ValueError(f"level: {exc}") from None


class MissionEnv(gym.Env):
    """The common part of the Macro and Raw environments (not registered itself)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 30}

    def __init__(self, level: str = "exit_switch", difficulty: str | None = None,
                 reward: str | dict | RewardSpec = "score", render_mode: str | None = None,
                 secret: bytes | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not offered; allowed: None, "
                             f"{', '.join(self.metadata['render_modes'])}")
        self.level = load_level(level)
        try:
            self.difficulty = pick_difficulty(self.level, difficulty)
        except UsageError as exc:
            raise ValueError(f"difficulty: {exc}") from None
        self.reward_spec = reward_spec(reward)
        self.render_mode = render_mode
        self.settings = RunSettings()
        self.max_ticks = seconds_to_ticks(self.level.budgets.max_game_seconds)
        self.game: WorldSession | None = None
        self.seed_used: int | None = None
        # The episode key is drawn from the seed and this environment's secret, as
        # `harness run` draws it from the run's: a copy of the world made from the seed
        # does not play the same episode. The policy shares the process, so the secret
        # is no wall against it: give one (`secret=`) to reproduce episodes across
        # environments, or a `harness run --secret` episode.
        self.secret = keys.new_secret() if secret is None else bytes(secret)

    # ---- episode life -------------------------------------------------------------------
    def _new_episode(self, seed: int | None) -> None:
        super().reset(seed=seed)
        # A given seed is the episode seed: with the same secret, reset(seed=s) plays
        # `harness run --seed s --secret S`.
        episode_seed = int(seed) if seed is not None else int(
            self.np_random.integers(SEED_RANGE))
        self.seed_used = episode_seed
        self.game = self._make_game(episode_seed)
        self.steps = 0
        self.decisions = 0
        self.invalid_in_a_row = 0
        self.ending: Ending | None = None
        self.report_now = self._report()
        self.figures = Figures.of(self.report_now)

    def episode_key(self, seed: int) -> int:
        """The key an episode of this seed is drawn from (harness/keys.py)."""
        return keys.episode_key(self.secret, self.level.content_hash, self.difficulty, seed)

    def _make_game(self, seed: int) -> WorldSession:
        game = world_game(self.level, self.difficulty, self.episode_key(seed))
        assert isinstance(game, WorldSession)  # the real world: its report feeds the reward
        return game

    def _report(self) -> MissionReport:
        return self.game.report()  # type: ignore[union-attr]

    def _judge(self) -> tuple[float, bool, bool, dict[str, Any]]:
        """After a step: (reward, terminated, truncated, info about the ending)."""
        self.steps += 1
        before = self.figures
        self.report_now = self._report()
        self.figures = Figures.of(self.report_now)
        ending = self._ending()
        self.ending = ending
        reward = self.reward_spec(before, self.figures, ending is not None, self.steps)
        info: dict[str, Any] = {"tick": self.game.tick, "score": self.figures.score,
                                "progress": self.figures.progress}
        if ending is None:
            return reward, False, False, info
        kind = OUTCOMES[ending.outcome].kind
        info.update(outcome=ending.outcome, reason=ending.reason,
                    success=ending.outcome == "completed")
        return reward, kind != "truncated", kind == "truncated", info

    def _ending(self) -> Ending | None:
        # The report of this step says whether the mission ended; the status (which
        # reports again) is asked only then, for its words.
        if self.report_now.outcome is not None:
            return endings.mission_ending(self.game.status())  # type: ignore[union-attr]
        if self.invalid_in_a_row >= self.settings.max_invalid_in_a_row:
            return Ending("protocol_error", f"{self.invalid_in_a_row} refused actions in a row")
        return endings.budget_ending(self.decisions, self.level.budgets.max_decisions,
                                     self.game.tick, self.max_ticks)  # type: ignore[union-attr]

    def _check_running(self) -> None:
        if self.game is None:
            raise RuntimeError("step() before reset(): call reset() first")
        if self.ending is not None:
            raise RuntimeError(f"step() after the episode ended ({self.ending.outcome}): "
                               "call reset()")

    def state_hash(self) -> str:
        """The world's state hash (the one records keep per turn)."""
        if self.game is None:
            raise RuntimeError("state_hash() before reset()")
        return self.game.state_hash()

    def render(self) -> str | None:
        """The text view (render_mode "ansi"), as the JSON-lines agent reads it."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        return self._text_view()

    def _text_view(self) -> str:
        return text_view(self)


def box(shape: tuple[int, ...], low: float = -1.0, high: float = 1.0) -> gym.spaces.Box:
    """A float32 box; observations are clipped into it."""
    return gym.spaces.Box(low=low, high=high, shape=shape, dtype=np.float32)
