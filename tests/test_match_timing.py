"""A match's wall clock (40): an agent's clock shows nothing of the other agents' thinking.

Players due at the same moment are asked at once, and with a pace every observation of
game tick T goes out at `start + floor + ms_per_tick * T`, whoever thought how long.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from harness.episode.settings import RunSettings
from harness.match.runner import MATCH_RECORD, MatchSpec, run_match
from tests.shared import MATCH_LEVELS, TEST_AGENTS, TEST_SECRET, python_agent
from world.level.load import parse_level

MS_PER_TICK = 20.0  # a game second (30 ticks) lasts 0.6 wall seconds
THINK_S = 0.3  # p1 thinks this long every turn, p2 not at all


def _match(tmp_path: Path, settings: RunSettings) -> tuple[dict, list[dict]]:
    data = json.loads((MATCH_LEVELS / "duel_yard.json").read_text(encoding="utf-8"))
    data["budgets"]["max_game_seconds"] = 3  # three rounds of one-second waits
    level = parse_level(data, "duel_yard_short")
    agent = TEST_AGENTS / "clock_agent.py"
    spec = MatchSpec(level, str(MATCH_LEVELS / "duel_yard.json"), "normal", 0,
                     (python_agent(agent, str(THINK_S)), python_agent(agent, "0")),
                     tmp_path, settings=settings, secret=TEST_SECRET)
    summary = run_match(spec)
    lines = [json.loads(t) for t in
             gzip.decompress((tmp_path / MATCH_RECORD).read_bytes()).splitlines()]
    return summary, [x for x in lines if x["kind"] == "turn"]


def _times(turns: list[dict], pid: str, key: str = "t") -> list[tuple[int, float]]:
    return [(t["tick"], float(dict(w.split("=") for w in t["notes"].split())[key]))
            for t in turns if t["player"] == pid]


def test_paced_observations_keep_the_schedule_whoever_thinks_how_long(tmp_path: Path) -> None:
    summary, turns = _match(tmp_path, RunSettings(turn_pace_ms_per_tick=MS_PER_TICK,
                                                  turn_floor_ms=50))
    # Both actions end on the same ticks, so the thinker and the quick one are due together
    # every time: asked in turn and unpaced, the quick one would wait out the thinking.
    assert [t for t, _ in _times(turns, "p1")] == [t for t, _ in _times(turns, "p2")]
    assert all(t["agent_wall_s"] >= THINK_S for t in turns if t["player"] == "p1")
    assert all(t["agent_wall_s"] < THINK_S / 2 for t in turns if t["player"] == "p2")
    for pid in ("p1", "p2"):
        seen = _times(turns, pid)
        assert len(seen) >= 3
        # Every observation comes when the schedule says for its tick, nothing else.
        for tick, at in seen:
            assert abs(at - MS_PER_TICK / 1000 * tick) < 0.12, (pid, seen)
    assert {p: summary["pace"][p]["overruns"] for p in ("p1", "p2")} == {"p1": 0, "p2": 0}


def test_players_due_together_are_asked_together(tmp_path: Path) -> None:
    _, turns = _match(tmp_path, RunSettings())
    # Unpaced too, both get each observation at the same moment (on the machine's clock),
    # not the quick one after the thinker's decision; the quick one's line is taken with
    # the time it came.
    p1, p2 = _times(turns, "p1", "at"), _times(turns, "p2", "at")
    assert [t for t, _ in p1] == [t for t, _ in p2] and len(p1) >= 3
    assert all(abs(a - b) < THINK_S * 0.6 for (_, a), (_, b) in zip(p1, p2, strict=True))
    assert all(t["agent_wall_s"] < THINK_S / 2 for t in turns if t["player"] == "p2")
