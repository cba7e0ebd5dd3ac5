"""Procedural environments: a new template level at every reset from a published seed split,
a secret held-out split, a curriculum over difficulty, a bounded level cache (39)."""

from __future__ import annotations

import gc
import importlib.util
import tracemalloc
import warnings
import weakref

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import harness.rl  # noqa: E402,F401 registers the environments
from harness.core import keys  # noqa: E402
from harness.core.level_refs import member_seed, resolve  # noqa: E402
from harness.rl import ENVS  # noqa: E402
from harness.rl.env_base import LEVEL_CACHE_SIZE  # noqa: E402
from harness.rl.macro_actions import choices  # noqa: E402
from harness.rl.proc_spec import SPLITS, Curriculum, LevelDraw  # noqa: E402
from harness.rl.procedural import generated_level  # noqa: E402
from world.face import MISSION_TEMPLATES, TEMPLATES, Level  # noqa: E402

PROC = [e for e in ENVS if e.template]
SECRET = bytes(range(32))
SMALL = {"rooms": 4}  # a maze quick to generate and to play


def test_every_mission_template_has_a_macro_and_a_raw_id() -> None:
    assert sorted({e.template for e in PROC}) == sorted(MISSION_TEMPLATES)
    assert len(PROC) == 2 * len(MISSION_TEMPLATES)
    # A match arena has no mission for one agent: it is played by `harness match`.
    assert set(TEMPLATES) - set(MISSION_TEMPLATES) == {"arena"}
    assert "MissionHarness/Macro-Maze-v0" in gym.registry
    assert gym.spec("MissionHarness/Raw-Courier-v0").kwargs == {"template": "courier"}


# Season 2's code templates bring levels, not environment code: one of their ids is
# checked in the quick run, the rest (large levels, slow to check) in the slow one.
SEASON_2_SLOW = {"vault", "relay", "expedition"}


@pytest.mark.parametrize("env_id", [
    pytest.param(e.env_id, marks=pytest.mark.slow) if e.template in SEASON_2_SLOW
    else e.env_id for e in PROC])
def test_check_env_passes(env_id: str) -> None:
    env = gym.make(env_id, render_mode="rgb_array")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=False)
    assert [str(w.message) for w in caught] == []
    env.close()


def _seed_of(name: str) -> int:
    return int(name.split("@")[1].split("?")[0])


def test_each_reset_draws_a_level_of_the_split_and_a_seed_repeats_it() -> None:
    env = gym.make("MissionHarness/Macro-Maze-v0", params=SMALL, secret=SECRET)
    names = [env.reset()[1]["level"] for _ in range(6)]
    assert len(set(names)) == 6
    assert all(n.endswith("?rooms=4") and 0 <= _seed_of(n) < 100_000 for n in names)
    _obs, first = env.reset(seed=11)
    hash_first = env.unwrapped.state_hash()
    env.reset(seed=12)
    _obs, again = env.reset(seed=11)
    assert again["level"] == first["level"] and env.unwrapped.state_hash() == hash_first


def test_test_split_is_disjoint_from_train() -> None:
    train, test = SPLITS["train"], SPLITS["test"]
    assert train.first + train.size <= test.first
    env = gym.make("MissionHarness/Raw-Maze-v0", split="test", params=SMALL)
    for _ in range(4):
        seed = _seed_of(env.reset()[1]["level"])
        assert test.first <= seed < test.first + test.size


def test_the_level_is_the_one_harness_run_plays_with_the_same_secret() -> None:
    env = gym.make("MissionHarness/Macro-Crossing-v0", secret=SECRET)
    _obs, info = env.reset(seed=5)
    played, base = resolve(info["level"], SECRET).level, env.unwrapped
    # The id comes from the secret, as `harness run --secret` gives it: it names no seed.
    assert base.level.id == played.id and base.level.content_hash == played.content_hash
    assert played.id != resolve(info["level"]).level.id
    assert base.episode_key(5) == keys.episode_key(SECRET, played.content_hash,
                                                   info["difficulty"], 5)


def test_heldout_split_plays_the_secret_set_and_needs_its_secret() -> None:
    with pytest.raises(ValueError, match="split 'heldout' draws its levels from a secret"):
        gym.make("MissionHarness/Macro-Maze-v0", split="heldout")
    env = gym.make("MissionHarness/Macro-Maze-v0", split="heldout", levels=10,
                   secret=SECRET.hex(), params=SMALL)
    _obs, info = env.reset(seed=0)
    assert info["level"].startswith("maze@secret:10?rooms=4#")
    assert env.unwrapped.level.id == resolve(info["level"], SECRET).level.id
    public_end = SPLITS["test"].first + SPLITS["test"].size
    seeds = [member_seed(f"maze@secret:10?rooms=4#{i}", SECRET) for i in range(10)]
    assert all(s is not None and s >= public_end for s in seeds)


