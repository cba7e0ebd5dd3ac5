"""`MissionHarness/Raw-v0`: the raw-control track, `frame_skip` ticks of controller input a step.

The observation is the player's own state, the objectives' status and a ray scan over
the view cone (`harness.rl.rayscan`); the action is one value per control
(`harness.rl.raw_controls.CONTROLS`), held for `frame_skip` ticks or until the mission
ends. Only the game-time budget truncates. The world is `harness.rl.raw_game.RawGame`,
the game of `harness run --track raw`.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from harness.rl.env_base import MissionEnv, box
from harness.rl.raw_controls import NVEC, Input
from harness.rl.raw_game import MAX_OBJECTIVES, OBJECTIVE_FEATURES, PLAYER_FEATURES, RawGame
from harness.rl.rayscan import CHANNELS, ScanSpec
from harness.tracks import DEFAULT_FRAME_SKIP, check_frame_skip


class RawEnv(MissionEnv):
    """Per-tick controller input over a ray scan; see docs/rl.md."""

    def __init__(self, level: str = "exit_switch", difficulty: str | None = None,
                 reward: Any = "score", render_mode: str | None = None,
                 frame_skip: int = DEFAULT_FRAME_SKIP, rays: int = 32, fov_deg: float = 90.0,
                 max_range: float = 4000.0) -> None:
        super().__init__(level, difficulty, reward, render_mode)
        self.frame_skip = check_frame_skip(frame_skip)
        self.scan_spec = ScanSpec(rays, fov_deg, max_range)
        self.action_space = gym.spaces.MultiDiscrete(NVEC)
        self.observation_space = gym.spaces.Dict({
            "player": box((len(PLAYER_FEATURES),)),
            "objectives": box((MAX_OBJECTIVES, len(OBJECTIVE_FEATURES)), 0.0, 1.0),
            "objectives_mask": gym.spaces.MultiBinary(MAX_OBJECTIVES),
            "rays": box((rays, len(CHANNELS)), 0.0, 1.0),
        })

    def _make_game(self, seed: int) -> RawGame:
        return RawGame(self.level, self.difficulty, seed, self.frame_skip, self.scan_spec)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start an episode; `seed` is the episode seed of `harness run --seed`."""
        self._new_episode(seed)
        return self._observe(), {"tick": 0, "seed": self.seed_used}

    def step(self, action: Any):
        """Hold the controls for `frame_skip` ticks; (obs, reward, terminated, truncated, info)."""
        self._check_running()
        _ticks, _walked, refused = self.game.hold(Input.of(action))
        reward, terminated, truncated, info = self._judge()
        if refused is not None:
            info["refused"] = refused
        return self._observe(), reward, terminated, truncated, info

    def _observe(self) -> dict[str, np.ndarray]:
        return self.game.raw_observation(self.report_now)
