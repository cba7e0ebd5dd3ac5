"""`harness compare` on results an agent or a stranger shaped (35): names that would drive
the operator's terminal or break compare.md are shown inert, only real booleans and
finite numbers count, and rows `harness eval` leaves out are left out here too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.compare.results import compare, load_episodes, results_files
from harness.core.bounds import BAD_INPUT_EXIT


def _row(**changes) -> dict:
    row = {"level": "outpost", "difficulty": "easy", "seed": 0, "outcome": "completed",
           "success": True, "score": 1.0, "decisions": 10, "game_time_s": 20.0,
           "invalid_actions": 0, "usage": None, "run_dir": None,
           "agent": {"name": "planner", "version": "1"}}
    return {**row, **changes}


def _suite(folder: Path, rows: list[dict], command: str = "./agent") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.json").write_text(json.dumps(
        {"suite": {"agent": command}, "episodes": rows, "table": []}), encoding="utf-8")
    return folder


def test_agent_strings_reach_no_terminal_and_break_no_table(tmp_path, capsys) -> None:
    evil = "\x1b]0;owned\x07\x1b[2Jname|with\nnew line"
    _suite(tmp_path / "s", [_row(agent={"name": evil, "version": "1\r", "model": "m|x"})],
           command="./a\x1b[31m|b\nc")
    assert main(["compare", str(tmp_path / "s"), "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    markdown = (out, (tmp_path / "o" / "compare.md").read_text())
    for text in (*markdown, (tmp_path / "o" / "compare.html").read_text()):
        assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert all("name|with" not in text for text in markdown)  # a `|` would split a cell
    table = [line for line in out.splitlines() if line.startswith("| ")]
    rows = [line for line in table if "name" in line]
    assert rows and rows[0].count(" | ") == table[0].count(" | ")  # the Agents table


@pytest.mark.parametrize(("field", "value", "said"), [
    ("success", "false", "is not true or false"), ("success", 1, "is not true or false"),
    ("score", float("nan"), "is not a finite number"),
    ("game_time_s", float("inf"), "is not a finite number"),
    ("score", True, "is not a finite number"), ("decisions", 1.5, "is not a whole number"),
    ("outcome", "won", "is not an outcome"),
])
def test_results_fields_must_have_their_type(tmp_path, capsys, field, value, said) -> None:
    _suite(tmp_path / "s", [_row(), _row(**{field: value})])
    assert main(["compare", str(tmp_path / "s")]) == BAD_INPUT_EXIT
    err = capsys.readouterr().err.strip()
    assert f"episodes[1].{field}" in err and said in err and len(err.splitlines()) == 1


def test_rows_eval_leaves_out_are_left_out_here(tmp_path) -> None:
    _suite(tmp_path / "s", [_row(), _row(seed=1, outcome="interrupted", success=False),
                            _row(seed=2, outcome="harness_error", success=False)])
    episodes, left_out = load_episodes(results_files([tmp_path / "s"]))
    assert len(episodes) == 1 and left_out == 2
    assert compare(episodes, left_out)["agents"][0]["overall"]["episodes"] == 1


def test_a_row_begun_from_a_snapshot_is_refused(tmp_path, capsys) -> None:
    _suite(tmp_path / "s", [_row(from_snapshot={"tick": 9, "steps": 3, "reason": ""})])
    assert main(["compare", str(tmp_path / "s")]) == BAD_INPUT_EXIT
    assert "began from a snapshot" in capsys.readouterr().err


def test_deep_or_huge_results_are_bad_input(tmp_path, capsys) -> None:
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "results.json").write_text("[" * 100_000 + "]" * 100_000)
    assert main(["compare", str(tmp_path / "deep")]) == BAD_INPUT_EXIT
    assert "nested deeper" in capsys.readouterr().err
