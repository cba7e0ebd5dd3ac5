"""The batched vector environment: SyncVectorEnv's results from worker processes."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")

import harness.rl  # noqa: E402,F401 registers the environments
from harness.rl.batched import BatchedVectorEnv, slices  # noqa: E402
from tests.shared import ROOT  # noqa: E402

KEY_STORE = str(ROOT / "examples" / "levels" / "key_store.json")
SECRET = bytes(range(16))  # one secret for every copy, so both sides play the same episodes


def _play(envs, steps: int) -> list[tuple]:
    """Seeded reset, then masked random choices; every result of every step."""
    obs, info = envs.reset(seed=11)
    rng = np.random.default_rng(3)
    out = [("reset", {k: v.copy() for k, v in obs.items()}, info)]
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, reward, terminated, truncated, info = envs.step(actions)
        out.append(({k: v.copy() for k, v in obs.items()}, reward, terminated, truncated,
                    info))
    return out


def _same(a, b) -> None:
    if isinstance(a, dict):
        assert sorted(a) == sorted(b)
        for key in a:
            _same(a[key], b[key])
    elif isinstance(a, tuple | list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tolist() == b.tolist()
    else:
        assert a == b


def test_two_workers_give_sync_vector_envs_results_through_episode_ends() -> None:
    # Three copies over two workers (slices of two and one); key_store's 12 decisions
    # end episodes within the steps, so autoreset on the next step is exercised too.
    kwargs = {"level": KEY_STORE, "secret": SECRET}
    sync = gym.make_vec("MissionHarness/Macro-v0", num_envs=3, vectorization_mode="sync",
                        **kwargs)
    batched = gym.make_vec("MissionHarness/Macro-v0", num_envs=3, workers=2,
                           context="fork", **kwargs)
    try:
        assert isinstance(batched, BatchedVectorEnv) and batched.workers == 2
        assert batched.single_observation_space == sync.single_observation_space
        assert batched.observation_space == sync.observation_space
        assert batched.action_space == sync.action_space
        ours, theirs = _play(batched, 30), _play(sync, 30)
        assert any(step[2].any() or step[3].any() for step in ours[1:])  # an episode ended
        _same(ours, theirs)
        _same(batched.get_attr("seed_used"), sync.get_attr("seed_used"))
        hashes = batched.call("state_hash")
        assert hashes == sync.call("state_hash")
        assert [type(h) for h in hashes] == [str] * 3
        batched.set_attr("seed_used", [7, 8, 9])
        batched.set_attr("steps", 0)
        assert batched.get_attr("seed_used") == (7, 8, 9)
        assert batched.get_attr("steps") == (0, 0, 0)
    finally:
        batched.close()
        sync.close()


def test_one_worker_steps_in_this_process_and_workers_are_checked() -> None:
    envs = gym.make_vec("MissionHarness/Raw-v0", num_envs=2, workers=1, level=KEY_STORE)
    try:
        assert envs._processes == []
        obs, _info = envs.reset(seed=0)
        assert obs["rays"].shape[0] == 2
    finally:
        envs.close()
    with pytest.raises(ValueError, match=r"workers: expected an integer from 1 to num_envs \(2\)"):
        gym.make_vec("MissionHarness/Raw-v0", num_envs=2, workers=3, level=KEY_STORE)
    with pytest.raises(ValueError, match="num_envs: expected an integer 1 or more"):
        BatchedVectorEnv(lambda: gym.make("MissionHarness/Raw-v0"), 0)


def test_a_workers_error_is_raised_here_naming_its_copies_and_the_rest_go_on() -> None:
    envs = gym.make_vec("MissionHarness/Raw-v0", num_envs=2, workers=2, context="fork",
                        level=KEY_STORE)
    try:
        envs.reset(seed=0)
        bad = np.zeros((2, 6), dtype=np.int64)
        bad[1, 0] = 99  # out of range for the first control
        with pytest.raises(ValueError) as caught:
            envs.step(bad)
        assert "in the worker of copies 1-1" in "".join(caught.value.__notes__)
        with pytest.raises(ValueError, match="actions: expected one per copy"):
            envs.step(np.zeros((3, 6), dtype=np.int64))
        obs, *_ = envs.step(np.zeros((2, 6), dtype=np.int64))  # both workers still answer
        assert obs["player"].shape == (2, 9)
        envs._processes[0].kill()
        envs._processes[0].join()
        with pytest.raises(RuntimeError, match="the worker of copies 1-1 ended"):
            envs.step(np.zeros((2, 6), dtype=np.int64))
    finally:
        envs.close()
    assert not any(p.is_alive() for p in envs._processes)


def test_slices_are_contiguous_and_even() -> None:
    assert slices(8, 2) == [(0, 4), (4, 8)]
    assert slices(5, 3) == [(0, 2), (2, 4), (4, 5)]


def test_speed_script_runs_its_batched_case() -> None:
    import importlib.util
    spec = importlib.util.spec_from_file_location("rl_speed", ROOT / "benchmarks" / "rl_speed.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (make, copies), = [(m, c) for name, m, c in module.cases(KEY_STORE, True)
                       if name == module.BATCHED]
    row = module.measure(make, 0.0, copies=copies, min_steps=3 * copies)
    assert copies == 16 and row["steps"] == 3 * copies and row["cpu_us_per_step"] > 0


def test_spawned_workers_make_their_copies_as_forked_ones_do() -> None:
    # A spawned worker starts from nothing: its maker crosses by cloudpickle and loading
    # it registers the ids. Its copies play what a forked worker's copies play.
    hashes = []
    for context in ("spawn", "fork"):
        envs = gym.make_vec("MissionHarness/Raw-v0", num_envs=2, workers=2, context=context,
                            level=KEY_STORE, secret=SECRET)
        try:
            envs.reset(seed=4)
            envs.step(np.ones((2, 6), dtype=np.int64))
            hashes.append(envs.call("state_hash"))
        finally:
            envs.close()
    assert hashes[0] == hashes[1]
