"""Snapshots: taken in one process, restored in another, the same hashes every later turn.

Both a snapshot cut from a record and the one the run itself kept at its first objective
are restored in a fresh process with another string hash seed.

Records keep a snapshot after each turn in which an objective was done, replay checks
each one, `harness run --from` starts there, and a forged snapshot is refused.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.core.game import world_game
from harness.core.keys import key_of
from harness.core.level_refs import resolve
from harness.core.record import read_record
from harness.episode.replay import replay
from harness.episode.runner import UsageError, run
from harness.episode.settings import RunSettings
from harness.episode.snapshot import (
    SnapshotError,
    play_steps,
    read_snapshot,
    restore,
    take,
    write_snapshot,
)
from tests.shared import ROOT, SHIPPED_IDS

FAST = RunSettings(hello_timeout_s=30, decision_timeout_s=30, grace_s=0.2)
REFERENCE = f"{sys.executable} {ROOT / 'agents' / 'reference_agent.py'}"

# The second process: restore each snapshot given, play the record's later actions, print
# the state hash before each turn's action and at the end (one JSON list per snapshot).
# Both snapshots of a run are restored in one process: a process start costs more than
# the rest of many a level.
_RESTORE_AND_PLAY = """
import json, sys
from harness.core.game import world_game
from harness.core.level_refs import resolve
from harness.episode.snapshot import read_snapshot, restore
level = resolve(sys.argv[2]).level
out = []
for path, later in json.loads(open(sys.argv[1]).read()):
    game = restore(read_snapshot(path), level, world_game)
    hashes = []
    for step in later:
        game.view()
        hashes.append([game.tick, game.state_hash()])
        if step is not None:
            game.act(step["action"], dict(step["arguments"]))
    hashes.append([game.tick, game.state_hash()])
    out.append(hashes)
