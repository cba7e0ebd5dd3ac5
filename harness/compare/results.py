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
import re
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from harness.core.bounds import MAX_DEPTH, cap_message, quote, too_deep, visible
from harness.core.protocol import OUTCOMES
from world.face import (
    DIFFICULTY_ORDER,
    LEVELS_DIR,
    TEMPLATES,
    GenerateError,
    is_generated,
    parse_name,
)

Z95 = 1.959963984540054
RESULTS_FILE = "results.json"
UNCATEGORISED = "uncategorised"
# A results file is read whole; a larger one is not a suite's (10,000 rows fit well within).
MAX_RESULTS_BYTES = 64 << 20
_LEVEL_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
# Characters kept of an agent-controlled name (hello name, version, model; level names).
NAME_CHARS = 120
# Who plays, as the results file's `suite.kind` says (harness play writes "human";
# harness eval writes none) -> how a label shows it.
KINDS: dict[str, str] = {"program": "{}", "human": "{} (human)"}
DEFAULT_KIND = "program"
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
    kind: str = DEFAULT_KIND

    @property
    def label(self) -> str:
        """A short human name: name and version, the model in brackets, a person marked."""
        text = self.name + (f" {self.version}" if self.version else "")
        return KINDS[self.kind].format(text + (f" ({self.model})" if self.model else ""))


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
    # How far through the stages it came (world.objectives.stages); None in a row
    # written before the figure existed.
    stages: float | None = None


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def safe_text(value: Any, limit: int = NAME_CHARS) -> str:
    r"""Agent- or stranger-made text made fit for a terminal, a Markdown cell and a page.

    Control characters (a terminal's escape codes) and line breaks are shown as escapes
    (`\x1b`, `\n`), and the text is cut to `limit` characters; `|` is escaped where
    Markdown is written, and HTML escaping is the page templates'.
    """
    text = visible(value.strip() if isinstance(value, str) else "")
    text = text.replace("\n", "\\n").replace("\r", "\\r").replace("\t", " ")
    return text if len(text) <= limit else text[:limit] + "..."


def _text(value: Any) -> str:
    return safe_text(value)


def agent_key(hello: Any, command: str, kind: str = DEFAULT_KIND) -> AgentKey:
    """The key of an agent from its hello message (any shape), its command line and kind."""
    hello = hello if isinstance(hello, Mapping) else {}
    return AgentKey(name=_text(hello.get("name")) or "unnamed agent",
                    version=_text(hello.get("version")), model=_text(hello.get("model")),
                    command=safe_text(command, 4 * NAME_CHARS), kind=kind)


def _usage(row: Mapping[str, Any]) -> tuple[float | None, float | None]:
    found = row.get("usage")
    usage: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    known = [float(usage[f]) for f in _TOKEN_FIELDS if _finite(usage.get(f))]
    cost = usage.get("cost_usd")
    return (sum(known) if known else None, float(cost) if _finite(cost) else None)


def _finite(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value)


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
                                   "give folders written by `harness eval --out` or "
                                   "`harness play --out`")
            found += inside
        else:
            raise CompareError(f"{path}: no such file or folder")
    return sorted(set(found))


def load_episodes(files: Iterable[Path]) -> tuple[list[Episode], int]:
    """Read suites' episodes; return them and how many were left out as the harness's.

    Rows whose outcome says nothing of the agent (a harness error, an interrupted run)
    are counted and left out, as `harness eval` leaves them out of its figures.

    Raises:
        CompareError: A file is not a suite's results (the message names the file and field).
    """
    episodes: list[Episode] = []
    errors = 0
    for file in files:
        command, kind, rows = _read_results(file)
        for n, row in enumerate(rows):
            episode = _episode(row, f"{file}: episodes[{n}]", command, kind)
            if episode is None:
                errors += 1  # says nothing about the agent: counted, never averaged
            else:
                episodes.append(episode)
    return episodes, errors


def _read_results(file: Path) -> tuple[str, str, list[Any]]:
    try:
        with open(file, "rb") as handle:
            raw = handle.read(MAX_RESULTS_BYTES + 1)
        if len(raw) > MAX_RESULTS_BYTES:
            raise CompareError(f"{file}: larger than {MAX_RESULTS_BYTES >> 20} MiB; not a "
                               "suite's results")
        text = raw.decode("utf-8")
        if too_deep(text):
            raise CompareError(f"{file}: nested deeper than {MAX_DEPTH} levels")
        data = json.loads(text)
        command, rows = data["suite"]["agent"], data["episodes"]
        kind = data["suite"].get("kind", DEFAULT_KIND)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        # ValueError: also an integer past Python's digit limit, not only bad syntax.
        raise CompareError(f"{file}: not readable as JSON ({cap_message(str(exc), 200)})") from None
    except (KeyError, TypeError) as exc:
        raise CompareError(f"{file}: not a suite's results (missing {exc})") from None
    if not isinstance(command, str) or not isinstance(rows, list):
        raise CompareError(f"{file}: suite.agent must be text and episodes a list")
    if not isinstance(kind, str) or kind not in KINDS:
        raise CompareError(f"{file}: suite.kind {quote(kind, 60)} is not one of "
                           f"{', '.join(KINDS)}")
    return command, kind, rows


