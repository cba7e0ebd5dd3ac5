"""Replay a match record: re-play every player's decisions and re-derive every player's score.

The record's header names the level (its hash must match), the key and the teams; each
turn line gives the player whose decision it was, the state hash before it and what was
stepped; retire lines say when a player's agent was taken out. Replay checks that the
same player decides at each turn with the same state hash and was sent the same view
(its own player's, built from its own perception), then compares the final
state hash and every player's frags, down tick, result and (with team objectives) its
side's figures with the record's end line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.core.keys import key_of
from harness.core.record import RecordError, record_text
from harness.match.runner import MATCH_RECORD
from world.face import (
    MatchSession,
    WorldError,
    generate,
    is_generated,
    parse_level,
    read_level_json,
)


@dataclass(frozen=True)
class MatchReplay:
    """What a match replay found.

    Attributes:
        verified: Whether every turn and the end line were reproduced.
        turns: Turns replayed.
        divergence: The first difference, in words (None when verified).
        standings: The re-derived standings.
    """

    verified: bool
    turns: int
    divergence: str | None
    standings: list[dict[str, Any]]


def match_record_path(path: str | Path) -> Path | None:
    """The match record a path names (the file, or a run directory holding one), else None."""
    p = Path(path)
    if p.is_dir() and (p / MATCH_RECORD).is_file():
        return p / MATCH_RECORD
    return p if p.is_file() and p.name == MATCH_RECORD else None


class MatchRecordError(ValueError):
    """A match record that cannot be replayed at all (unreadable, malformed, level gone)."""


def replay_match(path: str | Path) -> MatchReplay:
    """Re-play a match record (a file or its run directory) and compare every claim.

    Raises:
        MatchRecordError: naming the file and what is wrong with it, for a record that
            is not readable, not well formed, or whose level file is gone.
    """
    record = match_record_path(path) or Path(path)
    try:
        return _replay(record)
    except (KeyError, TypeError, ValueError, IndexError, StopIteration, OSError,
            AttributeError, WorldError, RecordError) as exc:  # Attribute: a row not an object
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc) or (
            type(exc).__name__)
        raise MatchRecordError(f"{record}: not a usable match record: {what}") from None


# Standing fields added since the first match records: one a record was written without
# is not replayed into its rows, so older records still verify (every other field must).
LATER_FIELDS = ("goals",)


def _as_written(standings: list[dict[str, Any]],
                claimed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The replayed standings without the later fields the record's rows lack."""
    if len(standings) != len(claimed):
        return standings
    return [{k: v for k, v in row.items() if k not in LATER_FIELDS or k in mine}
            for row, mine in zip(standings, claimed, strict=True)]


def _replay(record: Path) -> MatchReplay:
    lines = [json.loads(t) for t in record_text(record).splitlines() if t.strip()]
    header = next(x for x in lines if x["kind"] == "header")
    source = header["level_source"]
    # A generated arena is built again from its name, with the id the match gave it.
    data = generate(source, header["level"]).data \
        if is_generated(source) and not Path(source).is_file() else read_level_json(source)
    level = parse_level(data, source)
    if level.content_hash != header["level_hash"]:
        return MatchReplay(False, 0, f"level {source} changed since the match",
                           [])
    session = MatchSession(level, header["difficulty"], key_of(header),
                           tuple(header["teams"]))
    first = next(iter(session.players.values()))
    if "map" in header and json.loads(json.dumps(first.plan())) != header["map"]:
        return MatchReplay(False, 0, "the record's map differs from the level's", [])
    turns = 0
    for line in lines:
        if line["kind"] == "retire":
            session.retire(line["player"], bool(line.get("forfeit")))
        elif line["kind"] == "turn":
            if session.deciding != line["player"] or session.state_hash() != line["state_hash"]:
                return MatchReplay(False, turns, f"turn {line['turn']} of {line['player']}: "
                                   f"the replay has {session.deciding!r} deciding at tick "
                                   f"{session.tick} with another state", [])
            seen = json.loads(json.dumps(session.turn(line["player"]).view))
            if seen != line["observation"]["view"]:
                return MatchReplay(False, turns, f"turn {line['turn']} of {line['player']}: "
                                   "the view it was sent differs from the replayed one", [])
            if line["played"]:  # a line came and was played (none: the agent was silent)
                session.step(line["player"], line["stepped"])
            turns += 1
        elif line["kind"] == "end":
            if line.get("harness_error"):
                return MatchReplay(False, turns, "the harness failed during the match, so "
                                   "the record proves no result", [])
            standings = [s.to_dict() for s in session.standings()]
            claimed = [{k: v for k, v in row.items() if k != "agent_failure"}
                       for row in line["standings"]]
            standings = _as_written(standings, claimed)
            if line["final_state_hash"] != session.state_hash():
                return MatchReplay(False, turns, "the final state hash differs", standings)
            if claimed != standings or line["over"] != session.over:
                return MatchReplay(False, turns, f"the standings differ: recorded {claimed}, "
                                   f"replayed {standings}", standings)
            return MatchReplay(True, turns, None, standings)
    return MatchReplay(False, turns, "the record has no end line", [])
