"""benchmarks/fight_shots.py: a duel's shots and hits taken, replayed from records.

The figures of docs/agents.md ("Where the reference agent still loses") on what a duel's
opening buys come from it, so its accounting is checked on events whose answer is known,
and on an episode played here against the record's own views.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from benchmarks import fight_shots
from benchmarks.fight_costs import records
from harness.cli import main as harness_main
from tests.shared import ROOT, TEST_SECRET
from world.sim.events import Event

AGENT = f"python3 {ROOT / 'agents' / 'reference_agent.py'}"


def _event(tick: int, kind: str, subject: str, other: str | None = None) -> Event:
    return Event(tick, kind, subject, other, None, None)


def test_a_duel_counts_its_targets_shots_at_the_player_until_he_is_down() -> None:
    duel = fight_shots.Duel("unaware", in_cone=False)
    open_duels, done = {"guard_1": duel}, []
    fight_shots.follow([
        _event(10, "shot_missed", "player", "guard_1"),  # a miss is no first hit
        _event(25, "shot_hit", "player", "guard_1"),
        _event(31, "shot_missed", "guard_2", "player"),  # another's shot is not his
        _event(34, "shot_missed", "guard_1", "player"),
        _event(40, "shot_hit", "player", "guard_1"),
        _event(46, "shot_hit", "guard_1", "player"),
        _event(50, "shot_hit", "guard_1", "guard_3"),  # not at the player
    ], open_duels, done)
    assert done == [] and duel.shots == 2 and duel.hits == 1
    assert (duel.first_hit, duel.first_shot, duel.delay) == (25, 34, 9)
    fight_shots.follow([_event(55, "actor_down", "guard_1", "player"),
                        _event(58, "shot_hit", "guard_1", "player")], open_duels, done)
    assert done == [duel] and open_duels == {} and duel.shots == 2


def test_a_target_that_never_answered_has_no_delay() -> None:
    assert fight_shots.Duel("unaware", False, first_hit=3).delay is None
    assert fight_shots.Duel("unaware", False, first_shot=3).delay is None


@pytest.mark.parametrize(("player", "facing", "inside"), [
    ([100.0, 0.0, 0.0], 0.0, True),     # straight ahead (+x)
    ([-100.0, 0.0, 0.0], 0.0, False),   # behind him
    ([0.0, 0.0, 100.0], 90.0, True),    # +z, facing +z
    ([100.0, 0.0, 100.0], 0.0, True),   # 45 degrees off, inside a 120-degree cone
    ([0.0, 0.0, 100.0], 0.0, False),    # 90 degrees off
    ([100.0, 0.0, -1.0], 359.0, True),  # across the wrap of the angle
])
def test_in_cone(player: list[float], facing: float, inside: bool) -> None:
    row = {"position": [0.0, 0.0, 0.0], "facing_deg": facing, "view_angle_deg": 120.0}
    assert fight_shots.in_cone(player, row) is inside


def test_a_cone_the_view_does_not_show_counts_as_looking_everywhere() -> None:
    row = {"position": [0.0, 0.0, 0.0], "facing_deg": None, "view_angle_deg": None}
    assert fight_shots.in_cone([-100.0, 0.0, 0.0], row) is True


def test_the_duels_of_a_played_errand_are_those_its_views_opened(tmp_path: Path,
                                                                 capsys) -> None:
    out = tmp_path / "suite"
    assert harness_main(["run", "errand@1", "--difficulty", "hard", "--seed", "0",
                         "--agent", AGENT, "--out", str(out),
                         "--secret", TEST_SECRET.hex()]) == 0
    capsys.readouterr()
    [record] = list(records(out))
    # From the record's own lines: the targets first attacked while unaware or
    # suspicious, and how the player stood to each.
    opened: dict[str, bool] = {}
    for turn in record.turns:
        action = turn.get("action") or {}
        if action.get("action") != "attack" or turn.get("error"):
            continue
        view = turn["observation"]["view"]
        target = action["arguments"]["character_id"]
        row = next((c for c in view["characters"] if c["id"] == target), None)
        if row is not None and target not in opened and row["alertness"] in ("unaware",
                                                                             "suspicious"):
            opened[target] = fight_shots.in_cone(view["player"]["position"], row)
    assert opened, "the episode opened no duel: pick another level or seed"
    found = list(fight_shots.duels(record))
    assert sorted(d.in_cone for d in found) == sorted(opened.values())
    for duel in found:
        assert 0 <= duel.hits <= duel.shots
        assert duel.first_hit is not None  # the player hit each of them
    assert fight_shots.main([str(out), "--difficulty", "hard"]) == 0
    [line] = capsys.readouterr().out.splitlines()
    row = json.loads(line)
    assert (row["level"], row["difficulty"], row["duels"]) == ("errand", "hard", len(opened))
    assert sum(r["duels"] for r in row["rows"]) == len(opened)
    # A world that plays the record otherwise (another version) gives another episode's
    # counts: the record is named and left out, not counted.
    with gzip.open(record.path, "rt") as f:
        lines = [json.loads(x) for x in f]
    turn = next(x for x in lines if x["kind"] == "turn" and x["turn"] == 3)
    turn["state_hash"] = "0" * len(turn["state_hash"])
    other = tmp_path / "other" / "episodes" / "errand" / "record.jsonl.gz"
    other.parent.mkdir(parents=True)
    with gzip.open(other, "wt") as f:
        f.writelines(json.dumps(x) + "\n" for x in lines)
    assert fight_shots.main([str(other.parents[2])]) == 1
    err = capsys.readouterr().err
    assert str(other) in err and "turn 3" in err and "state hash differs" in err


def test_bad_arguments_are_refused(tmp_path: Path, capsys) -> None:
    assert fight_shots.main([str(tmp_path)]) == 1
    assert "no finished records match" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        fight_shots.main([str(tmp_path / "missing")])
    assert "not a folder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        fight_shots.main([str(tmp_path), "--limit", "0"])
    assert "--limit 0" in capsys.readouterr().err


def test_a_record_that_is_not_a_world_episode_is_left_out_and_said(tmp_path: Path,
                                                                  capsys) -> None:
    odd = tmp_path / "episodes" / "b" / "record.jsonl.gz"
    odd.parent.mkdir(parents=True)
    header = {"kind": "header", "level": "nowhere", "difficulty": "hard"}
    end = {"kind": "end", "summary": {}}
    with gzip.open(odd, "wt") as f:
        f.writelines(json.dumps(line) + "\n" for line in (header, end))
    assert fight_shots.main([str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "skipped" in err and str(odd) in err