def _field(row: Mapping[str, Any], name: str, kind: type, where: str) -> Any:
    # Only the type a results row holds: "false" is not a boolean, true is not a number,
    # and NaN or infinity is no figure.
    if name not in row:
        raise CompareError(f"{where} lacks {name}")
    value = row[name]
    number = kind is float and isinstance(value, int | float) and not isinstance(value, bool)
    if kind is float and number and math.isfinite(value):
        return float(value)
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind in (bool, str) and isinstance(value, kind):
        return value
    wanted = {bool: "true or false", int: "a whole number", float: "a finite number",
              str: "text"}[kind]
    raise CompareError(f"{where}.{name}: {quote(value, 60)} is not {wanted}")


def _episode(row: Any, where: str, command: str, kind: str = DEFAULT_KIND) -> Episode | None:
    if not isinstance(row, Mapping):
        raise CompareError(f"{where} is not an object")
    outcome = _field(row, "outcome", str, where)
    if outcome not in OUTCOMES:
        raise CompareError(f"{where}.outcome: {quote(outcome, 60)} is not an outcome "
                           f"({', '.join(OUTCOMES)})")
    if OUTCOMES[outcome].by_harness:
        return None
    if row.get("from_snapshot") is not None:
        raise CompareError(f"{where} began from a snapshot: not a full episode")
    if row.get("reveal"):
        raise CompareError(f"{where} is a playtest with the level revealed (harness play "
                           "--reveal): never a scored run")
    tokens, cost = _usage(row)
    return Episode(
        agent=agent_key(row.get("agent"), command, kind),
        level=safe_text(_field(row, "level", str, where)),
        difficulty=safe_text(_field(row, "difficulty", str, where)),
        seed=_field(row, "seed", int, where), success=_field(row, "success", bool, where),
        score=_field(row, "score", float, where), decisions=_field(row, "decisions", int, where),
        game_time_s=_field(row, "game_time_s", float, where), tokens=tokens, cost_usd=cost,
        stages=_field(row, "stages", float, where) if "stages" in row else None)


def level_categories(level: str) -> tuple[str, ...]:
    """A shipped or generated level's categories; other levels are uncategorised."""
    if is_generated(level):
        try:
            return TEMPLATES[parse_name(level, TEMPLATES).template].categories
        except GenerateError:
            # A secret held-out set's level (TEMPLATE@secret:N#I) names its template only.
            template = TEMPLATES.get(level.partition("@")[0])
            return template.categories if template is not None else (UNCATEGORISED,)
    if not _LEVEL_ID.fullmatch(level):  # a results row's level names no path outside levels/
        return (UNCATEGORISED,)
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
    stages = [e.stages for e in episodes if e.stages is not None]
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
        # Only when every episode has it: a mean over some would be another group's.
        "stages_mean": statistics.fmean(stages) if n and len(stages) == n else None,
        "decisions_mean": statistics.fmean(e.decisions for e in episodes) if n else 0.0,
        "game_time_mean": statistics.fmean(e.game_time_s for e in episodes) if n else 0.0,
        "usage_reported": len(costs) if costs else len(tokens),
        "tokens_per_episode": per(tokens, len(tokens)),
        "tokens_per_success": per(tokens, wins) if len(tokens) == n else None,
        "cost_per_episode": per(costs, len(costs)),
        "cost_per_success": per(costs, wins) if len(costs) == n else None,
    }


# Difficulties in the world's order, easiest first; others sort after, by name.
_DIFFICULTY_RANK = {name: i for i, name in enumerate(DIFFICULTY_ORDER)}


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
        Plain JSON data; `harness.compare.report` renders it.
    """
    agents = []
    for agent, mine in _grouped(episodes, lambda e: [e.agent]).items():
        agents.append({
            "agent": {"name": agent.name, "version": agent.version, "model": agent.model,
                      "command": agent.command, "label": agent.label, "kind": agent.kind},
            "overall": stats(mine),
            "levels": [{"level": level, "difficulty": difficulty, **stats(group)}
                       for (level, difficulty), group in
                       _grouped(mine, lambda e: [(e.level, e.difficulty)]).items()],
            "categories": [{"category": category, **stats(group)} for category, group in
                           _grouped(mine, lambda e: level_categories(e.level)).items()],
        })
    return {"agents": agents, "harness_errors": harness_errors}
