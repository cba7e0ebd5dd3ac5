"""A suite's results: results.json and the table per level and difficulty.

The table gives, for every (level, difficulty): episodes, success rate, mean score with
its standard deviation and a 95% interval half-width, mean decisions, mean game time and
invalid actions. The same rows feed the terminal, results.md and docs.
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

from harness.core.markdown_table import keyed_table_lines
from harness.core.protocol import OUTCOMES
from harness.suite.files import write_atomically
from harness.suite.stepwise_report import stepwise_markdown, summarise_stepwise

# Column -> (header, how a row of the table renders it). Declared once for every output.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("level", "level"), ("difficulty", "difficulty"), ("episodes", "episodes"),
    ("success", "success"), ("score", "mean score (± sd, 95% ±)"), ("stages", "mean stages"),
    ("decisions", "mean decisions"), ("game_time", "mean game s"),
    ("invalid", "invalid actions"),
)


_EMPTY = {"score": 0.0, "stages": 0.0, "success": False, "decisions": 0, "game_time_s": 0.0,
          "invalid_actions": 0}


def _by_harness(row: dict[str, Any]) -> bool:
    outcome = OUTCOMES.get(str(row.get("outcome")))
    return outcome is not None and outcome.by_harness


def harness_errors(rows: list[dict[str, Any]]) -> int:
    """How many rows the harness failed to play (a harness error, or a stopped worker)."""
    return sum(1 for r in rows if _by_harness(r))


def summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary per (level, difficulty), in the order they first appear.

    Args:
        rows: Episode rows from the suite.

    Returns:
        Per group: level, difficulty, episodes (harness errors left out),
        harness_errors, successes, success_rate, score_mean,
        score_sd, score_ci95, stages_mean (None when a row lacks the figure),
        decisions_mean, game_time_mean, invalid_actions.
    """
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["level"], row["difficulty"]), []).append(row)
    out = []
    for (level, difficulty), everything in groups.items():
        # A harness error says nothing about the agent: it is counted and shown, never
        # averaged into the agent's figures.
        group = [r for r in everything if not _by_harness(r)] or [_EMPTY]
        played = len(everything) - harness_errors(everything)
        scores = [r["score"] for r in group]
        sd = statistics.stdev(scores) if len(scores) > 1 else 0.0
        successes = sum(1 for r in group if r["success"])
        out.append({
            "level": level, "difficulty": difficulty, "episodes": played,
            "harness_errors": harness_errors(everything),
            "successes": successes, "success_rate": successes / max(played, 1),
            "score_mean": statistics.fmean(scores), "score_sd": sd,
            "score_ci95": 1.96 * sd / math.sqrt(len(scores)),
            # Rows written before the stages figure existed lack it: no mean over some.
            "stages_mean": statistics.fmean(r["stages"] for r in group)
            if all("stages" in r for r in group) else None,
            "decisions_mean": statistics.fmean(r["decisions"] for r in group),
            "game_time_mean": statistics.fmean(r["game_time_s"] for r in group),
            "invalid_actions": sum(r["invalid_actions"] for r in group),
        })
    return out


def _cells(s: dict[str, Any]) -> dict[str, str]:
    return {
        "level": s["level"], "difficulty": s["difficulty"], "episodes": str(s["episodes"]) + (
            f" (+{s['harness_errors']} harness error)" if s["harness_errors"] else ""),
        "success": f"{s['successes']}/{s['episodes']} ({s['success_rate']:.0%})",
        "score": f"{s['score_mean']:.2f} ± {s['score_sd']:.2f} (± {s['score_ci95']:.2f})",
        "stages": "—" if s.get("stages_mean") is None else f"{s['stages_mean']:.2f}",
        "decisions": f"{s['decisions_mean']:.1f}", "game_time": f"{s['game_time_mean']:.1f}",
        "invalid": str(s["invalid_actions"]),
    }


def markdown_table(summaries: list[dict[str, Any]]) -> str:
    """The per level and difficulty table in Markdown, with a line of totals under it."""
    lines = keyed_table_lines(COLUMNS, (_cells(s) for s in summaries))
    lines.append("")
    lines.append(overall_line(summaries))
    return "\n".join(lines) + "\n"


def overall_line(summaries: list[dict[str, Any]]) -> str:
    """A sentence of totals: episodes won, pairs cleared in 90% of seeds and by majority."""
    episodes = sum(s["episodes"] for s in summaries)
    won = sum(s["successes"] for s in summaries)
    nine = sum(1 for s in summaries if s["success_rate"] >= 0.9)
    pairs = sum(1 for s in summaries if s["success_rate"] > 0.5)
    share = won / episodes if episodes else 0.0
    return (f"Overall: {won}/{episodes} episodes succeeded ({share:.0%}); of "
            f"{len(summaries)} level-difficulty pairs, {nine} cleared in at least 90% of "
            f"seeds and {pairs} in most seeds.")


def write_results(out: Path, meta: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """Write results.json and results.md; return the Markdown table.

    Args:
        out: The suite's output directory.
        meta: What was run (agent, levels, difficulties, seeds, jobs, identity).
        rows: Episode rows.

    Returns:
        The table as Markdown.
    """
    summaries = summarise(rows)
    stepwise = summarise_stepwise(rows)
    data = {"suite": meta, "episodes": rows, "table": summaries,
            **({"stepwise_table": stepwise} if stepwise else {})}
    write_atomically(out / "results.json", json.dumps(data, indent=2) + "\n")
    table = markdown_table(summaries)
    if stepwise:
        table += ("\nStepwise track (each subtask from the success state of the reference "
                  "run; a chain passes when every subtask succeeds):\n\n"
                  + stepwise_markdown(stepwise))
    title = f"# Suite results: `{meta['agent']}`\n\n"
    versions = sorted({g["generator_version"] for g in meta.get("generated", {}).values()})
    if versions:
        title += (f"Generated levels (generator version {', '.join(versions)}) are named "
                  "TEMPLATE@SEED with the parameters that differ from their defaults; "
                  "results.json's `suite.generated` lists every parameter.\n\n")
    write_atomically(out / "results.md", title + table)
    return table
