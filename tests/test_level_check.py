"""The level checker finds each kind of problem, on files broken one way at a time."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main
from tests.level_factory import base_level, delete_at, get_at, set_at, write_level
from tests.shared import ROOT, local
from world.levelcheck.checker import check_data, check_level

LINE = re.compile(r"^\S+\.json: \$[^ ]*: .+$")


def check(tmp_path: Path, data: dict, name: str | None = None):
    return check_level(write_level(tmp_path, data, name))


def assert_problem(report, path: str, fragment: str) -> None:
    found = [(p.path, p.message) for p in report.problems]
    assert any(p == path and fragment in m for p, m in found), found


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness.cli", "check", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_base_level_is_valid(tmp_path):
    report = check(tmp_path, base_level())
    assert report.ok, report.problems
    assert report.counts is not None and report.counts.areas == 5


def test_malformed_json_names_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "id": "broken",\n  "title": \n}\n', encoding="utf-8")
    report = check_level(path)
    assert len(report.problems) == 1
    assert report.problems[0].path == "$"
    assert "malformed JSON at line 4 column 1" in report.problems[0].message


def test_every_schema_violation_is_reported(tmp_path):
    data = base_level()
    delete_at(data, "title")
    set_at(data, "budgets.max_decisions", 0)
    set_at(data, "areas[1].id", "Bad-Id")
    set_at(data, "exits[0].kind", "portal")
    report = check(tmp_path, data)
    paths = {p.path for p in report.problems}
    assert {"$", "$.budgets.max_decisions", "$.areas[1].id", "$.exits[0].kind"} <= paths
    assert any("'title' is a required property" in p.message for p in report.problems)


REFERENCE_FIELDS = [
    "areas[0].storey",
    "stairs[0].bottom.area",
    "stairs[0].top.area",
    "exits[0].areas[1]",
    "exits[1].door.key",
    "exits[1].door.panel",
    "exits[1].door.locked_from",
    "exits[1].door.one_way_from",
    "objects[1].area",
    "objects[0].weapon",
    "objects[8].alarm",
    "objects[2].targets[0]",
    "objects[7].zone[0]",
    "objects[7].spawn_points[0]",
    "characters[0].area",
    "characters[0].weapon",
    "characters[0].route[0].area",
    "characters[1].destination",
    "characters[1].min_difficulty",
    "waves[0].spawn_points[0]",
    "waves[0].character.weapon",
    "hazards[0].storey",
    "countdowns[0].starts_after",
    "start.area",
    "start.inventory[0]",
    "start.in_hand",
    "exit_area.area",
    "objectives[3].area",
    "objectives[0].object",
    "objectives[2].characters[0]",
    "objectives[4].after[0]",
    "objectives[5].points[0].area",
    "objectives[4].min_difficulty",
]


@pytest.mark.parametrize("field", REFERENCE_FIELDS)
def test_undefined_reference(tmp_path, field):
    data = set_at(base_level(), field, "nowhere")
    assert_problem(check(tmp_path, data), f"$.{field}", "unknown")


def test_reference_to_the_wrong_group(tmp_path):
    data = set_at(base_level(), "exit_area.area", "guard")
    assert_problem(check(tmp_path, data), "$.exit_area.area", "'guard' is a character, not a area")


def test_unknown_difficulty(tmp_path):
    data = set_at(base_level(), "characters[0].min_difficulty", "insane")
    assert_problem(check(tmp_path, data), "$.characters[0].min_difficulty", "unknown difficulty")


def test_id_defined_twice_names_the_first(tmp_path):
    data = set_at(base_level(), "objects[4].id", "hall")
    assert_problem(
        check(tmp_path, data), "$.objects[4].id", "already defined (area at $.areas[1].id)"
    )


@pytest.mark.parametrize(
    ("outline", "fragment"),
    [
        ([[0, 600], [600, 900], [600, 600], [0, 900]], "not simple"),
        ([[0, 600], [600, 600], [600, 600], [600, 900], [0, 900]], "repeats point"),
        ([[0, 600], [300, 600], [600, 600]], "zero area"),
    ],
    ids=["self_intersecting", "repeated_point", "zero_area"],
)
def test_polygon_not_simple(tmp_path, outline, fragment):
    data = set_at(base_level(), "areas[3].polygon", outline)
    assert_problem(check(tmp_path, data), "$.areas[3].polygon", fragment)


def test_hazard_polygon_not_simple(tmp_path):
    outline = [[1100, 420], [1300, 560], [1300, 420], [1100, 560]]
    data = set_at(base_level(), "hazards[0].polygon", outline)
    assert_problem(check(tmp_path, data), "$.hazards[0].polygon", "not simple")


def test_overlapping_areas(tmp_path):
    data = set_at(
        base_level(), "areas[2].polygon", [[1300, 0], [1900, 0], [1900, 600], [1300, 600]]
    )
    assert_problem(check(tmp_path, data), "$.areas[2].polygon", "overlaps area 'hall'")


def test_touching_areas_do_not_overlap(tmp_path):
    assert check(tmp_path, base_level()).ok


def test_exit_off_the_boundary(tmp_path):
    data = set_at(base_level(), "exits[0].segment", [[500, 200], [500, 400]])
    assert_problem(check(tmp_path, data), "$.exits[0].segment", "boundary of area 'entry'")


def test_exit_between_storeys(tmp_path):
    data = set_at(base_level(), "exits[0].areas", ["entry", "loft"])
    assert_problem(check(tmp_path, data), "$.exits[0].areas", "different storeys")


def test_doorway_narrower_than_the_agent(tmp_path):
    data = set_at(base_level(), "exits[0].segment", [[600, 200], [600, 230]])
    assert_problem(check(tmp_path, data), "$.exits[0].segment", "doorway is 30 wide")


def test_stair_end_off_the_boundary(tmp_path):
    data = set_at(base_level(), "stairs[0].bottom.edge", [[800, 500], [1000, 500]])
    assert_problem(check(tmp_path, data), "$.stairs[0].bottom.edge", "boundary of area 'hall'")


def test_stairs_on_one_storey(tmp_path):
    data = base_level()
    set_at(data, "stairs[0].top", {"area": "store", "edge": [[1500, 600], [1700, 600]]})
    assert_problem(check(tmp_path, data), "$.stairs[0]", "both ends are on storey 'ground'")


def test_stair_edges_of_different_length(tmp_path):
    data = set_at(base_level(), "stairs[0].top.edge", [[800, 1000], [1100, 1000]])
    assert_problem(check(tmp_path, data), "$.stairs[0].top.edge", "top edge is 300 long")


def test_object_outside_its_area(tmp_path):
    data = set_at(base_level(), "objects[1].at", [700, 100])
    assert_problem(check(tmp_path, data), "$.objects[1].at", "not inside area 'entry'")


def test_character_off_the_walkable_floor(tmp_path):
    data = set_at(base_level(), "characters[0].at", [601, 1])
    assert_problem(check(tmp_path, data), "$.characters[0].at", "more than the agent radius")


def test_start_off_the_walkable_floor(tmp_path):
    data = set_at(base_level(), "start.at", [1, 1])
    assert_problem(check(tmp_path, data), "$.start.at", "more than the agent radius")


def test_start_outside_its_area(tmp_path):
    data = set_at(base_level(), "start.at", [700, 300])
    assert_problem(check(tmp_path, data), "$.start.at", "not inside area 'entry'")


@pytest.mark.parametrize(
    ("field", "value", "path", "fragment"),
    [
        ("objectives[0].object", "files", "$.objectives[0].object", "expected one of"),
        ("objectives[0].object", "loose_brick", "$.objectives[0].object", "is a secret_trigger"),
        ("objectives[1].gadget", "camera", "$.objectives[1].gadget", "no gadget object"),
        ("objectives[4].object", "files", "$.objectives[4].object", "cannot be destroyed"),
        ("objectives[2].characters[0]", "clerk", "$.objectives[2].characters[0]", "hostile"),
        ("exits[1].door.key", "files", "$.exits[1].door.key", "expected one of: key"),
    ],
    ids=[
        "collect_computer",
        "collect_trigger",
        "gadget_missing",
        "destroy_unbreakable",
        "neutralise_friend",
        "door_key_not_a_key",
    ],
)
def test_objective_of_the_wrong_kind(tmp_path, field, value, path, fragment):
    data = set_at(base_level(), field, value)
    assert_problem(check(tmp_path, data), path, fragment)


def test_carried_object_also_placed(tmp_path):
    data = base_level()
    get_at(data, "start.inventory").append("store_key")
    assert_problem(check(tmp_path, data), "$.start.inventory[1]", "also placed")


def test_object_neither_placed_nor_carried(tmp_path):
    data = set_at(base_level(), "start.inventory", [])
    delete_at(data, "start.in_hand")
    assert_problem(check(tmp_path, data), "$.objects[0]", "neither placed nor carried")


def test_area_floor_falls_apart(tmp_path):
    data = base_level()
    outline = [
        [0, 600],
        [600, 600],
        [600, 900],
        [320, 900],
        [320, 640],
        [290, 640],
        [290, 900],
        [0, 900],
    ]
    set_at(data, "areas[3].polygon", outline)
    set_at(data, "objects[3].at", [100, 800])
    assert_problem(check(tmp_path, data), "$.areas[3].polygon", "falls apart into 2 pieces")


def test_level_id_must_match_file_name(tmp_path):
    assert_problem(check(tmp_path, base_level(), "other.json"), "$.id", "file name")


def test_key_locked_behind_its_own_door(tmp_path):
    data = base_level()
    set_at(data, "objects[1].area", "store")
    set_at(data, "objects[1].at", [1600, 300])
    report = check(tmp_path, data)
    assert_problem(report, "$.objectives[0].object", "objective 'get_key' needs object 'store_key'")
    assert_problem(report, "$.exit_area.area", "the mission exit needs area 'store'")
    # The crate stands in the same unreachable store and is reported once, by its objective.
    assert_problem(report, "$.objectives[4].object", "object 'crate'")
    assert len(report.problems) == 3


def test_work_past_the_exit_area(tmp_path):
    # Entering the exit area while work is open ends the mission: with the hall as the
    # exit, the store's crate and the loft's files lie only past it. The exit itself,
    # and what the entry and closet hold, stay reachable.
    report = check(tmp_path, set_at(base_level(), "exit_area.area", "hall"))
    for path, thing in (("$.objectives[1].object", "object 'files'"),
                        ("$.objectives[3].area", "area 'loft'"),
                        ("$.objectives[4].object", "object 'crate'")):
        assert_problem(report, path, f"needs {thing}, which can be reached only through "
                                     "the exit area 'hall'")
    assert len(report.problems) == 3


def test_starting_in_the_exit_area_may_leave_it(tmp_path):
    # A start inside the exit area is no entry into it: the way out is open.
    assert check(tmp_path, set_at(base_level(), "exit_area.area", "entry")).ok


def test_one_way_door_the_wrong_way(tmp_path):
    data = set_at(base_level(), "exits[1].door.one_way_from", "store")
    assert_problem(check(tmp_path, data), "$.exit_area.area", "cannot be reached")


def test_hidden_exit_whose_trigger_is_behind_it(tmp_path):
    data = base_level()
    set_at(data, "objects[2].area", "closet")
    set_at(data, "objects[2].at", [100, 800])
    assert_problem(check(tmp_path, data), "$.objectives[1].gadget", "gadget 'copier'")


def _panel_door(panel_area: str, at: list[int]) -> dict:
    data = base_level()
    panel = {
        "id": "store_panel",
        "kind": "panel",
        "area": panel_area,
        "at": at,
        "targets": ["store_door"],
    }
    data["objects"].append(panel)
    set_at(data, "exits[1].door", {"initial": "closed", "panel": "store_panel"})
    return data


def test_panel_door_with_panel_behind_it(tmp_path):
    report = check(tmp_path, _panel_door("store", [1450, 100]))
    assert_problem(report, "$.exit_area.area", "cannot be reached")


def test_panel_door_with_panel_in_front(tmp_path):
    assert check(tmp_path, _panel_door("hall", [1350, 100])).ok


@pytest.mark.parametrize(("side", "ok"), [("store", True), ("hall", False)])
def test_door_locked_from_one_side(tmp_path, side, ok):
    data = set_at(base_level(), "exits[1].door", {"initial": "locked", "locked_from": side})
    report = check(tmp_path, data)
    assert report.ok is ok, report.problems


def test_check_data_and_loaded_level_agree():
    data = base_level()
    assert check_data(data, "base.json").ok
    assert check_level(local("base.json")).ok


# Every shipped level checked again in a fresh process; test_levels_shipped.py checks each
# in the quick subset.
@pytest.mark.slow
def test_shipped_levels_pass_on_the_command_line():
    result = run_cli("levels/")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("levels/outpost.json: ok: 7 areas") for line in lines)
    assert any(line.startswith("levels/exit_switch.json: ok: ") for line in lines)


# A real process here (its exit status and output); the tests below call the command's
# main in this process, as each process started costs seconds of imports.
def test_command_line_reports_problems(tmp_path):
    narrow = set_at(base_level(), "exits[0].segment", [[600, 200], [600, 230]])
    set_at(narrow, "id", "narrow")
    write_level(tmp_path, narrow)
    (tmp_path / "garbled.json").write_text("{", encoding="utf-8")
    write_level(tmp_path, base_level())
    result = run_cli(str(tmp_path))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert all(LINE.match(line) for line in lines if ": ok: " not in line), lines
    assert f"{tmp_path / 'narrow.json'}: $.exits[0].segment: doorway is 30 wide" in result.stdout
    assert f"{tmp_path / 'garbled.json'}: $: malformed JSON" in result.stdout
    assert f"{tmp_path / 'base.json'}: ok: 5 areas" in result.stdout


def test_command_line_json_output(tmp_path, capsys):
    path = write_level(tmp_path, set_at(base_level(), "start.area", "nowhere"))
    assert main(["check", "--json", str(path)]) == 1
    (report,) = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert report["problems"][0]["path"] == "$.start.area"


def test_nan_and_infinity_are_named_by_path(tmp_path):
    data = set_at(base_level(), "areas[0].polygon[1][0]", float("nan"))
    set_at(data, "start.at[0]", float("-inf"))
    path = write_level(tmp_path, data)
    path.write_text(path.read_text(encoding="utf-8").replace('"title"', '"huge": 1e999, "title"'),
                    encoding="utf-8")
    report = check_level(path)
    found = {p.path for p in report.problems}
    assert found == {"$.areas[0].polygon[1][0]", "$.start.at[0]", "$.huge"}, report.problems
    assert all(p.message == "NaN/Infinity is not allowed" for p in report.problems)


def test_objective_waiting_on_itself(tmp_path):
    report = check(tmp_path, set_at(base_level(), "objectives[0].after", ["get_key"]))
    assert_problem(report, "$.objectives[0].after", "objective 'get_key' waits on itself")


def test_objectives_waiting_on_each_other_in_a_cycle(tmp_path):
    data = set_at(base_level(), "objectives[0].after", ["down_guard"])
    set_at(data, "objectives[2].after", ["smash_crate"])
    report = check(tmp_path, data)
    assert_problem(report, "$.objectives[0].after",
                   "cycle: 'get_key' -> 'down_guard' -> 'smash_crate' -> 'get_key'")
    assert len([p for p in report.problems if "cycle" in p.message]) == 1


def test_one_bad_file_never_stops_the_others(tmp_path, capsys):
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (tmp_path / "digits.json").write_text('{"id": ' + "9" * 5000 + "}", encoding="utf-8")
    big = set_at(base_level(), "id", "big")
    path = write_level(tmp_path, set_at(big, "budgets.max_game_seconds", 123456789))
    text = path.read_text(encoding="utf-8").replace("123456789", "1" + "0" * 400)
    path.write_text(text, encoding="utf-8")
    write_level(tmp_path, base_level())
    assert main(["check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{tmp_path / 'deep.json'}: $: lists and objects nest 100000 deep; at most 64" in out
    assert f"{tmp_path / 'digits.json'}: $: unusable JSON: Exceeds the limit" in out
    assert f"{tmp_path / 'big.json'}: $" in out
    assert f"{tmp_path / 'base.json'}: ok: 5 areas" in out



def test_run_refuses_a_level_the_checker_rejects(tmp_path, capsys):
    data = set_at(base_level(), "objectives[0].after", ["get_key"])
    path = write_level(tmp_path, data)
    assert main(["run", str(path), "--agent", "true", "--out", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err
    assert f"{path}: $.objectives[0].after: objective 'get_key' waits on itself" in err
    assert not (tmp_path / "runs").exists()


def test_eval_refuses_a_level_the_checker_rejects(tmp_path, capsys):
    data = set_at(base_level(), "objectives[0].after", ["down_guard"])
    set_at(data, "objectives[2].after", ["get_key"])
    path = write_level(tmp_path, data)
    assert main(["eval", "--levels", str(path), "--seeds", "1", "--agent", "true",
                 "--out", str(tmp_path / "eval")]) == 2
    assert (f"{path}: $.objectives[0].after: objectives wait on each other in a cycle: "
            "'get_key' -> 'down_guard' -> 'get_key'") in capsys.readouterr().err
