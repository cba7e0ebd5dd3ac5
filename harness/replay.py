"""Replay: re-simulate a record's actions and compare the state hash at every turn."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.game import GameFactory, world_game
from harness.record import read_record
from harness.runner import resolve_level
from world.errors import InvalidRequestError, UnknownIdError


@dataclass(frozen=True)
class ReplayReport:
    """What a replay found.

    Attributes:
        verified: True when every compared hash matched.
        turns: Turns compared.
        divergence: The first mismatch in plain words, or None.
        interrupted: The record has no end line (the run was interrupted).
    """

    verified: bool
    turns: int
    divergence: str | None
    interrupted: bool


def replay(path: str | Path, game_factory: GameFactory = world_game) -> ReplayReport:
    """Re-simulate a record and compare state hashes turn by turn.

    Args:
        path: A record.jsonl file or its run directory.
        game_factory: Builds the game (the real world unless a test swaps it).

    Returns:
        The report; the first divergence stops the comparison.

    Raises:
        harness.record.RecordError: The file is not a record.
        harness.runner.UsageError: Its level cannot be found.
    """
    record = read_record(path)
    header = record.header
    level, _ = resolve_level(header["level_source"] if Path(header["level_source"]).is_file()
                             else header["level"])
    if level.content_hash != header["level_hash"]:
        return ReplayReport(False, 0, "the level file changed since the run "
                            f"(hash {level.content_hash[:12]} vs {header['level_hash'][:12]})",
                            record.interrupted)
    game = game_factory(level, header["difficulty"], header["seed"])
    for turn in record.turns:
        now = game.state_hash()
        if now != turn["state_hash"] or game.tick != turn["tick"]:
            return ReplayReport(False, turn["turn"], f"turn {turn['turn']}: state hash "
                                f"{now[:12]} at tick {game.tick}, record says "
                                f"{turn['state_hash'][:12]} at tick {turn['tick']}",
                                record.interrupted)
        action = turn.get("action")
        if action is not None and turn.get("error") is None:
            try:
                game.act(action["action"], dict(action["arguments"]))
            except (UnknownIdError, InvalidRequestError) as exc:
                return ReplayReport(False, turn["turn"], f"turn {turn['turn']}: the recorded "
                                    f"action was refused on replay: {exc}", record.interrupted)
    if record.end is not None and game.state_hash() != record.end["final_state_hash"]:
        return ReplayReport(False, len(record.turns), "final state hash differs",
                            record.interrupted)
    return ReplayReport(True, len(record.turns), None, record.interrupted)
