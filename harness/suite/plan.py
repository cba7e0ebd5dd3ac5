"""A suite of episodes: plan them, play them in parallel processes, resume where one stopped.

Each episode is one in-process `harness.episode.runner.run` call (`play_one`) inside its own
worker process with its own scratch directory. Where that process runs is a backend's
business (`Backend`): forked here (`harness.suite.workers.Workers`, the default) or a
task on a Ray cluster (`harness.suite.ray`); planning, resume, results and progress
are the same for both. Its run directory lives at a
fixed place under the suite's output (`episodes/<level>/<difficulty>/s<seed>/`), so a
suite started again finds the episodes whose record replays and does not play them
again. Results come from the harness's own summaries (in memory, or re-derived by
replay on resume), never from what a record file says.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from harness.core.bounds import too_deep
from harness.core.claims import start_point, start_words
from harness.core.keys import (
    SECRET_FILE,
    parse_secret,
    secret_fingerprint,
    secret_text,
    suite_secret,
)
from harness.core.protocol import HARNESS_ERROR, INTERRUPTED
from harness.core.record import RecordError, read_record
from harness.core.seal import seal_problem
from harness.episode import runner
from harness.episode.live import _harness_version
from harness.episode.replay import replay
from harness.episode.runner import UsageError
from harness.episode.settings import RunSettings
from harness.suite.files import folder_name, write_atomically
from harness.suite.stepwise import play_chain
from harness.suite.workers import Play, Workers
from world.face import TICKS_PER_SECOND

SUITE_FILE = "suite.json"
# A stepwise job plays the end-to-end episode, the reference run when it is not cached
# and one episode per subtask: its worker may run this many episode timeouts.
STEPWISE_TIMEOUTS = 10


class Backend(Protocol):
    """Where a suite's episodes are played: start jobs, collect what each one said.

    A context manager: leaving it (a stop signal included) ends every episode still
    running, each one's record ending as interrupted, and leaves no process behind.
    """

    @property
    def free(self) -> bool:
        """Whether another episode may start now."""

    @property
    def running(self) -> list[Any]:
        """The episodes started and not yet collected."""

    def start(self, key: Any, job: dict[str, Any]) -> None:
        """Start playing `job` (see `play_one`); its result comes back under `key`."""

    def finished(self) -> list[tuple[Any, dict[str, Any]]]:
        """Wait a while for news; return (key, result) for each episode that ended.

        The result is `play_one`'s row, with its run directory inside the suite's
        folder, or {"interrupted": SIGNAL} or {"error": ...} when no row came.
        """

    def __enter__(self) -> Backend: ...

    def __exit__(self, *exc: object) -> None: ...


# Makes a backend from (jobs, play, the episode's wall-clock limit in seconds).
BackendFactory = Callable[[int, Play, float], Backend]


class SuiteMismatchError(Exception):
    """A suite directory holds runs made with other settings than those asked for now."""


@dataclass(frozen=True)
class Episode:
    """One episode of a suite."""

    level: str
    difficulty: str
    seed: int

    def folder(self, out: Path, track: str = "episodes") -> Path:
        """Where this episode's run directory is made (always inside `out`).

        `track` "stepwise" gives the folder of its stepwise chain instead.
        """
        return out / track / folder_name(self.level) / self.difficulty / f"s{self.seed}"


def plan(levels: Iterable[tuple[str, Iterable[str]]], seeds: int) -> list[Episode]:
    """Every (level, difficulty, seed) of the suite in a stable order.

    Args:
        levels: Level ids, each with the difficulty ids to play.
        seeds: Seeds 0..seeds-1 are played.

    Returns:
        The episodes.
    """
    return [Episode(level, difficulty, seed) for level, difficulties in levels
            for difficulty in difficulties for seed in range(seeds)]


def suite_identity(agent: str, settings: RunSettings) -> dict[str, Any]:
    """What must match for runs to be reused: harness version, agent command, settings."""
    return {"harness_version": _harness_version(), "agent_command": agent,
            "settings": settings.to_dict()}


def check_identity(out: Path, identity: dict[str, Any]) -> None:
    """Write the suite's identity, or refuse when the directory was made with another.

    Raises:
        SuiteMismatchError: The directory's earlier runs used other settings.
    """
    path = out / SUITE_FILE
    if path.is_file():
        before = _identity_file(path)
        differ = sorted(k for k in identity if before.get(k) != identity[k])
        if differ:
            raise SuiteMismatchError(
                f"{out} holds a suite run with a different {', '.join(differ)} "
                f"(before: {', '.join(f'{k}={before.get(k)!r}' for k in differ)}); "
                "use another --out directory or remove that one")
    out.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(identity, indent=2) + "\n")


def _identity_file(path: Path) -> dict[str, Any]:
    # suite.json is the harness's own, but OUT may hold anything: bad content is a
    # mismatch named in one line, never a traceback.
    try:
        with open(path, "rb") as handle:
            text = handle.read(1 << 20).decode("utf-8")
        data = None if too_deep(text) else json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SuiteMismatchError(f"{path}: not a suite's identity ({exc})") from None
    if not isinstance(data, dict):
        raise SuiteMismatchError(f"{path}: not a suite's identity (a JSON object)")
    return data


SET_ASIDE = "set_aside"  # where resume moves runs it cannot reuse, never deleting them


def finished(episode: Episode, out: Path, identity: dict[str, Any],
             note: Callable[[str], None] = lambda _text: None) -> dict[str, Any] | None:
    """The row of an episode already played to its end, or None.

    A finished run is reused only when its record replays: the row comes from the
    summary the replay re-derives, never from what the record file says. Run
    directories that cannot be reused (interrupted, unreadable, diverged) are moved
    under `set_aside/` in the suite's folder and named through `note`, so the episode
    is played afresh and nothing is lost.

    Raises:
        SuiteMismatchError: A finished record was made by another harness version or
            with other settings.
    """
    folder = episode.folder(out)
    if not folder.is_dir():
        return None
    for run_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        try:
            record = read_record(run_dir)
        except RecordError as exc:
            _set_aside(run_dir, out, f"unreadable record ({exc})", note)
            continue
        if record.interrupted:
            why = "no end line" if record.end is None else "stopped by a signal"
            _set_aside(run_dir, out, f"interrupted run ({why})", note)
            continue
        header = record.header
        # Who played is what the record's header says; only this harness's seal makes
        # that worth believing (a record planted in OUT replays whoever played it).
        if (unsealed := seal_problem(run_dir)) is not None:
            _set_aside(run_dir, out, f"not this harness's record ({unsealed})", note)
            continue
        if (start := start_point(header)) is not None:
            _set_aside(run_dir, out, f"not a full episode (it {start_words(start)})", note)
            continue
        for name, want in (("harness_version", identity["harness_version"]),
                           ("settings", identity["settings"]),
                           ("agent_command", identity["agent_command"])):
            if header.get(name) != want:
                raise SuiteMismatchError(
                    f"{run_dir}: recorded {name} {header.get(name)!r} differs from this "
                    f"suite's {want!r}; use another --out directory or remove that one")
        try:
            report = replay(run_dir)
        except (RecordError, UsageError) as exc:
            _set_aside(run_dir, out, f"unusable record ({exc})", note)
            continue
        if not report.verified or report.summary is None:
            _set_aside(run_dir, out, f"record does not replay ({report.divergence})", note)
            continue
        end = record.end or {}
        return row_from_summary(episode, run_dir, {
            **report.summary, "usage": end.get("usage"), "wall_s": end.get("wall_s"),
            "agent": header.get("hello")})
    return None


def _set_aside(run_dir: Path, out: Path, why: str, note: Callable[[str], None],
               track: str = "episodes") -> None:
    target = out / SET_ASIDE / ("" if track == "episodes" else track) \
        / run_dir.relative_to(out / track)
    target.parent.mkdir(parents=True, exist_ok=True)
    while target.exists():  # never merge into (or over) what was set aside before
        target = target.with_name(target.name + "+")
    shutil.move(str(run_dir), str(target))
    note(f"set aside {run_dir} as {target}: {why}; the episode is played again")


def row_from_summary(episode: Episode, run_dir: Path, summary: dict[str, Any]
                     ) -> dict[str, Any]:
    """One results row from an episode's summary, as the harness itself computed it."""
    return {
        "level": episode.level, "difficulty": episode.difficulty, "seed": episode.seed,
        "outcome": summary["outcome"], "success": bool(summary["success"]),
        "score": float(summary["score"]),
        "stages": float(summary.get("stages", 0.0)),
        "decisions": int(summary["decisions"]),
        "game_time_s": round(int(summary["game_ticks"]) / TICKS_PER_SECOND, 2),
        "invalid_actions": int(summary["invalid_actions"]),
        "usage": summary.get("usage"), "wall_s": summary.get("wall_s"),
        "run_dir": str(run_dir), "agent": summary.get("agent"),
    }


