"""The instruction pyramid of a record: operations, medium goals and the run's strategy.

Built bottom-up from the record alone, as a pure function of it:

- **Operations**: one per turn, the action in the words of `pyramid_words` (made from
  what the player had perceived up to the observation the action answered), with how it
  ended and what the player perceived changing.
- **Goals**: operations grouped by the objective they served. The rule: an operation
  serves the objective whose completion it led to next, that is, every operation since
  the previous completion belongs to the next objective whose status turns `done` (read
  from the next observation, or the summary after the last turn). Objectives completed
  by the same action share one goal. Operations after the last completion serve the
  mission exit when the mission succeeded, else they form an open goal named after the
  first counted objective still open.
- **Strategy**: one paragraph: the goals in order, the fights, pickups and areas crossed,
  and how the run ended.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from harness.core.record import Record, RecordError, read_record
from harness.offline.pyramid_words import Known, joined, phrase

PYRAMID_VERSION = 1


@dataclass(frozen=True)
class Operation:
    """One turn as a short operation."""

    turn: int
    tick: int
    action: dict[str, Any] | None  # {"action", "arguments"}; None for an invalid line
    text: str
    plain: str
    end_reason: str | None
    changes: tuple[str, ...]


@dataclass(frozen=True)
class Goal:
    """Operations grouped by the objectives they led to."""

    number: int
    objectives: tuple[int, ...]
    text: str
    status: str  # done, exit (the mission exit after every objective) or open
    turns: tuple[int, ...]


@dataclass(frozen=True)
class Pyramid:
    """The three horizons of one record."""

    record: str
    operations: tuple[Operation, ...]
    goals: tuple[Goal, ...]
    strategy: str

    def to_json(self) -> dict[str, Any]:
        """The pyramid as JSON data (schemas/pyramid.schema.json)."""
        return {
            "pyramid_version": PYRAMID_VERSION,
            "record": self.record,
            "operations": [{**asdict(o), "changes": list(o.changes)} for o in self.operations],
            "goals": [{**asdict(g), "objectives": list(g.objectives), "turns": list(g.turns)}
                      for g in self.goals],
            "strategy": self.strategy,
        }


def _turn_problem(turn: Any, position: int) -> str | None:
    # The shape the pyramid reads; full schema checks cost seconds a record (harness replay).
    if not isinstance(turn.get("turn"), int) or turn["turn"] != position:
        return f"turn line {position + 1} is numbered {turn.get('turn')!r}, not {position}"
    view = (turn.get("observation") or {}).get("view")
    if not isinstance(view, dict) or not isinstance(view.get("objectives"), list):
        return f"turn {position}: observation.view.objectives is missing"
    action = turn.get("action")
    if action is not None and not (isinstance(action, dict) and isinstance(
            action.get("action"), str) and isinstance(action.get("arguments", {}), dict)):
        return f"turn {position}: action is not an object with action and arguments"
    if not isinstance(turn.get("result") or {}, dict) or not isinstance(turn.get("tick"), int):
        return f"turn {position}: result must be an object or null, tick a whole number"
    return None


def read_checked(path: str | Path) -> Record:
    """Read a record and check the fields the pyramid reads.

    Raises:
        RecordError: Unreadable, a turn lacking what the pyramid reads (named), or no turn.
    """
    record = read_record(path)
    if not record.turns:
        raise RecordError(f"{record.path}: the record holds no turn")
    for position, turn in enumerate(record.turns):
        problem = _turn_problem(turn, position)
        if problem:
            raise RecordError(f"{record.path}: {problem}")
    return record


def play_hash(record: Record) -> str:
    """A record's identity: what was played, not when (wall times left out).

    The level's content hash, difficulty, seed, every turn's state hash and action, and
    the final state hash: two runs that played the same episode the same way share it.
    """
    header = record.header
    turns = [[t["turn"], t["state_hash"], t.get("action") and
              {"action": t["action"]["action"], "arguments": t["action"].get("arguments", {})}]
             for t in record.turns]
    body = [header.get("level_hash"), header.get("difficulty"), header.get("seed"), turns,
            (record.end or {}).get("final_state_hash")]
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _statuses(objectives: list[dict[str, Any]]) -> dict[int, str]:
    return {o["index"]: o["status"] for o in objectives}


def _after(record: Record, position: int) -> dict[int, str]:
    # The objectives' statuses once the turn at `position` had run.
    if position + 1 < len(record.turns):
        return _statuses(record.turns[position + 1]["observation"]["view"]["objectives"])
    return _statuses(((record.end or {}).get("summary") or {}).get("objectives") or [])


def operations(record: Record) -> list[Operation]:
    """One operation per turn, in turn order."""
    known = Known()
    out = []
    for turn in record.turns:
        view = turn["observation"]["view"]
        known.learn_observation(turn["observation"])
        action, result = turn.get("action"), turn.get("result") or {}
        if action is None:
            code = (turn.get("error") or {}).get("code", "no action")
            words = f"an invalid line ({code}): nothing ran"
            out.append(Operation(turn["turn"], turn["tick"], None, words, words, None, ()))
            continue
        args = action.get("arguments") or {}
        said = phrase(action["action"], args, known, view)
        out.append(Operation(turn["turn"], turn["tick"],
                             {"action": action["action"], "arguments": args}, said.text,
                             said.plain, result.get("end_reason"),
                             tuple(result.get("changes") or ())))
    return out


def _objective_texts(record: Record) -> dict[int, dict[str, Any]]:
    texts: dict[int, dict[str, Any]] = {}
    for turn in record.turns[:1]:
        for o in turn["observation"]["view"]["objectives"]:
            texts[o["index"]] = o
    return texts


def goals(record: Record, ops: list[Operation]) -> list[Goal]:
    """The medium goals: operations grouped by the objective whose completion they led to."""
    objectives = _objective_texts(record)
    out: list[Goal] = []
    pending: list[int] = []
    for position, turn in enumerate(record.turns):
        pending.append(ops[position].turn)
        before = _statuses(turn["observation"]["view"]["objectives"])
        after = _after(record, position)
        done = sorted(i for i, s in after.items() if s == "done" and before.get(i) != "done")
        if done:
            text = " ".join(objectives[i]["text"] if i in objectives else f"Objective {i}."
                            for i in done)
            out.append(Goal(len(out) + 1, tuple(done), text, "done", tuple(pending)))
            pending = []
    if pending:
        out.append(_last_goal(record, objectives, len(out) + 1, tuple(pending)))
    return out


def _last_goal(record: Record, objectives: dict[int, dict[str, Any]], number: int,
               turns: tuple[int, ...]) -> Goal:
    summary = (record.end or {}).get("summary") or {}
    exit_ = record.turns[-1]["observation"]["view"].get("exit") or {}
    if summary.get("success"):
        where = f"the {exit_['name']}" if exit_.get("name") else "the mission exit"
        return Goal(number, (), f"Leave through {where}.", "exit", turns)
    final = _after(record, len(record.turns) - 1)
    still = [i for i in sorted(objectives) if objectives[i].get("counts", True)
             and final.get(i) not in ("done",)]
    if not still:
        return Goal(number, (), "Nothing left open: the run ended first.", "open", turns)
    return Goal(number, (still[0],), objectives[still[0]]["text"], "open", turns)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _counted(ops: list[Operation], action: str) -> list[str]:
    return [str(next(iter(o.action["arguments"].values()), "")) for o in ops
            if o.action and o.action["action"] == action]


def strategy(record: Record, ops: list[Operation], goal_list: list[Goal]) -> str:
    """One paragraph for the whole run, from its goals and operations."""
    start = record.header.get("start") or {}
    summary = (record.end or {}).get("summary") or {}
    title = start.get("title") or record.header.get("level", "the level")
    objectives = _objective_texts(record)
    steps = []
    for g in goal_list:
        said = [objectives[i]["text"].rstrip(".") for i in g.objectives if i in objectives]
        aims = joined(f'"{t}"' for t in said) if said else f'"{g.text.rstrip(".")}"'
        unfinished = ", unfinished" if g.status == "open" else ""
        steps.append(f"{aims} ({_count(len(g.turns), 'operation')}{unfinished})")
    parts = [f"In {title} ({record.header.get('difficulty')}), the player worked toward "
             f"{', then '.join(steps)}."]
    fights = sorted(set(_counted(ops, "attack")))
    if fights:
        parts.append(f"It fought {len(fights)} characters on the way ({', '.join(fights)}).")
    taken = [c for o in ops for c in o.changes if c.startswith("you took ")]
    if taken:
        parts.append(f"It picked up {len(taken)} things ({', '.join(t[9:] for t in taken)}).")
    areas = [c[12:] for o in ops for c in o.changes if c.startswith("you entered ")]
    if areas:
        parts.append(f"It crossed {len(set(areas))} areas in {len(areas)} entries.")
    invalid = sum(1 for o in ops if o.action is None)
    if invalid:
        parts.append(f"{invalid} of its lines were invalid.")
    outcome = summary.get("outcome") or "an interrupted run"
    parts.append(f"The run ended {outcome} after {len(ops)} decisions with score "
                 f"{float(summary.get('score') or 0):.2f}.")
    return " ".join(parts)


def pyramid(record: Record) -> Pyramid:
    """The three horizons of a record; the same record always gives the same pyramid."""
    ops = operations(record)
    goal_list = goals(record, ops)
    return Pyramid(play_hash(record), tuple(ops), tuple(goal_list),
                   strategy(record, ops, goal_list))
