"""The run page of a hostile agent in real headless Chromium: no agent script runs, the
layout holds, clicking a turn highlights its route on the map, objects are labelled,
the legend lists stairs, turn badges read in plain words, the world's lines are folded
until opened, each storey's map is framed on its own floor, and a screenshot is taken.

Chromium comes from the system packages (scripts/test.sh installs it where it runs as
root with apt-get). On CI a missing browser fails the test; elsewhere it is skipped with
a reason that says how to enable it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from tests.browser.records import hostile_run
from world.actions.catalog import catalog

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 900}


def _missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (required on CI: scripts/test.sh installs it)")
    pytest.skip(reason)


def _chromium() -> str:
    path = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").is_file()
                                        else None)
    if path is None:
        _missing("no chromium on PATH; to enable this test install the system package "
                 "'chromium' (Debian: sudo apt-get install chromium)")
    return path


@pytest.fixture()
def browser_page(tmp_path):
    executable = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=executable, headless=True,
            args=CHROMIUM_ARGS, viewport=VIEWPORT)
        try:
            yield context.new_page()
        finally:
            context.close()


@pytest.mark.slow  # Chromium and a played episode; test_pages.py checks the escaping quickly
def test_hostile_agent_page_in_chromium(tmp_path, browser_page):
    run_dir = hostile_run(tmp_path / "runs")
    page_file = run_dir / "index.html"
    assert page_file.is_file(), "harness run should have written the page"
    page = browser_page
    dialogs, errors, requests = [], [], []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")

    # Nothing the agent wrote ran as script, and the page's own script had no errors.
    assert dialogs == []
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("document.querySelectorAll('script').length") == 2
    assert page.evaluate("document.querySelectorAll('img, iframe, textarea').length") == 0
    assert errors == []
    assert all(url.startswith("file:") for url in requests), requests  # works offline

    # The agent's words are shown as text.
    assert "<script>window.__pwned" in page.inner_text("#agent-card")

    # A sane layout: header and map visible, the long lines do not widen the page.
    assert page.is_visible("#top h1") and page.is_visible("#score-card")
    assert page.is_visible("#usage-card")
    assert page.locator("svg.map").first.bounding_box()["width"] > 200
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORT["width"] + 20

    # Clicking a turn highlights its segment on the map.
    turn = page.get_attribute("polyline.seg", "data-turn")
    assert turn is not None
    page.click(f"#turn-{turn} .num")
    assert "hl" in page.get_attribute(f'polyline.seg[data-turn="{turn}"]', "class")
    assert "hl" in page.get_attribute(f"#turn-{turn}", "class")
    others = page.evaluate("document.querySelectorAll('polyline.seg.hl').length")
    assert others == page.evaluate(
        f"document.querySelectorAll('polyline.seg[data-turn=\"{turn}\"]').length")

    # Objects carry readable labels; the legend names stairs among the rest.
    labels = page.locator(".obj-labels text")
    assert labels.count() == page.locator("rect.obj").count() > 0
    assert labels.first.bounding_box()["width"] > 10
    assert re.fullmatch(r"o[0-9]+", labels.first.inner_html()) is None  # a name, not an id
    assert page.is_visible('#legend [data-legend="stairs"]')
    assert page.is_visible('#legend [data-legend="target"]')

    # The world's lines are folded away until the reader opens them.
    fold = page.locator("details.world").first
    assert fold.get_attribute("open") is None
    assert not fold.locator("pre").is_visible()
    fold.locator("summary").click()
    assert fold.locator("pre").is_visible()

    # Each storey's map keeps its floor's proportions (no frame sized for another).
    for box in page.evaluate("""() => [...document.querySelectorAll('svg.map')].map(svg => {
            const r = svg.getBoundingClientRect(), v = svg.viewBox.baseVal;
            return [r.width / r.height, v.width / v.height]; })"""):
        assert box[0] == pytest.approx(box[1], rel=0.05)
    assert "player_dead" not in page.inner_text("body")

    # Turn badges say how each action ended in plain words; the meaning shows on hover.
    declared = {r.name: r for r in catalog().end_reasons}
    badges = page.locator(".badge[data-reason]")
    assert badges.count() > 0
    for n in range(badges.count()):
        code = badges.nth(n).get_attribute("data-reason")
        assert badges.nth(n).inner_text() == declared[code].plain
        assert badges.nth(n).get_attribute("title") == declared[code].summary

    shot = tmp_path / "page.png"
    page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 10_000


def _compare_page(tmp_path: Path) -> Path:
    """compare.html for four agents, two reporting usage, long commands and names."""
    from harness.compare.pairs import full_comparison
    from harness.compare.report import write_outputs
    from harness.compare.results import load_episodes, results_files

    agents = [("planner-with-a-rather-long-name", "2.0.1", "provider/model-large-2025-10-01",
               0.0123), ("random-agent", "", "", None), ("perl agent `x`", "1", "", 0.5),
              ("wait-agent", "", "", None)]
    levels = ("facility", "blue_door", "exit_switch")
    for n, (name, version, model, cost) in enumerate(agents):
        rows = [{"level": level, "difficulty": difficulty, "seed": seed,
                 "outcome": "completed" if (seed + n) % 3 else "failed",
                 "success": bool((seed + n) % 3), "score": 1.0 if (seed + n) % 3 else 0.2,
                 "decisions": 140 + seed, "game_time_s": 123.4, "invalid_actions": 0,
                 "usage": None if cost is None else {
                     "input_tokens": 123456, "output_tokens": 7890, "cost_usd": cost},
                 "wall_s": 3.0, "run_dir": None,
                 "agent": {"name": name, "version": version, "model": model}}
                for level in levels for difficulty in ("easy", "normal", "hard")
                for seed in range(5)]
        folder = tmp_path / "suites" / f"s{n}"
        folder.mkdir(parents=True)
        command = (f"/usr/bin/env python3 /home/someone/projects/agents/{name}/agent.py "
                   "--temperature 0.7 --max-tokens 4096 --log-dir /tmp/agent-logs")
        (folder / "results.json").write_text(json.dumps(
            {"suite": {"agent": command}, "episodes": rows}), encoding="utf-8")
    episodes, errors = load_episodes(results_files([tmp_path / "suites"]))
    return write_outputs(full_comparison(episodes, errors), tmp_path / "cmp")[0]


def test_compare_page_fits_a_laptop_window(tmp_path, browser_page):
    page = browser_page
    page.goto(_compare_page(tmp_path).as_uri())
    page.wait_for_load_state("load")
    # No horizontal scroll: neither the page nor any table's own box.
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORT["width"]
    overflowing = page.evaluate("""() => [...document.querySelectorAll('.wrap')]
        .filter(w => w.scrollWidth > w.clientWidth + 1)
        .map(w => w.previousElementSibling.textContent)""")
    assert overflowing == []
    assert page.evaluate("""() => Math.max(...[...document.querySelectorAll('svg.chart')]
        .map(s => s.getBoundingClientRect().right))""") <= VIEWPORT["width"]
    # The whole command is a hover away; no Markdown backtick reaches the page.
    code = page.locator("td code").first
    assert "--log-dir /tmp/agent-logs" in code.get_attribute("title")
    assert "…" in code.inner_text()
    assert "`" not in page.inner_text("body").replace("perl agent `x`", "")
    assert page.locator("svg.chart").count() == 4  # usage reported: the cost chart too
    page.screenshot(path=str(tmp_path / "compare.png"), full_page=True)


def test_dense_map_labels_do_not_overlap(tmp_path, browser_page):
    # Facility's storeys as a run page draws them (its ground corridor: small sections
    # side by side, items on the stair landings), measured in the browser.
    from harness.pages.endstate import EndState
    from harness.pages.map_svg import build_maps
    from harness.pages.render import environment
    from tests.shared import shipped
    from world.observe.ids import IdMap
    from world.observe.plan import level_plan

    level = shipped("facility")
    maps = build_maps(level_plan(level, "hard", IdMap(level, 0)), EndState(), [], [])
    env = environment()
    css = env.get_template("_base.css.j2").render() + env.get_template(
        "_episode.css.j2").render()
    svgs = "".join(env.get_template("_map.svg.j2").render(m=m) for m in maps)
    page_file = tmp_path / "maps.html"
    page_file.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{css}"
                         f"</style></head><body><div style='width:640px'>{svgs}</div>"
                         "</body></html>", encoding="utf-8")
    page = browser_page
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")
    assert page.evaluate(OVERLAPPING_LABELS) == []
    assert page.locator(".obj-labels text:not(.crowded)").count() > 30


# The visible map labels whose glyph boxes overlap, as "name / name".
OVERLAPPING_LABELS = """() => {
        const out = [];
        for (const svg of document.querySelectorAll('svg.map')) {
            const boxes = [...svg.querySelectorAll('.labels text, .obj-labels text')]
                .filter(t => getComputedStyle(t).display !== 'none')
                .map(t => [t.textContent, t.getBoundingClientRect()]);
            for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
                const [a, p] = boxes[i], [b, q] = boxes[j];
                // Glyph boxes include line spacing: allow a pixel of touching.
                if (p.left < q.right - 1 && q.left < p.right - 1 &&
                    p.top < q.bottom - 1 && q.top < p.bottom - 1) out.push(a + ' / ' + b);
            }
        }
        return out; }"""


@pytest.mark.slow  # a facility episode played (about 10 s)
def test_dense_run_page_at_laptop_width(tmp_path, browser_page):
    run_dir = hostile_run(tmp_path / "runs", level="facility")
    page = browser_page
    page.goto((run_dir / "index.html").as_uri())
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORT["width"]
    assert page.locator("svg.map").count() == 3
    assert page.evaluate(OVERLAPPING_LABELS) == []