def failed_row(episode: Episode, error: str) -> dict[str, Any]:
    """The row of an episode whose worker failed before a record was finished."""
    return {"level": episode.level, "difficulty": episode.difficulty, "seed": episode.seed,
            "outcome": HARNESS_ERROR, "success": False, "score": 0.0, "stages": 0.0,
            "decisions": 0,
            "game_time_s": 0.0, "invalid_actions": 0, "usage": None, "wall_s": None,
            "run_dir": None, "agent": None, "error": error}


def interrupted_row(episode: Episode, signal_name: str) -> dict[str, Any]:
    """The row of an episode stopped by a signal: it proves no result."""
    return {**failed_row(episode, f"stopped by {signal_name} before the episode ended"),
            "outcome": INTERRUPTED}


def play_one(job: dict[str, Any]) -> dict[str, Any]:
    """Play one episode in this process (a worker) and return its results row.

    Args:
        job: episode (level, difficulty, seed), agent (command line), out (the suite's
            folder), secret (the suite's, as hex) and settings (RunSettings fields); for
            the stepwise track also
            stepwise ({"cache": the reference runs' folder}) and, when the end-to-end
            episode was finished before, its row.

    Returns:
        The results row (with `stepwise`, the chain's results, on the stepwise track).
    """
    ep = Episode(**job["episode"])
    out = Path(job["out"])
    data = dict(job["settings"])
    data["env_passthrough"] = tuple(data["env_passthrough"])
    settings = RunSettings(**data)
    row = job.get("row")
    secret = parse_secret(job["secret"], "the suite's secret")
    if row is None:
        folder = ep.folder(out)
        folder.mkdir(parents=True, exist_ok=True)
        summary = runner.run(ep.level, job["agent"], difficulty=ep.difficulty, seed=ep.seed,
                             out_dir=folder, settings=settings, secret=secret,
                             hidden=_hidden(out, job))
        # The row comes from the harness's own summary in memory: the record file sits
        # where the agent ran, and nothing the agent can write is read back as a result.
        row = row_from_summary(ep, Path(summary["run_dir"]), summary)
    if job.get("stepwise"):
        chain = ep.folder(out, "stepwise")
        if chain.exists():  # a chain is played whole: what an earlier run left is kept aside
            _set_aside(chain, out, "an unfinished or earlier chain", lambda _text: None,
                       "stepwise")
        row = {**row, "stepwise": play_chain(ep.level, job["agent"], ep.difficulty, ep.seed,
                                             chain, settings, Path(job["stepwise"]["cache"]),
                                             secret, hidden=_hidden(out, job))}
    return row


