"""`MissionHarness/Raw-v0`: the raw-control track, `frame_skip` ticks of controller input a step.

The observation is the player's own state, the objectives' status and a ray scan over
the view cone (`harness.rl.rayscan`); the action is one value per control
(`harness.rl.raw_controls.CONTROLS`), held for `frame_skip` ticks or until the mission
ends. Only the game-time budget truncates (there are no decisions to count).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from harness.rl.env_base import MissionEnv, box
from harness.rl.raw_controls import CONTROLS, NVEC, Input, intent
from harness.rl.rayscan import CHANNELS, RayScanner, ScanSpec
from world.errors import WorldError
from world.sim.clock import TICKS_PER_SECOND

MAX_OBJECTIVES = 8
OBJECTIVE_FEATURES = ("todo", "done", "failed", "counts")
PLAYER_FEATURES = ("cos_facing", "sin_facing", "health", "armour", "alive", "ammo_in_hand",
                   "ready_to_fire", "progress", "game_time_used")
AMMO_SCALE = 200.0


class RawEnv(MissionEnv):
    """Per-tick controller input over a ray scan; see docs/rl.md."""

    def __init__(self, level: str = "exit_switch", difficulty: str | None = None,
                 reward: Any = "score", render_mode: str | None = None, frame_skip: int = 4,
                 rays: int = 32, fov_deg: float = 90.0, max_range: float = 4000.0) -> None:
        super().__init__(level, difficulty, reward, render_mode)
        if not (isinstance(frame_skip, int) and 1 <= frame_skip <= TICKS_PER_SECOND * 10):
            raise ValueError(f"frame_skip: {frame_skip!r} is not a whole number of ticks in "
                             f"1..{TICKS_PER_SECOND * 10}")
        self.frame_skip = frame_skip
        self.scan_spec = ScanSpec(rays, fov_deg, max_range)
        self.action_space = gym.spaces.MultiDiscrete(NVEC)
        self.observation_space = gym.spaces.Dict({
            "player": box((len(PLAYER_FEATURES),)),
            "objectives": box((MAX_OBJECTIVES, len(OBJECTIVE_FEATURES)), 0.0, 1.0),
            "objectives_mask": gym.spaces.MultiBinary(MAX_OBJECTIVES),
            "rays": box((rays, len(CHANNELS)), 0.0, 1.0),
        })

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start an episode; `seed` is the episode seed of `harness run --seed`."""
        self._new_episode(seed)
        self.scanner = RayScanner(self.game.world, self.scan_spec)
        return self._observe(), {"tick": 0, "seed": self.seed_used}

    def step(self, action: Any):
        """Hold the controls for `frame_skip` ticks; (obs, reward, terminated, truncated, info)."""
        self._check_running()
        control = Input.of(action)
        world = self.game.world
        refused = None
        for _ in range(self.frame_skip):
            if world.ended is not None or world.tick >= self.max_ticks:
                break
            wanted = intent(world, control)
            try:
                world.step(wanted)
            except WorldError as exc:
                # A refused intent changed nothing; the tick runs without it.
                refused = str(exc)
                world.step(None)
        reward, terminated, truncated, info = self._judge()
        if refused is not None:
            info["refused"] = refused
        return self._observe(), reward, terminated, truncated, info

    def _observe(self) -> dict[str, np.ndarray]:
        world = self.game.world
        p = world.player
        weapon_ready = bool(p.in_hand) and world.combat.readiness(p) == ""
        ammo = p.magazine.get(p.weapon, 0) + p.ammo.get(p.weapon, 0) if p.weapon else 0
        player = np.array([
            np.cos(p.facing), np.sin(p.facing), max(0.0, p.health), p.armour, float(p.alive),
            min(1.0, ammo / AMMO_SCALE), float(weapon_ready), self.figures.progress,
            min(1.0, world.tick / self.max_ticks)], dtype=np.float32)
        objectives = np.zeros((MAX_OBJECTIVES, len(OBJECTIVE_FEATURES)), dtype=np.float32)
        present = np.zeros(MAX_OBJECTIVES, dtype=np.int8)
        for i, o in enumerate(self.report_now.objectives[:MAX_OBJECTIVES]):
            objectives[i] = [o.status == "todo", o.status == "done", o.status == "failed",
                             o.counts]
            present[i] = 1
        rays, _ids = self.scanner.scan()
        return {"player": np.clip(player, -1.0, 1.0), "objectives": objectives,
                "objectives_mask": present, "rays": rays}


__all__ = ["CONTROLS", "RawEnv"]
