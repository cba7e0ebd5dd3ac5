"""Every way an agent can misbehave ends in a finished, schema-valid record with a reason."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from harness.core.protocol import USAGE_FIELDS, schema_errors
from harness.core.record import read_record
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from tests.level_factory import short_copy
from tests.runner_fakes import FakeGame
from tests.shared import TEST_AGENTS

AGENT = TEST_AGENTS / "protocol_agent.py"
FAST = RunSettings(hello_timeout_s=3, decision_timeout_s=1.5, episode_timeout_s=60, grace_s=0.2)
SHORT_BUDGET = 20


def short_outpost(tmp_path: Path) -> str:
    # Every fault here shows in the first few turns, and each turn's line is checked.
    return str(short_copy(tmp_path / "level", "outpost", SHORT_BUDGET))


def play(tmp_path: Path, *agent_args: str, settings: RunSettings = FAST) -> dict:
    command = f"{sys.executable} {AGENT} " + " ".join(agent_args)
    return run(short_outpost(tmp_path), command, out_dir=tmp_path, settings=settings,
               game_factory=FakeGame)


def check_record(summary: dict) -> list[dict]:
    record = read_record(summary["run_dir"])
    assert not record.interrupted
    lines = [record.header, *record.turns, record.end]
    for line in lines:
        assert schema_errors(line["kind"], line) == [], line["kind"]
    assert record.end["summary"]["outcome"] == summary["outcome"]
    return list(record.turns)


# mode -> (expected outcome, error code recorded at turn 1 or None)
INVALID_ONCE = {
    "not_json": "not_json",
    "not_object": "not_an_object",
    "unknown_type": "unknown_type",
    "unknown_action": "unknown_action",
    "missing_arg": "bad_arguments",
    "extra_arg": "bad_arguments",
    "wrong_type": "bad_arguments",
    "nan": "non_finite_number",
    "infinity": "non_finite_number",
    "out_of_range": "bad_arguments",
    "bad_id": "unknown_id",
    "huge_line": "line_too_long",
    "binary": "not_utf8",
}


@pytest.mark.parametrize("mode", sorted(INVALID_ONCE))
def test_an_invalid_action_is_reported_counted_and_not_repaired(tmp_path, mode) -> None:
    summary = play(tmp_path, mode, "1")
    assert summary["outcome"] == "truncated"
    assert summary["invalid_actions"] == 1
    turns = check_record(summary)
    assert turns[1]["error"]["code"] == INVALID_ONCE[mode]
    assert turns[1]["result"] is None
    # The next observation tells the agent what was wrong, and the decision counted.
    following = turns[2]["observation"]
    assert following["error"] == turns[1]["error"]
    assert following["budgets"]["decisions_left"] == turns[1]["observation"]["budgets"][
        "decisions_left"] - 1
    assert "ERROR" in following["text"]
    if mode == "huge_line":
        assert len(turns[1]["raw_action"] or "") < 10_000


def test_invalid_actions_in_a_row_end_the_episode(tmp_path) -> None:
    settings = RunSettings(**{**FAST.to_dict(), "max_invalid_in_a_row": 3, "env_passthrough": ()})
    summary = play(tmp_path, "wrong_type", "2", "always", settings=settings)
    assert summary["outcome"] == "protocol_error"
    assert summary["invalid_actions"] == 3
    assert summary["agent_error"]["turn"] == 4
    assert "3 invalid actions in a row" in summary["reason"]
    check_record(summary)


@pytest.mark.parametrize(
    ("mode", "outcome", "turn", "words"),
    [
        ("no_hello_crash", "agent_crashed", None, "exited with status 5 before its hello"),
        ("bad_hello", "protocol_error", None, "bad hello"),
        ("silent_hello", "agent_timeout", None, "hello timeout"),
        ("crash", "agent_crashed", 1, "status 3"),
        ("exit0", "agent_crashed", 1, "status 0"),
        ("silent", "agent_timeout", 1, "decision timeout"),
        ("close_stdout", "agent_crashed", 1, "closed its standard output"),
    ],
)
def test_agent_failures_end_with_a_reason_and_the_turn(tmp_path, mode, outcome, turn, words):
    summary = play(tmp_path, mode, "1")
    assert summary["outcome"] == outcome
    assert summary["agent_error"]["turn"] == turn
    assert words in summary["reason"]
    assert summary["terminated"] is False and summary["truncated"] is False
    check_record(summary)


def test_crash_keeps_the_agents_last_words(tmp_path) -> None:
    summary = play(tmp_path, "crash", "1")
    assert "boom: agent failed" in summary["reason"]
    assert "boom" in Path(summary["stderr_log"]).read_text()


def test_extra_lines_are_discarded_counted_and_warned(tmp_path) -> None:
    summary = play(tmp_path, "multi_lines", "1")
    turns = check_record(summary)
    assert turns[1]["action"]["arguments"] == {"seconds": 1}
    assert turns[1]["extra_lines"] == 1
    assert turns[2]["observation"]["warnings"][0]["code"] == "extra_lines"
    assert summary["invalid_actions"] == 0


class SlowFakeGame(FakeGame):
    """Each action takes most of a second of wall time, as a long walk can."""

    def act(self, action, arguments):
        import time

        time.sleep(0.8)
        return super().act(action, arguments)


def test_a_line_sent_while_the_action_runs_is_extra_never_the_next_action(tmp_path) -> None:
    # The late line would complete the mission (go_to x=950) if it were taken as the
    # next turn's action; it is discarded and counted on the turn it was sent in.
    command = f"{sys.executable} {AGENT} late_line 1"
    # A few slow turns are all it needs: a budget of four decisions ends it after them
    # (the episode timeout would not: the world's time is not the agent's).
    level = short_copy(tmp_path / "level", "outpost", 4)
    summary = run(str(level), command, out_dir=tmp_path, settings=FAST,
                  game_factory=SlowFakeGame)
    turns = check_record(summary)
    assert turns[1]["extra_lines"] == 1
    assert turns[2]["observation"]["warnings"][0]["code"] == "extra_lines"
    assert turns[2]["action"]["action"] == "wait"
    assert all(t["action"]["action"] == "wait" for t in turns if t["action"])
    assert summary["outcome"] != "completed"


def test_stderr_flood_is_capped_and_the_episode_goes_on(tmp_path) -> None:
    settings = RunSettings(**{**FAST.to_dict(), "stderr_cap_bytes": 1 << 16,
                              "decision_timeout_s": 30, "env_passthrough": ()})
    summary = play(tmp_path, "flood_stderr", "1", settings=settings)
    assert summary["outcome"] == "truncated"
    assert Path(summary["stderr_log"]).stat().st_size < (1 << 17)
    assert read_record(summary["run_dir"]).end["stderr_dropped_bytes"] > 100 << 20


def test_a_good_agent_completes_and_every_message_validates(tmp_path) -> None:
    command = f"{sys.executable} {AGENT} good"
    summary = run(short_outpost(tmp_path), command, out_dir=tmp_path, settings=FAST,
                  game_factory=FakeGame)
    assert summary["outcome"] == "truncated" and summary["decisions"] == SHORT_BUDGET
    assert summary["agent"]["name"] == "faulty-good"
    assert json.loads(json.dumps(summary)) == summary


def test_the_record_totals_every_declared_usage_field(tmp_path) -> None:
    summary = play(tmp_path, "bad_id", "1")
    usage = read_record(summary["run_dir"]).end["usage"]
    assert set(usage) == {"self_reported", "decisions", *USAGE_FIELDS,
                          *(f"{name}_decisions" for name in USAGE_FIELDS)}
