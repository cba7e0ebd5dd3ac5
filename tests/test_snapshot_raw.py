"""`harness run --from` on the raw-control track: the snapshot's track and frame skip hold.

A snapshot names the track it was taken on; starting from it plays that track (with its
frame skip) unless flags name another, which is refused in one line naming the snapshot
and what differs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.game import world_game
from harness.core.keys import key_of
from harness.core.level_refs import resolve
from harness.core.record import read_record
from harness.core.tracks import TrackSpec
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from harness.episode.snapshot import play_steps, take, write_snapshot
from tests.level_factory import short_copy
from tests.shared import ROOT

FAST = RunSettings(hello_timeout_s=30, decision_timeout_s=30, grace_s=0.2)
WALKER = str(ROOT / "agents" / "raw_walker.sh")
RAW = {"name": "raw", "frame_skip": 4}


def _raw_snapshot(tmp_path: Path, cut: int) -> tuple[str, Path, dict]:
    """A raw-track run of a short copy of exit_switch and a snapshot of it `cut` turns in.

    Gives the copy's file, the snapshot's file and the moment it was taken at. The copy
    has game seconds for 10 raw decisions more than the cut (4 ticks each): what is
    checked shows in the first turns after it, and every turn from the snapshot on is
    played and replayed.
    """
    seconds = (cut + 10) * 4 / 30
    level_ref = str(short_copy(tmp_path / "level", "exit_switch", cut + 10, seconds))
    summary = run(level_ref, WALKER, seed=0, out_dir=tmp_path / "runs", settings=FAST,
                  track=TrackSpec("raw", 4))
    record = read_record(summary["run_dir"])
    steps = [{"action": t["action"]["action"], "arguments": t["action"]["arguments"]}
             if t.get("action") is not None and t.get("error") is None else None
             for t in record.turns]
    level = resolve(level_ref).level
    key = key_of(record.header)  # the run's episode key, not its seed
    game = TrackSpec("raw", 4).game_factory()(level, "normal", key)
    play_steps(game, steps[:cut])
    snap = take(game, level, "normal", 0, RAW, steps[:cut], f"turn {cut}", key=key)
    assert snap.state_hash == record.turns[cut]["state_hash"]
    path = tmp_path / "raw_snapshot.json"
    write_snapshot(path, snap)
    return level_ref, path, {"tick": snap.tick, "state_hash": snap.state_hash}


@pytest.mark.timeout(300)
def test_run_from_a_raw_snapshot_plays_the_raw_track_and_replays(tmp_path, capsys) -> None:
    level_ref, path, moment = _raw_snapshot(tmp_path, 20)
    capsys.readouterr()
    # No --track: the snapshot's track and frame skip are the episode's.
    assert main(["run", level_ref, "--from", str(path), "--agent", WALKER,
                 "--out", str(tmp_path / "from"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    record = read_record(summary["run_dir"])
    assert record.header["start"]["track"]["name"] == "raw"
    assert record.header["start"]["track"]["frame_skip"] == 4
    assert record.header["origin"]["state_hash"] == moment["state_hash"]
    assert record.turns[0]["tick"] == moment["tick"]
    assert "raw" in record.turns[0]["observation"]  # the ray scan of the raw track
    report = replay(summary["run_dir"])
    assert report.verified, report.divergence


def _tick_zero_snapshot(tmp_path: Path, track: dict) -> Path:
    level = resolve("exit_switch").level
    spec = TrackSpec(track["name"], track.get("frame_skip", 4))
    factory = spec.game_factory() if spec.name == "raw" else world_game
    game = factory(level, "normal", 0)
    path = tmp_path / f"{track['name']}.json"
    write_snapshot(path, take(game, level, "normal", 0, track, [], "the start"))
    return path


@pytest.mark.parametrize(("snapshot_track", "flags", "said"), [
    (RAW, ["--track", "macro"], "the snapshot was taken at track 'raw', not 'macro'"),
    (RAW, ["--track", "raw", "--frame-skip", "8"],
     "the snapshot was taken at frame skip 4, not 8"),
    (RAW, ["--frame-skip", "8"], "--frame-skip with --from needs --track raw"),
    ({"name": "macro", "frame_skip": 4}, ["--track", "raw"],
     "the snapshot was taken at track 'macro', not 'raw'"),
])
def test_flags_that_disagree_with_the_snapshot_are_refused(snapshot_track, flags, said,
                                                           tmp_path, capsys) -> None:
    path = _tick_zero_snapshot(tmp_path, snapshot_track)
    assert main(["run", "exit_switch", "--from", str(path), "--agent", WALKER,
                 "--out", str(tmp_path / "out"), *flags]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
