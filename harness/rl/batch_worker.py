"""A worker of the batched vector environment: its slice of copies, stepped in turn.

The observations go into one block of shared memory laid out for the whole batch (each
slice writes the rows of its copies; the block is a `RawArray` handed to the worker as
it starts, so no named segment outlives a crash). What crosses the pipe is small:
rewards, endings and each copy's own info dict, which the caller batches as
`SyncVectorEnv` does. A copy that ended resets on its next step instead of stepping
(Gymnasium's next-step autoreset).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, SupportsFloat

import cloudpickle
import gymnasium as gym
import numpy as np
from gymnasium.vector import SyncVectorEnv

# A copy's observation as the shared block holds it: named arrays, or one array (key "").
Fields = tuple[tuple[str, tuple[int, ...], np.dtype[Any]], ...]


def fields_of(space: gym.Space[Any]) -> Fields:
    """(key, shape, dtype) of every array of an observation of `space`.

    Raises:
        ValueError: a space whose samples are not fixed-shape arrays (or a Dict of them).
    """
    if isinstance(space, gym.spaces.Dict):
        out: list[tuple[str, tuple[int, ...], np.dtype[Any]]] = []
        for key, sub in space.spaces.items():
            (_, shape, dtype), = fields_of(sub)
            out.append((key, shape, dtype))
        return tuple(out)
    if isinstance(space, gym.spaces.Box | gym.spaces.MultiBinary | gym.spaces.MultiDiscrete
                  | gym.spaces.Discrete):
        return (("", tuple(space.shape or ()), np.dtype(space.dtype)),)
    raise ValueError(f"observation space: the batched vector environment takes arrays or a "
                     f"Dict of arrays, got {space}")


def block_size(fields: Fields, num_envs: int) -> int:
    """Bytes of a shared block holding `num_envs` observations."""
    return sum(_nbytes(shape, dtype, num_envs) for _, shape, dtype in fields)


def views(buffer: Any, fields: Fields, num_envs: int) -> dict[str, np.ndarray]:
    """The batch's arrays over a shared block, one per field, each (num_envs, *shape)."""
    out, offset = {}, 0
    for key, shape, dtype in fields:
        out[key] = np.ndarray((num_envs, *shape), dtype=dtype, buffer=buffer, offset=offset)
        offset += _nbytes(shape, dtype, num_envs)
    return out


# Each array starts on a multiple of this many bytes, aligned for any dtype's items.
_ALIGN = 16


def _nbytes(shape: tuple[int, ...], dtype: np.dtype[Any], num_envs: int) -> int:
    # The array's bytes, rounded up so that the next one starts aligned.
    size = int(np.prod((num_envs, *shape), dtype=np.int64)) * dtype.itemsize
    return -(-size // _ALIGN) * _ALIGN


@dataclass(frozen=True)
class SliceSpec:
    """What a worker needs to build its slice: the maker, its copies and the batch size."""

    make_env: Callable[[], gym.Env[Any, Any]]
    start: int
    end: int
    num_envs: int


class Slice:
    """A slice's copies, stepped one after another as `SyncVectorEnv` steps them."""

    def __init__(self, spec: SliceSpec) -> None:
        self.spec = spec
        # Gymnasium's own vector of the copies answers `call`, `get_attr` and `set_attr`
        # and closes them; the steps are taken here, to write into the shared block.
        self.vector = SyncVectorEnv([spec.make_env] * (spec.end - spec.start))
        self.envs = self.vector.envs
        self.ended = [False] * len(self.envs)
        self.rows: dict[str, np.ndarray] = {}

    def spaces(self) -> tuple[gym.Space[Any], gym.Space[Any], dict[str, Any], str | None]:
        """The first copy's spaces, metadata and render mode."""
        env = self.envs[0]
        return env.observation_space, env.action_space, dict(env.metadata), env.render_mode

    def use(self, buffer: Any) -> None:
        """Write observations into this buffer, laid out for the batch, from now on."""
        space = self.envs[0].observation_space
        batch = views(buffer, fields_of(space), self.spec.num_envs)
        self.rows = {key: array[self.spec.start:self.spec.end] for key, array in batch.items()}

    def reset(self, seeds: list[int | None], options: dict[str, Any] | None) -> list[Any]:
        """Reset every copy; their infos."""
        infos = []
        for i, (env, seed) in enumerate(zip(self.envs, seeds, strict=True)):
            obs, info = env.reset(seed=seed, options=options)
            self._put(i, obs)
            self.ended[i] = False
            infos.append(info)
        return infos

    def step(self, actions: np.ndarray) -> tuple[list[float], list[bool], list[bool],
                                                 list[Any]]:
        """Step every copy (reset one that ended); rewards, terminations, truncations, infos."""
        rewards, terminations, truncations, infos = [], [], [], []
        for i, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            if self.ended[i]:
                obs, info = env.reset()
                reward: SupportsFloat = 0.0
                terminated, truncated = False, False
            else:
                obs, reward, terminated, truncated, info = env.step(action)
            self._put(i, obs)
            self.ended[i] = bool(terminated or truncated)
            rewards.append(float(reward))
            terminations.append(bool(terminated))
            truncations.append(bool(truncated))
            infos.append(info)
        return rewards, terminations, truncations, infos

    def close(self) -> None:
        """Close every copy and let go of the shared block."""
        self.vector.close()
        self.rows = {}

    def _put(self, i: int, obs: Any) -> None:
        if "" in self.rows:
            self.rows[""][i] = obs
            return
        for key, rows in self.rows.items():
            rows[i] = obs[key]


# What a worker does for each command: (its slice, the data) -> the answer.
COMMANDS: dict[str, Callable[[Slice, Any], Any]] = {
    "reset": lambda s, data: s.reset(*data),
    "step": lambda s, actions: s.step(actions),
    "call": lambda s, data: list(s.vector.call(data[0], *data[1], **data[2])),
    "get_attr": lambda s, name: list(s.vector.get_attr(name)),
    "set_attr": lambda s, data: s.vector.set_attr(*data),
}


def run_worker(spec: bytes, block: Any, pipe: Connection) -> None:
    """A worker's loop: build its slice, then answer (command, data) until "close".

    `spec` is the `SliceSpec` as cloudpickle writes it (its maker may be a closure,
    which plain pickle refuses under the "spawn" and "forkserver" contexts); `block` the
    batch's shared observations (a `RawArray` of bytes, laid out by `views`).
    """
    part: Slice | None = None
    try:
        part = Slice(cloudpickle.loads(spec))
        part.use(block)
        pipe.send(("ok", None))
        while True:
            command, data = pipe.recv()
            if command == "close":
                break
            try:
                pipe.send(("ok", COMMANDS[command](part, data)))
            except Exception as exc:  # sent to the caller, who raises it
                _fail(pipe, exc)
    except (EOFError, KeyboardInterrupt):
        pass  # the main process went away
    except Exception as exc:
        _fail(pipe, exc)
    finally:
        if part is not None:
            part.close()
        pipe.close()


def _fail(pipe: Connection, exc: Exception) -> None:
    # The exception itself when it pickles, else its words in a RuntimeError.
    trace = traceback.format_exc()
    try:
        pipe.send(("error", (exc, trace)))
    except Exception:
        pipe.send(("error", (RuntimeError(f"{type(exc).__name__}: {exc}"), trace)))
