"""PPO baselines on Macro-v0 with their masked random floor, measured by one script (39).

For every task (a fixed example level, a shipped level, and a template's procedural env
trained on its `train` split and evaluated on `train` and `test`), MaskablePPO
(sb3-contrib) is trained once per seed; the greedy policy is evaluated every
`--eval-every` steps on `--eval-episodes` episodes and, at the end, greedy and with its
actions sampled, on `--final-episodes` episodes of each evaluation split. The masked
random floor (uniform over the action mask) plays the same final episodes, once per seed.
Each model is saved under `--out` (TASK/seed_N/model.zip with its curve.json);
`--out`/results.json holds every figure.

`--docs` then rewrites docs/rl.md's baseline table (between `<!-- baselines:rl_ppo -->`
and `<!-- end baselines -->`) with means over seeds and 95% t-intervals, and redraws
docs/rl_learning_curve.png from the same runs; `--from-results` only rewrites them from
`--out`/results.json, `--resample` first adds sampled figures to runs saved without them.

Needs the extra `examples` (stable-baselines3, sb3-contrib, matplotlib):
    python3 benchmarks/rl_baselines.py --steps 6144 --seeds 0 1 2 --out rl_out --docs
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import harness.rl  # noqa: E402,F401 registers the environments

GAMMA = 0.97  # the learner's discount; the shaped reward is given the same one
EVAL_SEED = 10_000  # evaluation episodes' reset seeds start here (training resets draw)
SECRET = b"rl-baselines-v1"  # every environment's, so a run plays the same episodes again
# Student's t 0.975 quantiles by degrees of freedom (seeds - 1), for the intervals.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
        9: 2.262, 10: 2.228}
RL_MD = ROOT / "docs" / "rl.md"
FIGURE = ROOT / "docs" / "rl_learning_curve.png"
RESULTS = ROOT / "docs" / "rl_baselines.json"  # the figures the docs were written from
_BLOCK = re.compile(r"(<!-- baselines:rl_ppo -->\n)(.*?)(<!-- end baselines -->)", re.S)


@dataclass(frozen=True)
class Task:
    """One baseline: an env id and its arguments, and the splits it is evaluated on."""

    name: str
    env_id: str
    kwargs: dict[str, Any]
    evals: dict[str, dict[str, Any]] = field(default_factory=lambda: {"level": {}})


MAZE = {"params": {"rooms": 5, "keys": 1}}
TASKS: dict[str, Task] = {t.name: t for t in (
    Task("key_store", "MissionHarness/Macro-v0",
         {"level": str(ROOT / "examples" / "levels" / "key_store.json")}),
    Task("exit_switch", "MissionHarness/Macro-v0", {"level": "exit_switch"}),
    Task("maze", "MissionHarness/Macro-Maze-v0", {**MAZE, "split": "train"},
         {"train": {"split": "train"}, "test": {"split": "test"}}),
)}


def make(task: Task, split: dict[str, Any], reward: Any = "score") -> gym.Env:
    """The task's environment, with a split's arguments over the training ones.

    Every environment gets the same published secret (`SECRET`): an environment given
    none draws a fresh one, so the same seeds would play other episodes in every run
    and the table would not reproduce. A secret keeps an agent from simulating the
    world; a learner trained here never sees it.
    """
    return gym.make(task.env_id, **{**task.kwargs, **split}, reward=reward, secret=SECRET)


def play(env: gym.Env, policy: Any, episodes: int, rng: np.random.Generator,
         greedy: bool = True) -> dict:
    """Final scores and wins of `episodes` episodes (policy None: masked random).

    `greedy` False samples the policy's actions instead of taking the likeliest.
    """
    scores, wins = [], []
    for episode in range(episodes):
        obs, info = env.reset(seed=EVAL_SEED + episode)
        done = False
        while not done:
            mask = info["action_mask"].astype(bool)
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(policy.predict(obs, action_masks=mask, deterministic=greedy)[0])
            obs, _r, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        scores.append(float(info["score"]))
        wins.append(bool(info.get("success")))
    return {"score": float(np.mean(scores)), "success": float(np.mean(wins)),
            "episodes": episodes}


def train_one(task: Task, seed: int, args: argparse.Namespace, out: Path) -> dict:
    """Train one seed; its curve, final figures per split, and the saved model's path."""
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    torch.set_num_threads(1)  # one core: the figures' processor time is one learner's
    env = make(task, {}, {"name": "shaped", "gamma": GAMMA})
    env.reset(seed=seed)
    env = ActionMasker(env, lambda e: e.unwrapped.action_masks())
    model = MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=64, n_epochs=8,
                        learning_rate=1e-3, gamma=GAMMA, ent_coef=0.01, seed=seed, verbose=0)
    first = next(iter(task.evals))
    probe = make(task, task.evals[first])
    rng = np.random.default_rng(seed)
    started = time.process_time()
    curve = [{"steps": 0, **play(probe, model, args.eval_episodes, rng)}]
    while curve[-1]["steps"] < args.steps:
        model.learn(total_timesteps=args.eval_every, reset_num_timesteps=False)
        curve.append({"steps": int(model.num_timesteps),
                      **play(probe, model, args.eval_episodes, rng)})
    final = {name: play(make(task, split), model, args.final_episodes, rng)
             for name, split in task.evals.items()}
    sampled = sampled_figures(task, model, seed, args.final_episodes)
    floor = {name: play(make(task, split), None, args.final_episodes, rng)
             for name, split in task.evals.items()}
    folder = out / task.name / f"seed_{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    model.save(folder / "model.zip")
    run = {"task": task.name, "seed": seed, "curve": curve, "final": final, "sampled": sampled,
           "random": floor,
           "cpu_seconds": round(time.process_time() - started, 1)}
    (folder / "curve.json").write_text(json.dumps(run, indent=1) + "\n")
    return run


