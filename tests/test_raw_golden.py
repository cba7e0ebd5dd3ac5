"""Raw-v0 plays exactly as before its speed work (39): a digest of fixed episodes.

Each case plays a fixed stream of random controls (biased forward, so the player
walks into view of things) and hashes every observation array, reward, info figure
and state hash of the episode. The digests were taken on the code before the speed
work: a faster scan, sight test or progress figure must leave every one unchanged.
The ray channels taken then are hashed; channels added since (one per new object kind:
note and keypad, 37) come after them and are checked to be empty on these levels. The
generated maze's digest was taken again at generator version 4, which changed the maze.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs the rl extra: pip install '.[rl]'")

from harness.rl.raw_env import RawEnv
from tests.shared import TEST_SECRET
from world.raw.rayscan import CHANNELS

# The ray channels when the digests were taken (distance, wall, door, the two sides and
# the sixteen object kinds of then).
CHANNELS_THEN = 21

# (level, seed, steps): a single-storey level with hostiles, three storeys with doors
# and many characters, a generated maze.
GOLDEN = {
    ("exit_switch", 0, 250): "ba41ee29a02faf827a8d8b4ee452ecf12f23bb922c58c0c05f8edad10e0c8956",
    ("facility", 1, 150): "c1f8695400d09ebd0ebeb417a87deb662f89df74bad0a517bf438e6120fc56ae",
    # Re-taken when the generator moved to version 4 (the maze itself changed, 37).
    ("maze@3", 7, 150): "aa3709504b01297c635e9c240b58efafe925f693bee57b761c6d11ef1dcc8617",
}


def episode_digest(level: str, seed: int, steps: int) -> str:
    """The digest of `steps` steps of fixed random controls under the shaped reward."""
    env = RawEnv(level=level, reward="shaped", frame_skip=4, secret=TEST_SECRET)
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()

    def feed(obs: dict[str, np.ndarray]) -> None:
        assert obs["rays"].shape[1] == len(CHANNELS)
        assert not obs["rays"][:, CHANNELS_THEN:].any()  # no notes or keypads here
        for key in sorted(obs):
            array = obs[key][:, :CHANNELS_THEN] if key == "rays" else obs[key]
            digest.update(key.encode())
            digest.update(np.ascontiguousarray(array).tobytes())

    obs, _info = env.reset(seed=seed)
    feed(obs)
    for i in range(steps):
        action = rng.integers(0, env.action_space.nvec)
        if rng.random() < 0.5:
            action[0] = 2  # forward
        obs, reward, terminated, truncated, info = env.step(action)
        feed(obs)
        digest.update(repr((float(reward), terminated, truncated, info["progress"],
                            info["score"], info["tick"], env.state_hash())).encode())
        if terminated or truncated:
            obs, _info = env.reset(seed=seed + 1000 + i)
            feed(obs)
    return digest.hexdigest()


@pytest.mark.parametrize(("level", "seed", "steps"), list(GOLDEN))
def test_raw_episode_digest_is_unchanged(level: str, seed: int, steps: int) -> None:
    assert episode_digest(level, seed, steps) == GOLDEN[(level, seed, steps)]
