"""What both Gymnasium environments share: level and seed handling, reward, endings.

An environment plays the same `Game` as `harness run` (`harness.core.game.world_game`) in
the same process; an episode ends by the same rules (`harness.episode.outcome`): the mission's
end is `terminated`, a decision or game-time budget is `truncated`, and too many
refused actions in a row end it as `protocol_error` (terminated). Doom missions are
refused at construction: their world is not the one these environments drive.
"""

from __future__ import annotations

import numbers
import os
from functools import lru_cache
from typing import Any, TypeVar

import gymnasium as gym
import numpy as np

from harness.core import keys
from harness.core.game import world_game
from harness.core.protocol import COMPLETED, OUTCOMES, PROTOCOL_ERROR, TRUNCATED_KIND
from harness.episode import outcome as endings
from harness.episode.outcome import Ending
from harness.episode.runner import UsageError, pick_difficulty, resolve_level
from harness.episode.settings import RunSettings
from harness.rl.render import check_render_mode, close_window, render_modes, show, top_down
from harness.rl.reward import Figures, RewardChoice, reward_spec
from harness.rl.views import text_view
from world.face import (
    TICKS_PER_SECOND,
    Level,
    MissionReport,
    Turn,
    WorldSession,
    enable_compiled_kernels,
    is_doom,
    seconds_to_ticks,
)

# Seeds drawn when reset() is given none stay in the range `harness run --seed` takes.
SEED_RANGE = 2**31
# Levels kept loaded per process, least recently used dropped first: a generated
# level (a maze of 30 rooms is about 1.4 MiB with its navmesh) is made again when
# asked after it was dropped, identically, since generation is seeded.
LEVEL_CACHE_SIZE = 8
# The keys `reset(options=...)` honours.
RESET_OPTIONS = ("level", "difficulty", "seed")
DOOM_REFUSAL = ("Doom missions are not available in the Gymnasium environments yet; play "
                "them with `harness run {ref}`")

# A step's observation: named arrays, as the Dict observation space lays them out.
Observation = dict[str, np.ndarray]
# The observation as Gymnasium is told it: its stubs type a Dict space's samples as dicts
# of spaces (`spaces.Dict` is a `Space[dict[str, Space]]`), so no narrower type fits.
GymObservation = dict[str, Any]
# A step's info: Gymnasium's own type (its values are of every kind: numbers, arrays,
# words, read-only message data).
Info = dict[str, Any]
# What `step` returns: (observation, reward, terminated, truncated, info).
StepResult = tuple[Observation, float, bool, bool, Info]
# An environment's action: a choice's index (Macro), one value per control (Raw); numpy
# integers as its spaces sample them, or plain ones.
ActT = TypeVar("ActT")


@lru_cache(maxsize=LEVEL_CACHE_SIZE)
def load_level(ref: str) -> Level:
    """A level by id, path or generated name, checked as `harness run` checks it.

    The last `LEVEL_CACHE_SIZE` levels asked for stay loaded.

    Raises:
        ValueError: No such level, one that does not pass the checks (their messages),
            or a Doom mission.
    """
    if is_doom(ref):
        raise ValueError(f"level: {DOOM_REFUSAL.format(ref=ref)}")
    try:
        level = resolve_level(ref)[0]
    except UsageError as exc:
        raise ValueError(f"level: {exc}") from None
    if not isinstance(level, Level):  # a Doom mission file given by its path
        raise ValueError(f"level: {DOOM_REFUSAL.format(ref=ref)}")
    return level


