"""A generated level played, recorded and replayed: the record carries the level whole,
so replay and pages do not depend on the generator, and suites name what was played."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from harness.cli import main as harness
from harness.core.keys import level_token
from harness.core.level_refs import UsageError
from harness.core.record import read_record, record_text
from harness.docgen.templates import TEMPLATES_MD, render
from harness.episode.replay import replay
from harness.episode.runner import run
from harness.episode.settings import RunSettings
from harness.pages.load import load_run
from harness.suite.eval_cmd import resolve_suite
from tests.shared import SHIPPED_AGENTS, TEST_SECRET, python_agent
from world.generate import registry

FAST = RunSettings(hello_timeout_s=20, decision_timeout_s=20, grace_s=0.2)


# The module-scoped runs below are played once: the tests that read them share a worker.
pytestmark = pytest.mark.xdist_group("generate_records")


@pytest.fixture(scope="module")
def generated_run(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("runs")
    agent = python_agent(SHIPPED_AGENTS / "random_agent.py")
    return run("maze@11?rooms=5", agent, seed=2, out_dir=out, settings=FAST)


def test_the_record_stores_the_generated_level_and_its_origin(generated_run) -> None:
    header = read_record(generated_run["run_dir"]).header
    # Played under the run's secret, the level's id is drawn from it (harness/core/keys.py).
    made = registry.generate("maze@11?rooms=5",
                             f"maze_{level_token(TEST_SECRET, 'maze@11?rooms=5')}")
    assert header["level_source"] == "maze@11?rooms=5"
    assert header["generated"] == {**made.origin(), "level": made.data}
    assert header["level"] == made.data["id"]
    assert header["start"]["level"] == made.data["id"]  # the agent sees no seed


def test_replay_and_pages_need_no_generator(generated_run, monkeypatch) -> None:
    def broken(*_args, **_kwargs):
        raise AssertionError("the generator ran")

    monkeypatch.setattr(registry, "generate", broken)
    monkeypatch.setattr("harness.core.level_refs.generate", broken)
    report = replay(generated_run["run_dir"])
    assert report.status == "verified", report.divergence
    page = load_run(generated_run["run_dir"])
    assert page.plan is not None and page.level_note is None


def test_a_tampered_generated_level_is_caught(generated_run, tmp_path) -> None:
    text = record_text(Path(generated_run["run_dir"])).splitlines()
    first = json.loads(text[0])
    first["generated"]["level"]["budgets"]["max_decisions"] += 1
    copy = tmp_path / "copy"
    copy.mkdir()
    with gzip.open(copy / "record.jsonl.gz", "wt", encoding="utf-8") as handle:
        handle.write("\n".join([json.dumps(first), *text[1:]]) + "\n")
    report = replay(copy)
    assert report.status == "diverged"
    assert "level file changed" in (report.divergence or "")


def test_eval_expands_ranges_and_refuses_repeats() -> None:
    suite = resolve_suite("hold@3-4,outpost", "easy")
    assert suite == [("hold@3", ["easy"]), ("hold@4", ["easy"]), ("outpost", ["easy"])]
    with pytest.raises(UsageError, match="hold@3 more than once"):
        resolve_suite("hold@2-3,hold@3", "easy")
    with pytest.raises(UsageError, match="no template 'holdd'"):
        resolve_suite("holdd@1", "all")


def test_the_commands_take_generated_names(tmp_path, capsys) -> None:
    assert harness(["check", "courier@0-2", "stealth@5?cameras=4"]) == 0
    assert capsys.readouterr().out.count(": ok: ") == 4
    assert harness(["check", "courier@1?speed=5"]) == 1
    assert "speed: 5 is less than the minimum of 100" in capsys.readouterr().out
    out = tmp_path / "level.json"
    assert harness(["generate", "hold", "--seed", "9", "--param", "waves=2",
                    "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == registry.generate("hold@9?waves=2").data
    assert harness(["generate", "hold", "--param", "walls=2"]) == 2
    assert "has no parameter 'walls' (parameters: waves" in capsys.readouterr().err
    assert harness(["templates", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [t["name"] for t in listed["templates"]] == list(registry.TEMPLATES)
    assert listed["templates"][0]["params"]["properties"]["rooms"]["maximum"] == 30


def test_templates_page_is_current() -> None:
    assert TEMPLATES_MD.read_text(encoding="utf-8") == render(), \
        "run python3 -m harness.docgen.templates"


def test_generated_levels_count_under_their_templates_categories() -> None:
    from harness.compare.results import level_categories

    assert level_categories("maze@3?rooms=5") == registry.TEMPLATES["maze"].categories
    assert registry.generate("hold@2").data["categories"] == ["defence", "combat"]
