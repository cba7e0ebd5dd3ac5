"""Run pages: escaping, usage warnings, maps, long and interrupted runs, index pages."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from harness.cli import main as harness_main
from harness.core.record import record_text
from harness.pages import write_episode_page
from harness.pages.render import script_json
from harness.pages.timeline import END_STYLES
from harness.pages.usage import usage_report
from harness.suite.index_page import EpisodeSummary, index_context, write_index, write_index_page
from tests.browser.records import hostile_run, long_record, read_lines, write_lines
from tests.level_factory import short_copy
from tests.shared import ROOT
from world.actions.catalog import TONES, catalog

PAYLOAD = "<script>window.__pwned = 1; alert('pwned')</script>"


# The module-scoped runs below are played once: the tests that read them share a worker.
pytestmark = pytest.mark.xdist_group("pages")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    # A copy of outpost with 20 decisions (the hostile agent plays 46 in the level as it
    # ships): each thing these pages are checked for shows in those turns.
    level = short_copy(tmp_path_factory.mktemp("level"), "outpost", 20)
    return hostile_run(tmp_path_factory.mktemp("runs"), level=str(level))


def page_of(run_dir: Path) -> str:
    return (run_dir / "index.html").read_text(encoding="utf-8")


def data_block(html: str) -> str:
    return re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html,
                     re.S).group(1)


def test_harness_run_writes_the_page(hostile):
    html = page_of(hostile)
    assert html.startswith("<!DOCTYPE html>")
    assert 'href="record.jsonl.gz"' in html
    assert "Usage, self-reported" in html
    isolation = read_lines(hostile)[0]["isolation"]
    said = re.search(r'<div id="isolation">(.*?)</div>', html).group(1)
    if isolation["sandbox"] == "bubblewrap":
        assert said == "sandbox: bubblewrap · memory 2048 MiB · network shared"
    else:
        assert said.startswith("<b>not sandboxed</b>: ") and "network shared" in said


def test_agent_text_is_escaped_exactly_once(hostile):
    html = page_of(hostile)
    # Only the page's own two script elements exist; every payload shows as text.
    assert len(re.findall(r"<script", html, re.I)) == 2
    assert PAYLOAD not in html
    assert "&lt;script&gt;window.__pwned = 1" in html
    assert "&amp;lt;script" not in html  # not escaped twice
    assert "onerror=\"window" not in html and "<img" not in html and "<svg onload" not in html
    assert "</textarea><script>" not in html
    assert "{{ 7 * 7 }}" in html  # template syntax from the agent stays literal


def test_script_data_cannot_leave_its_element(hostile):
    block = data_block(page_of(hostile))
    assert "<" not in block and ">" not in block and "&" not in block
    json.loads(block)


def test_script_json_round_trips_dangerous_text():
    value = {"x": "</script><!-- & \u2028\u2029 '\""}
    text = str(script_json(value))
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == value


def test_every_end_reason_has_a_style():
    assert set(catalog().end_reason_names) == set(END_STYLES)
    # Each end reason declares its tone in the catalogue, one the page's style sheet colours.
    css = (ROOT / "harness/pages/templates/_base.css.j2").read_text(encoding="utf-8")
    for reason in catalog().end_reasons:
        assert reason.tone in TONES, reason.name
        assert re.search(rf"\.{reason.tone}\b", css), reason.tone
    assert END_STYLES["dead"] == "bad" and END_STYLES["objective"] == "good"


def test_usage_warnings(hostile):
    html = page_of(hostile)
    assert "Cost without tokens" in html

    def turns(*usages):
        return tuple({"turn": i, "action": {"usage": u}} for i, u in enumerate(usages))

    plain = usage_report(turns({"input_tokens": 900, "output_tokens": 50, "cost_usd": 0.01},
                               {"input_tokens": 1000, "output_tokens": 40, "cost_usd": 0.01}),
                         None)
    assert plain.warnings == () and plain.totals["input_tokens"] == 1900
    running = usage_report(turns(*({"input_tokens": 100 * 2 ** i} for i in range(6))), None)
    assert any("running total" in w for w in running.warnings)
    falling = usage_report(turns(*({"output_tokens": v} for v in (10, 20, 30, 40, 5))), None)
    assert any("went down" in w for w in falling.warnings)
    inverted = usage_report(turns({"input_tokens": 10, "cached_input_tokens": 50}), None)
    assert any("cached_input_tokens exceeds input_tokens" in w for w in inverted.warnings)
    unknown = usage_report(turns({}, None), None)
    assert not unknown.any and unknown.totals["cost_usd"] is None


def test_map_draws_route_doors_and_numbered_ends(hostile):
    html = page_of(hostile)
    assert 'class="map"' in html
    assert re.search(r'<polyline points="[^"]+" class="seg" data-turn="\d+"', html)
    assert re.search(r'<g class="end" data-turn="\d+">', html)
    assert re.search(r'class="exit door-(open|closed|locked)', html)


def test_a_door_opened_during_the_run_is_drawn_open(hostile, tmp_path):
    lines = read_lines(hostile)
    turn = next(t for t in lines if t["kind"] == "turn" and t["result"])
    closed = {d["id"] for t in lines if t["kind"] == "turn"
              for d in t["observation"]["view"]["doors"] if d["state"] != "open"}
    door = sorted(closed)[0]
    turn["result"]["events"].append({"tick": turn["tick"] + 1, "kind": "door_opened",
                                     "subject": door, "other": None, "amount": None,
                                     "detail": None})
    later = [t for t in lines if t["kind"] == "turn" and t["turn"] > turn["turn"]]
    for t in later:  # nothing after it closes the door again
        if t["result"]:
            t["result"]["events"] = [e for e in t["result"]["events"]
                                     if not (e["subject"] == door and e["kind"].startswith("door"))]
    write_lines(tmp_path / "run", lines)
    html = page_of(write_episode_page(tmp_path / "run").parent)
    assert f"door {door}: open at the end" in html


def test_interrupted_record_still_renders(hostile, tmp_path):
    text = record_text(hostile).splitlines()
    run = tmp_path / "cut"
    run.mkdir()
    # No end line and a torn last line, as a killed run leaves it.
    (run / "record.jsonl").write_text("\n".join(text[:6]) + "\n" + text[6][:50],
                                      encoding="utf-8")
    html = page_of(write_episode_page(run).parent)
    assert "This run was interrupted" in html
    assert html.count('class="turn ') == 5


def test_a_300_turn_run_gives_a_reasonable_page(hostile, tmp_path):
    long_record(hostile, tmp_path / "long", turns=300)
    html = page_of(write_episode_page(tmp_path / "long").parent)
    assert len(html.encode("utf-8")) < 5_000_000
    assert html.count('class="turn ') == 300
    assert len(set(re.findall(r'class="seg" data-turn="(\d+)"', html))) > 250


def test_page_command_renders_an_index_of_nested_runs(hostile, tmp_path):
    suite = tmp_path / "suite"
    shutil.copytree(hostile, suite / "outpost" / "normal" / hostile.name)
    long_record(hostile, suite / "outpost" / "hard" / "long-run", turns=20)
    assert harness_main(["page", str(suite)]) == 0
    index = (suite / "index.html").read_text(encoding="utf-8")
    assert f'href="outpost/normal/{hostile.name}/index.html"' in index
    assert 'href="outpost/hard/long-run/index.html"' in index
    assert "cost per success" in index and 'class="sortable"' in index
    assert (suite / "outpost" / "hard" / "long-run" / "index.html").is_file()
    assert harness_main(["page", str(hostile / "record.jsonl.gz")]) == 0


def test_index_from_summaries_and_eval_rows(tmp_path):
    common = {"level": "outpost", "difficulty": "normal", "outcome": "completed",
              "success": True, "score": 1.0}
    eps = [EpisodeSummary(run_dir=str(tmp_path / "a"), seed=0, usage={"cost_usd": 0.5},
                          agent="<b>bold</b>", **common),
           EpisodeSummary.from_run_summary({**common, "seed": 1, "run_dir": str(tmp_path / "b"),
                                            "usage": {"cost_usd": 1.5},
                                            "agent": {"name": "<b>bold</b>"}})]
    html = write_index_page(eps, tmp_path / "index.html", title="T").read_text()
    assert "$2.0000" in html and "$1.0000" in html  # total cost and cost per success
    assert "&lt;b&gt;bold&lt;/b&gt;" in html
    rows = [{**common, "seed": 2, "run_dir": None, "usage": None, "decisions": 0},
            {**common, "seed": 3, "run_dir": str(tmp_path / "c"), "usage": {}, "decisions": 4}]
    html = write_index(tmp_path / "eval.html", {"agent": sys.executable}, rows).read_text()
    assert "outpost-normal-s2" in html and 'href="c/index.html"' in html


def test_index_never_pools_two_agents_or_two_difficulties(tmp_path):
    common = {"level": "outpost", "outcome": "completed", "score": 1.0, "run_dir": None}
    eps = [EpisodeSummary.from_run_summary({**common, "seed": s, "difficulty": d,
                                            "success": who == "good",
                                            "agent": {"name": who, "model": "m1"}})
           for who in ("good", "idle") for d in ("easy", "hard") for s in range(2)]
    context = index_context(eps, tmp_path / "index.html", "T")
    table = [(r["agent"], r["level"], r["difficulty"], r["episodes"], r["successes"])
             for r in context["levels"]]
    assert table == [
        ("good (m1)", "outpost", "easy", 2, 2), ("good (m1)", "outpost", "hard", 2, 2),
        ("idle (m1)", "outpost", "easy", 2, 0), ("idle (m1)", "outpost", "hard", 2, 0),
        ("good (m1)", "all levels", "all", 4, 4), ("idle (m1)", "all levels", "all", 4, 0)]


def test_the_last_turn_ends_where_the_record_says(hostile, tmp_path):
    lines = read_lines(hostile)
    end = lines[-1]
    assert end["kind"] == "end" and len(end["final_position"]) == 3
    last = max(t["turn"] for t in lines if t["kind"] == "turn")
    assert f'<g class="end" data-turn="{last}">' in page_of(hostile)
    del end["final_position"]  # a record written before the field existed, and paths
    for line in lines[1:-1]:
        (line["result"] or {}).pop("path", None)
    write_lines(tmp_path / "old", lines)
    html = page_of(write_episode_page(tmp_path / "old").parent)
    assert f'<g class="end" data-turn="{last}">' not in html
    assert f'<g class="end" data-turn="{last - 1}">' in html
