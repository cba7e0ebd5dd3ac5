"""A comparison as a reader gets it: Markdown, JSON and a static HTML page.

The three outputs come from one list of tables; each table is a list of rows of cells
rendered by the column table `COLUMNS`, so a figure is formatted in one place.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.compare.tables import (
    code_cells,
    difference_tables,
    fit,
    interleave,
    short_commands,
)
from harness.core.markdown_table import table_lines
from harness.pages.charts import charts
from harness.pages.render import render


def _money(value: float | None) -> str:
    return "—" if value is None else f"${value:,.4f}"


def _count(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


# Column key -> (header, how a group's figures render). Declared once for every output.
COLUMNS: dict[str, tuple[str, Callable[[dict[str, Any]], str]]] = {
    "episodes": ("episodes", lambda s: str(s["episodes"])),
    "success": ("success (95% Wilson)", lambda s: (
        f"{s['successes']}/{s['episodes']} {s['success_rate']:.0%} "
        f"[{s['success_ci95'][0]:.0%}, {s['success_ci95'][1]:.0%}]")),
    "score": ("mean score (95% ±)", lambda s: f"{s['score_mean']:.2f} ± {s['score_ci95']:.2f}"),
    "stages": ("mean stages", lambda s: "—" if s.get("stages_mean") is None
               else f"{s['stages_mean']:.2f}"),
    "decisions": ("mean decisions", lambda s: f"{s['decisions_mean']:.1f}"),
    "game_time": ("mean game s", lambda s: f"{s['game_time_mean']:.1f}"),
    "tokens": ("tokens / episode", lambda s: _count(s["tokens_per_episode"])),
    "tokens_success": ("tokens / success", lambda s: _count(s["tokens_per_success"])),
    "cost": ("$ / episode", lambda s: _money(s["cost_per_episode"])),
    "cost_success": ("$ / success", lambda s: _money(s["cost_per_success"])),
}


def tables(comparison: dict[str, Any]) -> list[dict[str, Any]]:
    """The comparison as titled tables: agents, categories, levels and difficulties.

    Returns:
        Each table: title, head (column headers) and rows (lists of cell strings).
        Rows of the category and level tables put every agent's row for one group
        next to each other, so agents are read side by side.
    """
    keys = list(COLUMNS)
    agents = comparison["agents"]
    heads = [COLUMNS[k][0] for k in keys]

    def cells(group: dict[str, Any]) -> list[str]:
        return [COLUMNS[k][1](group) for k in keys]

    overview = [[a["agent"]["label"], a["agent"]["command"], *cells(a["overall"])]
                for a in agents]
    by_category: list[list[str]] = []
    for category in sorted({c["category"] for a in agents for c in a["categories"]}):
        for a in agents:
            by_category += [[category, a["agent"]["label"], *cells(c)]
                            for c in a["categories"] if c["category"] == category]
    by_level: list[list[str]] = []
    order = [(lv["level"], lv["difficulty"]) for a in agents for lv in a["levels"]]
    for level, difficulty in dict.fromkeys(order):
        for a in agents:
            by_level += [[level, difficulty, a["agent"]["label"], *cells(lv)]
                         for lv in a["levels"]
                         if (lv["level"], lv["difficulty"]) == (level, difficulty)]
    return [fit(t) for t in interleave([
        # Column 1 holds commands: code in Markdown, shortened with a tooltip on a page.
        {"title": "Agents", "head": ["agent", "command", *heads], "rows": overview,
         "code": 1},
        {"title": "By category", "head": ["category", "agent", *heads], "rows": by_category},
        {"title": "By level and difficulty", "head": ["level", "difficulty", "agent", *heads],
         "rows": by_level},
    ], difference_tables(comparison))]


def _note(comparison: dict[str, Any]) -> str:
    errors = comparison["harness_errors"]
    text = ("Token and dollar figures are self-reported by the agents; per-success figures "
            "are shown only when every episode reported them. A level counts under each of "
            "its categories.")
    if errors:
        text += f" {errors} episode(s) the harness failed to play are left out."
    return text


def markdown(comparison: dict[str, Any]) -> str:
    """The comparison as Markdown tables."""
    lines = ["# Comparison", "", _note(comparison), ""]
    for table in tables(comparison):
        lines += [f"## {table['title']}", "",
                  *table_lines(table["head"], code_cells(table), escape=True)]
        lines.append("")
    return "\n".join(lines)


def write_outputs(comparison: dict[str, Any], out: Path) -> list[Path]:
    """Write compare.html, compare.md and compare.json into `out`; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    page = render("compare.html.j2", title="Comparison", note=_note(comparison),
                  tables=tables(comparison), charts=charts(comparison),
                  short=short_commands([a["agent"]["command"] for a in comparison["agents"]]))
    written = {"compare.html": page, "compare.md": markdown(comparison),
               "compare.json": json.dumps(comparison, indent=2, allow_nan=False) + "\n"}
    paths = []
    for name, text in written.items():
        path = out / name
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)  # a reader never sees half a page
        paths.append(path)
    return paths


def print_report(command: str, report: dict[str, Any], out: Path | None, as_json: bool,
                 write: Callable[[dict[str, Any], Path], list[Path]],
                 to_markdown: Callable[[dict[str, Any]], str]) -> int:
    """Write a report's files into `out` (if given), then print it as JSON or Markdown.

    Shared by the commands that end in a report (`harness compare`, `harness ladder`).

    Returns:
        The exit status: 0, or 2 when `out` cannot be written (said on stderr).
    """
    if out is not None:
        try:
            for path in write(report, out):
                print(f"wrote {path}", file=sys.stderr)
        except OSError as exc:
            print(f"harness {command}: cannot write to --out {out}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 2
    print(json.dumps(report, indent=2) if as_json else to_markdown(report))
    return 0
