"""The index page of a batch of episodes: every episode sortable, and per-level totals.

`write_index_page` takes plain episode summaries, so whoever runs a batch (the eval
command, or `harness page DIR` over existing run directories) can call it directly.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.core.claims import start_point
from harness.core.protocol import INTERRUPTED, OUTCOMES
from harness.core.record import read_record
from harness.pages.render import render
from harness.pages.usage import FIELDS, usage_report
from harness.suite.files import write_atomically
from harness.suite.stepwise_report import (
    STEPWISE_COLUMNS,
    stepwise_cells,
    stepwise_overall,
    summarise_stepwise,
)
from world.face import DIFFICULTY_ORDER


@dataclass(frozen=True)
class EpisodeSummary:
    """One episode as the index lists it.

    Attributes:
        run_dir: The run directory (its page is index.html inside it); None when the
            episode failed before a run directory existed.
        level: Level id.
        difficulty: Difficulty id.
        seed: Episode seed.
        outcome: The outcome name ("interrupted" when the record has no end line).
        success: Whether the mission succeeded.
        score: 0..1, or None when unknown.
        usage: Self-reported totals by usage field (None where never reported).
        decisions: Decisions made.
        agent: The agent's name from its hello, if any.
        model: The model from its hello, if any.
        from_snapshot: The run began from a snapshot: listed, never in the figures.
        stages: 0..1 (world.objectives.stages), or None when the record lacks it.
    """

    run_dir: str | None
    level: str
    difficulty: str
    seed: int
    outcome: str
    success: bool
    score: float | None
    usage: Mapping[str, float | None] = field(default_factory=dict)
    decisions: int | None = None
    agent: str | None = None
    model: str | None = None
    from_snapshot: bool = False
    stages: float | None = None

    @classmethod
    def from_run_summary(cls, summary: Mapping[str, Any]) -> EpisodeSummary:
        """Build from the summary `harness.episode.runner.run` returns, or a suite's results row."""
        hello = summary.get("agent") or {}
        hello = hello if isinstance(hello, Mapping) else {}
        usage = summary.get("usage") or {}
        run_dir = summary.get("run_dir")
        return cls(
            run_dir=None if run_dir is None else str(run_dir), level=str(summary["level"]),
            difficulty=str(summary["difficulty"]), seed=int(summary["seed"]),
            outcome=str(summary["outcome"]), success=bool(summary.get("success")),
            score=summary.get("score"), usage={k: usage.get(k) for k in FIELDS},
            decisions=summary.get("decisions"), agent=hello.get("name"),
            model=hello.get("model"), from_snapshot=bool(summary.get("from_snapshot")),
            stages=summary.get("stages"),
        )

    @classmethod
    def from_record(cls, path: str | Path) -> EpisodeSummary:
        """Build from a run directory's record (an interrupted one included).

        Raises:
            harness.core.record.RecordError: The record cannot be read.
        """
        record = read_record(path)
        header, end = record.header, record.end
        summary = end["summary"] if end else {}
        hello = header.get("hello") or {}
        totals = usage_report(record.turns, end).totals
        return cls(
            run_dir=str(record.path.parent), level=str(header.get("level")),
            difficulty=str(header.get("difficulty")), seed=int(header.get("seed", 0)),
            outcome=str(summary.get("outcome", INTERRUPTED)),
            success=bool(summary.get("success")), score=summary.get("score"),
            usage=totals, decisions=summary.get("decisions", len(record.turns)),
            agent=hello.get("name"), model=hello.get("model"),
            from_snapshot=start_point(header) is not None, stages=summary.get("stages"),
        )


def _who(ep: EpisodeSummary) -> str:
    # Agents are told apart by name and model: one folder may hold several agents' suites.
    name = ep.agent or "unnamed agent"
    return f"{name} ({ep.model})" if ep.model else name


