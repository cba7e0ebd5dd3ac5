"""The reference agent in matches (40): it fights an armed rival, and its play replays.

A hand-made match moment (both duel_yard players just inside the yard, the gate nearer
than the rival but too far to dash under fire) is given to the reference agent's brain;
a match on store_court plays and replays; a player can draw its own start gun.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.reference.brain import Brain
from harness.episode.settings import RunSettings
from harness.match.replay import replay_match
from harness.match.runner import MatchSpec, run_match
from tests.shared import MATCH_LEVELS, SHIPPED_AGENTS, TEST_SECRET, python_agent
from world.level.load import load_level
from world.match.session import MatchSession

DUEL = MATCH_LEVELS / "duel_yard.json"
COURT = MATCH_LEVELS / "store_court.json"


def _way(match: MatchSession, pid: str, name: str) -> str:
    ways = match.turn(pid).view["area"]["ways_out"]
    return next(w["id"] for w in ways if w["to_name"] == name)


def _observation(match: MatchSession, pid: str) -> dict[str, Any]:
    turn = match.turn(pid)
    return {"type": "observation", "turn": 1, "tick": turn.tick, "time_s": turn.tick / 30,
            "view": turn.view, "last_result": turn.result, "error": None}


def _start(pid: str) -> dict[str, Any]:
    return {"type": "start", "match": {"player": pid, "players": 2, "teammates": 0,
                                       "frags": 0, "exit": "North gate"}}


def test_the_reference_agent_fights_an_armed_rival_in_sight_rather_than_walk_off() -> None:
    match = MatchSession(load_level(DUEL), "normal", 3)
    for pid in ("p1", "p2"):
        match.step(pid, {"action": "go_to_area", "arguments": {"exit_id": _way(match, pid,
                                                                                  "Yard")}})
    assert match.deciding == "p1"
    view = match.turn("p1").view
    rival = next(c for c in view["characters"] if c["kind"] == "player")
    assert rival["seen"] == "now" and rival["armed"] and rival["friendly"] is False
    assert view["player"]["health"] == 1.0
    brain = Brain()
    brain.mem.update(_observation(match, "p1"))  # the turn before: the walk into the yard
    action, arguments, _ = brain.decide(_observation(match, "p1"), _start("p1"))
    # Before, it walked on towards the north gate in plain view and lost the duel.
    assert (action, arguments["character_id"]) == ("attack", rival["id"])
    # The same moment without a match block is played as a mission, as before.
    mission = Brain().decide(_observation(match, "p1"), {"type": "start"})
    assert mission[0] != "attack"


def test_a_match_player_can_draw_its_own_start_gun() -> None:
    # Each player holds its start inventory: equipping it is not refused as unknown.
    match = MatchSession(load_level(DUEL), "normal", 3)
    gun = match.turn("p2").view["player"]["carried"][0]["id"]
    match.step("p1", {"action": "wait", "arguments": {"seconds": 0.5}})
    turn = match.step("p2", {"action": "equip", "arguments": {"item_id": gun}})
    assert turn is None or turn.fault is None, turn.fault


def test_a_reference_match_on_the_store_court_plays_and_replays(tmp_path: Path) -> None:
    spec = MatchSpec(load_level(COURT), str(COURT), "normal", 1,
                     (python_agent(SHIPPED_AGENTS / "reference_agent.py"),
                      python_agent(SHIPPED_AGENTS / "greedy_agent.py")),
                     tmp_path / "m", settings=RunSettings(), secret=TEST_SECRET)
    summary = run_match(spec)
    assert summary["over"] is not None
    assert sorted(str(r["result"]) for r in summary["standings"]) in (
        ["lost", "won"], ["draw", "draw"])
    assert all(r["agent_failure"] is None for r in summary["standings"])
    report = replay_match(tmp_path / "m")
    assert report.verified, report.divergence