class MissionEnv(gym.Env[GymObservation, ActT]):
    """The common part of the Macro and Raw environments (not registered itself)."""

    # The class lists every mode, so `gym.make(render_mode="human")` reaches the
    # constructor (which refuses it clearly without a display) instead of Gymnasium's
    # pygame wrapper; an instance lists the modes served here (Gymnasium's checker
    # tries each). Gymnasium declares `metadata` a plain attribute an instance may
    # replace, so it is not a ClassVar here.
    metadata = {"render_modes": ["ansi", "rgb_array", "human"],  # noqa: RUF012
                "render_fps": TICKS_PER_SECOND}

    def __init__(self, level: str = "exit_switch", difficulty: str | None = None,
                 reward: RewardChoice = "score", render_mode: str | None = None,
                 secret: bytes | None = None) -> None:
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.metadata = {**type(self).metadata, "render_modes": render_modes()}
        self._viewer: Any = None
        self._set_level(level, difficulty)
        self.reward_spec = reward_spec(reward)
        self.settings = RunSettings()
        self.game: WorldSession | None = None
        self.seed_used: int | None = None
        # The episode key is drawn from the seed and this environment's secret, as
        # `harness run` draws it from the run's: a copy of the world made from the seed
        # does not play the same episode. The policy shares the process, so the secret
        # is no wall against it: give one (`secret=`) to reproduce episodes across
        # environments, or a `harness run --secret` episode.
        self.secret = keys.new_secret() if secret is None else bytes(secret)
        # Many steps repay loading the compiled ray scan and sight tests (numba, extra
        # `rl`); the results are the numpy passes' to the bit (world/sim/kernels.py).
        enable_compiled_kernels()

    def _set_level(self, level: Any, difficulty: str | None) -> None:
        if isinstance(level, os.PathLike):
            level = os.fspath(level)
        if not isinstance(level, str):
            raise ValueError(f"level: expected a level id, path or generated name, got "
                             f"{type(level).__name__}")
        loaded = load_level(level)
        try:
            chosen = pick_difficulty(loaded, difficulty)
        except UsageError as exc:
            raise ValueError(f"difficulty: {exc}") from None
        self.level, self.difficulty, self._level_ref = loaded, chosen, level
        self.max_ticks = seconds_to_ticks(loaded.budgets.max_game_seconds)

    def _options(self, seed: int | None, options: dict[str, Any] | None) -> int | None:
        """Apply reset options (level, difficulty, seed); the seed to play."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(RESET_OPTIONS))
        if unknown:
            raise ValueError(f"reset options: unknown key(s) {unknown}; allowed: "
                             f"{', '.join(RESET_OPTIONS)}")
        if "seed" in options:
            if seed is not None and seed != options["seed"]:
                raise ValueError(f"reset: seed={seed} and options['seed']={options['seed']} "
                                 "differ; give one")
            seed = options["seed"]
            if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or seed < 0:
                raise ValueError(f"reset options: seed must be an integer 0 or more, got "
                                 f"{seed!r}")
            seed = int(seed)
        if "level" in options or "difficulty" in options:
            # Later resets keep the new level; a new level without a difficulty plays its
            # middle one, a difficulty alone applies to the level being played.
            level = options.get("level", self._level_ref)
            kept = None if "level" in options else self.difficulty
            self._set_level(level, options.get("difficulty", kept))
        return seed

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, Info]:
        """Start an episode; `seed` is the episode seed of `harness run --seed`.

        `options` may name a new `level`, `difficulty` or the `seed` (docs/rl.md).
        """
        self._new_episode(seed, options)
        return self._first_observation()

    def step(self, action: ActT) -> StepResult:
        """Play one step: (observation, reward, terminated, truncated, info)."""
        raise NotImplementedError  # each environment plays its own kind of action

    def _first_observation(self) -> tuple[Observation, Info]:
        # The observation and info of an episode's start (each environment its own).
        raise NotImplementedError

    def _budget_steps(self) -> int:
        """Steps the budgets allow an episode at most (the decision budget by default)."""
        return self.level.budgets.max_decisions

    # ---- episode life -------------------------------------------------------------------
    def _new_episode(self, seed: int | None, options: dict[str, Any] | None = None) -> None:
        seed = self._options(seed, options)
        super().reset(seed=seed)
        # A given seed is the episode seed: with the same secret, reset(seed=s) plays
        # `harness run --seed s --secret S`.
        episode_seed = int(seed) if seed is not None else int(
            self.np_random.integers(SEED_RANGE))
        self.seed_used = episode_seed
        self._next_level()
        self.game = self._make_game(episode_seed)
        self.steps = 0
        self.decisions = 0
        self.invalid_in_a_row = 0
        self.ending: Ending | None = None
        self.report_now = self._report()
        self.figures = Figures.of(self.report_now)

    def episode_key(self, seed: int) -> int:
        """The key an episode of this seed is drawn from (harness/core/keys.py)."""
        return keys.episode_key(self.secret, self.level.content_hash, self.difficulty, seed)

    def _next_level(self) -> None:
        """Choose the level of the episode about to start (the one set, by default)."""

    def _make_game(self, seed: int) -> WorldSession:
        game = world_game(self.level, self.difficulty, self.episode_key(seed))
        assert isinstance(game, WorldSession)  # the real world: its report feeds the reward
        return game

    def _report(self) -> MissionReport:
        # During the episode the player's figures: distance counts only toward places
        # it has located (issue 34), so neither reward nor observation is a hot/cold
        # signal for the unseen.
        return self.live.perceived_report()

    def _judge(self, turn: Turn | None = None) -> tuple[float, bool, bool, Info]:
        """After a step: (reward, terminated, truncated, info about the ending).

        Args:
            turn: The world's turn of the step, when it was played through `step` (its
                report is the player's figures); None: they are asked of the game now.
        """
        self.steps += 1
        before = self.figures
        self.report_now = self._report() if turn is None or turn.report is None \
            else turn.report
        self.figures = Figures.of(self.report_now)
        ending = self._ending()
        self.ending = ending
        if ending is not None:
            # The last step pays up to the judge's figures: the summed `score` reward
            # is the episode's final score, the figure `harness run` reports.
            self.figures = Figures.of(self.live.report())
        # An episode ended by refused actions forfeits the rest of its step budget: the
        # step penalty is charged for it, so that way out never costs less than playing.
        forfeit = (max(0, self._budget_steps() - self.steps)
                   if ending is not None and ending.outcome == PROTOCOL_ERROR else 0)
        reward = self.reward_spec(before, self.figures, ending is not None, self.steps,
                                  forfeit)
        info: Info = {"tick": self.live.tick, "score": self.figures.score,
                      "progress": self.figures.progress}
        if ending is None:
            return reward, False, False, info
        kind = OUTCOMES[ending.outcome].kind
        info.update(outcome=ending.outcome, reason=ending.reason,
                    success=ending.outcome == COMPLETED)
        return reward, kind != TRUNCATED_KIND, kind == TRUNCATED_KIND, info

    def _ending(self) -> Ending | None:
        # The report of this step says whether the mission ended; the status (which
        # reports again) is asked only then, for its words.
        if self.report_now.outcome is not None:
            return endings.mission_ending(self.live.turn.status)
        if self.invalid_in_a_row >= self.settings.max_invalid_in_a_row:
            return Ending(PROTOCOL_ERROR, f"{self.invalid_in_a_row} refused actions in a row")
        return endings.budget_ending(self.decisions, self.level.budgets.max_decisions,
                                     self.live.tick, self.max_ticks)

    @property
    def live(self) -> WorldSession:
        """The episode's session.

        Raises:
            RuntimeError: before reset().
        """
        if self.game is None:
            raise RuntimeError("no episode yet: call reset() first")
        return self.game

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

    def render(self) -> str | np.ndarray | None:
        """The frame of the render mode; None without one or before reset().

        "ansi": the text view the JSON-lines agent reads; "rgb_array": a top-down image
        of what the player knows (`harness.rl.render`); "human": that image in a window.
        """
        if self.render_mode is None or self.game is None:
            return None
        if self.render_mode == "ansi":
            return self._text_view()
        frame = top_down(self.game, getattr(self, "scan_spec", None))
        if self.render_mode == "human":
            self._viewer = show(frame, self._viewer)
            return None
        return frame

    def close(self) -> None:
        """Close the window of render mode "human", if one is open."""
        if self._viewer is not None:
            close_window(self._viewer)
            self._viewer = None

    def _text_view(self) -> str:
        return text_view(self)


def box(shape: tuple[int, ...], low: float = -1.0, high: float = 1.0) -> gym.spaces.Box:
    """A float32 box; observations are clipped into it."""
    return gym.spaces.Box(low=low, high=high, shape=shape, dtype=np.float32)
