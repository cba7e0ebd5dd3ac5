"""The instruction pyramid: operations in perceived words, goals by the documented rule."""

from __future__ import annotations

import gzip
import json
import re

from harness.cli import main
from harness.core.protocol import schema_errors
from harness.offline.pyramid import pyramid, read_checked
from harness.offline.pyramid_words import INTENTS
from tests.quiz_shared import reference_run
from world.face import catalog


def test_pyramid_is_schema_valid_deterministic_and_what_annotate_writes(tmp_path) -> None:
    record = read_checked(reference_run())
    data = pyramid(record).to_json()
    assert schema_errors("pyramid", data) == []
    assert pyramid(read_checked(reference_run())).to_json() == data
    out = tmp_path / "pyramid.json"
    assert main(["annotate", str(reference_run()), "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == data
    assert len(data["operations"]) == len(record.turns)


def test_operations_name_only_what_the_player_perceived() -> None:
    record = read_checked(reference_run())
    internal = {v for v in record.header["map"]["ids"].values() if "_" in v}
    perceived: set[str] = set()
    for turn, op in zip(record.turns, pyramid(record).operations, strict=True):
        perceived |= set(_ids(json.dumps(turn["observation"]["view"])))
        assert set(_ids(op.text)) <= perceived, (op.turn, op.text)
        assert _ids(op.plain) == [], op.plain  # the plain spelling holds no id at all
        assert not any(name in op.text for name in internal), op.text
    ops = pyramid(record).operations
    # Ids follow perception: the start area is a1, the next area seen a2 (34).
    assert ops[0].text == "pick up the flak vest o3 in the Loading dock a1"
    # The guard seen through the doorway is shot from the dock (a first shot), then the
    # player goes through.
    assert ops[1].text == "take down the guard c1 in the Central corridor a2"
    assert ops[3].text == "go through way out w1 (opening) into the Central corridor a2"
    assert ops[4].text == "take down the guard c2 in the Central corridor a2"


def _ids(text: str) -> list[str]:
    return re.findall(r"\b[acdow]\d+\b", text)


def test_goals_close_where_their_objectives_turn_done() -> None:
    record = read_checked(reference_run())
    pyr = pyramid(record)
    assert [g.objectives for g in pyr.goals] == [(2,), (1,), (3,), (4,)]
    turns = [t for g in pyr.goals for t in g.turns]
    assert turns == list(range(len(record.turns)))  # every operation in one goal, in order
    done_at = {o["index"]: o["tick"] for o in record.end["summary"]["objectives"]}
    for goal in pyr.goals:
        last = goal.turns[-1]
        after = (record.turns[last + 1]["tick"] if last + 1 < len(record.turns)
                 else record.end["summary"]["game_ticks"])
        assert all(record.turns[last]["tick"] < done_at[i] <= after for i in goal.objectives)
    assert "completed" in pyr.strategy
    assert all(f'"{g.text.rstrip(".")}"' in pyr.strategy for g in pyr.goals)


def test_every_macro_action_has_its_words() -> None:
    assert set(INTENTS) == set(catalog().action_names)


def test_annotate_names_a_bad_record_without_a_traceback(tmp_path, capsys) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n{}\n")
    assert main(["annotate", str(junk)]) == 2
    assert str(junk) in capsys.readouterr().err
    lines = gzip.decompress((reference_run() / "record.jsonl.gz").read_bytes()).splitlines()
    broken = json.loads(lines[3])
    del broken["observation"]
    lines[3] = json.dumps(broken).encode()
    bad = tmp_path / "record.jsonl"
    bad.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["annotate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "turn 2: observation.view.objectives is missing" in err and "Traceback" not in err