print(json.dumps(out))
"""


def _steps(record) -> list:
    return [{"action": t["action"]["action"], "arguments": t["action"]["arguments"]}
            if t.get("action") is not None and t.get("error") is None else None
            for t in record.turns]


def _two_processes(level_id: str, tmp_path: Path, summary: dict | None = None) -> None:
    """Play the reference agent (or take its run); restore a third of the way in and its
    first kept snapshot elsewhere."""
    if summary is None:
        summary = run(level_id, REFERENCE, seed=1, out_dir=tmp_path / "runs", settings=FAST)
    record = read_record(summary["run_dir"])
    steps = _steps(record)
    assert len(steps) >= 3, f"{level_id}: too short a run to test ({len(steps)} turns)"
    cut = len(steps) // 3
    level = resolve(level_id).level
    game = world_game(level, record.header["difficulty"], key_of(record.header))
    play_steps(game, steps[:cut])
    snap = take(game, level, record.header["difficulty"], record.header["seed"],
                {"name": "macro"}, steps[:cut], f"turn {cut}", key=key_of(record.header))
    assert snap.state_hash == record.turns[cut]["state_hash"]
    path = tmp_path / "snap.json"
    write_snapshot(path, snap)
    # And the snapshot the run itself kept when its first objective was done.
    kept = record.end.get("snapshots") or []
    assert kept, f"{level_id}: the run kept no snapshot"
    _restore_elsewhere(level_id, [(path, cut), (Path(summary["run_dir"]) / kept[0]["file"],
                                                kept[0]["turn"])], steps, record, tmp_path)


def _restore_elsewhere(level_id: str, snapshots: list[tuple[Path, int]], steps: list, record,
                       tmp_path: Path) -> None:
    """Restore snapshot files (each taken before turn `cut`) in a fresh process with
    another hash seed, and play the rest of the record there from each."""
    jobs = tmp_path / "jobs.json"
    jobs.write_text(json.dumps([[str(path), steps[cut:]] for path, cut in snapshots]))
    # Another string hash seed than this process's: no set or dict order may leak in.
    env = {**os.environ,
           "PYTHONHASHSEED": "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"}
    out = subprocess.run([sys.executable, "-c", _RESTORE_AND_PLAY, str(jobs), level_id],
                         cwd=ROOT, capture_output=True, text=True, timeout=600, check=True,
                         env=env)
    for (path, cut), hashes in zip(snapshots, json.loads(out.stdout), strict=True):
        expected = [[t["tick"], t["state_hash"]] for t in record.turns[cut:]]
        expected.append([record.end["summary"]["game_ticks"], record.end["final_state_hash"]])
        assert hashes == expected, f"{level_id}: the world restored from {path.name} diverged"


@pytest.mark.timeout(300)
def test_two_processes_exit_switch(reference_run, tmp_path) -> None:
    _two_processes("exit_switch", tmp_path, reference_run)


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("level_id", [i for i in SHIPPED_IDS if i != "exit_switch"])
def test_two_processes_every_shipped_level(level_id, tmp_path) -> None:
    _two_processes(level_id, tmp_path)


# The module-scoped runs below are played once: the tests that read them share a worker.
pytestmark = pytest.mark.xdist_group("snapshot")


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory) -> dict:
    return run("exit_switch", REFERENCE, seed=2, out_dir=tmp_path_factory.mktemp("runs"),
               settings=FAST)


def test_record_keeps_a_snapshot_per_objective_done(reference_run) -> None:
    record = read_record(reference_run["run_dir"])
    kept = record.end["snapshots"]
    assert reference_run["success"]
    # Every objective is done at the end, and each snapshot says which ones were done.
    done = set()
    for entry in kept:
        snap = read_snapshot(Path(reference_run["run_dir"]) / entry["file"])
        assert snap.state_hash == entry["state_hash"]
        assert set(snap.objectives_done) > done
        done = set(snap.objectives_done)
        moment = (record.turns[entry["turn"]]["state_hash"] if entry["turn"] < len(record.turns)
                  else record.end["final_state_hash"])
        assert snap.state_hash == moment
    assert done == {1, 2, 3, 4}
    assert replay(reference_run["run_dir"]).verified


def test_run_from_a_snapshot_replays(reference_run, tmp_path) -> None:
    entry = reference_run["snapshots"][0]
    summary = run("exit_switch", REFERENCE, out_dir=tmp_path, settings=FAST,
                  origin=entry["file"])
    record = read_record(summary["run_dir"])
    start = record.header["start"]
    assert start["origin"]["tick"] == entry["tick"]
    assert start["origin"]["objectives_done"] == list(read_snapshot(entry["file"]).objectives_done)
    assert record.header["origin"]["state_hash"] == entry["state_hash"]
    assert record.turns[0]["tick"] == entry["tick"]
    assert summary["success"]
    report = replay(summary["run_dir"])
    assert report.verified, report.divergence


def test_forged_snapshot_is_caught(reference_run, tmp_path) -> None:
    run_dir = Path(reference_run["run_dir"])
    forged_dir = tmp_path / "forged"
    forged_dir.mkdir()
    (forged_dir / "record.jsonl.gz").write_bytes((run_dir / "record.jsonl.gz").read_bytes())
    entry = reference_run["snapshots"][0]
    name = Path(entry["file"]).name
    data = json.loads(Path(entry["file"]).read_text())
    data["state_hash"] = "0" * 64
    (forged_dir / "snapshots").mkdir()
    for other in (run_dir / "snapshots").iterdir():
        (forged_dir / "snapshots" / other.name).write_bytes(other.read_bytes())
    (forged_dir / "snapshots" / name).write_text(json.dumps(data))
    report = replay(forged_dir)
    assert not report.verified
    assert "snapshot of turn" in report.divergence and "state hash" in report.divergence
    with pytest.raises(UsageError, match=name + r".*restoring gives state hash"):
        run("exit_switch", REFERENCE, out_dir=tmp_path / "runs", settings=FAST,
            origin=forged_dir / "snapshots" / name)
    assert not list((tmp_path / "runs").iterdir())


def test_snapshot_version_level_and_difficulty_are_checked(reference_run, tmp_path) -> None:
    path = Path(reference_run["snapshots"][0]["file"])
    data = json.loads(path.read_text())
    future = tmp_path / "future.json"
    future.write_text(json.dumps({**data, "version": 2}))
    with pytest.raises(SnapshotError, match=r"future.json: snapshot version 2; this harness "
                       r"reads version 1"):
        read_snapshot(future)
    with pytest.raises(UsageError, match=r"taken on level 'exit_switch' with content hash "
                       r"[0-9a-f]{12}, but the level given is 'outpost'"):
        run("outpost", REFERENCE, out_dir=tmp_path, settings=FAST, origin=path)
    with pytest.raises(UsageError, match="taken at difficulty 'normal', not 'hard'"):
        run("exit_switch", REFERENCE, difficulty="hard", out_dir=tmp_path, settings=FAST,
            origin=path)
    not_json = tmp_path / "bad.json"
    not_json.write_text("{")
    with pytest.raises(SnapshotError, match=r"bad\.json: not a JSON snapshot"):
        read_snapshot(not_json)


def test_restore_refuses_another_view(reference_run) -> None:
    snap = read_snapshot(reference_run["snapshots"][0]["file"])
    level = resolve("exit_switch").level
    other = dataclasses.replace(snap, view_hash="f" * 64)
    with pytest.raises(SnapshotError, match="another view of the player's knowledge"):
        restore(other, level, world_game)


def test_a_record_copied_without_its_snapshots_still_replays(reference_run, tmp_path) -> None:
    alone = tmp_path / "alone"
    alone.mkdir()
    source = Path(reference_run["run_dir"]) / "record.jsonl.gz"
    (alone / "record.jsonl.gz").write_bytes(source.read_bytes())
    report = replay(alone)
    assert report.verified, report.divergence
