"""Train MaskablePPO (sb3-contrib) on MissionHarness/Macro-v0 and plot its learning curve.

The level is examples/levels/key_store.json: the key lies in the hall, the computer to
use in the store behind the locked door, 12 decisions at most. The random agent (valid
actions, uniformly) rarely finishes it (docs/rl.md, "Baselines", measures it over three
seeds with benchmarks/rl_baselines.py). Training takes a few
thousand steps; every `--eval-every` steps the greedy policy plays `--eval-episodes`
episodes and the mean score and success rate are written to `--out`/curve.json and
drawn in `--out`/learning_curve.png.

Needs the extra `examples` (gymnasium, stable-baselines3, sb3-contrib, matplotlib):
    pip install -e '.[examples]'
    python3 examples/train_macro_ppo.py --steps 6000 --out examples/out
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import harness.rl  # noqa: E402,F401 registers the environments

LEVEL = str(ROOT / "examples" / "levels" / "key_store.json")
# The learner's discount; the shaped reward is given the same one, so its shaping is
# potential-based for this learner (docs/rl.md, "Reward semantics").
GAMMA = 0.97


def make_env(seed: int) -> gym.Env:
    """The Macro environment on the example level (the shaped reward speeds learning)."""
    env = gym.make("MissionHarness/Macro-v0", level=LEVEL,
                   reward={"name": "shaped", "gamma": GAMMA})
    env.reset(seed=seed)
    return env


def evaluate(policy, episodes: int, seed: int) -> dict[str, float]:
    """Mean final score and success rate of a policy (None: random valid actions)."""
    env = gym.make("MissionHarness/Macro-v0", level=LEVEL)
    rng = np.random.default_rng(seed)
    scores, wins = [], 0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed + episode)
        done = False
        while not done:
            mask = info["action_mask"].astype(bool)
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action, _ = policy.predict(obs, action_masks=mask, deterministic=True)
            obs, _reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        scores.append(info["score"])
        wins += bool(info["success"])
    env.close()
    return {"score": float(np.mean(scores)), "success": wins / episodes}


def main() -> int:
    """Train, evaluating as it goes; write the curve and its plot."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6000, help="training steps (default 6000)")
    parser.add_argument("--eval-every", type=int, default=1000, help="steps between evaluations")
    parser.add_argument("--eval-episodes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="examples/out", help="folder for curve.json and the plot")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    env = ActionMasker(make_env(args.seed), lambda e: e.unwrapped.action_masks())
    model = MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=64, n_epochs=8,
                        learning_rate=1e-3, gamma=GAMMA, ent_coef=0.01, seed=args.seed,
                        verbose=0)
    random_agent = evaluate(None, args.eval_episodes, 1000)
    curve = [{"steps": 0, **evaluate(model, args.eval_episodes, 1000)}]
    print(json.dumps({"random_agent": random_agent}), flush=True)
    print(json.dumps(curve[-1]), flush=True)
    while curve[-1]["steps"] < args.steps:
        model.learn(total_timesteps=args.eval_every, reset_num_timesteps=False)
        curve.append({"steps": int(model.num_timesteps),
                      **evaluate(model, args.eval_episodes, 1000)})
        print(json.dumps(curve[-1]), flush=True)
    (out / "curve.json").write_text(json.dumps({"random_agent": random_agent, "curve": curve},
                                               indent=1) + "\n")
    plot(curve, random_agent, out / "learning_curve.png")
    return 0


def plot(curve: list[dict], random_agent: dict, path: Path) -> None:
    """The learning curve: mean score and success rate against training steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [c["steps"] for c in curve]
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    ax.plot(steps, [c["score"] for c in curve], marker="o", label="MaskablePPO: mean score")
    ax.plot(steps, [c["success"] for c in curve], marker="s", label="MaskablePPO: success rate")
    ax.axhline(random_agent["score"], color="grey", linestyle="--",
               label=f"random valid actions: mean score {random_agent['score']:.2f}")
    ax.set_xlabel("training steps (macro actions)")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title("Macro-v0 on examples/levels/key_store.json")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    sys.exit(main())
