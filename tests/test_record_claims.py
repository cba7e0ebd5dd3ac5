"""A record proves what it claims, or replay says it does not (35): the usage totals and
the hello are re-derived, the isolation is named unverified (and a page says so), a run
begun from a snapshot says so everywhere, and only the harness's own sealed records are
reused by resume or trusted as stepwise references."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from harness.cli import main
from harness.core.game import world_game
from harness.core.level_refs import resolve
from harness.core.record import record_text
from harness.core.seal import SEAL_FILE, seal_problem
from harness.core.tracks import TrackSpec
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from harness.episode.snapshot import take, write_snapshot
from harness.pages.episode import write_episode_page
from harness.suite import stepwise
from harness.suite.plan import Episode, finished, suite_identity
from tests.level_factory import short_copy
from tests.shared import SHIPPED_AGENTS

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)
WAIT_AGENT = str(SHIPPED_AGENTS / "wait_agent.sh")

pytestmark = pytest.mark.xdist_group("record_claims")


@pytest.fixture(scope="module")
def level(tmp_path_factory) -> Path:
    return short_copy(tmp_path_factory.mktemp("level"), "outpost", 4)


@pytest.fixture(scope="module")
def wait_run(level, tmp_path_factory) -> dict:
    return run(str(level), WAIT_AGENT, seed=1, out_dir=tmp_path_factory.mktemp("runs"),
               settings=FAST)


def _forged(summary: dict, folder: Path, edit) -> Path:
    lines = [json.loads(t) for t in record_text(summary["record"]).splitlines()]
    edit(lines)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "record.jsonl.gz"
    path.write_bytes(gzip.compress("".join(json.dumps(x) + "\n" for x in lines).encode()))
    return path


def test_a_genuine_record_verifies_and_names_what_it_cannot_check(wait_run, capsys) -> None:
    report = replay(wait_run["run_dir"])
    assert report.verified and report.start is None
    assert "isolation" in report.unverified
    assert main(["replay", wait_run["run_dir"]]) == 0
    out = capsys.readouterr().out
    assert "unverified (taken on the record's word): isolation" in out
    assert "sealed by this harness's key" in out


def test_forged_usage_totals_diverge(wait_run, tmp_path) -> None:
    def edit(lines):
        lines[-1]["usage"]["input_tokens"] = 999
    report = replay(_forged(wait_run, tmp_path, edit))
    assert report.status == "diverged" and "usage totals" in report.divergence


def test_a_forged_observation_view_diverges(wait_run, tmp_path) -> None:
    def edit(lines):
        lines[2]["observation"]["view"]["player"]["health"] = 0.01
    report = replay(_forged(wait_run, tmp_path, edit))
    assert report.status == "diverged" and "observation's view" in report.divergence


@pytest.mark.parametrize("forgery", ["name", "no line"])
def test_a_forged_hello_diverges(wait_run, tmp_path, forgery) -> None:
    def edit(lines):
        if forgery == "name":
            lines[0]["hello"]["name"] = "someone-else"
        else:
            del lines[0]["hello_line"]
    report = replay(_forged(wait_run, tmp_path, edit))
    assert report.status == "diverged" and "hello" in report.divergence


def test_the_page_shows_the_isolation_as_a_claim(wait_run, tmp_path, capsys) -> None:
    def edit(lines):
        lines[0]["isolation"].update(sandbox="bubblewrap", reason=None)
    forged = _forged(wait_run, tmp_path, edit)
    page = write_episode_page(forged).read_text()
    assert "sandbox: bubblewrap" in page and "replay cannot check how the agent was run" in page
    assert main(["replay", str(forged)]) == 0  # the world's claims hold, but:
    assert "not sealed by this harness" in capsys.readouterr().out


def test_a_run_from_a_snapshot_says_so_and_is_never_resumed(level, tmp_path, capsys) -> None:
    found = resolve(str(level))
    game = world_game(found.level, "normal", 3)
    track = TrackSpec()
    snap = take(game, found.level, "normal", 3,
                {"name": track.name, "frame_skip": track.frame_skip}, [], "test")
    write_snapshot(tmp_path / "snap.json", snap)
    summary = run(str(level), WAIT_AGENT, out_dir=tmp_path / "runs", settings=FAST,
                  origin=tmp_path / "snap.json")
    assert summary["from_snapshot"] == {"tick": 0, "steps": 0, "reason": "test"}
    report = replay(summary["run_dir"])
    assert report.verified and report.start == summary["from_snapshot"]
    assert main(["replay", summary["run_dir"]]) == 0
    assert "began from a snapshot at tick 0" in capsys.readouterr().out
    page = (Path(summary["run_dir"]) / "index.html").read_text()
    assert 'id="began"' in page and "not a full episode" in page
    assert main(["page", str(tmp_path / "runs")]) == 0
    index = (tmp_path / "runs" / "index.html").read_text()
    assert "from a snapshot: not in the figures" in index
    # Planted in a suite's folder, it is set aside, never reused as a full episode.
    episode = Episode(summary["level"], "normal", 3)
    out = tmp_path / "suite"
    shutil.copytree(summary["run_dir"], episode.folder(out) / "run")
    notes: list[str] = []
    identity = suite_identity(WAIT_AGENT, FAST)
    assert finished(episode, out, identity, notes.append) is None
    assert "not a full episode" in notes[0]


def test_resume_reuses_only_sealed_records_of_this_suite(wait_run, tmp_path) -> None:
    episode = Episode(wait_run["level"], wait_run["difficulty"], wait_run["seed"])
    identity = suite_identity(WAIT_AGENT, FAST)
    out = tmp_path / "suite"
    target = episode.folder(out) / "run"
    shutil.copytree(wait_run["run_dir"], target)
    assert seal_problem(target) is None
    assert finished(episode, out, identity) is not None
    # Another agent's record, its header edited to name this suite's agent: its seal fails.
    notes: list[str] = []
    def edit(lines):
        lines[0]["agent_command"] = "another-agent"
    _forged(wait_run, target, edit)
    assert finished(episode, out, {**identity, "agent_command": "another-agent"},
                    notes.append) is None
    assert "not this harness's record" in notes[0]
    # Without its seal, a record is not reused either.
    shutil.copytree(wait_run["run_dir"], target)
    (target / SEAL_FILE).unlink()
    assert finished(episode, out, identity, notes.append) is None
    assert "no seal" in notes[1]


def test_a_planted_reference_is_not_trusted(wait_run, tmp_path) -> None:
    home = tmp_path / "ref"
    def edit(lines):
        lines[0]["agent_command"] = stepwise.REFERENCE_COMMAND
    _forged(wait_run, home, edit)  # replays, but nobody sealed it
    assert replay(home).verified
    assert not stepwise._trusted(home)
    shutil.rmtree(home)
    shutil.copytree(wait_run["run_dir"], home)  # sealed, but not the reference agent's
    assert seal_problem(home) is None and not stepwise._trusted(home)