def sampled_figures(task: Task, model: Any, seed: int, episodes: int) -> dict:
    """The policy's figures per split with its actions sampled (seeded, so repeatable)."""
    from stable_baselines3.common.utils import set_random_seed

    set_random_seed(seed)
    rng = np.random.default_rng(seed)
    return {name: play(make(task, split), model, episodes, rng, greedy=False)
            for name, split in task.evals.items()}


def resample(out: Path, episodes: int) -> dict:
    """Add the sampled policy's figures to `out`/results.json from the saved models."""
    from sb3_contrib import MaskablePPO

    results = json.loads((out / "results.json").read_text())
    for run in results["runs"]:
        if "sampled" not in run:
            model = MaskablePPO.load(out / run["task"] / f"seed_{run['seed']}" / "model.zip")
            run["sampled"] = sampled_figures(TASKS[run["task"]], model, run["seed"], episodes)
            print(json.dumps({k: run[k] for k in ("task", "seed", "sampled")}), flush=True)
    (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    return results


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% t-interval over seeds (0 for one seed)."""
    n = len(values)
    if n < 2:
        return float(values[0]), 0.0
    t = T975[min(n - 1, max(T975))]  # past 10 seeds, df 10's quantile (slightly wide)
    half = t * float(np.std(values, ddof=1)) / np.sqrt(n)
    return float(np.mean(values)), float(half)


def table(runs: list[dict], args: dict) -> str:
    """docs/rl.md's baseline table: one row per task and evaluation split."""
    lines = [f"Budget: {args['steps']} training steps per seed, seeds "
             f"{', '.join(map(str, args['seeds']))}; {args['final_episodes']} final "
             f"episodes per split (reset seeds {EVAL_SEED}+); ± is the 95% t-interval "
             f"over seeds; the training runs with their evaluations took "
             f"{args['cpu_minutes']:.1f} processor minutes (one process).", "",
             "| task | env id | evaluated on | PPO greedy score | PPO greedy success | "
             "PPO sampled score | PPO sampled success | random score | random success |",
             "|---|---|---|---|---|---|---|---|---|"]
    for task in TASKS.values():
        mine = [r for r in runs if r["task"] == task.name]
        if not mine:
            continue
        for split in task.evals:
            cells = []
            for who in ("final", "sampled", "random"):
                for figure in ("score", "success"):
                    mean, half = interval([r[who][split][figure] for r in mine])
                    cells.append(f"{mean:.2f} ± {half:.2f}")
            lines.append(f"| `{task.name}` | `{task.env_id}` | {split} | " + " | ".join(cells)
                         + " |")
    return "\n".join(lines) + "\n"


def plot(runs: list[dict], path: Path) -> None:
    """Mean greedy score over seeds against training steps, the seeds' range shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.8), dpi=100)
    for task in TASKS.values():
        mine = [r for r in runs if r["task"] == task.name]
        if not mine:
            continue
        steps = [c["steps"] for c in mine[0]["curve"]]
        scores = np.array([[c["score"] for c in r["curve"]] for r in mine])
        first = next(iter(task.evals))
        where = "" if first == "level" else f", {first} split"
        line = ax.plot(steps, scores.mean(axis=0), marker="o",
                       label=f"{task.name} ({len(mine)} seeds{where})")[0]
        ax.fill_between(steps, scores.min(axis=0), scores.max(axis=0), alpha=0.15,
                        color=line.get_color())
        floor = np.mean([r["random"][first]["score"] for r in mine])
        ax.axhline(floor, color=line.get_color(), linestyle=":", linewidth=1)
    ax.set_xlabel("training steps (macro actions)")
    ax.set_ylabel("greedy policy's mean final score")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title("MaskablePPO on Macro-v0 (dotted: masked random floor)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


def write_docs(results: dict) -> None:
    """Rewrite docs/rl.md's baseline block, the figure and docs/rl_baselines.json.

    The JSON keeps the figures the table was written from: a test checks one against the
    other.
    """
    text = RL_MD.read_text(encoding="utf-8")
    if not _BLOCK.search(text):
        raise SystemExit(f"{RL_MD}: no <!-- baselines:rl_ppo --> block to rewrite")
    body = table(results["runs"], results["args"])
    RL_MD.write_text(_BLOCK.sub(lambda m: m.group(1) + body + m.group(3), text),
                     encoding="utf-8")
    plot(results["runs"], FIGURE)
    RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


def main() -> int:
    """Train every task and seed asked for, write results.json, and the docs if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=list(TASKS), choices=list(TASKS))
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    parser.add_argument("--steps", type=int, default=6144, help="training steps per seed")
    parser.add_argument("--eval-every", type=int, default=1024)
    parser.add_argument("--eval-episodes", type=int, default=10, help="per curve point")
    parser.add_argument("--final-episodes", type=int, default=20, help="per split, at the end")
    parser.add_argument("--out", default="rl_baselines_out", help="models and results")
    parser.add_argument("--docs", action="store_true", help="rewrite docs/rl.md and figure")
    parser.add_argument("--from-results", action="store_true",
                        help="only redraw the docs from --out/results.json")
    parser.add_argument("--resample", action="store_true",
                        help="add the sampled policy's figures from the saved models first")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.from_results or args.resample:
        write_docs(resample(out, args.final_episodes) if args.resample
                   else json.loads((out / "results.json").read_text()))
        return 0
    started = time.process_time()
    settings = {k: getattr(args, k) for k in ("seeds", "steps", "eval_every", "eval_episodes",
                                             "final_episodes")}
    results: dict[str, Any] = {"args": settings, "runs": []}
    for name in args.tasks:
        for seed in args.seeds:
            run = train_one(TASKS[name], seed, args, out)
            results["runs"].append(run)
            print(json.dumps({k: run[k] for k in ("task", "seed", "final", "random",
                                                  "cpu_seconds")}), flush=True)
            # Written after every run, so an interrupted sweep keeps what it measured.
            settings["cpu_minutes"] = (time.process_time() - started) / 60
            (out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    if args.docs:
        write_docs(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
