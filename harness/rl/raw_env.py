"""`MissionHarness/Raw-v0`: the raw-control track, `frame_skip` ticks of controller input a step.

The observation is the player's own state, the objectives' status and a ray scan over
the view cone (`world.face.ScanSpec`); the action is one value per control
(`world.face.RAW_CONTROLS`), held for `frame_skip` ticks or until the mission ends.
Only the game-time budget truncates. The world is the world's raw session
(`world.face.new_raw_session`), the game of `harness run --track raw`, stepped through
the world's one turn contract (`Session.step`) as every driver steps it; the session is
lean, so a step builds no view, status or hash the environment does not ask for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import SupportsInt

import gymnasium as gym

from harness.rl.env_base import Info, MissionEnv, Observation, StepResult, box
from harness.rl.reward import RewardChoice
from world.face import (
    DEFAULT_FRAME_SKIP,
    RAW_ACTION,
    RAW_CONTROLS,
    RAW_MAX_OBJECTIVES,
    RAW_NVEC,
    RAW_OBJECTIVE_FEATURES,
    RAW_PLAYER_FEATURES,
    RAY_CHANNELS,
    MissionReport,
    RawGame,
    RawInput,
    ScanSpec,
    check_frame_skip,
    new_raw_session,
)


class RawEnv(MissionEnv[Iterable[SupportsInt]]):
    """Per-tick controller input over a ray scan; see docs/rl.md."""

    def __init__(self, level: str = "exit_switch", difficulty: str | None = None,
                 reward: RewardChoice = "score", render_mode: str | None = None,
                 frame_skip: int = DEFAULT_FRAME_SKIP, rays: int = 32, fov_deg: float = 90.0,
                 max_range: float = 4000.0, secret: bytes | None = None) -> None:
        super().__init__(level, difficulty, reward, render_mode, secret)
        self.frame_skip = check_frame_skip(frame_skip)
        self.scan_spec = ScanSpec(rays, fov_deg, max_range)
        self.action_space = gym.spaces.MultiDiscrete(list(RAW_NVEC))
        self.observation_space = gym.spaces.Dict({
            "player": box((len(RAW_PLAYER_FEATURES),)),
            "objectives": box((RAW_MAX_OBJECTIVES, len(RAW_OBJECTIVE_FEATURES)), 0.0, 1.0),
            "objectives_mask": gym.spaces.MultiBinary(RAW_MAX_OBJECTIVES),
            "rays": box((rays, len(RAY_CHANNELS)), 0.0, 1.0),
        })

    def _make_game(self, seed: int) -> RawGame:
        return new_raw_session(self.level, self.difficulty, self.episode_key(seed),
                               self.frame_skip, self.scan_spec, lean=True)

    def _first_observation(self) -> tuple[Observation, Info]:
        return self._observe(), {"tick": 0, "seed": self.seed_used}

    def step(self, action: Iterable[SupportsInt]) -> StepResult:
        """Hold the controls for `frame_skip` ticks; (obs, reward, terminated, truncated, info)."""
        self._check_running()
        values = [int(v) for v in action]
        if len(values) != len(RAW_CONTROLS):
            RawInput.of(values)  # refuses it, naming what is allowed
        # (A value out of range is refused by the session, named, before any tick runs.)
        arguments = dict(zip(RAW_CONTROLS, values, strict=True))
        turn = self._raw.step({"action": RAW_ACTION, "arguments": arguments})
        reward, terminated, truncated, info = self._judge(turn)
        if self._raw.refused is not None:
            info["refused"] = self._raw.refused
        return self._observe(), reward, terminated, truncated, info

    @property
    def _raw(self) -> RawGame:
        game = self.live
        if not isinstance(game, RawGame):  # (`_make_game` makes only raw sessions here)
            raise TypeError(f"a raw environment holds a {type(game).__name__}")
        return game

    def _budget_steps(self) -> int:
        return -(-self.max_ticks // self.frame_skip)

    def _report(self) -> MissionReport:
        # The player's figures of the latest turn (`perceived_report`, built once a turn).
        report = self._raw.turn.report
        assert report is not None  # a world session's turns carry one
        return report

    def _observe(self) -> Observation:
        raw = self._raw.turn.raw
        assert raw is not None  # a raw session's turns carry their arrays
        return dict(raw)
