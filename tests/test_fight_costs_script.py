"""benchmarks/fight_costs.py: where a suite's players lose health, per action and per attack.

The figures of docs/agents.md ("Where the reference agent still loses") come from it, so
its accounting is checked on turns whose costs are known, and on two kept records
against a plain count of their lines.
"""

from __future__ import annotations

import gzip
import itertools
import json
import shutil
from pathlib import Path

import pytest

from benchmarks import fight_costs
from tests.shared import STAGES_DATA


def _turn(health: float, armour: float, action: dict | None = None,
          characters: list[dict] | None = None) -> dict:
    return {"kind": "turn", "action": action,
            "observation": {"view": {"player": {"health": health, "armour": armour},
                                     "characters": characters or []}}}


def test_each_action_costs_the_fall_to_the_next_view_and_attacks_carry_their_target() -> None:
    guard = {"id": "c1", "alertness": "unaware", "distance": 498.0}
    far = {"id": "c2", "alertness": "in_combat", "distance": 900.0}
    turns = [
        _turn(1.0, 0.4, {"action": "attack", "arguments": {"character_id": "c1"}}, [guard]),
        _turn(0.55, 0.0, {"action": "go_to_object", "arguments": {"object_id": "o9"}}),
        _turn(1.0, 0.0, {"action": "attack", "arguments": {"character_id": "c2"}}, [far]),
        _turn(0.79, 0.0, {"action": "attack", "arguments": {"character_id": "c9"}}, [guard]),
        _turn(0.79, 0.0),
    ]
    got = list(fight_costs.costs(turns))
    assert [(kind, round(cost, 6)) for kind, cost, _ in got] == [
        ("attack", 0.85), ("go_to_object", -0.45), ("attack", 0.21), ("attack", 0.0)]
    assert got[0][2] == fight_costs.Attack("unaware", "mid", pytest.approx(0.85))
    assert got[2][2] == fight_costs.Attack("in_combat", "far", pytest.approx(0.21))
    assert got[1][2] is None
    assert got[3][2] is None  # its target was not in the view it was chosen in


@pytest.mark.parametrize(("distance", "band"), [(0.0, "near"), (299.9, "near"), (300.0, "mid"),
                                                (699.9, "mid"), (700.0, "far")])
def test_distance_bands(distance: float, band: str) -> None:
    assert fight_costs.band(distance) == band


def _lines(path: Path) -> list[dict]:
    with gzip.open(path, "rt") as f:
        return [json.loads(line) for line in f]


def test_a_suite_folder_is_tabulated_per_level_and_difficulty(tmp_path: Path, capsys) -> None:
    kept = sorted(STAGES_DATA.glob("*courier_intercept-hard*.jsonl.gz"))
    assert len(kept) == 2
    for n, path in enumerate(kept):
        run = tmp_path / "episodes" / "courier_intercept" / "hard" / f"s{n}" / "run"
        run.mkdir(parents=True)
        shutil.copy(path, run / "record.jsonl.gz")
    assert fight_costs.main([str(tmp_path), "--difficulty", "hard"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["level"], r["difficulty"], r["episodes"]) for r in rows] == [
        ("courier_intercept", "hard", 2)]
    row = rows[0]
    lines = [_lines(p) for p in kept]
    ends = [next(x for x in f if x["kind"] == "end")["summary"] for f in lines]
    assert row["won"] == sum(bool(e["success"]) for e in ends)
    assert len(row["lost_episodes"]) == 2 - row["won"]
    turns = [[x for x in f if x["kind"] == "turn"] for f in lines]
    # Every attack whose target was in its view is counted once.
    seen_attacks = sum(
        1 for f in turns for t in f[:-1]
        if (t.get("action") or {}).get("action") == "attack" and any(
            c["id"] == t["action"]["arguments"]["character_id"]
            for c in t["observation"]["view"]["characters"]))
    assert seen_attacks > 0
    assert sum(a["count"] for a in row["attacks"]) == seen_attacks
    assert row["attacks_per_episode"] == round(seen_attacks / 2, 2)
    # What the actions lost adds up to every fall from one view to the next.
    falls = 0.0
    for f in turns:
        vitality = [t["observation"]["view"]["player"]["health"]
                    + t["observation"]["view"]["player"]["armour"] for t in f]
        falls += sum(max(0.0, a - b) for a, b in itertools.pairwise(vitality))
    assert sum(row["lost_per_episode"].values()) == pytest.approx(falls / 2, abs=0.01)


def test_a_folder_without_records_is_said_so(tmp_path: Path, capsys) -> None:
    assert fight_costs.main([str(tmp_path)]) == 1
    assert "no finished records match" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        fight_costs.main([str(tmp_path / "missing")])
    assert "not a folder" in capsys.readouterr().err


def test_a_record_that_is_not_a_players_views_is_left_out_and_said(tmp_path: Path, capsys) -> None:
    kept = sorted(STAGES_DATA.glob("*courier_intercept-hard*.jsonl.gz"))[0]
    good = tmp_path / "episodes" / "a" / "record.jsonl.gz"
    good.parent.mkdir(parents=True)
    shutil.copy(kept, good)
    lines = _lines(kept)
    for line in lines:
        if line["kind"] == "turn":
            line["observation"] = {"players": []}  # no single player's view
    odd = tmp_path / "episodes" / "b" / "record.jsonl.gz"
    odd.parent.mkdir(parents=True)
    with gzip.open(odd, "wt") as f:
        f.writelines(json.dumps(line) + "\n" for line in lines)
    assert fight_costs.main([str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert [json.loads(x)["episodes"] for x in out.out.splitlines()] == [1]
    assert "skipped" in out.err and str(odd) in out.err
