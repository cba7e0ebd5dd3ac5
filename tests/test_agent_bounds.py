"""Agent-reported values are bounded: nesting depth, quoted values, odd characters."""

from __future__ import annotations

import json
import re
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from harness.core.bounds import MAX_DEPTH, MESSAGE_CHARS
from harness.core.protocol import Fault, parse_agent_line, schema_errors
from harness.core.record import read_record, record_text
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from harness.pages.render import script_json
from tests.proc_scan import wait_gone
from tests.runner_fakes import FakeGame
from tests.shared import TEST_AGENTS

AGENT = TEST_AGENTS / "bounds_agent.py"
FAST = RunSettings(hello_timeout_s=5, decision_timeout_s=5, episode_timeout_s=60, grace_s=0.2)
# Characters a page must never hold raw: controls but tab, newline and CR, DEL, C1, surrogates.
RAW_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
ACTION = '{"type": "action", "protocol_version": 1, '


def play(tmp_path: Path, mode: str) -> tuple[dict, list[dict]]:
    mark = f"mark-{uuid.uuid4().hex}"
    summary = run("outpost", f"{sys.executable} {AGENT} {mode} {mark}", out_dir=tmp_path,
                  settings=FAST, game_factory=FakeGame)
    record = read_record(summary["run_dir"])
    assert not record.interrupted
    for line in (record.header, *record.turns, record.end):
        assert schema_errors(line["kind"], line) == [], line["kind"]
    assert wait_gone(mark, 5.0) == [], "the agent outlived its episode"
    return summary, list(record.turns)


def strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in (k, *strings(v))]
    return []


def test_nesting_deeper_than_the_limit_is_not_json_and_play_goes_on(tmp_path) -> None:
    summary, turns = play(tmp_path, "deep")
    assert summary["outcome"] == "completed"
    assert summary["invalid_actions"] == 2
    for turn in turns[1:3]:  # 200,000 levels, then 65
        assert turn["error"]["code"] == "not_json"
        assert f"nest deeper than {MAX_DEPTH} levels" in turn["error"]["message"]
        assert len(turn["error"]["message"]) < 300
    assert turns[3]["error"] is None


@pytest.mark.parametrize("depth, code", [(MAX_DEPTH, "not_an_object"),
                                         (MAX_DEPTH + 1, "not_json"), (500_000, "not_json")])
def test_the_depth_limit_is_exact_and_never_recurses(depth, code) -> None:
    fault = parse_agent_line("[" * depth + "]" * depth, "action")
    assert isinstance(fault, Fault) and fault.code == code


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = ACTION + '"action": "wait", "arguments": {"seconds": 1}, "notes": "' + "[{" * 500 + '"}'
    parsed = parse_agent_line(text, "action")
    assert not isinstance(parsed, Fault), parsed
    assert parsed.message["notes"] == "[{" * 500


HUGE = "x" * 200_000
# Every place a message quotes what the agent sent, with a value far bigger than a quote.
QUOTING = {
    "notes": (ACTION + f'"action": "wait", "arguments": {{"seconds": 1}}, "notes": "{HUGE}"}}',
              "bad_message", "is too long"),
    "action name": (ACTION + f'"action": "{HUGE}", "arguments": {{}}}}', "unknown_action",
                    "is not an action"),
    "type": (f'{{"type": "{HUGE}"}}', "unknown_type", "is not a message type"),
    "argument": (ACTION + f'"action": "wait", "arguments": {{"seconds": "{HUGE}"}}}}',
                 "bad_arguments", "is not of type 'number'"),
    "argument name": (ACTION + f'"action": "wait", "arguments": {{"seconds": 1, "{HUGE}": 1}}}}',
                      "bad_arguments", "Additional properties"),
    "usage": (ACTION + f'"action": "wait", "arguments": {{"seconds": 1}}, "usage": "{HUGE}"}}',
              "bad_message", "$.usage"),
    "not json": (f'{{"type": "action", "x": {HUGE}', "not_json", "the line is not JSON"),
}


