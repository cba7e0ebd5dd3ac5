"""Which settings of a sweep do not separate the agents, and why.

Issue 37 asks for the mean score order wait < random < greedy < reference on every level
at normal and hard, or the table to mark a level that does not separate them and say
why. The why is read from the means themselves: a tie at the top (the greedy baseline
does as well as the reference agent, most often both winning every episode: the level
has no headroom above a 300-line script), a tie at the bottom (random scores what
waiting scores), or an inversion (a weaker agent above a stronger one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

ORDER = ("wait", "random", "greedy", "reference")  # weakest first
CHECKED = ("normal", "hard")  # the difficulties the order is asked of


@dataclass(frozen=True)
class Unseparated:
    """A level and difficulty whose mean scores break the order, and the reasons."""

    level: str
    difficulty: str
    means: dict[str, float]
    reasons: tuple[str, ...]


def _reasons(means: Mapping[str, float]) -> tuple[str, ...]:
    out = []
    for weaker, stronger in pairwise(ORDER):
        low, high = means[weaker], means[stronger]
        if low > high:
            out.append(f"{weaker} above {stronger}")
        elif low == high:
            out.append(f"{weaker} level with {stronger}"
                       + (" (both win every episode)" if high == 1.0 else
                          " (both score nothing)" if high == 0.0 else ""))
    return tuple(out)


def unseparated(tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[Unseparated]:
    """The settings at normal and hard where the mean scores break the order.

    Empty unless every agent of `ORDER` was swept. Means are rounded to two places, as
    the tables show them, so that a difference no table shows counts as a tie.
    """
    if not all(name in tables for name in ORDER):
        return []
    sums: dict[tuple[str, str], dict[str, list[float]]] = {}
    for name in ORDER:
        for row in tables[name]:
            if row["difficulty"] in CHECKED:
                key = (str(row["level"]), str(row["difficulty"]))
                sums.setdefault(key, {}).setdefault(name, []).append(float(row["score"]))
    out = []
    for (level, difficulty), scores in sorted(sums.items()):
        if len(scores) < len(ORDER):
            continue
        means = {n: round(sum(scores[n]) / len(scores[n]), 2) for n in ORDER}
        reasons = _reasons(means)
        if reasons:
            out.append(Unseparated(level, difficulty, means, reasons))
    return out


def separation_lines(tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[str]:
    """The Markdown section listing the settings that do not separate the agents."""
    if not all(name in tables for name in ORDER):
        return []
    rows = unseparated(tables)
    head = ["", "### Settings that do not separate the agents", "",
            "At normal and hard, where the mean score order wait < random < greedy < "
            "reference does not hold (means rounded as in the tables above), and why."]
    if not rows:
        return [*head, "", "None: the order holds at every level at normal and hard."]
    lines = ["", "| level | difficulty | " + " | ".join(ORDER) + " | why |",
             "|---|---|" + "---|" * len(ORDER) + "---|"]
    for r in rows:
        lines.append(f"| {r.level} | {r.difficulty} | "
                     + " | ".join(f"{r.means[n]:.2f}" for n in ORDER)
                     + " | " + "; ".join(r.reasons) + " |")
    return [*head, *lines]
