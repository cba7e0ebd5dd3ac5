"""The raw-control track over JSON lines: a shell agent plays it, the record replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.core.protocol import Fault, Parsed, parse_agent_line
from harness.core.record import read_record
from harness.core.tracks import TrackSpec
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.shared import SHIPPED_AGENTS

SHELL_AGENT = SHIPPED_AGENTS / "raw_walker.sh"


def _controls(**values: int) -> str:
    arguments = {"move": 2, "strafe": 1, "turn": 2, "fire": 0, "use": 0, "next_weapon": 0}
    arguments.update(values)
    return json.dumps({"type": "action", "protocol_version": 1, "action": "controls",
                       "arguments": arguments})


def test_controls_are_accepted_only_on_the_raw_track() -> None:
    raw = TrackSpec("raw").actions()
    assert isinstance(parse_agent_line(_controls(), "action", raw), Parsed)
    macro = parse_agent_line(_controls(), "action")
    assert isinstance(macro, Fault) and macro.code == "unknown_action"
    assert "go_to" in macro.message
    bad = parse_agent_line(_controls(turn=7), "action", raw)
    assert isinstance(bad, Fault) and bad.code == "bad_arguments"
    assert bad.message.startswith("controls: argument turn:")


def test_a_track_outside_the_declaration_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown track 'pixels'; tracks: macro, raw"):
        TrackSpec("pixels")
    with pytest.raises(ValueError, match=r"frame_skip: 0 is not a whole number of ticks"):
        TrackSpec("raw", 0)


@pytest.mark.slow
def test_shell_agent_plays_the_raw_track_and_the_record_replays(tmp_path: Path) -> None:
    summary = run("exit_switch", str(SHELL_AGENT), difficulty="easy", seed=3, out_dir=tmp_path,
                  settings=RunSettings(hello_timeout_s=20, decision_timeout_s=20),
                  track=TrackSpec("raw", 4))
    assert summary["outcome"] in ("completed", "failed", "truncated"), summary["reason"]
    record = read_record(summary["run_dir"])
    assert record.header["start"]["track"]["name"] == "raw"
    assert record.header["start"]["tools"][0]["function"]["name"] == "controls"
    first = record.turns[0]["observation"]["raw"]
    assert len(first["rays"]) == record.header["start"]["track"]["rays"]
    ticks = [t["result"]["ticks"] for t in record.turns if t["result"]]
    assert ticks and set(ticks[:-1]) == {4}
    assert all(t["result"]["end_reason"] in ("held", "dead") for t in record.turns if t["result"])
    report = replay(summary["run_dir"])
    assert report.verified, report.divergence
    assert report.summary["score"] == summary["score"]
    page = (Path(summary["run_dir"]) / "index.html").read_text(encoding="utf-8")
    assert "controls" in page
