"""`harness dataset --format chat`: rows from finished runs, split by level variant."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.record import read_record
from harness.episode import runner
from harness.mcp.tools_cmd import tools
from harness.offline.dataset import build, row_errors, split_of, variant
from tests.level_factory import short_copy
from tests.shared import ROOT, SHIPPED_AGENTS, python_agent

pytestmark = pytest.mark.xdist_group("dataset_chat")
DECISIONS = 4


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict[str, Path]:
    # Two short reference runs: outpost falls in train, arena_frags in validation
    # (at the default share of 0.2), so both splits get rows.
    levels = tmp_path_factory.mktemp("levels")
    out = tmp_path_factory.mktemp("runs")
    agent = python_agent(SHIPPED_AGENTS / "reference_agent.py")
    return {level: Path(runner.run(str(short_copy(levels, level, DECISIONS)), agent,
                                   difficulty="easy", out_dir=out)["run_dir"])
            for level in ("outpost", "arena_frags")}


def _lines(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_rows_hold_the_turns_and_validate(records):
    rows, used, rejected = build(records.values())
    assert len(used) == 2 and not rejected
    assert [r["metadata"]["variant"] for r in rows["train"]] == ["outpost"] * DECISIONS
    assert [r["metadata"]["variant"] for r in rows["validation"]] == ["arena_frags"] * DECISIONS
    record = read_record(records["outpost"])
    first, turn = rows["train"][0], record.turns[0]
    system, user, assistant, tool = first["messages"]
    assert record.header["start"]["brief"] in system["content"]
    assert user["content"] == turn["observation"]["text"]
    call = assistant["tool_calls"][0]
    assert call["function"]["name"] == turn["action"]["action"]
    assert json.loads(call["function"]["arguments"]) == turn["action"]["arguments"]
    assert tool["tool_call_id"] == call["id"] and tool["content"].startswith(
        f"{turn['action']['action']} ended: {turn['result']['end_reason']}")
    assert first["tools"] == tools("openai")
    for row in rows["train"] + rows["validation"]:
        assert row_errors(row) == []


def test_the_row_schema_refuses_what_chat_formats_refuse(records):
    rows, _, _ = build([records["outpost"]])
    row = rows["train"][0]
    two_calls = copy.deepcopy(row)
    two_calls["messages"][2]["tool_calls"] *= 2
    no_tool = copy.deepcopy(row)
    del no_tool["messages"][3]
    object_arguments = copy.deepcopy(row)
    object_arguments["messages"][2]["tool_calls"][0]["function"]["arguments"] = {"x": 1}
    for bad in (two_calls, no_tool, object_arguments):
        assert row_errors(bad)


def test_variants_and_splits_never_mix():
    generated = {"level": "maze", "generated": {"template": "maze", "seed": 3}}
    assert variant(generated) == "maze@3" and variant({"level": "outpost"}) == "outpost"
    secret_member = {"level": "maze_1f2e", "level_hash": "ab" * 32,
                     "generated": {"template": "maze", "set": {"name": "maze@secret:5",
                                                               "index": 2}}}
    assert variant(secret_member) == "maze@content:" + "ab" * 8
    names = [f"maze@{seed}" for seed in range(200)]
    sides = {name: split_of(name, 0.2) for name in names}
    assert sides == {name: split_of(name, 0.2) for name in names}  # the same every time
    held_out = sum(side == "validation" for side in sides.values())
    assert 20 < held_out < 60  # about a fifth
    assert {split_of(n, 0.0) for n in names} == {"train"}
    assert {split_of(n, 1.0) for n in names} == {"validation"}


def test_bad_records_are_left_out_with_one_line(records, tmp_path, capsys):
    garbage = tmp_path / "garbage" / "record.jsonl"
    garbage.parent.mkdir()
    garbage.write_text("not json\n{}\n", encoding="utf-8")
    lines = gzip.decompress(read_record(records["outpost"]).path.read_bytes()).splitlines()
    cut = tmp_path / "cut" / "record.jsonl"
    cut.parent.mkdir()
    cut.write_bytes(b"\n".join(lines[:-1]) + b"\n")  # no end line: not a finished run
    forged = tmp_path / "forged" / "record.jsonl"
    forged.parent.mkdir()
    header = json.loads(lines[0])
    header["seed"] = "zero"
    forged.write_bytes(b"\n".join([json.dumps(header).encode(), *lines[1:]]) + b"\n")
    blank = tmp_path / "blank" / "record.jsonl"  # the records' schemas allow it, rows do not
    blank.parent.mkdir()
    turn = json.loads(lines[2])
    turn["observation"]["text"] = ""
    blank.write_bytes(b"\n".join([*lines[:2], json.dumps(turn).encode(), *lines[3:]]) + b"\n")
    out = tmp_path / "ds"
    status = main(["dataset", str(records["outpost"]), str(garbage.parent), str(cut.parent),
                   str(forged.parent), str(blank.parent), "--out", str(out)])
    err = capsys.readouterr().err.splitlines()
    assert status == 0
    left_out = [line for line in err if line.startswith("harness dataset: left out")]
    assert len(left_out) == 4
    assert any("cut" in line and "not a finished run" in line for line in left_out)
    assert any("forged" in line and "seed" in line for line in left_out)
    assert any("blank" in line and "turn 1 makes a row" in line for line in left_out)
    assert len(_lines(out / "train.jsonl")) == DECISIONS
    assert main(["dataset", str(garbage.parent), "--out", str(out)]) == 2


def test_the_command_writes_splits_and_a_card(records, tmp_path):
    out = tmp_path / "ds"
    assert main(["dataset", str(records["outpost"].parent), "--format", "chat", "--gzip",
                 "--out", str(out)]) == 0
    train, validation = _lines(out / "train.jsonl.gz"), _lines(out / "validation.jsonl.gz")
    assert {r["metadata"]["split"] for r in train} == {"train"}
    assert {r["metadata"]["variant"] for r in train}.isdisjoint(
        {r["metadata"]["variant"] for r in validation})
    card = (out / "README.md").read_text(encoding="utf-8")
    for heading in ("## Source", "## Splits", "## Fields", "## Licence"):
        assert heading in card
    assert "reference-agent (2 runs)" in card and f"| {DECISIONS} | 1 | outpost |" in card


def test_the_shipped_dataset_validates_and_its_splits_are_disjoint():
    folder = ROOT / "datasets" / "reference-chat"
    train = _lines(folder / "train.jsonl.gz")
    validation = _lines(folder / "validation.jsonl.gz")
    assert train and validation
    for row in train + validation:
        assert row_errors(row) == []
    assert {r["metadata"]["variant"] for r in train}.isdisjoint(
        {r["metadata"]["variant"] for r in validation})
    assert (folder / "README.md").is_file()
