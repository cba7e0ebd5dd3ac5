"""Putting agents side by side: suites' results grouped by agent, level, difficulty, category.

`harness compare DIR...` and the index page of a folder that holds several agents'
suites read the same structure built here. An agent is told apart by what it said of
itself in its hello (name, version, model) together with the command that ran it, so two
models behind one script, or one name behind two scripts, never pool into one row.

Success gets a Wilson score interval (right at 0% and 100%, where the normal
approximation collapses to a zero-width interval); the mean score gets the normal
approximation's 95% half-width, as the suite tables do.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from world.face import LEVELS_DIR, TEMPLATES, GenerateError, is_generated, parse_name

Z95 = 1.959963984540054
RESULTS_FILE = "results.json"
UNCATEGORISED = "uncategorised"
# Self-reported token figures summed into "tokens" (cached input is part of input).
_TOKEN_FIELDS = ("input_tokens", "output_tokens", "reasoning_tokens")


class CompareError(Exception):
    """A folder or results file cannot be compared; the message names it."""


@dataclass(frozen=True, order=True)
class AgentKey:
    """Who played: the hello's name, version and model, and the command that ran it."""

    name: str
    version: str
    model: str
    command: str

    @property
    def label(self) -> str:
        """A short human name: name and version, the model in brackets."""
        text = self.name + (f" {self.version}" if self.version else "")
        return text + (f" ({self.model})" if self.model else "")


@dataclass(frozen=True)
class Episode:
    """One played episode as a comparison counts it."""

    agent: AgentKey
    level: str
    difficulty: str
    seed: int
    success: bool
    score: float
    decisions: int
    game_time_s: float
    tokens: float | None
    cost_usd: float | None


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def agent_key(hello: Any, command: str) -> AgentKey:
    """The key of an agent from its hello message (any shape) and its command line."""
    hello = hello if isinstance(hello, Mapping) else {}
    return AgentKey(name=_text(hello.get("name")) or "unnamed agent",
                    version=_text(hello.get("version")), model=_text(hello.get("model")),
                    command=command)


def _usage(row: Mapping[str, Any]) -> tuple[float | None, float | None]:
    usage = row.get("usage") if isinstance(row.get("usage"), Mapping) else {}
    known = [float(usage[f]) for f in _TOKEN_FIELDS if isinstance(usage.get(f), int | float)]
    cost = usage.get("cost_usd")
    return (sum(known) if known else None,
            float(cost) if isinstance(cost, int | float) else None)


def results_files(paths: Iterable[Path]) -> list[Path]:
    """Every suite's results.json under the given folders (a results file counts as itself).

    Raises:
        CompareError: A path does not exist or holds no suite.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            inside = sorted(path.rglob(RESULTS_FILE))
            if not inside:
                raise CompareError(f"{path}: no suite results ({RESULTS_FILE}) in this folder; "
                                   "give folders written by `harness eval --out`")
            found += inside
        else:
            raise CompareError(f"{path}: no such file or folder")
    return sorted(set(found))


def load_episodes(files: Iterable[Path]) -> tuple[list[Episode], int]:
    """Read suites' episodes; return them and how many harness errors were left out.

    Raises:
        CompareError: A file is not a suite's results (the message names the file and field).
    """
    episodes: list[Episode] = []
    errors = 0
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
            command = str(data["suite"]["agent"])
            rows = list(data["episodes"])
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CompareError(f"{file}: not readable as JSON ({exc})") from None
        except (KeyError, TypeError) as exc:
            raise CompareError(f"{file}: not a suite's results (missing {exc})") from None
        for n, row in enumerate(rows):
            if not isinstance(row, Mapping):
                raise CompareError(f"{file}: episodes[{n}] is not an object")
            if row.get("outcome") == "harness_error":
                errors += 1  # says nothing about the agent: counted, never averaged
                continue
            try:
                tokens, cost = _usage(row)
                episodes.append(Episode(
                    agent=agent_key(row.get("agent"), command), level=str(row["level"]),
                    difficulty=str(row["difficulty"]), seed=int(row["seed"]),
                    success=bool(row["success"]), score=float(row["score"]),
                    decisions=int(row["decisions"]), game_time_s=float(row["game_time_s"]),
                    tokens=tokens, cost_usd=cost))
            except (KeyError, TypeError, ValueError) as exc:
                raise CompareError(f"{file}: episodes[{n}] lacks a usable {exc}") from None
    return episodes, errors


def level_categories(level: str) -> tuple[str, ...]:
    """A shipped or generated level's categories; other levels are uncategorised."""
    if is_generated(level):
        try:
            return TEMPLATES[parse_name(level, TEMPLATES).template].categories
        except GenerateError:
            # A secret held-out set's level (TEMPLATE@secret:N#I) names its template only.
            template = TEMPLATES.get(level.partition("@")[0])
            return template.categories if template is not None else (UNCATEGORISED,)
    path = LEVELS_DIR / f"{level}.json"
    try:
        categories = json.loads(path.read_text(encoding="utf-8")).get("categories")
    except (OSError, ValueError):
        return (UNCATEGORISED,)
    return tuple(categories) if categories else (UNCATEGORISED,)


