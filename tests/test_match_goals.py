"""Team objectives of a match (40): a zone to hold and flags to capture.

Judged per tick from the world's state: a side alone in the zone gathers hold time, a
contested zone counts for nobody; a flag carried into its carrier's base scores and goes
home, a downed carrier drops it where it fell, seen there only by whoever sees the spot.
Each player's view lists the objective with its place and every side's tally; the
checker refuses a bad block, naming the field.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.match.replay import replay_match
from harness.match.runner import MATCH_RECORD, MatchSpec, run_match
from tests.shared import MATCH_LEVELS, SHIPPED_AGENTS, TEST_SECRET, python_agent
from world.errors import InvalidRequestError
from world.level.load import load_level, parse_level
from world.levelcheck.checker import check_data
from world.match.session import MatchSession

HILL = MATCH_LEVELS / "hill_yard.json"
FLAGS = MATCH_LEVELS / "flag_yard.json"
# Each level's first decision toward its objective: walk to the hill, take the flag.
FIRST = {"hill_yard": "go_to", "flag_yard": "go_to_object"}


@pytest.fixture(scope="module")
def hill():
    return load_level(HILL)


@pytest.fixture(scope="module")
def flags():
    return load_level(FLAGS)


def _wait(seconds: float) -> dict:
    return {"action": "wait", "arguments": {"seconds": seconds}}


def _row(match: MatchSession, pid: str) -> dict:
    rows = match.turn(pid).view["objectives"]
    assert len(rows) == 1
    return rows[0]


def _play(match: MatchSession, script, turns: int = 400) -> None:
    # Each deciding player's action from `script(match, pid)` until the match is over.
    for _ in range(turns):
        pid = match.deciding
        if pid is None:
            return
        match.step(pid, script(match, pid))


def _view(match: MatchSession, pid: str) -> dict:
    # The player's view now (its last turn's view may be older).
    with match.world.seen_by(pid):
        return match.players[pid].view()


def _put(match: MatchSession, pid: str, x: float, z: float) -> None:
    with match.world.seen_by(pid):
        match.world.teleport(pid, x, z)


def test_a_side_alone_on_the_hill_for_the_hold_time_wins(hill) -> None:
    match = MatchSession(hill, "normal", 5)
    row = _row(match, "p1")
    # The briefing reveals the hill: its place is the row's point from the start.
    assert row["kind"] == "hold_zone" and row["area_name"] == "The hill" and row["located"]

    def script(m, pid):
        point = _row(m, pid)["point"]
        if pid == "p1" and m.players[pid].world.players[pid].area != "hill":
            return {"action": "go_to", "arguments": {"x": point[0], "z": point[2]}}
        return _wait(2.0)

    _play(match, script)
    assert match.over == "zone_held"
    assert {s.player: s.result for s in match.standings()} == {"p1": "won", "p2": "lost"}
    assert match.judge.goals[0].tally("p1") == 600  # 20 s of ticks, not one more
    # The standings give each side's hold time, from the judge's own count.
    assert [s.to_dict()["goals"] for s in match.standings()] == [
        {"hold_s": 20.0}, {"hold_s": 0.0}]
    # The rival's view told the hold times as a scoreboard would.
    assert "the best rival side 19" in _row(match, "p2")["text"]


def test_a_contested_hill_counts_for_nobody(hill) -> None:
    match = MatchSession(hill, "normal", 5)
    _put(match, "p1", 1000, 800)
    _put(match, "p2", 1200, 800)
    match.step("p1", _wait(1.0))
    match.step("p2", _wait(1.0))
    goal = match.judge.goals[0]
    assert match.tick == 30 and goal.tally("p1") == goal.tally("p2") == 0
    # A downed rival no longer contests it: the one left holds.
    with match.world.seen_by("p1"):
        match.world.damage("p2", 5.0, "p1")
    _play(match, lambda m, pid: _wait(1.0), turns=3)
    assert goal.tally("p1") > 0 and goal.tally("p2") == 0


def test_at_the_time_limit_hold_time_decides_before_frags() -> None:
    data = json.loads(HILL.read_text())
    data["budgets"]["max_game_seconds"] = 2
    level = parse_level(data, "edited.json")
    match = MatchSession(level, "normal", 5)
    _put(match, "p2", 1100, 800)
    _play(match, lambda m, pid: _wait(1.0))
    assert match.over == "time"
    assert {s.player: s.result for s in match.standings()} == {"p1": "lost", "p2": "won"}


def _raid(m: MatchSession, pid: str, raiders: tuple[str, ...] = ("p1",)) -> dict:
    # The raiders play the row: take what it targets, then walk to its point (the base).
    row = _row(m, pid)
    if pid not in raiders:
        return _wait(2.0)
    if row["targets"]:
        return {"action": "go_to_object", "arguments": {"object_id": row["targets"][0]}}
    if row["point"]:
        return {"action": "go_to", "arguments": {"x": row["point"][0], "z": row["point"][2]}}
    return _wait(1.0)


def test_two_captures_win_and_a_captured_flag_goes_home(flags) -> None:
    match = MatchSession(flags, "normal", 5)
    row = _row(match, "p1")
    # The briefing reveals both flags: the rival's is the target, the own base the area.
    assert row["kind"] == "capture_flag" and row["targets"] and row["area_name"] == "West base"
    _play(match, _raid)
    assert match.over == "captures"
    assert {s.player: s.result for s in match.standings()} == {"p1": "won", "p2": "lost"}
    flag = match.world.objects["east_flag"]
    assert (flag.x, flag.z, flag.present, flag.holder) == (2300, 300, True, None)
    assert [s.to_dict()["goals"] for s in match.standings()] == [
        {"captures": 2}, {"captures": 0}]
    with match.world.seen_by("p1"):
        assert "your side 2" in match.players["p1"].view()["objectives"][0]["text"]


def test_sides_making_their_last_capture_on_one_tick_draw(flags) -> None:
    # The yard is symmetric about its middle: two players raiding alike capture alike.
    match = MatchSession(flags, "normal", 5)
    _play(match, lambda m, pid: _raid(m, pid, ("p1", "p2")))
    assert match.over == "captures"
    assert [s.result for s in match.standings()] == ["draw", "draw"]


def test_a_downed_carrier_drops_the_flag_where_it_fell() -> None:
    # A third player on p1's side, so that p1 going down does not end the match.
    data = json.loads(FLAGS.read_text())
    data["match"]["starts"].append({"area": "west_base", "at": [450, 500]})
    match = MatchSession(parse_level(data, "three.json"), "normal", 5, ("w", "e", "w"))
    _put(match, "p2", 300, 100)  # in the west base: the east base is out of its sight
    _put(match, "p1", 2250, 300)
    match.step("p1", {"action": "go_to_object",
                      "arguments": {"object_id": _row(match, "p1")["targets"][0]}})
    match.step("p2", _wait(0.5))
    _play(match, lambda m, pid: _wait(0.5), turns=4)
    flag = match.world.objects["east_flag"]
    assert flag.holder == "p1"
    assert "You carry" in _row(match, "p1")["text"] and _row(match, "p1")["point"]
    _put(match, "p1", 1500, 300)  # out in the yard with it
    p1 = match.world.players["p1"]
    with match.world.seen_by("p2"):
        match.world.damage("p1", 5.0, "p2")
    _play(match, lambda m, pid: _wait(0.5), turns=2)
    assert (flag.present, flag.holder) == (True, None)
    assert (round(flag.x), round(flag.z)) == (1500, 300)
    assert "east_flag" not in p1.inventory
    # p2 did not see it fall: it knows nothing of where the flag lies now.
    assert match.players["p2"].known.objects.isdisjoint({"east_flag"})
    assert not any(o["name"] == "east flag" for o in _view(match, "p2")["objects"])
    # Its row targets only the rival's flag, not its own lying unseen in the yard.
    assert len(_view(match, "p2")["objectives"][0]["targets"]) == 1
    # Seen where it fell, it is there to be taken: the owner's touch sends it home.
    _put(match, "p2", 1900, 125)
    seen = _view(match, "p2")
    assert [o["position"][0] for o in seen["objects"] if o["name"] == "east flag"] == [1500]
    assert len(seen["objectives"][0]["targets"]) == 2  # the rival's flag, then its own
    own = seen["objectives"][0]["targets"][-1]
    _play(match, lambda m, pid: {"action": "go_to_object", "arguments": {"object_id": own}}
          if pid == "p2" else _wait(0.5), turns=6)
    assert (flag.x, flag.z, flag.present, flag.holder) == (2300, 300, True, None)


def test_a_capture_level_needs_a_side_per_base(flags) -> None:
    with pytest.raises(InvalidRequestError, match=r"\$\.match\.capture names 2 bases"):
        MatchSession(flags, "normal", 5, teams=("blue", "blue"))


def _edited(path, edit) -> dict:
    data = json.loads(path.read_text())
    edit(data["match"], data)
    return data


@pytest.mark.parametrize(("path", "edit", "field", "words"), [
    (HILL, lambda m, d: m["hold"].update(area="west_hut"), "$.match.hold.area",
     "is a start area"),
    (HILL, lambda m, d: m["hold"].update(area="moon"), "$.match.hold.area",
     "unknown area id 'moon'"),
    (HILL, lambda m, d: m["hold"].update(seconds=0), "$.match.hold.seconds", "0"),
    (FLAGS, lambda m, d: m["capture"].update(flags=["medkit_west", "east_flag"]),
     "$.match.capture.flags[0]", "a flag is a placed object of kind key"),
    (FLAGS, lambda m, d: m["capture"].update(flags=["west_flag", "east_flag", "pistol_p1"]),
     "$.match.capture.flags", "give one flag per base"),
    (FLAGS, lambda m, d: m["capture"].update(bases=["west_base", "pond"]),
     "$.match.capture.bases[1]", "unknown area id 'pond'"),
    (FLAGS, lambda m, d: m["capture"].update(to_win=0), "$.match.capture.to_win", "1"),
])
def test_the_checker_names_what_is_wrong_in_a_goal(path, edit, field, words) -> None:
    report = check_data(_edited(path, edit), path.name)
    assert any(p.path == field and words in p.message for p in report.problems), \
        report.problems
    assert all("\n" not in p.message for p in report.problems)  # one line each


@pytest.mark.parametrize(("path", "endings"), [
    (HILL.name, {"zone_held", "last_standing"}), (FLAGS.name, {"captures", "last_standing"}),
    ("escort_yard.json", {"escort_out", "escort_down", "last_standing"})])
def test_the_baselines_play_each_goal_level_to_its_end_and_it_replays(
        tmp_path: Path, path: Path | str, endings: set[str]) -> None:
    # The reference agent and the greedy agent both set out for the objective its view
    # row locates (both meet on the hill and fight for it); the record replays.
    path = MATCH_LEVELS / path
    level = load_level(path)
    assert level.match is not None
    half = len(level.match.starts) // 2
    agents = (python_agent(SHIPPED_AGENTS / "reference_agent.py"),) * half + (
        python_agent(SHIPPED_AGENTS / "greedy_agent.py"),) * half
    spec = MatchSpec(level, str(path), "normal", 0, agents, tmp_path / "m",
                     teams=("a",) * half + ("b",) * half, secret=TEST_SECRET)
    summary = run_match(spec)
    assert summary["over"] in endings
    lines = [json.loads(t) for t in gzip.decompress(
        (tmp_path / "m" / MATCH_RECORD).read_bytes()).splitlines()]
    first = {t["player"]: t for t in reversed(lines) if t["kind"] == "turn"}
    if level.id in FIRST:
        assert [first[p]["stepped"]["action"] for p in ("p1", "p2")] == [FIRST[level.id]] * 2
    if level.id == "escort_yard":  # both escorted players set out for the exit
        assert {first[p]["stepped"]["action"] for p in ("p1", "p3")} <= {"go_to", "go_to_area"}
        # Only an escorted player's entry counts: the guards are told of no exit.
        exits = {p: first[p]["observation"]["match"]["exit"] for p in first}
        assert exits == {"p1": "North gate", "p2": None, "p3": "North gate", "p4": None}
    report = replay_match(tmp_path / "m")
    assert report.verified, report.divergence
    assert report.standings == [{k: v for k, v in r.items() if k != "agent_failure"}
                                for r in summary["standings"]]


ESCORT = MATCH_LEVELS / "escort_yard.json"
SIDES = ("west", "west", "east", "east")


def test_an_escorted_player_reaching_the_exit_alive_wins() -> None:
    match = MatchSession(load_level(ESCORT), "normal", 5, SIDES)
    rows = {pid: _row(match, pid) for pid in ("p1", "p2")}
    assert "You are your side's escorted player" in rows["p1"]["text"]
    assert rows["p2"]["targets"]  # the guard sees its escorted teammate: its target
    # A guard's entry of the exit counts for nothing; the escorted player's wins.
    _put(match, "p2", 1100, 1900)
    _play(match, lambda m, pid: _wait(1.0), turns=4)
    assert match.over is None
    _put(match, "p1", 1100, 1650)

    def walk(m, pid):
        return {"action": "go_to", "arguments": {"x": 1100, "z": 1900}} if pid == "p1" \
            else _wait(1.0)

    _play(match, walk)
    assert match.over == "escort_out"
    assert [s.result for s in match.standings()] == ["won", "won", "lost", "lost"]


def test_an_escorted_player_going_down_loses_for_its_side() -> None:
    match = MatchSession(load_level(ESCORT), "normal", 5, SIDES)
    with match.world.seen_by("p4"):
        match.world.damage("p3", 5.0, "p2")
    _play(match, lambda m, pid: _wait(0.5), turns=4)
    assert match.over == "escort_down"
    assert [s.result for s in match.standings()] == ["won", "won", "lost", "lost"]
    assert [s.to_dict()["goals"] for s in match.standings()] == [
        {"escorted_standing": 1}, {"escorted_standing": 1},
        {"escorted_standing": 0}, {"escorted_standing": 0}]


def test_an_escort_match_needs_one_escorted_player_per_side() -> None:
    with pytest.raises(InvalidRequestError, match="exactly one escorted player"):
        MatchSession(load_level(ESCORT), "normal", 5, ("west", "east", "west", "east"))


@pytest.mark.parametrize(("edit", "field", "words"), [
    (lambda m: m["escort"].update(players=["p1", "p7"]), "$.match.escort.players[1]",
     "no player 'p7'"),
    (lambda m: m.pop("exit"), "$.match.escort", "escorts need the match's exit"),
    (lambda m: m["escort"].update(players=["p1", "x3"]), "$.match.escort.players[1]",
     "does not match"),
])
def test_the_checker_names_what_is_wrong_in_an_escort(edit, field, words) -> None:
    data = json.loads(ESCORT.read_text())
    edit(data["match"])
    report = check_data(data, ESCORT.name)
    assert any(p.path == field and words in p.message for p in report.problems), \
        report.problems


def test_the_greedy_agent_holds_the_hill_it_walked_to(hill) -> None:
    # In process: greedy plays p1 from its structured view against a rival that waits;
    # it walks to the row's point and stands there until the hold time wins the match.
    spec = importlib.util.spec_from_file_location("greedy_on_hill", SHIPPED_AGENTS
                                                  / "greedy_agent.py")
    assert spec is not None and spec.loader is not None
    greedy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(greedy)
    match = MatchSession(hill, "normal", 5)
    steps = []

    def script(m, pid):
        if pid != "p1":
            return _wait(2.0)
        turn = m.turn(pid)
        action, arguments, notes = greedy.decide(
            {"view": turn.view, "last_result": turn.result, "error": None}, {})
        steps.append(notes)
        return {"action": action, "arguments": arguments}

    _play(match, script)
    assert match.over == "zone_held" and match.standing("p1").result == "won"
    assert steps[0].endswith("walking to its place") and steps[-1].endswith("holding its place")


def test_harness_match_refuses_teams_the_goals_cannot_use_in_one_line(capsys) -> None:
    # Before any agent is started: one team on a capture level of two bases.
    agent = python_agent(SHIPPED_AGENTS / "random_agent.py")
    code = main(["match", str(FLAGS), "--agent", agent, "--agent", agent,
                 "--team", "a", "--team", "a"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err
    assert err.startswith("harness match: --team: level 'flag_yard': $.match.capture names 2")


@pytest.mark.parametrize(("level", "measure", "label", "ending", "reached"), [
    (HILL, "hold_s", "hold time (s)", "zone_held", 20.0),
    (FLAGS, "captures", "captures", "captures", 2)])
def test_a_goal_matchs_standings_and_page_show_each_sides_figure(
        tmp_path: Path, capsys, level: Path, measure: str, label: str, ending: str,
        reached: float) -> None:
    # The end line's standings carry each side's hold time or captures (the judge's, so
    # replay re-derives them); the terminal lines and the match page show them.
    reference = python_agent(SHIPPED_AGENTS / "reference_agent.py")
    greedy = python_agent(SHIPPED_AGENTS / "greedy_agent.py")
    assert main(["match", str(level), "--agent", reference, "--agent", greedy,
                 "--out", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    rows = summary["standings"]
    assert all(set(r["goals"]) == {measure} for r in rows)
    if summary["over"] == ending:  # the winner met the rule exactly
        assert [r["goals"][measure] for r in rows if r["result"] == "won"] == [reached]
    record = Path(summary["record"])
    assert replay_match(record).verified
    assert main(["page", str(record.parent)]) == 0
    page = (record.parent / "index.html").read_text()
    assert f'<th data-goal="{measure}">{label}</th>' in page
    for r in rows:
        row = page[page.index(f'<tr data-player="{r["player"]}">'):].split("</tr>")[0]
        assert f'<td data-goal="{measure}">{r["goals"][measure]}</td>' in row
    # A record written before standings carried the figures still replays; a forged
    # figure does not.
    lines = [json.loads(t) for t in gzip.decompress(record.read_bytes()).splitlines()]
    end = lines[-1]
    for edit in ({}, {measure: 99}):
        end["standings"] = [{**{k: v for k, v in r.items() if k != "goals"},
                             **({"goals": edit} if edit else {})} for r in rows]
        record.write_bytes(gzip.compress("".join(json.dumps(x) + "\n"
                                                 for x in lines).encode()))
        assert replay_match(record).verified is not bool(edit)


def test_the_terminal_lines_name_each_goal_figure(tmp_path: Path, capsys) -> None:
    agent = python_agent(SHIPPED_AGENTS / "greedy_agent.py")
    assert main(["match", str(HILL), "--agent", agent, "--agent", agent,
                 "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "p1 (p1): " in err and "frags, hold time (s): " in err
