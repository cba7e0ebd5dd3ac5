"""Replay: re-simulate a record and re-derive every claim it makes.

A record claims a state hash and tick per turn, turns numbered 0..n-1, a summary
(outcome, success, score, progress, objectives, decisions, invalid actions, ticks), a
final state hash, and for its pages the map in its header and the path each action
walked. Replay plays the recorded actions in a fresh world, building each
turn's observation as the episode did (building it is where characters that appeared
mid-episode get their ids), and compares every one of those claims with what it
re-derives. Nothing in the record is taken on trust but the agent's own lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.core.bounds import quote
from harness.core.claims import UNVERIFIED, hello_problem, rederived_usage, start_point
from harness.core.game import Game, GameFactory
from harness.core.keys import key_of
from harness.core.level_refs import from_header
from harness.core.protocol import (
    ABORTED_KIND,
    HARNESS_ERROR,
    OUTCOMES,
    PROTOCOL_ERROR,
    Fault,
    as_played,
    schema_errors,
    step_fault,
)
from harness.core.record import Record, RecordError, read_record
from harness.core.tracks import TrackSpec
from harness.episode import outcome as endings
from harness.episode.chain import ChainRun
from harness.episode.snapshot import Snapshot, SnapshotError, read_snapshot, restore, view_digest
from harness.episode.subtask import ChainPlan, Limits, episode_limits
from harness.episode.turns import TurnState

# Exit statuses of `harness replay`, declared once (PROTOCOL.md lists them).
REPLAY_STATUSES: dict[str, tuple[int, str]] = {
    "verified": (0, "every claim of the record was re-derived and matches"),
    "diverged": (1, "a state hash, the turn numbering, the map, a path walked, a snapshot, "
                 "the hello, the usage totals or the summary differs"),
    "unusable": (2, "the file is not a readable, schema-valid record, or its level is gone"),
    "interrupted": (3, "the run was interrupted (no end line, or the outcome `interrupted`): "
                    "its turns may match, but it proves no result"),
}

# Summary fields a replay re-derives and compares.
CHECKED_SUMMARY = ("outcome", "terminated", "truncated", "success", "failure", "score",
                   "progress", "stages", "objectives", "decisions", "invalid_actions",
                   "game_ticks", "stepwise")
# Claims that records made before them lack: absent, there is nothing to check (a row
# then counts the figure as 0, the least it could be).
LATER_SUMMARY = ("stages",)


@dataclass(frozen=True)
class ReplayReport:
    """What a replay found.

    Attributes:
        verified: True only when the record is complete and every claim matched.
        turns: Turns compared.
        divergence: The first mismatch in plain words, or None.
        interrupted: The run was interrupted (no end line, or its outcome says so).
        summary: The summary re-derived by the replay (None when it stopped early).
        start: Where the run began when not at the level's start (a snapshot), else None.
        unverified: The record's fields replay takes on its word (harness.core.claims.UNVERIFIED).
    """

    verified: bool
    turns: int
    divergence: str | None
    interrupted: bool
    summary: dict[str, Any] | None = None
    start: dict[str, Any] | None = None
    unverified: tuple[str, ...] = tuple(UNVERIFIED)

    @property
    def status(self) -> str:
        """One of `REPLAY_STATUSES`' keys (never "unusable": that one is raised)."""
        if self.divergence is not None:
            return "diverged"
        return "interrupted" if self.interrupted else "verified"


def _schema_problem(record: Record, views: bool = True) -> str | None:
    # views=False: the turns' views are left to the replay, which compares each with the
    # world's own; a record that diverges is checked whole before it is called diverged.
    for line in (record.header, *record.turns, *([record.end] if record.end else [])):
        errors = schema_errors(line.get("kind", "header"), line, views=views)
        if errors:
            where = "header" if line is record.header else (
                "end line" if line is record.end else f"turn {line.get('turn')}")
            return f"{record.path}: {where} breaks schemas/record: {errors[0]}"
    return None