def _hidden(out: Path, job: dict[str, Any]) -> tuple[Path, ...]:
    # The suite's secret and the reference runs, wherever the operator keeps them: a
    # folder of the agent's that holds one is never shown to it whole.
    cache = (job.get("stepwise") or {}).get("cache")
    return (out / SECRET_FILE, *((Path(cache),) if cache else ()))


def run_suite(episodes: list[Episode], agent: str, out: Path, settings: RunSettings,
              jobs: int, progress: Callable[[int, int, dict[str, Any] | None], None],
              note: Callable[[str], None] = lambda _text: None,
              backend: BackendFactory = Workers,
              stepwise: dict[str, Any] | None = None,
              secret: bytes | None = None) -> list[dict[str, Any]]:
    """Play every episode not finished before, `jobs` at a time, and return all rows.

    Args:
        episodes: The planned episodes.
        agent: The agent command line.
        out: The suite's output directory.
        settings: Run settings for every episode.
        jobs: Worker processes.
        progress: Called with (done, total, row) as episodes finish (row None at start).
        note: Called with a sentence for each earlier run set aside on resume.
        backend: Where episodes are played (forked local processes by default).
        stepwise: For the stepwise track, {"cache": the reference runs' folder}: each
            episode's chain is played too (whole, also when its end-to-end episode is
            reused on resume).
        secret: The suite's secret (harness/core/keys.py); default the one kept in `out`
            (made on the first run, read on every resume).

    Returns:
        One row per episode, in plan order.

    Raises:
        SuiteMismatchError: Earlier runs in `out` used other settings.
        harness.core.stopping.Interrupted: A stop signal came; every worker and agent was
            ended first, and each running episode's record ends as interrupted.
    """
    secret = suite_secret(out) if secret is None else secret
    # The secret's fingerprint (never the secret): a folder whose secret was lost or
    # swapped is refused, not resumed with episodes drawn from two secrets.
    identity = {**suite_identity(agent, settings), "secret": secret_fingerprint(secret)}
    check_identity(out, identity)
    rows: dict[Episode, dict[str, Any]] = {}
    for ep in episodes:
        row = finished(ep, out, identity, note)
        if row is not None:
            rows[ep] = row
    total = len(episodes)
    queue = [ep for ep in episodes if ep not in rows or stepwise]
    reused = {ep: rows.pop(ep) for ep in list(rows) if stepwise}
    limit_s = settings.episode_timeout_s * (STEPWISE_TIMEOUTS if stepwise else 1)
    with backend(jobs, play_one, limit_s) as workers:
        progress(len(rows), total, None)  # once the backend is up (Ray checks the agent first)
        while queue or workers.running:
            while queue and workers.free:
                ep = queue.pop(0)
                workers.start(ep, {"episode": asdict(ep), "agent": agent, "out": str(out),
                                   "settings": settings.to_dict(),
                                   "secret": secret_text(secret),
                                   **({"stepwise": stepwise, "row": reused.get(ep)}
                                      if stepwise else {})})
            for ep, result in workers.finished():
                rows[ep] = _row(ep, result)
                progress(len(rows), total, rows[ep])
    return [rows[ep] for ep in episodes]


def _row(ep: Episode, result: dict[str, Any]) -> dict[str, Any]:
    # A worker answers with its row, or says it was stopped or failed.
    if "interrupted" in result:
        return interrupted_row(ep, result["interrupted"])
    if "error" in result:
        return failed_row(ep, result["error"])
    return result
