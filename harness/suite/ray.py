"""`harness eval --backend ray`: each episode a Ray task, its run directory written here.

A task plays its episode exactly as the local backend does (`play_one` in a forked
process of its own, with the same watchdog, PDEATHSIG and orphan clean-up, see
`harness.suite.workers`), in a scratch folder on the worker that runs it, and returns
the row with the run directory's files. The driver (the process that started the
suite) writes those files under `--out` in the same layout as the local backend, so
nothing needs a folder shared between machines, and a run directory appears in `--out`
whole (written aside, then renamed) or not at all.

A worker that dies mid-episode sends nothing back: Ray runs the task again once
(`max_retries=1`), so the episode is recorded once, never twice, and a second death is
a harness error row. Exceptions are not retried: a harness error is a result.

Ray is an optional extra, imported only here and only when asked for, so the core
harness and its quick tests never load it.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import shutil
import signal
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from harness.agent.launch import AgentLaunchError, resolve_argv
from harness.core import stopping
from harness.episode.live import _harness_version
from harness.episode.runner import UsageError
from harness.suite.plan import Episode
from harness.suite.workers import STOP_GRACE_S, Play, Workers

EXTRA = "pip install 'mission-harness[ray]'"
# A run directory's name as `harness.episode.runner.new_run_dir` makes it (nothing that climbs out).
_RUN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,200}")
INCOMING = ".incoming"  # under --out: run directories being written, renamed when whole
_SCRATCH_PREFIX = "harness-ray-"
# A first argument ending so is the script an interpreter runs, and must exist too.
SCRIPT_SUFFIXES = (".py", ".sh", ".js", ".mjs", ".ts", ".rb", ".pl", ".lua", ".jar")
WAIT_S = 1.0  # longest wait for news, so a stop signal is seen within a second
LOCAL_STARTS = 2  # tries at starting a local Ray instance


def import_ray() -> Any:
    """The `ray` module.

    Raises:
        UsageError: Ray is not installed; the message names the extra to install.
    """
    try:
        # Imported only when asked for: start-up cost, and Ray is an optional extra.
        import ray
    except ImportError:
        raise UsageError(f"--backend ray needs Ray, an optional extra: {EXTRA}") from None
    return ray


@contextlib.contextmanager
def _noted() -> Iterator[None]:
    """Take a stop signal after the block, never inside it.

    Ray's calls run native code that cannot pass on an exception raised by a signal
    handler (it surfaces as a SystemError), so inside the block a stop is only noted.
    """
    with stopping.held():
        yield
    with stopping.held(), stopping.interruptible():
        pass  # raises the stop noted in the block, if any


def _scratch(token: str, index: int) -> Path:
    return Path(tempfile.gettempdir()) / f"{_SCRATCH_PREFIX}{token}-{index}"


def play_task(play: Play, job: dict[str, Any], limit_s: float, token: str, index: int,
              cwd: str) -> dict[str, Any]:
    """Play one episode on this Ray worker; return its result and run directory's files.

    Returns:
        {"result": what the worker said, "name": run directory name or None,
        "files": {relative path: bytes}}.
    """
    if os.path.isdir(cwd):  # relative paths in the agent command mean what they do there
        os.chdir(cwd)
    scratch = _scratch(token, index)
    shutil.rmtree(scratch, ignore_errors=True)  # what an attempt that died here left
    scratch.mkdir(parents=True)
    try:
        result: dict[str, Any] = {"error": "the episode's worker sent nothing"}
        with Workers(1, play, limit_s) as workers:
            workers.start(index, {**job, "out": str(scratch)})
            while workers.running:
                # A cancel arrives as KeyboardInterrupt only between Python steps, so
                # the wait is short; leaving the block stops the episode as interrupted.
                for _key, said in workers.finished(WAIT_S):
                    result = said
        run_dir = result.get("run_dir")
        if not run_dir:
            return {"result": result, "name": None, "files": {}}
        root = Path(run_dir)
        files = {p.relative_to(root).as_posix(): p.read_bytes()
                 for p in sorted(root.rglob("*")) if p.is_file()}
        return {"result": result, "name": root.name, "files": files}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def check_task(agent: str, cwd: str) -> dict[str, Any]:
    """On a worker: the harness version there and whether the agent command resolves."""
    if os.path.isdir(cwd):
        os.chdir(cwd)
    try:
        argv = resolve_argv(agent)
        problem = None
        # `python3 agent.py`: the interpreter resolves wherever Python is installed; the
        # script it is given is what a node without the agent lacks.
        script = argv[1] if len(argv) > 1 else ""
        if script.endswith(SCRIPT_SUFFIXES) and not os.path.isfile(script):
            problem = f"agent script {script!r} not found (looked in {os.getcwd()})"
    except AgentLaunchError as exc:
        problem = str(exc)
    import ray  # on a worker, where Ray runs already: no start-up cost to the harness

    host = f"{os.uname().nodename} ({ray.util.get_node_ip_address()})"
    return {"version": _harness_version(), "problem": problem, "host": host}


def land(out: Path, folder: Path, name: str, files: dict[str, bytes]) -> Path:
    """Write a run directory's files as `folder/name`, whole or not at all.

    Raises:
        ValueError: A name or path that would leave the folder.
    """
    if not _RUN_NAME.fullmatch(name) or name in (".", ".."):
        raise ValueError(f"run directory name {name!r} is not allowed")
    incoming = out / INCOMING / name
    shutil.rmtree(incoming, ignore_errors=True)
    for rel, data in files.items():
        parts = Path(rel).parts
        if not parts or Path(rel).is_absolute() or any(p in ("", ".", "..") for p in parts):
            raise ValueError(f"file {rel!r} of run {name} is not allowed")
        path = incoming.joinpath(*parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    incoming.mkdir(parents=True, exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    os.rename(incoming, target)
    with contextlib.suppress(OSError):
        incoming.parent.rmdir()  # only when empty: another episode may be landing
    return target


class RayEpisodes:
    """The suite backend on Ray: at most `jobs` episode tasks in flight.

    Without an address it starts a local Ray instance of `jobs * cpus_per_episode`
    CPUs and stops it on the way out; with one (`auto` included) it joins that cluster
    and leaves it running, with nothing of this suite's left on it.
    """

    def __init__(self, jobs: int | None, play: Play, limit_s: float, *,
                 address: str | None = None, cpus_per_episode: float = 1.0,
                 agent: str | None = None) -> None:
        """Play with `play` on Ray; `jobs` None means as many as the cluster has CPUs for.

        `agent`, when given, is checked on every node before the first episode starts.
        """
        self.ray = import_ray()
        self.jobs, self.play, self.limit_s = jobs, play, limit_s
        self.address, self.cpus = address, cpus_per_episode
        self.agent = agent
        self.token = uuid.uuid4().hex[:12]
        self.cwd = os.getcwd()
        self.pending: dict[Any, tuple[Any, dict[str, Any]]] = {}
        self.started = 0
        self.owned = False

    def __enter__(self) -> RayEpisodes:
        try:
            with _noted():
                self._enter()
        except BaseException:  # a failed check or a stop signal: no instance left running
            self.__exit__()
            raise
        return self

    def _enter(self) -> None:
        ray = self.ray
        # Ray's driver start-up replaces the SIGTERM handler; ours must stay in force.
        handlers = {s: signal.getsignal(s) for s in stopping.SIGNALS}
        try:
            self._init()
        except Exception as exc:  # Ray raises bare Exception, e.g. when a raylet starts late
            raise UsageError(f"--backend ray: cannot start or join Ray "
                             f"(--address {self.address or 'none: a local instance'}): "
                             f"{exc}") from None
        finally:
            for signum, handler in handlers.items():
                signal.signal(signum, handler)
        if self.jobs is None:
            cluster_cpus = float(ray.cluster_resources().get("CPU", 1.0))
            self.jobs = max(1, int(cluster_cpus // self.cpus))
        self.task = ray.remote(play_task).options(
            num_cpus=self.cpus, max_retries=1, retry_exceptions=False)
        if self.agent is not None:
            self.check_agent(self.agent)

    def _init(self) -> None:
        ray = self.ray
        if self.address is not None:
            ray.init(address=self.address, log_to_driver=False, logging_level=logging.ERROR)
            return
        cpus = max(1, math.ceil((self.jobs or 1) * self.cpus))
        for attempt in range(LOCAL_STARTS):
            try:
                ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.ERROR)
                self.owned = True
                return
            except Exception:
                # Ray gives its raylet 30 s to come up; a busy machine can need more.
                if attempt + 1 == LOCAL_STARTS:
                    raise
                with contextlib.suppress(Exception):
                    ray.shutdown()

    def check_agent(self, agent: str) -> None:
        """Check on every live node that the harness matches and the agent command resolves.

        Raises:
            UsageError: A node runs another harness version, cannot run the check, or
                cannot find the agent's program or files.
        """
        # Ray is imported only when asked for (start-up cost, and it is an optional extra).
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        ray = self.ray
        nodes = [n["NodeID"] for n in ray.nodes()
                 if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0]
        check = ray.remote(check_task)
        refs = [check.options(num_cpus=0, max_retries=0,
                              scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False)
                              ).remote(agent, self.cwd) for node in nodes]
        mine = _harness_version()
        for ref in refs:
            try:
                said = ray.get(ref, timeout=120)
            except Exception as exc:  # a node without the harness, a lost node
                first = str(exc).strip().splitlines()[-1] if str(exc).strip() else repr(exc)
                raise UsageError(f"--backend ray: a worker cannot run the harness's check "
                                 f"({first}); install the same mission-harness on every "
                                 "node") from None
            if said["version"] != mine:
                raise UsageError(f"--backend ray: node {said['host']} runs harness "
                                 f"{said['version']}, this one {mine}; install the same "
                                 "version on every node")
            if said["problem"]:
                raise UsageError(f"--backend ray: the agent command does not resolve on node "
                                 f"{said['host']}: {said['problem']}; the agent must exist "
                                 "at the same path on every worker (docs/ray.md, 'Suites on a "
                                 "Ray cluster')")

    def __exit__(self, *exc: object) -> None:
        with stopping.held():  # a later signal is noted; this is the way out already
            self._leave()

    def _leave(self) -> None:
        ray = self.ray
        with contextlib.suppress(Exception):
            # A running task gets KeyboardInterrupt: its worker process ends the episode
            # as interrupted and removes its scratch folder, as a stopped local worker does.
            for ref in self.pending:
                ray.cancel(ref)
            if self.pending:
                ray.wait(list(self.pending), num_returns=len(self.pending),
                         timeout=STOP_GRACE_S + 5.0)
        self.pending.clear()
        with contextlib.suppress(Exception):
            ray.shutdown()  # stops a local instance; only disconnects from a cluster
        if self.owned:
            # This machine's workers are gone: nothing of theirs may stay.
            for left in Path(tempfile.gettempdir()).glob(f"{_SCRATCH_PREFIX}{self.token}-*"):
                shutil.rmtree(left, ignore_errors=True)

    @property
    def free(self) -> bool:
        """Whether another episode may start now."""
        return len(self.pending) < (self.jobs or 1)

    @property
    def running(self) -> list[Any]:
        """The keys of the episodes in flight."""
        return [key for key, _job in self.pending.values()]

    def start(self, key: Any, job: dict[str, Any]) -> None:
        """Submit `job` as a task; its row comes back from `finished` under `key`."""
        with _noted():
            ref = self.task.remote(self.play, job, self.limit_s, self.token, self.started,
                                   self.cwd)
        self.started += 1
        self.pending[ref] = (key, job)

    def finished(self) -> list[tuple[Any, dict[str, Any]]]:
        """Wait up to a second for tasks; return (key, result) for each that ended."""
        if not self.pending:
            return []
        with _noted():
            ready, _ = self.ray.wait(list(self.pending), num_returns=len(self.pending),
                                     timeout=WAIT_S)
            return [self._collect(ref) for ref in ready]

    def _collect(self, ref: Any) -> tuple[Any, dict[str, Any]]:
        key, job = self.pending.pop(ref)
        try:
            said = self.ray.get(ref)
        except self.ray.exceptions.WorkerCrashedError:
            return key, {"error": "the Ray worker died twice while playing this episode "
                         "(it was retried once)"}
        except self.ray.exceptions.RayError as exc:
            lines = str(exc).strip().splitlines() or [type(exc).__name__]
            return key, {"error": f"the Ray task failed: {lines[-1]}"}
        result = said["result"]
        if said["name"] is None:
            return key, result
        out = Path(job["out"])
        folder = Episode(**job["episode"]).folder(out)
        run_dir = land(out, folder, said["name"], said["files"])
        return key, {**result, "run_dir": str(run_dir)}