def replay(path: str | Path, game_factory: GameFactory | None = None) -> ReplayReport:
    """Re-simulate a record and compare everything it claims.

    Args:
        path: A record file or its run directory.
        game_factory: Builds the game (default: the game of the track the record's start
            message names; a test may swap it).

    Returns:
        The report; the first divergence stops the comparison.

    Raises:
        harness.core.record.RecordError: The file is not a readable, schema-valid record.
        harness.episode.runner.UsageError: Its level cannot be found.
    """
    record = read_record(path)
    problem = _schema_problem(record, views=False)
    if problem is not None:
        raise RecordError(problem)
    report = _replay(record, game_factory)
    if report.divergence is not None and (problem := _schema_problem(record)) is not None:
        raise RecordError(problem)  # a view breaking the schema makes the file unusable
    return report


def _replay(record: Record, game_factory: GameFactory | None) -> ReplayReport:
    # Every line is schema-valid, its views aside (see `replay`).
    header = record.header
    level = from_header(header).level
    interrupted = record.interrupted
    begun = start_point(header)

    def diverged(turns: int, message: str) -> ReplayReport:
        return ReplayReport(False, turns, message, interrupted, start=begun)

    if (problem := hello_problem(header)) is not None:
        return diverged(0, problem)
    if level.content_hash != header["level_hash"]:
        return diverged(0, f"{level.hash_covers} changed since the run "
                        f"(hash {level.content_hash[:12]} vs {header['level_hash'][:12]})")
    start = header.get("start") or {}
    try:
        track = TrackSpec.from_start(start)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"{record.path}: header start: {exc}") from None
    factory = game_factory or track.game_factory()
    actions = track.actions()
    version = int(header["protocol_version"])
    origin = None
    if "origin" in header:
        try:
            origin = Snapshot.from_dict(header["origin"], f"{record.path}: header origin")
        except SnapshotError as exc:
            raise RecordError(str(exc)) from None
        if key_of(origin.to_dict()) != key_of(header):
            return diverged(0, "the header's episode key differs from its origin snapshot's")
        try:
            game = restore(origin, level, factory)
        except SnapshotError as exc:
            return diverged(0, f"the snapshot it starts from does not restore: {exc}")
    else:
        known = [d.id for d in level.difficulties]
        if header["difficulty"] not in known:
            raise RecordError(f"{record.path}: header difficulty {quote(header['difficulty'])} "
                              f"is not one of its level's ({', '.join(known)})")
        game = factory(level, header["difficulty"], key_of(header))
    if "map" in header and _plain(game.plan()) != header["map"]:
        return diverged(0, "the header's map differs from the one the level, difficulty and "
                        "episode key give")
    limits = episode_limits(level, track)
    plan = ChainPlan.from_record(header)
    if plan is not None and (problem := plan.budget_problem()) is not None:
        return diverged(0, f"the header's stepwise budgets: {problem}")
    chain = None if plan is None else ChainRun(plan, level, factory, game)
    kept = _Kept(record, origin)
    counted = TurnState()  # the decisions counted as the episode counted them
    for index, turn in enumerate(record.turns):
        if turn["turn"] != index:
            return diverged(index, f"turns are not numbered 0..n-1: line {index} of the "
                            f"turns says turn {turn['turn']}")
        # A snapshot is of the moment before a stepwise reset could replace the world.
        problem = kept.check(index, game)
        if problem is not None:
            return diverged(index, problem)
        if chain is not None:
            game, ending = chain.advance(game, counted.decisions)
            if chain.reset_to is not None:
                kept.steps = list(chain.reset_to.steps)
            if ending is not None:
                return diverged(index, f"turn {index}: the chain was over before it "
                                f"({ending.reason})")
        now = game.turn  # the moment this turn's observation was built at
        if _plain(now.view) != (turn.get("observation") or {}).get("view"):
            return diverged(index, f"turn {index}: the observation's view differs from the "
                            "one the replayed world gives")
        if now.state_hash != turn["state_hash"] or now.tick != turn["tick"]:
            return diverged(index, f"turn {index}: state hash {now.state_hash[:12]} at tick "
                            f"{now.tick}, record says {turn['state_hash'][:12]} at tick "
                            f"{turn['tick']}")
        action, error = turn.get("action"), turn.get("error")
        kept.steps.append(None)
        if action is None and error is None:
            continue  # no answer: the episode ended without a step
        executed = action if error is None else None
        if executed is not None:
            if (fault := step_fault(executed, actions)) is not None:
                return diverged(index, f"turn {index}: the recorded action is not one of the "
                                f"track's: {fault.message}")
            kept.steps[-1] = {"action": executed["action"], "arguments": executed["arguments"]}
        # A refused action was the agent's (its error is recorded): the world is asked
        # only the executed ones, and looks again either way, as the episode did; a
        # record of an earlier protocol asks under the rules it was played with.
        stepped = game.step(None if executed is None else as_played(executed, version))
        counted.count(stepped, None if error is None else Fault(error["code"], error["message"]))
        if stepped.fault is not None:
            return diverged(index, f"turn {index}: the recorded action was refused on "
                            f"replay: {stepped.fault.message}")
        claimed_path = (turn.get("result") or {}).get("path")
        if claimed_path is not None and _plain((stepped.result or {}).get("path")) \
                != claimed_path:
            return diverged(index, f"turn {index}: the path walked differs from the "
                            "record's")
    if interrupted or record.end is None:
        return ReplayReport(False, len(record.turns), None, True, start=begun)
    problem = kept.check(len(record.turns), game)
    if problem is None and kept.unseen():
        problem = f"snapshots at turns {kept.unseen()} are listed for turns the record lacks"
    if problem is not None:
        return diverged(len(record.turns), problem)
    ending = None
    claimed_kind = OUTCOMES.get(str(record.end["summary"].get("outcome")))
    if chain is not None and claimed_kind is not None and claimed_kind.kind != ABORTED_KIND:
        # The episode asked the chain once more after the last turn; an aborted one did not.
        game, ending = chain.advance(game, counted.decisions)
    if game.turn.state_hash != record.end["final_state_hash"]:
        return diverged(len(record.turns), "final state hash differs")
    if "ids" in record.end and _plain(game.ids_given()) != record.end["ids"]:
        return diverged(len(record.turns), "the end line's episode ids differ from the ones "
                        "replay hands out")
    summary = _rederive(record, game, limits, chain, ending, counted)
    claimed = record.end["summary"]
    for name in CHECKED_SUMMARY:
        if name in LATER_SUMMARY and name not in claimed:
            continue
        if summary.get(name) != claimed.get(name):
            return ReplayReport(False, len(record.turns), f"summary {name}: the record says "
                                f"{_short(claimed.get(name))}, replay gives "
                                f"{_short(summary.get(name))}", False, summary, begun)
    if record.end.get("usage") != rederived_usage(record.turns, counted.decisions):
        return ReplayReport(False, len(record.turns), "the end line's usage totals differ from "
                            "the sum of the turns' reported usage", False, summary, begun)
    return ReplayReport(True, len(record.turns), None, False, summary, begun)


