"""The Gymnasium environments: API conformance, vector copies, determinism, same game as run."""

from __future__ import annotations

import json
import shlex
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import harness.rl  # noqa: E402,F401 registers the environments
from harness.episode.runner import run  # noqa: E402
from harness.episode.settings import RunSettings  # noqa: E402
from harness.rl.macro_env import MacroEnv  # noqa: E402
from harness.rl.raw_env import RawEnv  # noqa: E402
from tests.shared import ROOT, TEST_AGENTS  # noqa: E402

AGENT = TEST_AGENTS / "scripted_agent.py"
IDS = ("MissionHarness/Macro-v0", "MissionHarness/Raw-v0")


@pytest.mark.parametrize("env_id", IDS)
def test_check_env_passes_without_warnings(env_id: str) -> None:
    env = gym.make(env_id, level="exit_switch", render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=False)
    assert [str(w.message) for w in caught] == []
    env.close()


@pytest.mark.parametrize("vector", ["sync", "async"])
@pytest.mark.parametrize("env_id", IDS)
def test_vector_copies_run(env_id: str, vector: str) -> None:
    envs = gym.make_vec(env_id, num_envs=2, vectorization_mode=vector,
                        vector_kwargs={"context": "fork"} if vector == "async" else None,
                        level="exit_switch")
    try:
        envs.reset(seed=5)
        envs.action_space.seed(0)
        total = np.zeros(2)
        ended = 0
        # Long enough for random choices (mostly refused on Macro) to end an episode, so
        # the copies reset themselves at least once.
        for _ in range(12):
            obs, reward, terminated, truncated, _info = envs.step(envs.action_space.sample())
            total += reward
            ended += int((terminated | truncated).sum())
        assert envs.single_observation_space.contains({k: v[0] for k, v in obs.items()})
        assert reward.shape == (2,) and np.isfinite(total).all()
        if env_id.endswith("Macro-v0"):
            assert ended >= 1
    finally:
        envs.close()


def _macro_play(seed: int, steps: int) -> list[tuple]:
    env = MacroEnv(level="exit_switch")
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(7)
    out = []
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        out.append((action, {k: v.tobytes() for k, v in obs.items()}, reward,
                    env.state_hash(), terminated, truncated))
        if terminated or truncated:
            break
    return out


def _raw_play(seed: int, steps: int) -> list[tuple]:
    env = RawEnv(level="exit_switch", frame_skip=4)
    env.reset(seed=seed)
    env.action_space.seed(3)
    out = []
    for _ in range(steps):
        action = env.action_space.sample()
        obs, reward, terminated, truncated, _info = env.step(action)
        out.append((action.tolist(), {k: v.tobytes() for k, v in obs.items()}, reward,
                    env.state_hash(), terminated, truncated))
        if terminated or truncated:
            break
    return out


def test_same_seed_and_actions_give_identical_macro_episodes() -> None:
    first, second = _macro_play(11, 25), _macro_play(11, 25)
    assert first == second
    assert len({h for *_, h, _t, _u in first}) > 1  # the world moved


def test_same_seed_and_actions_give_identical_raw_episodes() -> None:
    first, second = _raw_play(11, 40), _raw_play(11, 40)
    assert first == second
    assert len({h for *_, h, _t, _u in first}) > 1


def test_summed_reward_is_the_final_score() -> None:
    env = MacroEnv(level="exit_switch", difficulty="easy")
    _obs, info = env.reset(seed=2)
    rng = np.random.default_rng(1)
    total, done = 0.0, False
    while not done:
        _obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        done = terminated or truncated
    assert total == pytest.approx(info["score"], abs=1e-9)
    assert info["outcome"] in ("completed", "failed", "truncated", "protocol_error")


@pytest.mark.slow
def test_macro_env_and_harness_run_end_alike(tmp_path: Path) -> None:
    env = MacroEnv(level="exit_switch", difficulty="easy")
    _obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    played, done = [], False
    while not done:
        _obs, _reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"]))))
        played.append(dict(info["action"]))
        done = terminated or truncated
    command = f"{shlex.quote(sys.executable)} {AGENT} {shlex.quote(json.dumps(played))}"
    summary = run("exit_switch", command, difficulty="easy", seed=4, out_dir=tmp_path,
                  settings=RunSettings(hello_timeout_s=20, decision_timeout_s=20))
    assert (summary["outcome"], summary["decisions"]) == (info["outcome"], len(played))
    assert summary["score"] == pytest.approx(info["score"], abs=1e-6)
    assert summary["game_ticks"] == info["tick"]


def test_masked_out_choice_is_refused_like_an_invalid_action() -> None:
    env = MacroEnv(level="exit_switch")
    _obs, info = env.reset(seed=0)
    banned = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, _truncated, info = env.step(banned)
    assert info["error"]["code"] in ("unknown_id", "refused_request")
    assert info["tick"] == 0 and reward == 0.0 and not terminated


def test_observation_slots_line_up_with_action_slots() -> None:
    from harness.rl.macro_actions import choices

    env = MacroEnv(level="exit_switch")
    obs, info = env.reset(seed=0)
    go_to_object = [i for i, c in enumerate(choices())
                    if c.action == "go_to_object" and c.slots[0][0] == "object"]
    allowed = info["action_mask"][go_to_object].astype(bool)
    assert allowed.tolist() == obs["objects_mask"].astype(bool).tolist()
    assert allowed.any()


def test_bad_arguments_name_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="no level 'nowhere'"):
        MacroEnv(level="nowhere")
    with pytest.raises(ValueError, match="has no difficulty 'brutal'"):
        RawEnv(level="exit_switch", difficulty="brutal")
    with pytest.raises(ValueError, match="frame_skip"):
        RawEnv(level="exit_switch", frame_skip=0)
    with pytest.raises(ValueError, match="reward: unknown name 'dense'; allowed: score"):
        MacroEnv(level="exit_switch", reward="dense")
    env = RawEnv(level="exit_switch")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"control 'turn' is 9; allowed 0\.\.4"):
        env.step([1, 1, 9, 0, 0, 0])


def test_entry_point_declared_in_pyproject_registers_both() -> None:
    import importlib
    import tomllib

    root = ROOT
    declared = tomllib.loads((root / "pyproject.toml").read_text())["project"]["entry-points"]
    module, _, name = declared["gymnasium.envs"]["__root__"].partition(":")
    for env_id in IDS:
        gym.registry.pop(env_id, None)
    getattr(importlib.import_module(module), name)()
    assert all(env_id in gym.registry for env_id in IDS)
    assert "rl" in tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]


def test_rl_doc_tables_list_every_declared_choice_and_control() -> None:
    from harness.docgen.protocol import RL_MD
    from harness.rl.macro_actions import LEFT_OUT, action_blocks
    from world.face import RAW_CONTROLS, catalog

    text = RL_MD.read_text(encoding="utf-8")
    blocks = action_blocks()
    assert [name for *_, name, _slots in blocks] == [
        name for name in catalog().action_names if name not in LEFT_OUT]
    assert all(f"`{name}` (protocol version 2) is left out" in text for name in LEFT_OUT)
    assert f"| {blocks[-1][0]}–{blocks[-1][1]} | `wait` |" in text
    assert all(f"`{name}`" in text for name in RAW_CONTROLS)
