"""The RL rewards' stated semantics: potential-based, bounded, and no cheap exploits (39)."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from harness.rl.reward import REWARDS, Figures, RewardSpec, reward_spec
from tests.shared import ROOT

KEY_STORE = str(ROOT / "examples" / "levels" / "key_store.json")
A = Figures(score=0.2, progress=0.3, done=0, counted=2)
B = Figures(score=0.3, progress=0.8, done=1, counted=2)


def _discounted(rewards: list[float], gamma: float) -> float:
    return sum(r * gamma**t for t, r in enumerate(rewards))


@pytest.mark.parametrize("name", list(REWARDS))
def test_going_back_and_forth_never_pays_under_discount(name: str) -> None:
    gamma = 0.99
    spec = RewardSpec(name, gamma=gamma)
    moments = [A, B] * 10 + [A]
    rewards = [spec(a, b, False, i + 1) for i, (a, b) in enumerate(pairwise(moments))]
    # Back where it started: the discounted return is (gamma**20 - 1) * phi(A) <= 0.
    assert _discounted(rewards, gamma) <= 1e-12
    phi = REWARDS[name].potential
    assert _discounted(rewards, gamma) == pytest.approx((gamma**20 - 1) * phi(A), abs=1e-12)
    # What the plain difference (gamma 1) pays a learner that discounts: the exploit.
    plain = RewardSpec(name)
    paid = [plain(a, b, False, 1) for a, b in pairwise(moments)]
    assert name == "sparse" or _discounted(paid, gamma) > 0


@pytest.mark.parametrize("name", list(REWARDS))
def test_waiting_never_pays(name: str) -> None:
    for gamma in (1.0, 0.99):
        assert RewardSpec(name, gamma=gamma)(B, B, False, 3) <= 0.0


def test_waiting_out_hold_centre_earns_no_shaped_reward() -> None:
    from harness.rl.macro_actions import choices
    from harness.rl.macro_env import MacroEnv

    env = MacroEnv(level="hold_centre", reward="shaped")
    env.reset(seed=0)
    wait = max(i for i, c in enumerate(choices()) if c.action == "wait")
    total, done = 0.0, False
    while not done:
        _obs, reward, terminated, truncated, info = env.step(wait)
        total += reward
        done = terminated or truncated
    # The score stayed 0 and so does the return; the dense terms paid on the way
    # (an objective counted done while waiting) are taken back at the end.
    assert info["score"] == 0.0
    assert total == pytest.approx(0.0, abs=1e-12)


def test_discounted_return_is_the_discounted_final_score() -> None:
    from harness.rl.macro_env import MacroEnv

    gamma = 0.9
    env = MacroEnv(level=KEY_STORE, reward={"name": "shaped", "gamma": gamma})
    _obs, info = env.reset(seed=3)
    phi0 = REWARDS["shaped"].potential(env.figures)
    low, high = env.reward_spec.bounds()
    rng = np.random.default_rng(0)
    rewards, done = [], False
    while not done:
        _obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert low <= reward <= high
        rewards.append(reward)
        done = terminated or truncated
    assert _discounted(rewards, gamma) == pytest.approx(
        gamma ** (len(rewards) - 1) * info["score"] - phi0, abs=1e-9)


def test_ending_by_refused_actions_is_charged_the_whole_step_budget() -> None:
    from harness.rl.macro_env import MacroEnv

    env = MacroEnv(level="exit_switch", reward={"name": "score", "step_penalty": 0.01})
    _obs, info = env.reset(seed=0)
    banned = int(np.flatnonzero(info["action_mask"] == 0)[0])
    total, steps, done = 0.0, 0, False
    while not done:
        _obs, reward, terminated, truncated, info = env.step(banned)
        total += reward
        steps += 1
        done = terminated or truncated
    assert info["outcome"] == "protocol_error" and steps == 5
    budget = env.level.budgets.max_decisions
    # As much penalty as playing out the whole decision budget: no cheaper way out.
    assert total == pytest.approx(info["score"] - 0.01 * budget, abs=1e-9)


def test_forfeit_respects_penalty_after() -> None:
    spec = RewardSpec("sparse", step_penalty=0.5, penalty_after=10)
    # Step 4 of a 20-step budget ends it: steps 11..20 would have been penalised.
    assert spec(A, A, True, 4, forfeit=16) == pytest.approx(A.score - 0.5 * 10)
    assert spec(A, A, True, 12, forfeit=8) == pytest.approx(A.score - 0.5 * 9)


def test_bad_gamma_is_refused() -> None:
    with pytest.raises(ValueError, match=r"gamma \(0\) must be in \(0, 1\]"):
        reward_spec({"name": "score", "gamma": 0})
    with pytest.raises(ValueError, match="allowed: name, gamma, step_penalty"):
        reward_spec({"discount": 0.9})