@pytest.mark.parametrize("case", sorted(QUOTING))
def test_error_messages_quote_a_bounded_part_of_the_value(case) -> None:
    text, code, words = QUOTING[case]
    fault = parse_agent_line(text, "action")
    assert isinstance(fault, Fault) and fault.code == code
    assert words in fault.message
    assert len(fault.message) <= MESSAGE_CHARS + 30, len(fault.message)


def test_a_megabyte_of_notes_on_four_turns_in_five_keeps_record_and_page_small(tmp_path) -> None:
    summary, turns = play(tmp_path, "big_notes")
    assert summary["outcome"] == "completed"
    assert summary["invalid_actions"] == 16  # 16 megabytes of notes were sent
    rejected = [t for t in turns if t["error"]]
    assert len(rejected) == 16
    for turn in rejected:
        assert turn["error"]["code"] == "bad_message"
        assert "characters] is too long" in turn["error"]["message"]
        assert len(turn["error"]["message"]) < 400
        assert "[1000" in turn["raw_action"][-40:]  # clipped, with its full length said
    run_dir = Path(summary["run_dir"])
    # Before the bound the record was 48 MB and the page 32 MB.
    assert len(record_text(run_dir).encode("utf-8")) < 300_000  # uncompressed
    assert (run_dir / "index.html").stat().st_size < 300_000


def test_surrogates_and_control_characters_are_stored_escaped_and_shown_safely(tmp_path) -> None:
    summary, turns = play(tmp_path, "odd_text")
    assert summary["outcome"] == "completed"
    run_dir = Path(summary["run_dir"])
    text = record_text(run_dir)  # decoded strictly: the record is valid UTF-8
    assert not re.search("[\x00-\x09\x0b-\x1f]", text)  # controls only as JSON escapes
    for line in text.splitlines():
        for value in strings(json.loads(line)):
            value.encode("utf-8")  # no string in the record is an unpaired surrogate
    notes = turns[2]["action"]["notes"]
    assert notes.startswith("\\ud800 lone \\udfff, a pair \U0001f600, NUL \x00 ESC \x1b[31m")
    assert turns[1]["error"]["code"] == "unknown_action"
    assert summary["agent"]["name"].startswith("bounds \\ud800")

    html = (run_dir / "index.html").read_bytes().decode("utf-8")
    assert not RAW_CONTROLS.search(html)
    assert "NUL \\x00 ESC \\x1b[31m BEL \\x07 DEL \\x7f C1 \\x85" in html  # shown, not acted on
    assert "raw controls on stderr: \\x00 \\x1b[2J" in html  # the stderr tail too
    assert len(re.findall(r"<script", html, re.I)) == 2
    assert html.rstrip().endswith("</html>")


def test_script_data_round_trips_surrogates_and_c1_controls() -> None:
    value = {"notes": "\ud800 \x85 \x7f \x1b \ufffe end"}
    text = str(script_json(value))
    assert not RAW_CONTROLS.search(text) and "\ufffe" not in text
    assert json.loads(text) == value


def test_a_record_tampered_with_surrogates_and_controls_still_renders_safely(tmp_path,
                                                                            capsys) -> None:
    from harness.cli import main

    summary, _ = play(tmp_path, "big_notes")
    record = Path(summary["record"])
    lines = record_text(record).splitlines()
    turn = json.loads(lines[2])  # turn 1, a rejected one: the page shows its raw line
    assert turn["error"]
    # JSON escapes for an unpaired surrogate and raw controls, as a hand-edited file has.
    turn["raw_action"] = "tampered \ud800 \x1b[2J \x00 end"
    text = json.dumps(turn)  # ensure_ascii: the surrogate is written as \\ud800
    assert "\\ud800" in text
    record.write_text("\n".join([*lines[:2], text, *lines[3:]]) + "\n")  # read back plain
    assert main(["page", str(record.parent)]) == 0
    html = (record.parent / "index.html").read_bytes().decode("utf-8")
    assert not RAW_CONTROLS.search(html)
    assert "tampered \\ud800 \\x1b[2J \\x00 end" in html
    assert "Traceback" not in capsys.readouterr().err