def _plain(value: Any) -> Any:
    # As the record holds it: JSON has lists where Python may have tuples.
    return json.loads(json.dumps(value))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


class _Kept:
    """The snapshots a record lists, checked at their turns against the replayed world."""

    def __init__(self, record: Record, origin: Snapshot | None) -> None:
        self.header, self.folder = record.header, record.path.parent
        # The steps that led to the moment being replayed (a stepwise reset replaces them).
        self.steps: list[Any] = list(origin.steps) if origin is not None else []
        listed = (record.end or {}).get("snapshots") or []
        self.listed = {int(s["turn"]): s for s in listed}
        self.seen: set[int] = set()

    def unseen(self) -> list[int]:
        return sorted(set(self.listed) - self.seen)

    def check(self, turn: int, game: Game) -> str | None:
        entry = self.listed.get(turn)
        if entry is None:
            return None
        self.seen.add(turn)
        name = f"snapshots/turn_{turn:04d}.json"
        if entry["file"] != name:
            return f"the snapshot of turn {turn} is listed as {entry['file']!r}, not {name!r}"
        path = self.folder / name
        if not path.exists():
            # A record copied alone still proves its result: the listed moment is checked,
            # the file only when it is there.
            now = game.turn
            if (entry["state_hash"], entry["tick"]) != (now.state_hash, now.tick):
                return f"the snapshot listed at turn {turn} claims another state than replay's"
            return None
        try:
            snap = read_snapshot(path)  # capped: a planted file of gigabytes is refused
        except (OSError, ValueError, SnapshotError) as exc:
            return f"the snapshot of turn {turn} cannot be read: {exc}"
        header = self.header
        claims = (snap.level_hash, snap.difficulty, snap.seed, key_of(snap.to_dict()),
                  list(snap.steps), snap.tick,
                  snap.state_hash, snap.view_hash, entry["state_hash"], entry["tick"])
        now = game.turn
        derived = (header["level_hash"], header["difficulty"], header["seed"], key_of(header),
                   _plain(self.steps), now.tick, now.state_hash,
                   view_digest(now.view), now.state_hash, now.tick)
        names = ("level hash", "difficulty", "seed", "episode key", "steps", "tick", "state hash",
                 "view digest", "listed state hash", "listed tick")
        for what, claim, truth in zip(names, claims, derived, strict=True):
            if claim != truth:
                return f"the snapshot of turn {turn} ({path}) differs from the replay: its {what}"
        return None


