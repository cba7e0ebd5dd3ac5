"""A round robin of matches: plan it, play it on a suite backend, resume where one stopped.

Every pair of agents meets on every level, difficulty and seed twice, seats swapped:
the first agent of a pairing plays the first half of the level's seats (team "a"), the
second the other half (team "b"), so on team_yard each agent is a team of two. Each
match has a fixed folder under the tournament's output, laid out as a suite's episode
(`episodes/<level>-a<I>-a<J>/<difficulty>/s<seed>/`, I and J the agents' places in
`--agent` order, first seat first), so the suite backends (forked workers, or Ray)
play and land it as they do an episode. A tournament started again reuses a match
whose record is sealed by this harness, names the same agents in the same seats and
replays; any other run in a match's folder is moved under `set_aside/` and the match
played again. Results come from the replay or the harness's own summary, never from
what a record file says.
"""

from __future__ import annotations

import itertools
import json
import shutil
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from harness.core.keys import parse_secret
from harness.core.level_refs import resolve
from harness.core.record import RecordError, record_text
from harness.core.seal import seal, seal_problem
from harness.episode.settings import RunSettings
from harness.ladder.records import SET_ASIDE, read_header
from harness.match.cli import match_level_ref
from harness.match.replay import MatchRecordError, replay_match
from harness.match.runner import MATCH_RECORD, MatchSpec, run_match
from harness.suite.files import folder_name
from harness.suite.plan import Backend, BackendFactory, Episode
from harness.suite.workers import Workers

TEAMS = ("a", "b")


@dataclass(frozen=True)
class Pairing:
    """One match of a round robin: where, which seed, and which agent sits first."""

    level: str
    difficulty: str
    seed: int
    first: int
    second: int

    @property
    def slot(self) -> Episode:
        """The suite episode whose folder this match uses (its level names the pairing)."""
        return Episode(f"{folder_name(self.level)}-a{self.first}-a{self.second}",
                       self.difficulty, self.seed)

    def folder(self, out: Path) -> Path:
        """This match's folder inside `out`."""
        return self.slot.folder(out)


