"""A batched vector environment: worker processes, each stepping a slice of the copies.

Gymnasium's `AsyncVectorEnv` gives every copy a process of its own and a pipe round
trip per copy and step; a Raw-v0 step is a few hundred microseconds, so that round trip
and the per-copy bookkeeping cost about as much as the step itself and two workers made
fewer steps per second than one process. Here the copies split into `workers`
contiguous slices: the calling process steps the first (it would otherwise only wait)
and a worker process each other one (harness.rl.batch_worker), answering one message
per step for its whole slice, the observations written into one shared block. The
semantics are `SyncVectorEnv`'s (autoreset on the next step, infos batched per key by
Gymnasium's own `_add_info`, copy `i` reset with seed `seed + i`).

`gym.make_vec(ENV_ID, num_envs=N, workers=W, ...)` makes one for every env id of this
package (their `vector_entry_point`); `workers` defaults to the processor count (at most
N), and one means no other process at all: the copies step in this process, in a
`SyncVectorEnv`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from typing import Any

import cloudpickle
import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv
from gymnasium.vector.utils import batch_space

from harness.rl.batch_worker import (
    COMMANDS,
    Slice,
    SliceSpec,
    block_size,
    fields_of,
    run_worker,
    views,
)

# How long close() waits for a worker to leave before ending it.
CLOSE_TIMEOUT_S = 5.0


def slices(num_envs: int, workers: int) -> list[tuple[int, int]]:
    """The copies each worker steps: `workers` contiguous ranges as even as they come."""
    base, extra = divmod(num_envs, workers)
    out, start = [], 0
    for w in range(workers):
        end = start + base + (1 if w < extra else 0)
        out.append((start, end))
        start = end
    return out


class BatchedVectorEnv(VectorEnv):
    """`num_envs` copies of one environment in `workers` slices, one per process (see module)."""

    def __init__(self, make_env: Callable[[], gym.Env], num_envs: int,
                 workers: int | None = None, context: str | None = None) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs: expected an integer 1 or more, got {num_envs!r}")
        chosen = min(num_envs, os.cpu_count() or 1) if workers is None else workers
        if not isinstance(chosen, int) or not 1 <= chosen <= num_envs:
            raise ValueError(f"workers: expected an integer from 1 to num_envs ({num_envs}), "
                             f"got {workers!r}")
        self.num_envs, self.workers = num_envs, chosen
        self.ranges = slices(num_envs, chosen)
        self._local: SyncVectorEnv | None = None
        self._here: Slice | None = None  # the first slice, stepped in this process
        self._pipes: list[Connection] = []
        self._processes: list[Any] = []
        self._batch: dict[str, np.ndarray] = {}
        self.closed = False
        if chosen == 1:  # no process to share the work with: step here
            # (Copies of the observations, as the batched path copies its shared block.)
            self._local = SyncVectorEnv([make_env] * num_envs, copy=True,
                                        autoreset_mode=AutoresetMode.NEXT_STEP)
            spaces = (self._local.single_observation_space, self._local.single_action_space,
                      dict(self._local.metadata), self._local.render_mode)
        else:
            spaces = self._start(make_env, context)
        self.single_observation_space, self.single_action_space, metadata, mode = spaces
        self.metadata = {**metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = mode

    def _start(self, make_env: Callable[[], gym.Env], context: str | None) -> Any:
        # This process steps the first slice while the workers step theirs: it would
        # otherwise only wait, so `workers` slices need only `workers - 1` processes.
        ctx: Any = multiprocessing.get_context(context)
        start, end = self.ranges[0]
        self._here = Slice(SliceSpec(make_env, start, end, self.num_envs))
        spaces = self._here.spaces()
        # One block for the whole batch's observations, each slice writing its rows.
        fields = fields_of(spaces[0])
        block = ctx.RawArray("b", max(1, block_size(fields, self.num_envs)))
        self._batch = views(block, fields, self.num_envs)
        self._here.use(block)
        for start, end in self.ranges[1:]:
            parent, child = ctx.Pipe()
            spec = SliceSpec(make_env, start, end, self.num_envs)
            process = ctx.Process(target=run_worker, daemon=True,
                                  name=f"batched-envs-{start}-{end - 1}",
                                  args=(cloudpickle.dumps(spec), block, child))
            process.start()
            child.close()
            self._pipes.append(parent)
            self._processes.append(process)
        self._gather()
        return spaces

    def _observations(self) -> Any:
        # A copy of the shared block (the workers write the next step's there).
        if "" in self._batch:
            return self._batch[""].copy()
        return {key: array.copy() for key, array in self._batch.items()}

    def _infos(self, infos: Sequence[dict[str, Any]]) -> dict[str, Any]:
        # Batched by Gymnasium's own rule, as SyncVectorEnv batches them.
        out: dict[str, Any] = {}
        for i, info in enumerate(infos):
            out = self._add_info(out, info, i)
        return out

    # ---- the vector API ----------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Reset every copy; copy `i` gets `seed + i` (or `seed[i]`), as SyncVectorEnv."""
        seeds = self._seeds(seed)
        if self._local is not None:
            return self._local.reset(seed=seeds, options=options)
        parts = self._ask("reset", [(seeds[a:b], options) for a, b in self.ranges])
        return self._observations(), self._infos([info for p in parts for info in p])

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """Step every copy with its row of `actions` (a copy that ended resets instead)."""
        if self._local is not None:
            return self._local.step(actions)
        batch = np.asarray(actions)
        if batch.shape[:1] != (self.num_envs,):
            raise ValueError(f"actions: expected one per copy ({self.num_envs}), got an "
                             f"array of shape {batch.shape}")
        parts = self._ask("step", [batch[a:b] for a, b in self.ranges])
        rewards = np.array([r for p in parts for r in p[0]], dtype=np.float64)
        terminations, truncations = (np.array([e for p in parts for e in p[i]], dtype=np.bool_)
                                     for i in (1, 2))
        return (self._observations(), rewards, terminations, truncations,
                self._infos([info for p in parts for info in p[3]]))

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Call a method (or read an attribute) of every copy; the answers in copy order."""
        if self._local is not None:
            return tuple(self._local.call(name, *args, **kwargs))
        return _chain(self._ask("call", [(name, args, kwargs)] * self.workers))

    def render(self) -> tuple[Any, ...] | None:
        """Every copy's frame of its render mode, in copy order."""
        return self.call("render")

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """An attribute of every copy, in copy order."""
        if self._local is not None:
            return tuple(self._local.get_attr(name))
        return _chain(self._ask("get_attr", [name] * self.workers))

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | object) -> None:
        """Set an attribute of every copy: one value for all, or one per copy."""
        if self._local is not None:
            self._local.set_attr(name, values)
            return
        if isinstance(values, list | tuple):
            if len(values) != self.num_envs:
                raise ValueError(f"set_attr: {len(values)} values for {self.num_envs} copies")
            per = [list(values[a:b]) for a, b in self.ranges]
        else:
            per = [[values] * (b - a) for a, b in self.ranges]
        self._ask("set_attr", [(name, v) for v in per])

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the workers (each closes its copies), or close the copies stepped here."""
        if self._local is not None:
            self._local.close()
            return
        for pipe in self._pipes:
            with contextlib.suppress(OSError):  # a worker that is gone already
                pipe.send(("close", None))
        for process in self._processes:
            process.join(CLOSE_TIMEOUT_S)
            if process.is_alive():
                process.terminate()
        for pipe in self._pipes:
            pipe.close()
        if self._here is not None:
            self._here.close()
        self._batch = {}

    # ---- talking to the workers --------------------------------------------------------
    def _seeds(self, seed: int | Sequence[int | None] | None) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, int):
            return [seed + i for i in range(self.num_envs)]
        seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"reset: {len(seeds)} seeds for {self.num_envs} copies")
        return seeds

    def _ask(self, command: str, data: Sequence[Any]) -> list[Any]:
        # `data` holds one item per slice; the answers come back in slice order.
        if self.closed or self._here is None:
            raise RuntimeError(f"{command}: the vector environment is closed")
        sent = []
        for pipe, item in zip(self._pipes, data[1:], strict=True):
            try:
                pipe.send((command, item))
                sent.append(True)
            except OSError:  # that worker is gone; said below, once the others answer
                sent.append(False)
        try:
            here, failure = COMMANDS[command](self._here, data[0]), None
        except Exception as exc:
            here, failure = None, exc
        answers = self._gather(sent)
        if failure is not None:
            start, end = self.ranges[0]
            failure.add_note(f"(in the copies {start}-{end - 1}, stepped in this process)")
            raise failure
        return [here, *answers]

    def _gather(self, sent: Sequence[bool] | None = None) -> list[Any]:
        # Every worker answers before any error is raised, so none is left mid-message.
        answers, failure = [], None
        for w, ((start, end), pipe) in enumerate(zip(self.ranges[1:], self._pipes,
                                                     strict=True)):
            try:
                if sent is not None and not sent[w]:
                    raise EOFError
                status, payload = pipe.recv()
            except (EOFError, OSError):
                status, payload = "error", (RuntimeError(
                    f"the worker of copies {start}-{end - 1} ended"), "")
            except Exception as unreadable:  # an answer that does not unpickle
                status, payload = "error", (RuntimeError(
                    f"an answer of the worker of copies {start}-{end - 1} could not be "
                    f"read: {type(unreadable).__name__}: {unreadable}"), "")
            if status == "error" and failure is None:
                failure = (start, end, *payload)
            answers.append(payload)
        if failure is not None:
            start, end, exc, trace = failure
            exc.add_note(f"(in the worker of copies {start}-{end - 1})\n{trace}".rstrip())
            raise exc
        return answers


def _chain(answers: list[list[Any]]) -> tuple[Any, ...]:
    # The slices' answers, one per copy, in copy order.
    return tuple(item for answer in answers for item in answer)


# A vector entry point is named by a string, so that an env spec stays picklable and
# serialisable: "harness.rl.batched:batched_<env id>", read back by `__getattr__` below.
ENTRY_PREFIX = "batched_"


def vector_entry(env_id: str) -> str:
    """The `vector_entry_point` string of `env_id` (`gym.make_vec` loads and calls it)."""
    return f"{__name__}:{ENTRY_PREFIX}{env_id}"


@dataclass(frozen=True)
class VectorEntry:
    """What `gym.make_vec` calls for one env id, with the env's kwargs and `num_envs`."""

    env_id: str

    def __call__(self, num_envs: int = 1, workers: int | None = None,
                 context: str | None = None, **kwargs: Any) -> BatchedVectorEnv:
        """`num_envs` copies made as `gym.make(env_id, **kwargs)`, over `workers`."""
        return BatchedVectorEnv(partial(_make_env, self.env_id, kwargs), num_envs, workers,
                                context)


def _make_env(env_id: str, kwargs: dict[str, Any]) -> gym.Env[Any, Any]:
    # (A spawned worker has the ids registered: loading this module ran the package's
    # __init__, which registers them.)
    return gym.make(env_id, **kwargs)


def __getattr__(name: str) -> VectorEntry:
    if name.startswith(ENTRY_PREFIX):
        return VectorEntry(name.removeprefix(ENTRY_PREFIX))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
