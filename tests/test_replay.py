"""Real episodes on a shipped level: records validate, replay verifies, tampering is caught."""

from __future__ import annotations

import json

import pytest

from harness.core.protocol import schema_errors
from harness.core.record import RecordError, read_record, record_text
from harness.episode.replay import replay
from harness.episode.runner import UsageError, run
from harness.episode.settings import RunSettings
from tests.level_factory import short_copy
from tests.shared import SHIPPED_AGENTS, python_agent

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)


# The module-scoped runs below are played once: the tests that read them share a worker.
pytestmark = pytest.mark.xdist_group("replay")


@pytest.fixture(scope="module")
def random_run(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("runs")
    agent = python_agent(SHIPPED_AGENTS / "random_agent.py")
    # Outpost with 60 decisions, not 200: each line is schema-checked and the record is
    # replayed whole (test_replay_shipped.py replays whole episodes of shipped levels).
    level = short_copy(tmp_path_factory.mktemp("level"), "outpost", 60)
    return run(str(level), agent, seed=3, out_dir=out, settings=FAST)


def test_random_agent_run_records_valid_lines(random_run) -> None:
    record = read_record(random_run["run_dir"])
    assert not record.interrupted
    for line in [record.header, *record.turns, record.end]:
        assert schema_errors(line["kind"], line) == [], line["kind"]
    assert record.header["hello"]["name"] == "random-agent"
    assert all(t["text_chars"] == len(t["observation"]["text"]) for t in record.turns)
    assert random_run["decisions"] == len(record.turns)


def test_observation_ids_are_episode_ids(random_run) -> None:
    record = read_record(random_run["run_dir"])
    text = json.dumps([t["observation"] for t in record.turns[:5]])
    for level_id in ("red_key", "hall_guard", "office_door", "gallery_panel", "yard_gap"):
        assert f'"{level_id}"' not in text


def test_replay_verifies_and_catches_tampering(random_run, tmp_path) -> None:
    assert replay(random_run["run_dir"]).verified
    lines = record_text(random_run["record"]).splitlines()
    turn = json.loads(lines[3])
    turn["action"] = {"type": "action", "protocol_version": 1, "action": "wait",
                      "arguments": {"seconds": 7}}
    turn["error"] = None
    lines[3] = json.dumps(turn)
    tampered = tmp_path / "record.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    report = replay(tampered)
    assert not report.verified
    # The swapped action shows in its own turn's path walked when the recorded one
    # moved the player, else in the next turn's state hash.
    assert report.divergence.startswith(("turn 2: the path walked", "turn 3:"))


def test_interrupted_record_says_so(random_run, tmp_path) -> None:
    lines = record_text(random_run["record"]).splitlines()
    cut = tmp_path / "record.jsonl"
    cut.write_text("\n".join(lines[:6]) + "\n")
    report = replay(cut)
    assert report.interrupted and not report.verified
    assert report.status == "interrupted" and report.divergence is None


def test_shell_agent_runs_a_shipped_level(tmp_path) -> None:
    # Ten decisions: the shell agent's 200 waits on outpost as shipped are played and
    # replayed in test_record_files.py.
    level = short_copy(tmp_path / "level", "outpost", 10)
    summary = run(str(level), str(SHIPPED_AGENTS / "wait_agent.sh"), out_dir=tmp_path,
                  settings=FAST)
    assert summary["decisions"] == 10
    assert summary["agent"]["name"] == "wait-agent"
    assert summary["outcome"] in ("truncated", "failed", "completed")


def test_usage_errors_are_raised(tmp_path) -> None:
    with pytest.raises(UsageError, match="no level"):
        run("no_such_level", "true", out_dir=tmp_path)
    with pytest.raises(UsageError, match="not found"):
        run("outpost", "./missing_agent", out_dir=tmp_path)


def test_replay_builds_one_view_a_moment_and_leaves_views_to_the_world(random_run,
                                                                     monkeypatch) -> None:
    # Replay costs no more than the run (36): each view is built once, and compared whole
    # with the record's instead of checked against the schema as well.
    import harness.core.protocol as protocol
    from world.observe.session import WorldSession

    asked: list[str] = []
    real_validator, real_view = protocol.validator, WorldSession.view
    built = [0]

    def view(self):
        built[0] += 1
        return real_view(self)

    monkeypatch.setattr(protocol, "validator", lambda name: asked.append(name)
                        or real_validator(name))
    monkeypatch.setattr(WorldSession, "view", view)
    assert replay(random_run["run_dir"]).verified
    turns = read_record(random_run["run_dir"]).turns
    assert built[0] == len(turns) + 1  # the start, then one after each step
    assert "turn" not in asked


def test_a_view_breaking_the_schema_still_makes_a_record_unusable(random_run,
                                                                   tmp_path) -> None:
    lines = record_text(random_run["record"]).splitlines()
    turn = json.loads(lines[3])
    turn["observation"]["view"]["player"] = 5
    lines[3] = json.dumps(turn)
    tampered = tmp_path / "record.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match="breaks schemas/record"):
        replay(tampered)
