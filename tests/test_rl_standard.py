"""Standard Gymnasium behaviour of the environments: render modes, reset options, the level
cache, Doom refused, masks never all zero, the registry table and the speed script (39)."""

from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import harness.rl  # noqa: E402,F401 registers the environments
from harness.rl import ENVS  # noqa: E402
from harness.rl.env_base import LEVEL_CACHE_SIZE, load_level  # noqa: E402
from tests.shared import ROOT  # noqa: E402

IDS = [e.env_id for e in ENVS if not e.template]  # the ids that take a level
KEY_STORE = str(ROOT / "examples" / "levels" / "key_store.json")


@pytest.mark.parametrize("env_id", IDS)
def test_rgb_array_frames_pass_gymnasiums_checks(env_id: str) -> None:
    # What SB3's make_vec_env asks for when not told a render mode.
    env = gym.make(env_id, level=KEY_STORE, render_mode="rgb_array")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=False)
    assert [str(w.message) for w in caught] == []
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert (frame == 255).all(axis=2).any()  # the player
    env.close()


def test_frames_show_only_known_areas() -> None:
    env = gym.make("MissionHarness/Macro-v0", level="exit_switch", render_mode="rgb_array")
    env.reset(seed=0)
    game = env.unwrapped.game
    before = env.render()
    # Knowing one more area draws more floor: what is unknown is not drawn.
    unknown = next(a.id for a in game.level.areas
                   if a.id not in game.known.areas and a.storey == game.world.player.storey)
    game.known.areas.add(unknown)
    after = env.render()
    game.known.areas.discard(unknown)
    assert (after.any(axis=2)).sum() > (before.any(axis=2)).sum()


def test_render_collection_gathers_a_frame_per_step() -> None:
    from gymnasium.wrappers import RenderCollection

    env = RenderCollection(gym.make("MissionHarness/Raw-v0", level=KEY_STORE,
                                    render_mode="rgb_array"))
    env.reset(seed=0)
    for _ in range(3):
        env.step(np.array([2, 1, 4, 0, 0, 0]))
    frames = env.render()
    assert len(frames) == 4 and not np.array_equal(frames[0], frames[-1])


@pytest.mark.skipif(importlib.util.find_spec("moviepy") is None, reason="needs moviepy")
def test_record_video_writes_a_file(tmp_path) -> None:
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gym.make("MissionHarness/Macro-v0", level=KEY_STORE,
                               render_mode="rgb_array"), str(tmp_path))
    _obs, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.close()
    assert list(tmp_path.glob("*.mp4"))


def test_no_render_mode_by_default_and_human_needs_a_display(monkeypatch) -> None:
    env = gym.make("MissionHarness/Macro-v0", level=KEY_STORE)
    env.reset(seed=0)
    assert env.unwrapped.render_mode is None and env.render() is None
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    with pytest.raises(ValueError, match="'human' needs a display"):
        gym.make("MissionHarness/Raw-v0", level=KEY_STORE, render_mode="human")


@pytest.mark.skipif(importlib.util.find_spec("stable_baselines3") is None,
                    reason="needs stable-baselines3")
def test_sb3_make_vec_env_takes_the_ids_unchanged() -> None:
    from stable_baselines3.common.env_util import make_vec_env

    for env_id in IDS:
        envs = make_vec_env(env_id, n_envs=1, env_kwargs={"level": KEY_STORE})
        envs.reset()
        envs.close()


def test_reset_options_pick_level_difficulty_and_seed() -> None:
    env = gym.make("MissionHarness/Macro-v0", level=ROOT / "levels" / "exit_switch.json")
    _obs, info = env.reset(options={"level": KEY_STORE, "seed": 3})
    base = env.unwrapped
    assert info["seed"] == 3 and base.level.id != "exit_switch"
    hardest = base.level.difficulties[-1].id
    env.reset(options={"difficulty": hardest})
    assert (base.difficulty, base.level.id) == (hardest, load_level(KEY_STORE).id)
    with pytest.raises(ValueError, match=r"unknown key\(s\) \['map'\]; allowed: level"):
        env.reset(options={"map": "x"})
    with pytest.raises(ValueError, match="differ; give one"):
        env.reset(seed=1, options={"seed": 2})
    with pytest.raises(ValueError, match="has no difficulty 'brutal'"):
        env.reset(options={"difficulty": "brutal"})


def test_level_cache_is_bounded() -> None:
    info = load_level.cache_info()
    assert info.maxsize == LEVEL_CACHE_SIZE and info.currsize <= LEVEL_CACHE_SIZE


@pytest.mark.parametrize("env_id", IDS)
def test_doom_missions_are_refused_when_made(env_id: str) -> None:
    with pytest.raises(ValueError, match="Doom missions are not available in the Gymnasium"):
        gym.make(env_id, level="doom:e1m1")


def test_mask_of_a_downed_player_is_never_all_zero() -> None:
    from harness.rl.macro_actions import choices, mask

    rows: dict[str, list] = {"way": [], "object": [], "door": [], "character": [],
                             "carried": []}
    allowed = mask(rows, {"player": {"alive": False}})
    assert any(allowed)
    assert {c.action for c, ok in zip(choices(), allowed, strict=True) if ok} == {"wait"}


def test_a_dead_vector_copy_still_offers_a_choice() -> None:
    from harness.rl.macro_actions import choices

    wait = max(i for i, c in enumerate(choices()) if c.action == "wait")
    # Waiting in acid_tanks kills the player within a few steps.
    envs = gym.make_vec("MissionHarness/Macro-v0", num_envs=2, vectorization_mode="sync",
                        level="acid_tanks")
    _obs, info = envs.reset(seed=0)
    died = False
    for _ in range(4):
        _obs, _r, terminated, _t, info = envs.step(np.array([wait, wait]))
        assert info["action_mask"].any(axis=1).all()
        died |= bool(terminated.any())
    envs.close()
    assert died


def test_registry_table_lists_every_registered_id() -> None:
    from harness.docgen.protocol import RL_MD
    from harness.rl.tables import rl_tables

    registered = sorted(i for i in gym.registry if i.startswith("MissionHarness/"))
    every = sorted(e.env_id for e in ENVS)
    assert registered == every
    text = RL_MD.read_text(encoding="utf-8")
    assert rl_tables()["rl_env_ids"] in text
    assert all(f"| `{env_id}` |" in text for env_id in every)


def test_speed_script_runs_its_vector_case() -> None:
    spec = importlib.util.spec_from_file_location("rl_speed", ROOT / "benchmarks" / "rl_speed.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def make():
        return gym.make_vec("MissionHarness/Macro-v0", num_envs=2, vectorization_mode="sync",
                            level=KEY_STORE)

    # key_store's episodes are 12 decisions at most: in 30 steps of each copy both end and
    # reset (autoreset) at least twice, where a dead copy's mask once was all zeros.
    row = module.measure(make, 0.0, copies=2, min_steps=60)
    assert row["steps"] >= 60
    assert row["steps_per_cpu_s"] > 0 and row["cpu_us_per_step"] > 0