def _level_rows(episodes: list[EpisodeSummary]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str, str], list[EpisodeSummary]] = {}
    episodes = [ep for ep in episodes if not ep.from_snapshot]  # not full episodes
    for ep in episodes:
        groups.setdefault((_who(ep), ep.level, ep.difficulty), []).append(ep)
    rank = {name: i for i, name in enumerate(DIFFICULTY_ORDER)}  # easiest first, others after
    keys = sorted(groups, key=lambda k: (k[0], k[1], rank.get(k[2], len(rank)), k[2]))
    rows = [{"agent": who, "difficulty": diff, **_stats(level, groups[who, level, diff])}
            for who, level, diff in keys]
    for who in sorted({k[0] for k in keys}):
        mine = [ep for ep in episodes if _who(ep) == who]
        if sum(1 for k in keys if k[0] == who) > 1:  # a total only where there is a sum
            rows.append({"agent": who, "difficulty": "all", **_stats("all levels", mine)})
    return rows


def _stats(name: str, eps: list[EpisodeSummary]) -> dict[str, Any]:
    scores = [float(e.score) for e in eps if e.score is not None]
    wins = sum(1 for e in eps if e.success)
    costs = [float(c) for e in eps if (c := e.usage.get("cost_usd")) is not None]
    cost = sum(costs) if costs else None
    return {
        "level": name,
        "episodes": len(eps),
        "successes": wins,
        "rate": wins / len(eps) if eps else 0.0,
        "mean": statistics.fmean(scores) if scores else None,
        "sd": statistics.pstdev(scores) if len(scores) > 1 else None,
        "low": min(scores) if scores else None,
        "high": max(scores) if scores else None,
        "cost": cost,
        "cost_known": len(costs),
        "cost_per_success": cost / wins if cost is not None and wins else None,
    }


def index_context(episodes: Iterable[EpisodeSummary], out_path: Path,
                  title: str, stepwise: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The index template's context.

    Args:
        episodes: The episodes to list.
        out_path: Where the page will be written (links are made relative to it).
        title: The page title.
        stepwise: The stepwise track's summaries (`harness.suite.stepwise_report`), if played.

    Returns:
        The context.
    """
    eps = list(episodes)
    rows = []
    for ep in eps:
        if ep.run_dir is None:
            rows.append({"ep": ep, "link": None, "name": f"{ep.level}-{ep.difficulty}-s{ep.seed}"})
            continue
        link = os.path.relpath(Path(ep.run_dir) / "index.html", out_path.parent)
        rows.append({"ep": ep, "link": Path(link).as_posix(), "name": Path(ep.run_dir).name})
    return {"title": title, "rows": rows, "levels": _level_rows(eps), "usage_fields": FIELDS,
            "outcome_words": {name: o.summary for name, o in OUTCOMES.items()},
            "stepwise_columns": STEPWISE_COLUMNS,
            "stepwise": [stepwise_cells(s) for s in stepwise or []],
            "stepwise_overall": stepwise_overall(stepwise) if stepwise else ""}


def write_index_page(episodes: Iterable[EpisodeSummary], out_path: str | Path,
                     title: str = "Episodes",
                     stepwise: list[dict[str, Any]] | None = None) -> Path:
    """Write the index page of a batch of episodes.

    Args:
        episodes: The episodes, e.g. `EpisodeSummary.from_run_summary(...)` for each run.
        out_path: The HTML file to write.
        title: The page title.
        stepwise: The stepwise track's summaries, shown beside the end-to-end figures.

    Returns:
        The path written.
    """
    out = Path(out_path)
    write_atomically(out, render("index.html.j2",
                                 **index_context(episodes, out, title, stepwise)))
    return out


def write_index(out_path: str | Path, meta: Mapping[str, Any],
                rows: Iterable[Mapping[str, Any]]) -> Path:
    """Write a suite's index page from its results rows (the eval command's call).

    Args:
        out_path: The HTML file to write.
        meta: The suite's description; its "agent" names the page.
        rows: One results row per episode (level, difficulty, seed, outcome, success,
            score, decisions, usage, run_dir).

    Returns:
        The path written.
    """
    title = f"Evaluation of {meta.get('agent', 'an agent')}"
    rows = list(rows)
    return write_index_page([EpisodeSummary.from_run_summary(r) for r in rows], out_path, title,
                            summarise_stepwise([dict(r) for r in rows]))