def test_bad_arguments_and_options_are_refused_clearly() -> None:
    make = gym.make
    with pytest.raises(ValueError, match="level: a procedural environment draws"):
        make("MissionHarness/Macro-Maze-v0", level="exit_switch")
    with pytest.raises(ValueError, match="split: 'dev' is not one of train, test, heldout"):
        make("MissionHarness/Macro-Maze-v0", split="dev")
    with pytest.raises(ValueError, match=r"params: .*rooms"):
        make("MissionHarness/Macro-Maze-v0", params={"rooms": 99})
    with pytest.raises(ValueError, match="levels: the test split takes 1 to 1000"):
        make("MissionHarness/Macro-Maze-v0", split="test", levels=5000)
    with pytest.raises(ValueError, match="set difficulty='curriculum' to use it"):
        make("MissionHarness/Macro-Maze-v0", curriculum={"window": 3})
    with pytest.raises(ValueError, match=r"curriculum: unknown key\(s\) \['speed'\]"):
        make("MissionHarness/Macro-Maze-v0", difficulty="curriculum",
             curriculum={"speed": 3})
    env = make("MissionHarness/Macro-Maze-v0", params=SMALL)
    with pytest.raises(ValueError, match="'level' is not allowed here"):
        env.reset(options={"level": "exit_switch"})
    with pytest.raises(ValueError, match=r"has no difficulty 'brutal' \(easy, normal, hard\) "
                                         "or 'curriculum'"):
        env.reset(options={"difficulty": "brutal"})
    with pytest.raises(ValueError, match="or 'curriculum'"):
        make("MissionHarness/Raw-Maze-v0", difficulty="brutal")
    _obs, info = env.reset(options={"difficulty": "hard"})
    assert info["difficulty"] == "hard" and env.reset()[1]["difficulty"] == "hard"


def test_curriculum_advances_on_the_success_rate_and_never_back() -> None:
    c = Curriculum.of({"window": 4, "threshold": 0.75})
    for success in (True, False, True, False):
        c.record(success, 3)
    assert c.stage == 0  # 2 of 4
    c.record(True, 3)
    assert c.stage == 0  # the window slides: 2 of 4 again
    c.record(True, 3)
    assert c.stage == 1 and c.rate() == 0.0  # 3 of 4: the next difficulty, a new window
    for _ in range(20):
        c.record(True, 3)
    assert c.stage == 2  # the hardest stays
    for _ in range(8):
        c.record(False, 3)
    assert c.stage == 2


def test_curriculum_sets_the_difficulty_of_each_reset() -> None:
    env = gym.make("MissionHarness/Macro-Hold-v0", difficulty="curriculum",
                   curriculum={"window": 1, "threshold": 1.0})
    _obs, info = env.reset(seed=0)
    assert (info["difficulty"], info["curriculum_stage"]) == ("easy", 0)
    base = env.unwrapped
    base.curriculum.record(True, 3)  # as a won episode's last step records it
    _obs, info = env.reset()
    assert (info["difficulty"], info["curriculum_stage"]) == ("normal", 1)
    # An episode's end is recorded by step(): lose one by refused actions.
    wait = np.flatnonzero(info["action_mask"])[0]
    done = False
    while not done:
        _obs, _r, terminated, truncated, info = env.step(int(wait))
        done = terminated or truncated
    assert list(base.curriculum.results) == [False]


def test_memory_stays_flat_over_many_resets() -> None:
    alive: weakref.WeakSet[Level] = weakref.WeakSet()
    env = gym.make("MissionHarness/Macro-Maze-v0", params=SMALL)
    for _ in range(LEVEL_CACHE_SIZE + 2):  # fill the cache
        env.reset()
    tracemalloc.start()
    try:
        sizes = []
        # Each batch replaces the whole cache, so after the first every level alive was
        # made while tracing: what the second adds beyond the first is what is kept.
        for _ in range(3):
            for _ in range(LEVEL_CACHE_SIZE + 1):
                env.reset()
                alive.add(env.unwrapped.level)
            gc.collect()
            sizes.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    # Every level made and dropped is freed: only the cache's and the one played live.
    assert len(alive) <= LEVEL_CACHE_SIZE
    assert generated_level.cache_info().currsize <= LEVEL_CACHE_SIZE
    assert sizes[2] - sizes[1] < 2**20 // 2, f"{(sizes[2] - sizes[1]) / 2**20:.2f} MiB kept"


def test_vector_copies_draw_their_own_levels() -> None:
    envs = gym.make_vec("MissionHarness/Macro-Maze-v0", num_envs=2, vectorization_mode="sync",
                        params=SMALL)
    _obs, info = envs.reset(seed=4)
    assert info["level"][0] != info["level"][1]
    wait = min(i for i, c in enumerate(choices()) if c.action == "wait")  # always allowed
    _obs, _r, _t, _tr, info = envs.step(np.array([wait, wait]))
    assert info["action_mask"].any(axis=1).all()
    envs.close()


@pytest.mark.skipif(importlib.util.find_spec("stable_baselines3") is None,
                    reason="needs stable-baselines3")
@pytest.mark.slow  # importing torch
def test_sb3_make_vec_env_takes_a_procedural_id_unchanged() -> None:
    from stable_baselines3.common.env_util import make_vec_env

    envs = make_vec_env("MissionHarness/Raw-Maze-v0", n_envs=2, env_kwargs={"params": SMALL})
    envs.seed(3)
    envs.reset()
    envs.step(np.array([envs.action_space.sample() for _ in range(2)]))
    levels = [e.unwrapped.level_name for e in envs.envs]
    envs.close()
    assert len(set(levels)) == 2  # each copy draws its own level


def test_level_draw_names_a_split_level() -> None:
    draw = LevelDraw.of("maze", {"keys": 2, "rooms": 9}, "test", 10)
    assert draw.ref(3) == "maze@1000003?keys=2"  # a default parameter is left out
    assert LevelDraw.of("maze", None, "heldout", 7).ref(6) == "maze@secret:7#6"
