"""Environment steps per second of the Gymnasium environments beside ViZDoom's, if installed.

Prints the load average, then one JSON object per measurement, the cases interleaved
round by round (`--repeats` rounds), then the median of each case and the ratios:

- Macro-v0 with random valid actions (from the action mask), with its processor time
  per step;
- Raw-v0 at frame skip 1 and 4 with random controls, the observation returned every step;
- Raw-v0 at frame skip 4 under Gymnasium's AsyncVectorEnv with two workers (steps of
  both copies counted), and its wall rate over the single process's;
- Raw-v0 at frame skip 4 as `gym.make_vec` makes it by default, the package's batched
  vector environment: 16 copies in two slices of 8, one stepped by this process and one
  by a worker process (all copies' steps counted), and its wall rate over the single
  process's;
- with `vizdoom` installed: ViZDoom's defend_the_center at 160x120 and frame skip 1 and 4,
  the screen buffer read every step, as an RL loop uses it.

Processor time is that of this process and of its child processes (the workers of
AsyncVectorEnv, ViZDoom's engine, which runs as a process of its own), read from /proc
where it exists. The ratio Raw/ViZDoom is taken at frame skip 4 in processor time (and in
wall time, which the machine's load moves).

Usage: python benchmarks/rl_speed.py [--level ID] [--seconds S] [--repeats N] [--no-vector]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

import harness.rl  # noqa: E402,F401 registers the environments


def children_cpu() -> float:
    """Processor seconds used so far by this process's live child processes (0 off Linux)."""
    total, tick = 0.0, os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    try:
        threads = os.listdir("/proc/self/task")
    except OSError:
        return 0.0
    for thread in threads:
        try:
            with open(f"/proc/self/task/{thread}/children") as f:
                pids = f.read().split()
        except OSError:
            continue
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            total += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return total


def _pick(info: dict, rng: np.random.Generator, space: gym.Space) -> object:
    # A mask always allows some choice, a downed player's too (its `wait` choices).
    mask = info.get("action_mask")
    if mask is None:
        return space.sample()
    if mask.ndim == 2:  # vector copies: one mask per copy
        return np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    return int(rng.choice(np.flatnonzero(mask)))


def measure(make: Callable[[], object], seconds: float, copies: int = 1,
            min_steps: int = 0) -> dict:
    """Steps per wall and per processor second over `seconds` of random play (resets in).

    `min_steps` plays on until at least that many steps (all copies') were made, whatever
    the time: a check that a case runs through its resets, on a machine of any speed.
    """
    env = make()
    env.action_space.seed(0)
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    steps, t0, c0, k0 = 0, time.perf_counter(), time.process_time(), children_cpu()
    while time.perf_counter() - t0 < seconds or steps < min_steps:
        _obs, _r, terminated, truncated, info = env.step(_pick(info, rng, env.action_space))
        steps += copies
        if copies == 1 and (terminated or truncated):
            _obs, info = env.reset()
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0 + children_cpu() - k0
    env.close()
    return {"steps": steps, "wall_s": round(wall, 3), "steps_per_s": round(steps / wall, 1),
            "cpu_s": round(cpu, 3), "steps_per_cpu_s": round(steps / max(cpu, 1e-9), 1),
            "cpu_us_per_step": round(cpu / max(steps, 1) * 1e6, 1)}


def _vizdoom(frame_skip: int) -> Callable[[], object]:
    import vizdoom as vzd

    class Doom:
        """defend_the_center at 160x120, the screen buffer read every step."""

        def __init__(self) -> None:
            self.game = vzd.DoomGame()
            self.game.load_config(os.path.join(vzd.scenarios_path, "defend_the_center.cfg"))
            self.game.set_window_visible(False)
            self.game.set_screen_resolution(vzd.ScreenResolution.RES_160X120)
            self.game.init()
            self.n = self.game.get_available_buttons_size()
            self.action_space = gym.spaces.MultiBinary(self.n)

        def _screen(self) -> np.ndarray | None:
            state = self.game.get_state()
            return None if state is None else state.screen_buffer

        def reset(self, seed=None):
            if seed is not None:
                self.game.set_seed(seed)
            self.game.new_episode()
            return self._screen(), {}

        def step(self, action):
            reward = self.game.make_action([int(a) for a in action], frame_skip)
            done = self.game.is_episode_finished()
            return self._screen(), reward, done, False, {}

        def close(self) -> None:
            self.game.close()

    return Doom


# The batched vector environment (harness.rl.batched): 16 copies in 2 slices of 8, one
# stepped by this process and one by a worker process.
BATCHED = "Raw-v0 fs4 batched 16 copies, 2 slices"


def cases(level: str, vector: bool) -> list[tuple[str, Callable[[], object], int]]:
    """(name, maker, copies) of every case to measure."""
    def env(name: str, **kwargs) -> Callable[[], object]:
        return lambda: gym.make(f"MissionHarness/{name}", level=level, **kwargs)

    out = [("Macro-v0", env("Macro-v0"), 1),
           ("Raw-v0 fs1", env("Raw-v0", frame_skip=1), 1),
           ("Raw-v0 fs4", env("Raw-v0", frame_skip=4), 1)]
    if vector:
        out.append(("Raw-v0 fs4 async2", lambda: gym.make_vec(
            "MissionHarness/Raw-v0", num_envs=2, vectorization_mode="async", level=level,
            frame_skip=4), 2))
        out.append((BATCHED, lambda: gym.make_vec(
            "MissionHarness/Raw-v0", num_envs=16, workers=2, level=level, frame_skip=4), 16))
    if importlib.util.find_spec("vizdoom") is not None:
        out += [(f"vizdoom defend_the_center 160x120 fs{fs}", _vizdoom(fs), 1) for fs in (1, 4)]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="exit_switch",
                        help="a single-storey shipped level (default exit_switch)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement (5)")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of every case (3)")
    parser.add_argument("--no-vector", action="store_true", help="skip the vector cases")
    args = parser.parse_args()
    print(json.dumps({"load_average": os.getloadavg(), "cpus": os.cpu_count()}), flush=True)
    todo = cases(args.level, not args.no_vector)
    rows: dict[str, list[dict]] = {name: [] for name, _, _ in todo}
    for rnd in range(args.repeats):
        for name, make, copies in todo:
            row = {"case": name, "round": rnd, "level": args.level,
                   **measure(make, args.seconds, copies)}
            rows[name].append(row)
            print(json.dumps(row), flush=True)
    median = {name: {key: statistics.median(r[key] for r in rs)
                     for key in ("steps_per_s", "steps_per_cpu_s", "cpu_us_per_step")}
              for name, rs in rows.items()}
    for name, m in median.items():
        print(json.dumps({"median": name, **m}))
    summary: dict[str, object] = {"load_average_end": os.getloadavg()}
    for case, label in (("Raw-v0 fs4 async2", "async2"), (BATCHED, "batched16")):
        if case in median:
            summary[f"{label}_over_single_wall"] = round(
                median[case]["steps_per_s"] / median["Raw-v0 fs4"]["steps_per_s"], 3)
    doom = "vizdoom defend_the_center 160x120 fs4"
    if doom in median:
        for key, label in (("steps_per_cpu_s", "cpu"), ("steps_per_s", "wall")):
            summary[f"raw_fs4_over_vizdoom_fs4_{label}"] = round(
                median["Raw-v0 fs4"][key] / median[doom][key], 3)
    else:
        summary["vizdoom"] = "not installed (pip install -e '.[bench]' to compare)"
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
