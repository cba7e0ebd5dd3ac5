"""Run pages drawn from the record alone: the map it carries, the paths walked, names
instead of ids and failures in plain words."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markupsafe import escape

from harness.episode.replay import replay
from harness.pages import write_episode_page
from harness.pages.endstate import EndState
from harness.pages.map_svg import build_maps
from harness.pages.words import names, plain_failure, readable
from tests.browser.records import hostile_run, read_lines, write_lines
from tests.shared import ROOT, shipped, shipped_path
from world.actions.catalog import catalog
from world.actions.trail import PATH_EVERY_TICKS, Trail
from world.objectives.outcome import END_RULES
from world.observe.ids import IdMap
from world.observe.plan import level_plan

# The module-scoped runs below are played once: the tests that read them share a worker.
pytestmark = pytest.mark.xdist_group("pages_record_alone")


@pytest.fixture(scope="module")
def moved(tmp_path_factory) -> Path:
    """A run of a level file that is deleted after the run, its page then re-rendered.

    The copy of outpost has 20 decisions (the hostile agent plays 46 in the level as it
    ships): by then the run has walked round a corner, entered rooms and taken notes,
    and a shorter record costs less to replay.
    """
    tmp = tmp_path_factory.mktemp("moved")
    level = json.loads(shipped_path("outpost").read_text(encoding="utf-8"))
    level["id"] = "outpost_copy_gone"  # no shipped level to fall back on
    level["budgets"]["max_decisions"] = 20
    path = tmp / "outpost_copy_gone.json"
    path.write_text(json.dumps(level), encoding="utf-8")
    run_dir = hostile_run(tmp / "runs", level=str(path))
    path.unlink()
    (run_dir / "index.html").unlink()
    write_episode_page(run_dir)
    return run_dir


def page(run_dir: Path) -> str:
    return (run_dir / "index.html").read_text(encoding="utf-8")


def test_the_page_needs_no_level_file(moved):
    html = page(moved)
    header = read_lines(moved)[0]
    assert not Path(header["level_source"]).exists()
    assert "No map" not in html and "could not be loaded" not in html
    for area in header["map"]["areas"]:
        assert f">{area['name']}</text>" in html
    assert re.search(r'<polyline points="[^"]+" class="seg" data-turn="\d+"', html)
    assert len(re.findall(r'<figure class="map-box"', html)) == len(header["map"]["storeys"])


def test_routes_follow_the_recorded_paths(moved):
    lines = read_lines(moved)
    html = page(moved)
    walked = [t for t in lines[1:-1] if t["result"] and len(t["result"]["path"]) > 2
              and len({y for _, y, _ in t["result"]["path"]}) == 1]  # on one storey
    assert walked, "the run should have walked around a corner at least once"
    turn = walked[0]
    drawn = re.search(rf'<polyline points="([^"]+)" class="seg" data-turn="{turn["turn"]}"',
                      html).group(1)
    assert drawn == " ".join(f"{float(x)},{float(-z)}" for x, _, z in turn["result"]["path"])


def test_labels_legend_and_folded_world_lines(moved):
    html = page(moved)
    plan = read_lines(moved)[0]["map"]
    labels = re.findall(r'<text [^>]*data-object="(o\d+)">([^<]+)</text>', html)
    assert {o for o, _ in labels} == {o["id"] for o in plan["objects"]}
    for legend in ("stairs", "obj", "target", "start", "window"):
        assert f'data-legend="{legend}"' in html
    # Every turn's events sit in a fold; the agent's notes come before the result.
    cards = re.findall(r'<article class="turn.*?</article>', html, re.S)
    with_events = [c for c in cards if "events</summary>" in c]
    assert with_events and all('<details class="world">' in c for c in with_events)
    noted = next(c for c in cards if 'class="notes"' in c and 'class="detail"' in c)
    assert noted.index('class="notes"') < noted.index('class="detail"')


def test_area_names_instead_of_ids(moved):
    lines = read_lines(moved)
    plan = lines[0]["map"]
    area_names = {a["id"]: a["name"] for a in plan["areas"]}
    entered = next(c for t in lines[1:-1] if t["result"] for c in t["result"]["changes"]
                   if c.startswith("you entered a"))
    area = entered.removeprefix("you entered ")
    html = page(moved)
    assert f"<li>you entered {area_names[area]}</li>" in html
    assert f"<li>you entered {area}</li>" not in html


def test_a_record_without_a_map_says_so(moved, tmp_path):
    lines = read_lines(moved)
    del lines[0]["map"]
    write_lines(tmp_path / "old", lines)
    html = page(write_episode_page(tmp_path / "old").parent)
    assert "written before records carried their map" in html
    assert 'class="map"' not in html
    broken = read_lines(moved)
    broken[0]["map"]["areas"][0]["polygon"] = "nonsense"
    write_lines(tmp_path / "bad", broken)
    html = page(write_episode_page(tmp_path / "bad").parent)
    assert "breaks schemas/record/map.schema.json" in html
    broken = read_lines(moved)
    broken[0]["map"]["areas"][0]["storey"] = "attic"
    write_lines(tmp_path / "attic", broken)
    html = page(write_episode_page(tmp_path / "attic").parent)
    assert "names storeys it does not list (attic)" in html


def test_failures_in_plain_words(moved, tmp_path):
    plan = read_lines(moved)[0]["map"]
    assert plain_failure("player_dead", plan) == "the player died"
    objective = plan["objectives"][0]
    assert plain_failure(f"objective_failed ({objective['id']})", plan) == \
        f"an objective failed: {objective['text']}"
    assert plain_failure(f"objective_failed (objective 1: {objective['text']})", plan) == \
        f"an objective failed: {objective['text']}"
    assert plain_failure(None, plan) is None
    assert plain_failure("something new", plan) == "something new"
    assert all(rule.plain and "_" not in rule.plain for rule in END_RULES)
    lines = read_lines(moved)
    lines[-1]["summary"].update(outcome="failed", success=False, failure="player_dead",
                                reason="the mission failed: player_dead")
    write_lines(tmp_path / "dead", lines)
    html = page(write_episode_page(tmp_path / "dead").parent)
    assert "Mission failed: the player died." in html
    assert "the mission failed: the player died" in html
    # The page's own words never show the code; the folded logs quote the world's events
    # and what the agent saw as they were (this run's player is shot down, and they say so).
    page_words = re.sub(r"<details[^>]*><summary>(in the world|what the agent saw).*?</details>",
                        "", html, flags=re.S)
    assert "player_dead" not in page_words


@pytest.fixture(scope="module")
def waves(tmp_path_factory) -> Path:
    """A real run of a generated hold-out, whose attackers all come in waves mid-run."""
    out = tmp_path_factory.mktemp("waves")
    done = subprocess.run(
        [sys.executable, "-m", "harness.cli", "run", "hold@0", "--difficulty", "easy",
         "--agent", f"{sys.executable} {ROOT / 'agents' / 'random_agent.py'}",
         "--out", str(out), "--json", "--episode-timeout", "120"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    return Path(json.loads(done.stdout)["run_dir"])


def test_characters_first_seen_mid_run_are_named(waves):
    lines = read_lines(waves)
    plan = lines[0]["map"]
    later = {c["id"]: c["kind"] for t in lines[1:-1]
             for c in t["observation"]["view"]["characters"]}
    assert later and not set(later) & {c["id"] for c in plan["characters"]}
    known = names(plan, lines[1:-1])
    assert {k: known[k] for k in later} == {k: f"{v} {k}" for k, v in later.items()}
    html = page(waves)
    told = [line for t in lines[1:-1] if t["result"] for line in t["result"]["changes"]
            if re.search(r"\bc[0-9]+\b", line)]
    assert told, "the attackers should show up in what changed"
    for line in told:
        sentence = readable(line, known)
        assert str(escape(sentence)) in html
        for m in re.finditer(r"\bc[0-9]+\b", sentence):  # each id follows its kind
            assert sentence[:m.start()].endswith(f"{later[m.group(0)]} "), sentence
    assert not re.search(r"<li>c[0-9]+ ", html)
    # Without the map, the characters' names still come from the turns.
    assert names(None, lines[1:-1])[next(iter(later))] == \
        f"{later[next(iter(later))]} {next(iter(later))}"


def test_turn_badges_read_in_plain_words(waves, moved):
    declared = {r.name: r for r in catalog().end_reasons}
    assert all(r.plain and "_" not in r.plain for r in declared.values())
    for run in (waves, moved):
        html = page(run)
        badges = re.findall(r'<span class="badge [a-z]+" title="([^"]*)" '
                            r'data-reason="([a-z_]+)">([^<]+)</span>', html)
        assert badges
        for meaning, code, shown in badges:
            assert shown == str(escape(declared[code].plain))
            assert meaning == str(escape(declared[code].summary))
        assert not re.search(r'class="badge [a-z]+"[^>]*>[a-z]+_[a-z_]+</span>', html)


def test_names_and_readable_sentences():
    plan = {"areas": [{"id": "a3", "name": "Server room"}],
            "objects": [{"id": "o2", "name": "a very long name for a keycard"}],
            "characters": [{"id": "c8", "kind": "guard"}]}
    known = names(plan)
    assert readable("c8 entered a3; you took o2 near a33", known) == \
        "guard c8 entered Server room; you took a very long nam… near a33"


def test_each_storey_map_is_framed_on_its_own_floor():
    level = shipped("facility")
    plan = level_plan(level, "normal", IdMap(level, 0))
    maps = build_maps(plan, EndState(), [], [])
    assert [m.id for m in maps] == [s.id for s in level.storeys]
    for storey, drawn in zip(level.storeys, maps, strict=True):
        rings = [a.polygon for a in level.areas if a.storey == storey.id]
        rings += [(*s.bottom.edge, *s.top.edge) for s in level.stairs
                  if storey.id in (level.area(s.bottom.area).storey,
                                   level.area(s.top.area).storey)]
        width = max(p[0] for r in rings for p in r) - min(p[0] for r in rings for p in r)
        height = max(p[1] for r in rings for p in r) - min(p[1] for r in rings for p in r)
        _, _, w, h = (float(v) for v in drawn.view_box.split())
        pad = 8 * drawn.unit
        assert w - pad == pytest.approx(width, abs=1) and h - pad == pytest.approx(height, abs=1)


def test_the_trail_keeps_corners_and_drops_straight_stretches():
    trail = Trail((0.0, 0.0, 0.0))
    ticks = 0
    for step in range(1, 61):  # 60 ticks east, then 60 north
        ticks += 1
        trail.add(ticks, (step * 10.0, 0.0, 0.0))
    for step in range(1, 61):
        ticks += 1
        trail.add(ticks, (600.0, 0.0, step * 10.0))
    assert trail.points() == ((0, 0, 0), (600, 0, 0), (600, 0, 600))
    still = Trail((5.0, 0.0, 5.0))
    for tick in range(1, 3 * PATH_EVERY_TICKS):
        still.add(tick, (5.2, 0.0, 4.9))
    assert still.points() == ((5, 0, 5),)


def test_replay_checks_the_map_and_the_paths(moved, tmp_path):
    level = shipped_path("outpost")
    lines = read_lines(moved)
    copy = json.loads(level.read_text(encoding="utf-8"))
    copy["id"] = "outpost_copy_gone"
    copy["budgets"]["max_decisions"] = 20  # as the run's copy had
    source = Path(lines[0]["level_source"])
    source.write_text(json.dumps(copy), encoding="utf-8")  # the level back for replay
    try:
        assert replay(moved).verified
        forged = read_lines(moved)
        forged[0]["map"]["areas"][0]["name"] = "Somewhere else"
        report = replay(write_lines(tmp_path / "map", forged))
        assert report.status == "diverged" and "map" in report.divergence
        forged = read_lines(moved)
        turn = next(t for t in forged[1:-1] if t["result"] and t["result"]["path"])
        turn["result"]["path"].append([0, 0, 0])
        report = replay(write_lines(tmp_path / "path", forged))
        assert report.status == "diverged" and "path walked" in report.divergence
    finally:
        source.unlink()
