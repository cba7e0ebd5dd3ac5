"""Environment steps per second of the Gymnasium environments (and ViZDoom's, if installed).

Prints the load average, then one JSON object per case (steps per wall second and per
processor second of the measuring process): Macro with random valid actions
(from the action mask); Raw at frame skip 1 and 4 with random controls; each in one
process and under Gymnasium's AsyncVectorEnv with two workers (steps of all copies
counted). When `vizdoom` is installed, ViZDoom's defend_the_center at frame skip 1 and 4
is measured the same way and the last row gives Raw's rate over ViZDoom's at frame skip 4.

Usage: python benchmarks/rl_speed.py [--level ID] [--seconds S] [--no-vector]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

import harness.rl  # noqa: E402,F401 registers the environments


def _pick(info: dict, rng: np.random.Generator, space: gym.Space) -> object:
    # A mask always allows some choice, a downed player's too (its `wait` choices).
    mask = info.get("action_mask")
    if mask is None:
        return space.sample()
    if mask.ndim == 2:  # vector copies: one mask per copy
        return np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    return int(rng.choice(np.flatnonzero(mask)))


def measure(make, seconds: float, copies: int = 1) -> dict:
    """Steps per wall second over `seconds` of random play (resets included).

    Also steps per processor second of this process (the only one in a single-process
    case; under AsyncVectorEnv the workers' time is not in it).
    """
    env = make()
    env.action_space.seed(0)
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    steps, t0, c0 = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        _obs, _r, terminated, truncated, info = env.step(_pick(info, rng, env.action_space))
        steps += copies
        if copies == 1 and (terminated or truncated):
            _obs, info = env.reset()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    env.close()
    return {"steps": steps, "wall_s": round(wall, 3), "steps_per_s": round(steps / wall, 1),
            "cpu_s": round(cpu, 3), "steps_per_cpu_s": round(steps / max(cpu, 1e-9), 1)}


def _vizdoom(frame_skip: int):
    import vizdoom as vzd

    class Doom:
        def __init__(self) -> None:
            self.game = vzd.DoomGame()
            self.game.load_config(os.path.join(vzd.scenarios_path, "defend_the_center.cfg"))
            self.game.set_window_visible(False)
            self.game.init()
            self.n = self.game.get_available_buttons_size()
            self.action_space = gym.spaces.MultiBinary(self.n)

        def reset(self, seed=None):
            if seed is not None:
                self.game.set_seed(seed)
            self.game.new_episode()
            return None, {}

        def step(self, action):
            reward = self.game.make_action([int(a) for a in action], frame_skip)
            done = self.game.is_episode_finished()
            return None, reward, done, False, {}

        def close(self) -> None:
            self.game.close()

    return Doom


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="exit_switch",
                        help="a single-storey shipped level (default exit_switch)")
    parser.add_argument("--seconds", type=float, default=10.0, help="per case (default 10)")
    parser.add_argument("--no-vector", action="store_true", help="skip AsyncVectorEnv cases")
    args = parser.parse_args()
    print(json.dumps({"load_average": os.getloadavg(), "cpus": os.cpu_count()}))
    cases = [("Macro-v0", {}), ("Raw-v0", {"frame_skip": 1}), ("Raw-v0", {"frame_skip": 4})]
    rates = {}
    for name, kwargs in cases:
        env_id = f"MissionHarness/{name}"
        modes = [("single", 1)] + ([] if args.no_vector else [("async2", 2)])
        for mode, copies in modes:
            if copies == 1:
                def make(env_id=env_id, kwargs=kwargs):
                    return gym.make(env_id, level=args.level, **kwargs)
            else:
                def make(env_id=env_id, kwargs=kwargs):
                    return gym.make_vec(env_id, num_envs=2, vectorization_mode="async",
                                        level=args.level, **kwargs)
            row = {"env": name, **kwargs, "mode": mode, "level": args.level,
                   **measure(make, args.seconds, copies)}
            rates[(name, kwargs.get("frame_skip"), mode)] = row["steps_per_s"]
            print(json.dumps(row), flush=True)
    if importlib.util.find_spec("vizdoom") is None:
        print(json.dumps({"vizdoom": "not installed (pip install -e '.[bench]' to compare)"}))
        return 0
    for frame_skip in (1, 4):
        row = {"env": "vizdoom/defend_the_center", "frame_skip": frame_skip, "mode": "single",
               **measure(_vizdoom(frame_skip), args.seconds)}
        rates[("vizdoom", frame_skip, "single")] = row["steps_per_s"]
        print(json.dumps(row), flush=True)
    print(json.dumps({"raw_fs4_over_vizdoom_fs4": round(
        rates[("Raw-v0", 4, "single")] / rates[("vizdoom", 4, "single")], 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