def _rederive(record: Record, game: Game, limits: Limits, chain: ChainRun | None,
              chain_ending: endings.Ending | None, counted: TurnState) -> dict[str, Any]:
    """The summary the replayed world supports.

    The record's outcome is kept only where the agent's conduct (not the world) decided
    it and the turns bear that out.
    """
    decisions = counted.decisions
    now = game.turn
    counts = {"decisions": decisions, "invalid_actions": counted.invalid,
              "game_ticks": now.tick}
    status = now.status
    ending = chain_ending if chain is not None else endings.world_ending(
        status, decisions, limits.max_decisions, now.tick, limits.max_ticks)
    claimed = (record.end or {}).get("summary") or {}  # (replay reaches here with an end line)
    if ending is None:
        # Only an aborted ending can stand where the world shows neither an end nor a
        # spent budget, and only when the turns show the agent's fault.
        outcome = claimed.get("outcome")
        if outcome not in OUTCOMES or OUTCOMES[outcome].kind != ABORTED_KIND \
                or not _conduct_bears_out(outcome, record):
            return {**endings.summary_message(endings.Ending(HARNESS_ERROR, ""), status,
                                              counts),
                    "outcome": "none: the world shows no ending and no spent budget, and "
                               "the turns show no fault of the agent's"}
        ending = endings.Ending(outcome, str(claimed.get("reason", "")))
    summary = endings.summary_message(ending, status, counts)
    if chain is not None:
        summary["stepwise"] = chain.summary_block(game, decisions)
    derived: dict[str, Any] = dict(summary)
    return derived


def _conduct_bears_out(outcome: str, record: Record) -> bool:
    turns = record.turns
    if outcome == HARNESS_ERROR:
        return True
    if outcome == PROTOCOL_ERROR:
        limit = int(record.header["settings"].get("max_invalid_in_a_row", 1))
        if not turns:
            return True  # a bad hello: no turn was played
        tail = turns[-limit:]
        return len(tail) == limit and all(t.get("error") is not None for t in tail)
    # agent_timeout, agent_crashed: the agent gave no answer on the last turn (or none
    # before its hello).
    return not turns or (turns[-1].get("action") is None and turns[-1].get("error") is None)
