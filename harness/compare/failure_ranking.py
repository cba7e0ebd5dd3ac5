"""How often one agent's figure is above another's on the episodes both failed (37).

Success separates agents on the episodes one of them wins; among the episodes both
fail, only the figure of a failure can (the score's partial credit, or the stages
figure, `world.objectives.stages`). The chance that the first agent's figure is above
the second's, over the settings (level, difficulty, seed) both played and both failed,
with a tie counted as half (a coin would then break it), is what the sweep reports
and what a test checks from a committed table of those episodes.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

# The figures of a failure a row carries, and the table's columns, declared once.
FIGURES = ("score", "stages")
TABLE_FIELDS = ("level", "difficulty", "seed", "agent", "success", "score", "stages")

Setting = tuple[str, str, int]


def _setting(row: Mapping[str, Any]) -> Setting:
    return (str(row["level"]), str(row["difficulty"]), int(row["seed"]))


def failed_pairs(first: Iterable[Mapping[str, Any]], second: Iterable[Mapping[str, Any]]
                 ) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """The two agents' rows of every setting both played and both failed, in setting order.

    Args:
        first: The first agent's results rows.
        second: The second agent's results rows.

    Returns:
        (first's row, second's row) per setting.
    """
    failed = {_setting(r): r for r in second if not r["success"]}
    return sorted(((r, failed[_setting(r)]) for r in first
                   if not r["success"] and _setting(r) in failed),
                  key=lambda pair: _setting(pair[0]))


def chance_above(pairs: list[tuple[Mapping[str, Any], Mapping[str, Any]]],
                 figure: str) -> float | None:
    """P(first's figure > second's) over the pairs, a tie counting half; None with none.

    Args:
        pairs: From `failed_pairs`.
        figure: One of `FIGURES`.
    """
    if not pairs:
        return None
    above = sum(float(a[figure]) > float(b[figure]) for a, b in pairs)
    ties = sum(float(a[figure]) == float(b[figure]) for a, b in pairs)
    return (above + 0.5 * ties) / len(pairs)


def table_rows(pairs: list[tuple[Mapping[str, Any], Mapping[str, Any]]],
               names: tuple[str, str]) -> list[dict[str, Any]]:
    """The pairs as flat table rows (`TABLE_FIELDS`), first agent's row then second's."""
    return [{"level": row["level"], "difficulty": row["difficulty"], "seed": int(row["seed"]),
             "agent": name, "success": bool(row["success"]),
             "score": round(float(row["score"]), 6),
             "stages": round(float(row.get("stages", 0.0)), 6)}
            for pair in pairs for name, row in zip(names, pair, strict=True)]


def write_table(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write table rows as CSV with the header `TABLE_FIELDS`."""
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=TABLE_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def read_table(path: Path) -> dict[str, list[dict[str, Any]]]:
    """A table written by `write_table`, as results rows per agent in file order."""
    agents: dict[str, list[dict[str, Any]]] = {}
    with path.open(encoding="utf-8", newline="") as source:
        for row in csv.DictReader(source):
            agents.setdefault(row["agent"], []).append({
                "level": row["level"], "difficulty": row["difficulty"],
                "seed": int(row["seed"]), "success": row["success"] == "True",
                "score": float(row["score"]), "stages": float(row["stages"])})
    return agents