def stats(episodes: list[Episode]) -> dict[str, Any]:
    """The figures of one group: success with its Wilson interval, score, effort, usage."""
    n = len(episodes)
    wins = sum(1 for e in episodes if e.success)
    scores = [e.score for e in episodes]
    sd = statistics.stdev(scores) if n > 1 else 0.0
    low, high = wilson_interval(wins, n)
    tokens = [e.tokens for e in episodes if e.tokens is not None]
    costs = [e.cost_usd for e in episodes if e.cost_usd is not None]

    def per(values: list[float], count: int) -> float | None:
        # Missing is not zero: a figure no episode reported stays unknown.
        return sum(values) / count if values and count else None

    return {
        "episodes": n, "successes": wins, "success_rate": wins / n if n else 0.0,
        "success_ci95": [low, high],
        "score_mean": statistics.fmean(scores) if scores else 0.0,
        "score_ci95": Z95 * sd / math.sqrt(n) if n else 0.0,
        "decisions_mean": statistics.fmean(e.decisions for e in episodes) if n else 0.0,
        "game_time_mean": statistics.fmean(e.game_time_s for e in episodes) if n else 0.0,
        "usage_reported": len(costs) if costs else len(tokens),
        "tokens_per_episode": per(tokens, len(tokens)),
        "tokens_per_success": per(tokens, wins) if len(tokens) == n else None,
        "cost_per_episode": per(costs, len(costs)),
        "cost_per_success": per(costs, wins) if len(costs) == n else None,
    }


# Shipped levels order their difficulties easy, normal, hard; others sort after, by name.
_DIFFICULTY_RANK = {"easy": 0, "normal": 1, "hard": 2}


def _order(key: Any) -> Any:
    if isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, str) for k in key):
        return (key[0], _DIFFICULTY_RANK.get(key[1], len(_DIFFICULTY_RANK)), key[1])
    return key


def _grouped(episodes: list[Episode], key: Any) -> dict[Any, list[Episode]]:
    groups: dict[Any, list[Episode]] = {}
    for episode in episodes:
        for k in key(episode):
            groups.setdefault(k, []).append(episode)
    return dict(sorted(groups.items(), key=lambda item: _order(item[0])))


def compare(episodes: list[Episode], harness_errors: int = 0) -> dict[str, Any]:
    """The comparison: per agent, overall, per level and difficulty, and per category.

    Args:
        episodes: The played episodes (harness errors already left out).
        harness_errors: How many episodes were left out as harness errors.

    Returns:
        Plain JSON data; `harness.compare_report` renders it.
    """
    agents = []
    for agent, mine in _grouped(episodes, lambda e: [e.agent]).items():
        agents.append({
            "agent": {"name": agent.name, "version": agent.version, "model": agent.model,
                      "command": agent.command, "label": agent.label},
            "overall": stats(mine),
            "levels": [{"level": level, "difficulty": difficulty, **stats(group)}
                       for (level, difficulty), group in
                       _grouped(mine, lambda e: [(e.level, e.difficulty)]).items()],
            "categories": [{"category": category, **stats(group)} for category, group in
                           _grouped(mine, lambda e: level_categories(e.level)).items()],
        })
    return {"agents": agents, "harness_errors": harness_errors}
