"""`harness compare`'s charts: inline SVG drawn offline from the comparison's own figures."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.compare.pairs import full_comparison
from harness.compare.report import write_outputs
from harness.compare.results import load_episodes, results_files
from harness.compare.tables import short_commands
from harness.pages.charts import charts

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = 'evil <script>alert(1)</script> & "\x1b[31m'


def _row(level: str, seed: int, success: bool, score: float, hello: dict,
         cost: float | None = None) -> dict:
    return {"level": level, "difficulty": "easy", "seed": seed,
            "outcome": "completed" if success else "failed", "success": success,
            "score": score, "decisions": 12, "game_time_s": 30.5, "invalid_actions": 0,
            "usage": None if cost is None else {"input_tokens": 900, "output_tokens": 100,
                                                "cost_usd": cost},
            "wall_s": 1.0, "run_dir": None, "agent": hello}


def _comparison(tmp_path: Path, cost: float | None = None) -> dict:
    for name, command, wins in (("a", "./a", 3), (HOSTILE, "./b --long " + "x" * 80, 1)):
        folder = tmp_path / command[2]
        folder.mkdir(parents=True)
        rows = [_row(level, s, s < wins, 1.0 if s < wins else 0.25, {"name": name},
                     cost if name == "a" else None)
                for level in ("outpost", "blue_door") for s in range(4)]
        (folder / "results.json").write_text(json.dumps(
            {"suite": {"agent": command}, "episodes": rows}), encoding="utf-8")
    episodes, errors = load_episodes(results_files([tmp_path]))
    return full_comparison(episodes, errors)


def _parsed(tmp_path: Path, cost: float | None = None) -> dict[str, ET.Element]:
    return {c["title"]: ET.fromstring(str(c["svg"])) for c in charts(_comparison(tmp_path, cost))}


def test_charts_parse_and_carry_the_figures(tmp_path: Path) -> None:
    svgs = _parsed(tmp_path)
    assert list(svgs) == ["Success per agent and category", "Success per level and difficulty",
                          "Score distributions"]  # no usage reported: no cost chart
    success = svgs["Success per agent and category"]
    overall = {g.get("data-agent"): g for g in success.iter(f"{SVG}g")
               if g.get("data-group") == "all levels"}
    assert float(overall["0"].get("data-rate")) == pytest.approx(6 / 8)
    assert float(overall["1"].get("data-rate")) == pytest.approx(2 / 8)
    assert "6/8 75% [41%, 93%]" in overall["0"].find(f"{SVG}title").text
    cells = [g for g in svgs["Success per level and difficulty"].iter(f"{SVG}g")]
    assert len(cells) == 4  # two levels by two agents
    assert {g.get("data-rate") for g in cells} == {"0.7500", "0.2500"}
    bars = [r for r in svgs["Score distributions"].iter(f"{SVG}rect") if r.get("data-count")]
    # Agent a: 6 episodes scored 1.0 (last tenth), 2 scored 0.25 (third tenth).
    counts = [int(r.get("data-count")) for r in bars if r.get("data-agent") == "0"]
    assert counts == [0, 0, 2, 0, 0, 0, 0, 0, 0, 6]


def test_agent_names_are_escaped_text(tmp_path: Path) -> None:
    svgs = _parsed(tmp_path)  # ET.fromstring above parsed them: well-formed XML
    text = "".join(ET.tostring(s, encoding="unicode") for s in svgs.values())
    assert "<script" not in text and "evil &lt;script&gt;" in text
    assert "\x1b" not in text


def test_cost_chart_only_where_usage_was_reported(tmp_path: Path) -> None:
    svgs = _parsed(tmp_path, cost=0.02)
    cost = svgs["Success against usage per episode"]
    [point] = [g for g in cost.iter(f"{SVG}g")]  # the silent agent has no point
    assert point.get("data-agent") == "0" and float(point.get("data-usage")) == 0.02
    assert "$ per episode" in "".join(cost.itertext())


def test_page_holds_charts_and_fits(tmp_path: Path) -> None:
    comparison = _comparison(tmp_path / "runs")
    write_outputs(comparison, tmp_path / "out")
    page = (tmp_path / "out" / "compare.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 3
    assert not re.search(r"(src|href)=", page)  # nothing fetched from anywhere
    assert "tokens / episode" not in page and "$ / success" not in page  # all dashes
    long = "./b --long " + "x" * 80
    short = short_commands(["./a", long])[long]
    assert f'title="{long}"' in page and f">{short}</code>" in page
    assert short.startswith("…b --long x") and len(short) == 48 and short.endswith("…")
    assert not re.search(r"`", page)
