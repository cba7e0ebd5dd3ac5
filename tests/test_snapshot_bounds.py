"""A snapshot anyone may have written is checked before the world runs it (35): a step
with arguments no agent could have sent is refused in one line, and restoring costs no
more than the ticks the snapshot claims, themselves capped by the level's budget."""

from __future__ import annotations

import dataclasses
import time

import pytest

from harness.cli import main
from harness.core.game import world_game
from harness.core.level_refs import resolve
from harness.episode.snapshot import (
    MAX_TICKS_PER_BUDGET,
    SnapshotError,
    restore,
    take,
    write_snapshot,
)
from tests.shared import SHIPPED_AGENTS
from world.face import seconds_to_ticks

LEVEL = "outpost"


def _snapshot(steps, tick):
    level = resolve(LEVEL).level
    snap = take(world_game(level, "normal", 0), level, "normal", 0,
                {"name": "macro", "frame_skip": 4}, [], "test")
    return level, dataclasses.replace(snap, steps=tuple(steps), tick=tick)


@pytest.mark.parametrize("arguments", [{"seconds": "soon"}, {"seconds": [1]}, {}])
def test_a_step_with_bad_arguments_is_refused_in_one_line(tmp_path, capsys,
                                                         arguments) -> None:
    level, snap = _snapshot([{"action": "wait", "arguments": arguments}], 60)
    with pytest.raises(SnapshotError, match="step 0: not an action of this track"):
        restore(snap, level, world_game)
    path = tmp_path / "snap.json"
    write_snapshot(path, snap)
    status = main(["run", LEVEL, "--agent", str(SHIPPED_AGENTS / "wait_agent.sh"),
                   "--from", str(path), "--out", str(tmp_path / "runs")])
    err = capsys.readouterr().err.strip()
    assert status == 2 and str(path) in err and "Traceback" not in err


def test_restoring_costs_no_more_than_the_ticks_claimed(tmp_path) -> None:
    level, snap = _snapshot([{"action": "wait", "arguments": {"seconds": 60}}] * 3000, 10)
    began = time.monotonic()
    with pytest.raises(SnapshotError, match="pass tick 10"):
        restore(snap, level, world_game)
    cap = MAX_TICKS_PER_BUDGET * seconds_to_ticks(level.budgets.max_game_seconds)
    level, snap = _snapshot([{"action": "wait", "arguments": {"seconds": 60}}] * 3000,
                            cap + 1)
    with pytest.raises(SnapshotError, match="times the level's game-time budget"):
        restore(snap, level, world_game)
    assert time.monotonic() - began < 5


def test_a_deep_snapshot_file_is_bad_input(tmp_path, capsys) -> None:
    path = tmp_path / "snap.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    status = main(["run", LEVEL, "--agent", str(SHIPPED_AGENTS / "wait_agent.sh"),
                   "--from", str(path), "--out", str(tmp_path / "runs")])
    err = capsys.readouterr().err.strip()
    assert status == 2 and "nested deeper" in err and len(err.splitlines()) == 1


def test_a_planted_suite_identity_is_bad_input(tmp_path, capsys) -> None:
    out = tmp_path / "suite"
    out.mkdir()
    (out / "suite.json").write_text("[1, 2]")
    status = main(["eval", "--agent", str(SHIPPED_AGENTS / "wait_agent.sh"), "--levels",
                   LEVEL, "--seeds", "1", "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert status == 2 and "suite.json: not a suite's identity" in err
