"""The multiplayer track's first slice (40): matches of several players in one world.

A match of two scripted agents plays to its end and its record replays (and a forged
score does not); turns interleave by events; one player never learns what only the
other perceived; the checker names what is wrong in a match block.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.protocol import schema_errors
from harness.episode.settings import RunSettings
from harness.match.replay import MatchRecordError, replay_match
from harness.match.runner import MATCH_RECORD, MatchSpec, run_match
from tests.shared import (
    MATCH_IDS,
    MATCH_LEVELS,
    SHIPPED_AGENTS,
    TEST_AGENTS,
    TEST_SECRET,
    python_agent,
)
from world.level.load import load_level
from world.levelcheck.checker import check_data
from world.match.session import MatchSession

DUEL = MATCH_LEVELS / "duel_yard.json"


@pytest.fixture(scope="module")
def duel():
    return load_level(DUEL)


def _wait(seconds: float) -> dict:
    return {"action": "wait", "arguments": {"seconds": seconds}}


def test_two_agents_play_a_match_to_its_end_and_its_record_replays(tmp_path: Path, duel) -> None:
    spec = MatchSpec(duel, str(DUEL), "normal", 3,
                     (python_agent(SHIPPED_AGENTS / "greedy_agent.py"),
                      python_agent(SHIPPED_AGENTS / "random_agent.py")),
                     tmp_path / "m", settings=RunSettings(), secret=TEST_SECRET)
    summary = run_match(spec)
    assert summary["over"] is not None
    results = sorted(str(r["result"]) for r in summary["standings"])
    assert results in (["lost", "won"], ["draw", "draw"])
    record = tmp_path / "m" / MATCH_RECORD
    lines = [json.loads(t) for t in gzip.decompress(record.read_bytes()).splitlines()]
    turns = [x for x in lines if x["kind"] == "turn"]
    assert {t["player"] for t in turns} == {"p1", "p2"}
    # Each agent saw its own player's views, told which player it is, in messages the
    # protocol's schema accepts.
    assert all(t["observation"]["match"]["player"] == t["player"] for t in turns)
    assert all(schema_errors("observation", t["observation"]) == [] for t in turns)
    header = lines[0]
    assert all(schema_errors("start", a["start"]) == [] for a in header["agents"].values())
    assert all(schema_errors("summary", m) == [] for m in lines[-1]["summaries"].values())
    assert {p: m["match"]["result"] for p, m in lines[-1]["summaries"].items()} == {
        r["player"]: r["result"] for r in summary["standings"]}
    report = replay_match(tmp_path / "m")
    assert report.verified, report.divergence
    assert report.standings == [{k: v for k, v in r.items() if k != "agent_failure"}
                                for r in summary["standings"]]
    # A record whose frags were edited no longer proves its score.
    forged = [dict(x) for x in lines]
    end = forged[-1]
    end["standings"] = [{**r, "frags": r["frags"] + 1} for r in end["standings"]]
    forged_path = tmp_path / "forged" / MATCH_RECORD
    forged_path.parent.mkdir()
    forged_path.write_bytes(gzip.compress(
        "".join(json.dumps(x) + "\n" for x in forged).encode()))
    assert not replay_match(forged_path).verified
    # A record missing what a turn needs is unusable, said in one line, never a crash.
    broken = [x if x["kind"] != "turn" else {"kind": "turn"} for x in lines]
    forged_path.write_bytes(gzip.compress(
        "".join(json.dumps(x) + "\n" for x in broken).encode()))
    assert main(["replay", str(forged_path)]) == 2
    # Standings rows that are not objects: the same one-line refusal.
    odd = [*lines[:-1], {**lines[-1], "standings": [1, 2]}]
    forged_path.write_bytes(gzip.compress("".join(json.dumps(x) + "\n" for x in odd).encode()))
    with pytest.raises(MatchRecordError, match="not a usable match record"):
        replay_match(forged_path)


def test_an_agent_that_crashes_forfeits_and_the_record_still_replays(tmp_path: Path,
                                                                    duel) -> None:
    # p1 only waits, p2's agent crashes: time runs out with no frags, and the crash
    # counts against p2 instead of leaving a draw.
    spec = MatchSpec(duel, str(DUEL), "normal", 1,
                     (python_agent(TEST_AGENTS / "brief_wait_agent.py", "100"),
                      python_agent(TEST_AGENTS / "crash_agent.py")),
                     tmp_path / "m", settings=RunSettings(), secret=TEST_SECRET)
    summary = run_match(spec)
    p1, p2 = summary["standings"]
    assert p2["agent_failure"]["outcome"] == "agent_crashed" and p2["result"] == "lost"
    assert p1["result"] == "won" and p1["frags"] == 0
    assert replay_match(tmp_path / "m").verified


def test_turns_interleave_by_events_and_time_stands_still_while_deciding(duel) -> None:
    match = MatchSession(duel, "normal", 5)
    asked: list[tuple[str, int]] = []
    # p1 waits long, p2 briefly: p2 is asked again and again while p1's wait runs on.
    while match.deciding is not None and len(asked) < 8:
        pid = match.deciding
        asked.append((pid, match.tick))
        match.step(pid, _wait(3.0 if pid == "p1" else 0.5))
    assert asked[:2] == [("p1", 0), ("p2", 0)]  # both decide at the start, time stopped
    p2_ticks = [t for p, t in asked if p == "p2"]
    assert p2_ticks[:4] == [0, 15, 30, 45]
    assert [t for p, t in asked if p == "p1"][:2] == [0, 90]
    # Each player's turn is the view of the moment its own action ended.
    assert match.turn("p1").tick == 90


def test_a_players_own_doings_are_told_as_its_own(duel) -> None:
    # "What changed" names a match player's own doings (its actor id is p1, not the
    # single-player id), and nothing of the other player's walk out of sight.
    match = MatchSession(duel, "normal", 5)
    match.step("p1", {"action": "go_to_area", "arguments": {"exit_id": _way(match, "p1", "Yard")}})
    match.step("p2", _wait(0.5))
    while match.deciding == "p2":
        match.step("p2", _wait(0.5))
    changes = match.turn("p1").result["changes"]
    assert any(line.startswith("you entered a") for line in changes), changes


def _texts(turn) -> str:
    # What the agent reads of a turn: the view, the result's public part, the refusal
    # (a result's events are the record's alone).
    public = {k: (turn.result or {}).get(k) for k in ("detail", "changes", "door", "read")}
    return json.dumps(turn.view) + json.dumps(public) + json.dumps(
        None if turn.fault is None else turn.fault.message)


def test_a_player_never_learns_what_only_the_other_perceived(duel) -> None:
    match = MatchSession(duel, "normal", 5)
    east = next(o for o in duel.objects if o.id == "medkit_east")
    p1, p2 = match.players["p1"], match.players["p2"]
    assert p2.known.objects >= {"medkit_east"} and "medkit_east" not in p1.known.objects
    # p2 names its medkit by its own id; p1 has no such thing, and being told so names
    # only what p1 knows.
    p2_id = next(o["id"] for o in match.turn("p2").view["objects"] if o["kind"] == "medkit")
    refused = match.step("p1", {"action": "go_to_object", "arguments": {"object_id": "o9"}})
    assert refused is not None and refused.fault is not None
    mine = {o["id"] for o in match.turn("p1").view["objects"]} | {
        c["id"] for c in match.turn("p1").view["player"]["carried"]}
    listed = set(refused.fault.message.replace(",", " ").replace(";", " ").split())
    assert {w for w in listed if w[:1] == "o" and w[1:].isdigit()} <= mine
    # p2 walks to its medkit and takes it; p1 waits in its hut meanwhile.
    match.step("p1", _wait(10.0))
    match.step("p2", {"action": "go_to_object", "arguments": {"object_id": p2_id}})
    while match.deciding == "p2":
        match.step("p2", _wait(1.0))
    seen = _texts(match.turn("p1"))
    assert "medkit_east" not in seen and str(east.at[0]) not in seen
    assert "medkit_east" not in p1.known.objects and "medkit_east" not in p1.known.gone
    assert all(level_id != "medkit_east" for level_id in p1.ids.table().values())


def test_teammates_are_not_attacked_and_their_shots_do_no_harm(duel) -> None:
    match = MatchSession(duel, "normal", 5, teams=("red", "red"))
    world = match.world
    with world.seen_by("p1"):
        assert not world.opposes(world.players["p2"])
    health = world.players["p2"].health
    world.combat.damage(world.players["p2"], 0.5, "p1")
    assert world.players["p2"].health == health
    world.combat.damage(world.players["p2"], 0.5, None)  # the level itself still hurts
    assert world.players["p2"].health < health


def test_free_for_all_players_oppose_each_other(duel) -> None:
    match = MatchSession(duel, "normal", 5)
    with match.world.seen_by("p2"):
        assert match.world.opposes(match.world.players["p1"])
        assert match.world.player.id == "p2" and "p1" in match.world.characters


@pytest.mark.parametrize(("edit", "path", "words"), [
    (lambda m: m["starts"][1].update(area="nowhere"), "$.match.starts[1].area", "unknown area"),
    (lambda m: m["starts"][1].update(inventory=["pistol_p1"], in_hand="pistol_p1"),
     "$.match.starts[1].inventory[0]", "already carried"),
    (lambda m: m["starts"][0].update(in_hand="pistol_p2"), "$.match.starts[0].in_hand",
     "not in this start's inventory"),
    (lambda m: m["starts"][0].update(inventory=["medkit_west"], in_hand=None),
     "$.match.starts[0].inventory[0]", "placed"),
    (lambda m: m.update(exit="gate"), "$.match.exit", "unknown area"),
    (lambda m: m.update(exit="east_hut"), "$.match.exit", "is a start area"),
    (lambda m: m["starts"][1].update(area="west_hut", at=[260, 250]), "$.match.starts[1].at",
     "players need 40 apart"),
])
def test_the_checker_names_what_is_wrong_in_a_match_block(edit, path, words) -> None:
    data = json.loads(DUEL.read_text(encoding="utf-8"))
    edit(data["match"])
    if data["match"]["starts"][0].get("in_hand") is None:
        data["match"]["starts"][0].pop("in_hand", None)
    report = check_data(data, "duel_yard.json")
    assert any(p.path == path and words in p.message for p in report.problems), report.problems


RELAY = MATCH_LEVELS / "relay_vault.json"


def _way(match: MatchSession, pid: str, name: str) -> str:
    return next(w["id"] for w in match.turn(pid).view["area"]["ways_out"]
                if w["to_name"] == name)


def _to_panel(match: MatchSession, pid: str) -> dict:
    view = match.turn(pid).view
    here = view["area"]["name"]
    if here == "Relay room":
        panel = next(o["id"] for o in view["objects"] if o["kind"] == "panel")
        return {"action": "go_to_object", "arguments": {"object_id": panel}}
    goal = "Long hall" if here == "Landing" else "Relay room"
    return {"action": "go_to_area", "arguments": {"exit_id": _way(match, pid, goal)}}


def test_the_cooperative_mission_is_won_by_splitting_up_and_not_alone() -> None:
    level = load_level(RELAY)
    # Together: p2 works the panel, p1 waits at the vault door and walks in when it opens.
    match = MatchSession(level, "normal", 5, teams=("blue", "blue"))
    pressed = False
    for _ in range(80):
        pid = match.deciding
        if pid is None:
            break
        if pid == "p2":
            here = match.turn(pid).view["area"]["name"]
            action = _wait(5.0) if pressed else _to_panel(match, pid)
            pressed = pressed or here == "Relay room"
        elif match.turn(pid).view["doors"][0]["state"] == "open":
            action = {"action": "go_to_area", "arguments": {"exit_id": _way(match, pid, "Vault")}}
        else:
            action = _wait(0.5)
        match.step(pid, action)
    assert match.over == "exit"
    assert [s.result for s in match.standings()] == ["won", "won"]
    # Teammates share a result, not their knowledge: p1 never saw the panel p2 pressed
    # (round a corner at the far end of the hall), has no id for it, and nothing it
    # was told names it.
    p1 = match.players["p1"]
    assert "relay_panel" in match.players["p2"].known.objects
    assert "relay_panel" not in p1.known.objects
    assert "relay_panel" not in set(p1.ids.table().values())
    assert not any(o["kind"] == "panel" for o in match.turn("p1").view["objects"])
    # Alone: p1 presses the panel itself, and the door has shut before it is back.
    match = MatchSession(level, "normal", 5, teams=("blue", "blue"))
    match.retire("p2")
    for _ in range(6):
        match.step("p1", _to_panel(match, "p1"))
        if match.turn("p1").view["area"]["name"] == "Relay room" and any(
                o["kind"] == "panel" for o in match.turn("p1").view["objects"]):
            break
    match.step("p1", _to_panel(match, "p1"))  # presses it
    for goal in ("Long hall", "Landing", "Vault"):
        if match.deciding == "p1" and match.turn("p1").view["area"]["name"] != goal:
            match.step("p1", {"action": "go_to_area",
                              "arguments": {"exit_id": _way(match, "p1", goal)}})
    assert match.judge.exit_first is None
    assert match.turn("p1").view["area"]["name"] != "Vault"


TEAMS = MATCH_LEVELS / "team_yard.json"


def _fighter(match: MatchSession, pid: str) -> dict:
    # Attack an opponent in view, else walk out into the yard, else wait a moment.
    view = match.turn(pid).view
    foes = [c["id"] for c in view["characters"]
            if c["friendly"] is False and not c["down"] and c["seen"] == "now"]
    if foes:
        return {"action": "attack", "arguments": {"character_id": foes[0]}}
    if view["area"]["name"] != "Yard":
        return {"action": "go_to_area", "arguments": {"exit_id": _way(match, pid, "Yard")}}
    return _wait(1.0)


def test_a_team_match_plays_to_a_team_result_without_friendly_fire() -> None:
    match = MatchSession(load_level(TEAMS), "normal", 2, teams=("west", "west", "east", "east"))
    # A teammate is shown as friendly and cannot be attacked.
    mate = next(c["id"] for c in match.turn("p1").view["characters"])
    assert match.turn("p1").view["characters"][0]["friendly"] is True
    refused = match.step("p1", {"action": "attack", "arguments": {"character_id": mate}})
    assert refused is not None and refused.result["end_reason"] == "refused"
    for _ in range(200):
        pid = match.deciding
        if pid is None:
            break
        match.step(pid, _fighter(match, pid))
    assert match.over is not None
    results = {s.player: s.result for s in match.standings()}
    assert results["p1"] == results["p2"] and results["p3"] == results["p4"]
    assert {results["p1"], results["p3"]} in ({"won", "lost"}, {"draw"})
    teams = match.world.teams
    hurt = [e for e in match.world.events if e.kind == "damage_taken"
            and e.other in teams and teams[e.other] == teams[e.subject]]
    assert hurt == []
    # The frags a team scored are the downs of the other team's players by its own.
    downs = [e for e in match.world.events if e.kind == "actor_down" and e.subject in teams]
    assert sum(s.frags for s in match.standings()) <= len(downs)


def test_the_checker_refuses_characters_in_a_match_level_for_now() -> None:
    data = json.loads(DUEL.read_text(encoding="utf-8"))
    data["characters"] = [{"id": "guard", "kind": "guard", "side": "hostile", "area": "yard",
                           "at": [1100, 250]}]
    report = check_data(data, "duel_yard.json")
    assert [p.path for p in report.problems] == ["$.match"]
    assert "no characters or waves" in report.problems[0].message


@pytest.mark.parametrize("level_id", MATCH_IDS)
def test_every_shipped_match_level_passes_the_checker(level_id: str) -> None:
    path = MATCH_LEVELS / f"{level_id}.json"
    report = check_data(json.loads(path.read_text(encoding="utf-8")), path.name)
    assert report.problems == ()
    assert load_level(path).match is not None


def test_two_players_firing_at_a_third_in_one_tick_do_not_fail_the_match() -> None:
    # A team_yard match of a round robin (reference and greedy agents): p3 and p4 both
    # attack p1 and fire in the same tick; the first shot downs p1. The second shot
    # is not fired, where it used to fail the tick with "actor 'p1' is already down".
    level = load_level(MATCH_LEVELS / "team_yard.json")
    match = MatchSession(level, "normal", int("d0c8c1bd0129e6d15cb3000d314a1d57", 16),
                         ("a", "a", "b", "b"))
    steps = [("p1", "go_to_area", {"exit_id": "w1"}), ("p2", "go_to_area", {"exit_id": "w1"}),
             ("p3", "attack", {"character_id": "c2"}), ("p4", "go_to_area", {"exit_id": "w1"}),
             ("p1", "go_to_area", {"exit_id": "w1"}), ("p1", "equip", {"item_id": "o1"}),
             ("p1", "go_to_area", {"exit_id": "w2"}), ("p2", "go_to_area", {"exit_id": "w2"}),
             ("p4", "attack", {"character_id": "c2"}), ("p1", "equip", {"item_id": "o1"}),
             ("p1", "go_to_object", {"object_id": "o2"}), ("p1", "equip", {"item_id": "o1"}),
             ("p1", "wait", {"seconds": 0.5})]
    for pid, action, arguments in steps:
        assert match.deciding == pid
        match.step(pid, {"action": action, "arguments": arguments})
    down = match.standing("p1").down_tick
    assert down is not None and not match.world.players["p1"].alive
    assert sum(match.standing(p).frags for p in ("p3", "p4")) == 1