def seat_plan(players: int, pairing: Pairing, agents: list[str]
              ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The command and team of each seat: the first agent in the first half of the seats."""
    half = players // 2
    commands = (agents[pairing.first],) * half + (agents[pairing.second],) * half
    return commands, (TEAMS[0],) * half + (TEAMS[1],) * half


def plan(levels: list[tuple[str, list[str]]], agents: int, seeds: int) -> list[Pairing]:
    """Every match of the round robin, in a stable order (level, difficulty, seed, pair)."""
    return [Pairing(level, difficulty, seed, i, j)
            for level, difficulties in levels for difficulty in difficulties
            for seed in range(seeds)
            for a, b in itertools.combinations(range(agents), 2) for i, j in ((a, b), (b, a))]


def play_pairing(job: dict[str, Any]) -> dict[str, Any]:
    """Play one match in this process (a worker) and return its row.

    Args:
        job: episode (the pairing's slot), pairing, agents, out, secret (hex) and
            settings (RunSettings fields).
    """
    pairing = Pairing(**job["pairing"])
    data = dict(job["settings"])
    data["env_passthrough"] = tuple(data["env_passthrough"])
    secret = parse_secret(job["secret"], "the tournament's secret")
    resolved = resolve(match_level_ref(pairing.level), secret)  # a generated id from it
    level = resolved.level
    if level.match is None:
        raise ValueError(f"level {pairing.level!r} has no match block")
    commands, teams = seat_plan(len(level.match.starts), pairing, job["agents"])
    # The folder of the job's slot: under the suite's output here, under a scratch
    # folder on a Ray worker (which sends the run directory back to be landed).
    run_dir = Episode(**job["episode"]).folder(Path(job["out"])) / f"m{uuid.uuid4().hex[:10]}"
    summary = run_match(MatchSpec(level, str(resolved.source), pairing.difficulty,
                                  pairing.seed, commands, run_dir, teams,
                                  RunSettings(**data),
                                  secret))
    seal(run_dir / MATCH_RECORD)
    return _row(pairing, run_dir, summary["standings"], summary["over"])


def _row(pairing: Pairing, run_dir: Path, standings: list[dict[str, Any]],
         over: str | None) -> dict[str, Any]:
    return {**asdict(pairing), "run_dir": str(run_dir), "over": over,
            "standings": [{k: v for k, v in s.items() if k != "agent_failure"}
                          for s in standings]}


def finished(pairing: Pairing, out: Path, agents: list[str], settings: RunSettings,
             note: Callable[[str], None]) -> dict[str, Any] | None:
    """The row of a match played before whose record is sealed and replays, else None.

    Every other run in the match's folder is moved under `set_aside/`, named through `note`.
    """
    folder = pairing.folder(out)
    if not folder.is_dir():
        return None
    row = None
    for run_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        why = _unusable(run_dir, pairing, agents, settings) if row is None \
            else "a second run of a match already counted"
        if isinstance(why, dict):
            row = why
        else:
            _set_aside(run_dir, out, why, note)
    return row


def _unusable(run_dir: Path, pairing: Pairing, agents: list[str],
              settings: RunSettings) -> str | dict[str, Any]:
    # Why a run cannot be reused, or its row from the replay.
    record = run_dir / MATCH_RECORD
    if (unsealed := seal_problem(record)) is not None:
        return f"not this harness's finished record ({unsealed})"
    try:
        header = read_header(record)
        report = replay_match(record)
    except (MatchRecordError, RecordError, ValueError, OSError) as exc:
        return f"unusable record ({exc})"
    commands = [header["agents"][pid]["command"] for pid in header["players"]]
    expected, _teams = seat_plan(len(commands), pairing, agents)
    if tuple(commands) != expected or header.get("settings") != settings.to_dict():
        return "made with other agents or settings"
    if not report.verified:
        return f"record does not replay ({report.divergence})"
    # How it ended: the end line's word, which the replay has just checked.
    end = json.loads(record_text(record).rstrip("\n").rsplit("\n", 1)[-1])
    return _row(pairing, run_dir, report.standings, end.get("over"))


def _set_aside(run_dir: Path, out: Path, why: str, note: Callable[[str], None]) -> None:
    target = out / SET_ASIDE / run_dir.relative_to(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    while target.exists():  # never over what was set aside before
        target = target.with_name(target.name + "+")
    shutil.move(str(run_dir), str(target))
    note(f"set aside {run_dir} as {target}: {why}; the match is played again")


def run_tournament(pairings: list[Pairing], agents: list[str], out: Path,
                   settings: RunSettings, secret: str, workers: int,
                   progress: Callable[[int, int, dict[str, Any] | None], None],
                   note: Callable[[str], None] = lambda _text: None,
                   backend: BackendFactory = Workers) -> list[dict[str, Any]]:
    """Play every match not finished before, `workers` at a time; return all rows in plan order.

    A match whose worker failed gets a row with `error` (no record, not rated).
    """
    rows: dict[Pairing, dict[str, Any]] = {}
    for pairing in pairings:
        row = finished(pairing, out, agents, settings, note)
        if row is not None:
            rows[pairing] = row
    queue = [p for p in pairings if p not in rows]
    total = len(pairings)
    with backend(workers, play_pairing, settings.episode_timeout_s) as running:
        progress(len(rows), total, None)
        _drain(running, queue, rows, {"agents": agents, "out": str(out), "secret": secret,
                                      "settings": settings.to_dict()},
               lambda row: progress(len(rows), total, row))
    return [rows[p] for p in pairings]


def _drain(running: Backend, queue: list[Pairing], rows: dict[Pairing, dict[str, Any]],
           common: dict[str, Any], done: Callable[[dict[str, Any]], None]) -> None:
    while queue or running.running:
        while queue and running.free:
            pairing = queue.pop(0)
            running.start(pairing, {**common, "pairing": asdict(pairing),
                                    "episode": asdict(pairing.slot)})
        for pairing, result in running.finished():
            if "interrupted" in result or "error" in result:
                result = {**asdict(pairing), "run_dir": None, "over": None, "standings": [],
                          "error": result.get("error")
                          or f"stopped by {result['interrupted']} before the match ended"}
            rows[pairing] = result
            done(result)


def results_json(meta: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """The tournament's results file: what was asked for and one row per match."""
    return json.dumps({"tournament": meta, "matches": rows}, indent=2) + "\n"
